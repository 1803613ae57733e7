package physics_test

import (
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/fixedstep/fixedstep/systems/physics"
	"github.com/fixedstep/fixedstep/third_party/cp"
	"github.com/fixedstep/fixedstep/third_party/donburi"
)

// queryScene is a row of shapes along the x axis, and a few more:
//
//	circle r10 at (0,0), box 20x20 at (50,0), dynamic circle r5 at (100,0),
//	sensor r10 at (150,0), an outline crossing the axis at x=200 and x=220
//	(one entity, two segments of radius 2), a circle r5 of no entity at
//	(250,0), and two circles r5 at (400,-50) and (400,50) (spawned in that
//	order) for ties.
type queryScene struct {
	w                                       donburi.World
	p                                       *physics.Physics
	circle, box, ball, sensor, walls, below donburi.Entity
	above                                   donburi.Entity
	raw                                     *cp.Shape
}

func newQueryScene() *queryScene {
	w, p := newPhysics(cp.Vector{})
	s := &queryScene{w: w, p: p}
	static := func(x, y float64) *physics.BodyOptions {
		return &physics.BodyOptions{Kind: physics.Static, Position: cp.Vector{X: x, Y: y}}
	}
	s.circle = p.SpawnCircle(10, static(0, 0))
	s.box = p.SpawnBox(20, 20, static(50, 0))
	s.ball = p.SpawnCircle(5, &physics.BodyOptions{Position: cp.Vector{X: 100}})
	o := static(150, 0)
	o.Sensor = true
	s.sensor = p.SpawnCircle(10, o)
	s.walls = p.SpawnWalls([]cp.Vector{{X: 200, Y: -50}, {X: 200, Y: 50}, {X: 220, Y: 50}, {X: 220, Y: -50}}, 2, nil)
	body := p.Space().AddBody(cp.NewStaticBody())
	body.SetPosition(cp.Vector{X: 250})
	s.raw = p.Space().AddShape(cp.NewCircle(body, 5, cp.Vector{}))
	s.below = p.SpawnCircle(5, static(400, -50))
	s.above = p.SpawnCircle(5, static(400, 50))
	return s
}

func entities(hits []physics.Hit) []donburi.Entity {
	var es []donburi.Entity
	for _, h := range hits {
		es = append(es, h.Entity)
	}
	return es
}

func nearly(a, b cp.Vector) bool { return a.Distance(b) < 1e-9 }

func TestQueryPoint(t *testing.T) {
	s := newQueryScene()
	p := s.p
	hits := p.QueryPoint(cp.Vector{X: 3}, 0, nil, nil)
	if len(hits) != 1 || hits[0].Entity != s.circle || math.Abs(hits[0].Distance+7) > 1e-9 ||
		!nearly(hits[0].Point, cp.Vector{X: 10}) || !nearly(hits[0].Normal, cp.Vector{X: 1}) || hits[0].Shape == nil {
		t.Errorf("under (3, 0): %+v, want the circle, 7 deep, nearest surface (10, 0), normal (1, 0)", hits)
	}
	// within 20 of (25, 0): the circle and the box, both 15 away, the lower entity first
	hits = p.QueryPoint(cp.Vector{X: 25}, 20, nil, hits[:0])
	if got := entities(hits); !slices.Equal(got, []donburi.Entity{s.circle, s.box}) || hits[0].Distance != 15 || hits[1].Distance != 15 {
		t.Errorf("within 20 of (25, 0): %v %+v", got, hits)
	}
	// nearest first: the box is 5 away, the circle 25
	hits = p.QueryPoint(cp.Vector{X: 35}, 30, nil, hits[:0])
	if got := entities(hits); !slices.Equal(got, []donburi.Entity{s.box, s.circle}) {
		t.Errorf("within 30 of (35, 0): %v, want box then circle", got)
	}
	// sensors only when asked; the appended part is sorted, what dst held is kept
	if hits = p.QueryPoint(cp.Vector{X: 150}, 0, nil, nil); len(hits) != 0 {
		t.Errorf("a sensor seen without Sensors: %v", entities(hits))
	}
	prefix := []physics.Hit{{Entity: s.walls}}
	hits = p.QueryPoint(cp.Vector{X: 150}, 0, &physics.QueryFilter{Sensors: true}, prefix)
	if got := entities(hits); !slices.Equal(got, []donburi.Entity{s.walls, s.sensor}) {
		t.Errorf("appending to a slice: %v", got)
	}
	// one hit per entity: near the outline's corner, both of its segments are in range
	hits = p.QueryPoint(cp.Vector{X: 210, Y: 60}, 15, nil, nil)
	if len(hits) != 1 || hits[0].Entity != s.walls || math.Abs(hits[0].Distance-8) > 1e-9 {
		t.Errorf("near the outline: %+v, want the walls once, 8 away (the top segment)", hits)
	}
	// a shape of no entity is found, as donburi.Null
	if hits = p.QueryPoint(cp.Vector{X: 250}, 0, nil, nil); len(hits) != 1 || hits[0].Entity != donburi.Null || hits[0].Shape != s.raw {
		t.Errorf("the shape of no entity: %+v", hits)
	}
	// at a circle's very centre cp's nearest point is NaN; the query's is on the surface
	if hits = p.QueryPoint(cp.Vector{}, 0, nil, nil); len(hits) != 1 || math.IsNaN(hits[0].Point.X) || hits[0].Point.Length() != 10 {
		t.Errorf("at the circle's centre: %+v", hits)
	}
	for _, bad := range []cp.Vector{{X: math.NaN()}, {Y: math.Inf(1)}} {
		if hits = p.QueryPoint(bad, 10, nil, nil); len(hits) != 0 {
			t.Errorf("at %v: %v", bad, hits)
		}
	}
}

func TestQueryNearest(t *testing.T) {
	s := newQueryScene()
	h, ok := s.p.QueryNearest(cp.Vector{Y: 30}, 50, nil)
	if !ok || h.Entity != s.circle || h.Distance != 20 || !nearly(h.Point, cp.Vector{Y: 10}) || !nearly(h.Normal, cp.Vector{Y: 1}) {
		t.Errorf("nearest to (0, 30): %+v %v", h, ok)
	}
	// two circles 45 away: the lower entity
	if h, ok = s.p.QueryNearest(cp.Vector{X: 400}, 100, nil); !ok || h.Entity != s.below || h.Distance != 45 {
		t.Errorf("nearest to (400, 0) of two at 45: %v at %v, want %v", h.Entity, h.Distance, s.below)
	}
	if h, ok = s.p.QueryNearest(cp.Vector{X: 400}, 40, nil); ok {
		t.Errorf("nothing is within 40 of (400, 0), got %+v", h)
	}
	if h, ok = s.p.QueryNearest(cp.Vector{X: 400}, 100, &physics.QueryFilter{Skip: s.below}); !ok || h.Entity != s.above {
		t.Errorf("skipping the lower: %v", h.Entity)
	}
}

func TestQuerySegment(t *testing.T) {
	s := newQueryScene()
	a, b := cp.Vector{X: -50}, cp.Vector{X: 350}
	hits := s.p.QuerySegment(a, b, 0, nil, nil)
	want := []donburi.Entity{s.circle, s.box, s.ball, s.walls, donburi.Null}
	if got := entities(hits); !slices.Equal(got, want) {
		t.Fatalf("along the axis: %v, want %v (the sensor passed through, the outline once)", got, want)
	}
	for i, x := range []float64{-10, 40, 95, 198, 245} {
		h := hits[i]
		if !nearly(h.Point, cp.Vector{X: x}) || !nearly(h.Normal, cp.Vector{X: -1}) ||
			math.Abs(h.Fraction-(x+50)/400) > 1e-12 || math.Abs(h.Distance-(x+50)) > 1e-9 {
			t.Errorf("hit %d: %+v, want at x=%v", i, h, x)
		}
	}
	first, ok := s.p.QuerySegmentFirst(a, b, 0, nil)
	if !ok || first != hits[0] {
		t.Errorf("first: %+v, want %+v", first, hits[0])
	}
	if first, _ = s.p.QuerySegmentFirst(a, b, 0, &physics.QueryFilter{Skip: s.circle}); first.Entity != s.box {
		t.Errorf("skipping the circle, first %v", first.Entity)
	}
	if hits = s.p.QuerySegment(cp.Vector{X: 120}, cp.Vector{X: 180}, 0, &physics.QueryFilter{Sensors: true}, hits[:0]); len(hits) != 1 || hits[0].Entity != s.sensor {
		t.Errorf("with sensors: %v", entities(hits))
	}
	// starting inside the circle: hit at once
	first, ok = s.p.QuerySegmentFirst(cp.Vector{X: 2}, cp.Vector{X: 30}, 0, nil)
	if !ok || first.Entity != s.circle || first.Fraction != 0 || !nearly(first.Point, cp.Vector{X: 10}) || !nearly(first.Normal, cp.Vector{X: 1}) {
		t.Errorf("from inside the circle: %+v", first)
	}
	// a thick segment passing 14 from the circle's centre: a ray misses it,
	// a radius of 5 hits it where cp's index, walking the thin line, does not look
	c1, c2 := cp.Vector{X: -50, Y: 14}, cp.Vector{X: 20, Y: 14}
	if _, ok = s.p.QuerySegmentFirst(c1, c2, 0, nil); ok {
		t.Error("a ray 14 from a circle of radius 10 hit it")
	}
	first, ok = s.p.QuerySegmentFirst(c1, c2, 5, nil)
	if !ok || first.Entity != s.circle || first.Normal.Y <= 0 {
		t.Errorf("a segment of radius 5, 14 from the circle: %+v", first)
	}
	cpHit := s.p.Space().SegmentQueryFirst(c1, c2, 5, cp.SHAPE_FILTER_ALL)
	t.Logf("the same thick segment through cp's SegmentQueryFirst: shape %v (nil: missed)", cpHit.Shape)
	if _, ok = s.p.QuerySegmentFirst(cp.Vector{X: math.NaN()}, c2, 0, nil); ok {
		t.Error("a NaN segment hit something")
	}
}

func TestQueryBox(t *testing.T) {
	s := newQueryScene()
	p := s.p
	// a bar turned 45°: its bounding box covers (11, 189), its outline does not
	bar := p.SpawnBox(40, 4, &physics.BodyOptions{Kind: physics.Static, Position: cp.Vector{Y: 200}, Angle: math.Pi / 4})
	rounded := p.SpawnBox(40, 20, &physics.BodyOptions{Kind: physics.Static, Position: cp.Vector{Y: 400}, CornerRadius: 8})
	for _, c := range []struct {
		name string
		bb   cp.BB
		want []donburi.Entity
	}{
		{"the box's left edge", cp.NewBB(35, -5, 40, 5), []donburi.Entity{s.box}},
		{"inside the box", cp.NewBB(48, -2, 52, 2), []donburi.Entity{s.box}},
		{"circle, box and ball", cp.NewBB(-1, -1, 100, 1), []donburi.Entity{s.circle, s.box, s.ball}},
		{"beside the turned bar", cp.NewBB(9, 187, 13, 191), nil},
		{"on the turned bar", cp.NewBB(9, 209, 13, 213), []donburi.Entity{bar}},
		{"in the rounded corner's cut", cp.NewBB(18, 408, 20, 410), nil},
		{"the outline and the raw circle", cp.NewBB(195, -1, 260, 1), []donburi.Entity{s.walls, donburi.Null}},
	} {
		hits := p.QueryBox(c.bb, nil, nil)
		got := entities(hits)
		slices.Sort(c.want)
		if !slices.Equal(got, c.want) {
			t.Errorf("%s: %v, want %v", c.name, got, c.want)
		}
	}
	// cp's BBQuery reports the bar by its bounding box
	n := 0
	p.Space().BBQuery(cp.NewBB(9, 187, 13, 191), cp.SHAPE_FILTER_ALL, func(*cp.Shape, any) { n++ }, nil)
	if n != 1 {
		t.Errorf("cp's BBQuery beside the bar found %d shapes (the comparison is moot)", n)
	}
	_ = rounded
}

// Filters: categories and mask as a shape's, groups, sensors, a skipped entity.
func TestQueryFilter(t *testing.T) {
	w, p := newPhysics(cp.Vector{})
	_ = w
	red := p.SpawnCircle(5, &physics.BodyOptions{Kind: physics.Static, Categories: 0b01, Group: 4})
	blue := p.SpawnCircle(5, &physics.BodyOptions{Kind: physics.Static, Categories: 0b10, Mask: 0b10})
	for _, c := range []struct {
		f    *physics.QueryFilter
		want []donburi.Entity
	}{
		{nil, []donburi.Entity{red, blue}},
		{&physics.QueryFilter{Mask: 0b01}, []donburi.Entity{red}},
		{&physics.QueryFilter{Mask: 0b10}, []donburi.Entity{blue}},
		{&physics.QueryFilter{Categories: 0b01}, []donburi.Entity{red}}, // blue's mask does not see category 1
		{&physics.QueryFilter{Group: 4}, []donburi.Entity{blue}},
		{&physics.QueryFilter{Skip: red}, []donburi.Entity{blue}},
	} {
		if got := entities(p.QueryPoint(cp.Vector{}, 0, c.f, nil)); !slices.Equal(got, c.want) {
			t.Errorf("filter %+v: %v, want %v", c.f, got, c.want)
		}
	}
}

// randomScene spawns n shapes of every kind (static and dynamic, some
// overlapping) in a 1000 x 1000 square, and steps once so that every
// shape's bounding box is current.
func randomScene(seed uint64, n int) (donburi.World, *physics.Physics) {
	w, p := newPhysics(cp.Vector{})
	rng := rand.New(rand.NewPCG(seed, 1))
	for i := range n {
		o := &physics.BodyOptions{Position: cp.Vector{X: rng.Float64() * 1000, Y: rng.Float64() * 1000}, Angle: rng.Float64() * 6}
		if i%3 == 0 {
			o.Kind = physics.Static
		}
		size := 5 + rng.Float64()*30
		switch i % 4 {
		case 0:
			p.SpawnCircle(size, o)
		case 1:
			o.CornerRadius = rng.Float64() * size * 0.14
			p.SpawnBox(size, size*(0.3+rng.Float64()), o)
		case 2:
			p.SpawnPolygon([]cp.Vector{{X: -size}, {X: size, Y: -size / 2}, {X: size / 2, Y: size}, {Y: size / 3}}, o)
		case 3:
			p.SpawnSegment(cp.Vector{X: -size}, cp.Vector{X: size}, rng.Float64()*4, o)
		}
	}
	p.Space().Step(1e-9) // bounding boxes of the dynamic shapes, without moving them
	return w, p
}

// On a random scene the queries agree with cp's own (nearest point, first
// along a ray) and with a brute force over every shape (all under a point,
// all along a segment, all in a box, the last by cp's collision of a box
// shape), and their answers come in the documented order. With cp's
// spatial hash instead of its tree, and with the public-API fallback, the
// answers are the same.
func TestQueriesAgreeWithCp(t *testing.T) {
	_, p := randomScene(7, 400)
	var all []*cp.Shape
	p.Space().EachShape(func(s *cp.Shape) { all = append(all, s) })
	rng := rand.New(rand.NewPCG(8, 9))
	randomPoint := func() cp.Vector { return cp.Vector{X: rng.Float64()*1100 - 50, Y: rng.Float64()*1100 - 50} }
	box := cp.NewBox2(cp.NewStaticBody(), cp.NewBB(0, 0, 1, 1), 0)
	type answers struct{ nearest, point, segment, first, boxes []string }
	ask := func(p *physics.Physics) (a answers) {
		rng = rand.New(rand.NewPCG(8, 9))
		var hits []physics.Hit
		for range 300 {
			pt, r := randomPoint(), rng.Float64()*40
			h, ok := p.QueryNearest(pt, r, nil)
			a.nearest = append(a.nearest, fmt.Sprint(ok, h.Entity, h.Distance))
			hits = p.QueryPoint(pt, r, nil, hits[:0])
			a.point = append(a.point, fmt.Sprint(entities(hits)))
			q2 := randomPoint()
			radius := float64(rng.IntN(2)) * 3
			hits = p.QuerySegment(pt, q2, radius, nil, hits[:0])
			a.segment = append(a.segment, fmt.Sprint(entities(hits)))
			h, ok = p.QuerySegmentFirst(pt, q2, radius, nil)
			a.first = append(a.first, fmt.Sprint(ok, h.Entity, h.Fraction))
			bb := cp.NewBB(min(pt.X, q2.X), min(pt.Y, q2.Y), min(pt.X, q2.X)+r*3, min(pt.Y, q2.Y)+r*2)
			hits = p.QueryBox(bb, nil, hits[:0])
			a.boxes = append(a.boxes, fmt.Sprint(entities(hits)))
		}
		return a
	}
	checked := map[string]int{}
	rng = rand.New(rand.NewPCG(8, 9))
	var hits []physics.Hit
	for range 300 {
		pt, r := randomPoint(), rng.Float64()*40
		// nearest, against cp
		h, ok := p.QueryNearest(pt, r, nil)
		want := p.Space().PointQueryNearest(pt, r, cp.SHAPE_FILTER_ALL)
		if ok != (want.Shape != nil) || ok && (h.Shape != want.Shape || h.Distance != want.Distance) {
			t.Fatalf("nearest to %v within %v: %v %+v, cp: %+v", pt, r, ok, h, want)
		}
		checked["nearest"] += b2i(ok)
		// all within r, against every shape
		hits = p.QueryPoint(pt, r, nil, hits[:0])
		bruteBest := map[donburi.Entity]float64{}
		for _, s := range all {
			if d := s.PointQuery(pt).Distance; d <= r {
				e := s.UserData.(donburi.Entity)
				if old, seen := bruteBest[e]; !seen || d < old {
					bruteBest[e] = d
				}
			}
		}
		if len(hits) != len(bruteBest) {
			t.Fatalf("within %v of %v: %d entities, brute force %d", r, pt, len(hits), len(bruteBest))
		}
		for i, h := range hits {
			if bruteBest[h.Entity] != h.Distance {
				t.Fatalf("within %v of %v: %v at %v, brute force %v", r, pt, h.Entity, h.Distance, bruteBest[h.Entity])
			}
			if i > 0 && (hits[i-1].Distance > h.Distance || hits[i-1].Distance == h.Distance && hits[i-1].Entity >= h.Entity) {
				t.Fatalf("within %v of %v: out of order at %d: %+v", r, pt, i, hits)
			}
		}
		checked["point"] += len(hits)
		// along a segment, first against cp (rays only: cp's index walk ignores a radius), all against every shape
		q2 := randomPoint()
		radius := float64(rng.IntN(2)) * 3
		hits = p.QuerySegment(pt, q2, radius, nil, hits[:0])
		bruteFirst := map[donburi.Entity]float64{}
		for _, s := range all {
			var info cp.SegmentQueryInfo
			if s.SegmentQuery(pt, q2, radius, &info) {
				e := s.UserData.(donburi.Entity)
				if old, seen := bruteFirst[e]; !seen || info.Alpha < old {
					bruteFirst[e] = info.Alpha
				}
			}
		}
		if len(hits) != len(bruteFirst) {
			t.Fatalf("segment %v-%v r %v: %d entities, brute force %d", pt, q2, radius, len(hits), len(bruteFirst))
		}
		for i, h := range hits {
			if bruteFirst[h.Entity] != h.Fraction {
				t.Fatalf("segment %v-%v: %v at %v, brute force %v", pt, q2, h.Entity, h.Fraction, bruteFirst[h.Entity])
			}
			if i > 0 && (hits[i-1].Fraction > h.Fraction || hits[i-1].Fraction == h.Fraction && hits[i-1].Entity >= h.Entity) {
				t.Fatalf("segment: out of order at %d: %+v", i, hits)
			}
		}
		checked["segment"] += len(hits)
		first, ok := p.QuerySegmentFirst(pt, q2, radius, nil)
		if ok != (len(hits) > 0) || ok && first != hits[0] {
			t.Fatalf("first along %v-%v: %+v, all: %+v", pt, q2, first, hits)
		}
		if radius == 0 {
			cpFirst := p.Space().SegmentQueryFirst(pt, q2, 0, cp.SHAPE_FILTER_ALL)
			// the same shape, or a tie (starting inside two shapes: both at 0)
			if ok != (cpFirst.Shape != nil) || ok && first.Fraction != cpFirst.Alpha ||
				ok && first.Shape != cpFirst.Shape && !slices.ContainsFunc(hits, func(h physics.Hit) bool {
					return h.Shape == cpFirst.Shape && h.Fraction == first.Fraction
				}) {
				t.Fatalf("first along %v-%v: %+v, cp: %+v", pt, q2, first, cpFirst)
			}
		}
		// in a box, against cp's collision of a box shape with every shape
		bb := cp.NewBB(min(pt.X, q2.X), min(pt.Y, q2.Y), min(pt.X, q2.X)+r*3, min(pt.Y, q2.Y)+r*2)
		hits = p.QueryBox(bb, nil, hits[:0])
		box.Class.(*cp.PolyShape).SetVerts(4, []cp.Vector{{X: bb.R, Y: bb.B}, {X: bb.R, Y: bb.T}, {X: bb.L, Y: bb.T}, {X: bb.L, Y: bb.B}})
		box.Update(cp.NewTransformIdentity())
		inBox := map[donburi.Entity]bool{}
		for _, s := range all {
			if cp.ShapesCollide(box, s).Count > 0 {
				inBox[s.UserData.(donburi.Entity)] = true
			}
		}
		if len(hits) != len(inBox) {
			t.Fatalf("box %v: %v, cp's collision %v", bb, entities(hits), inBox)
		}
		for i, h := range hits {
			if !inBox[h.Entity] || i > 0 && hits[i-1].Entity >= h.Entity {
				t.Fatalf("box %v: %v (out of order, or not by cp), cp %v", bb, entities(hits), inBox)
			}
		}
		checked["box"] += len(hits)
	}
	t.Logf("hits checked: %v", checked)
	for _, k := range []string{"nearest", "point", "segment", "box"} {
		if checked[k] < 50 {
			t.Errorf("only %d %s hits: the comparison proves little", checked[k], k)
		}
	}
	tree := ask(p)
	_, hashed := randomScene(7, 400)
	hashed.Space().UseSpatialHash(40, 1000)
	if got := ask(hashed); fmt.Sprint(got) != fmt.Sprint(tree) {
		t.Error("with cp's spatial hash the answers differ")
	}
	restore := physics.SetQueryIndexes(false)
	defer restore()
	if got := ask(p); fmt.Sprint(got) != fmt.Sprint(tree) {
		t.Error("through cp's public BBQuery the answers differ")
	}
}

func b2i(b bool) int {
	if b {
		return 1
	}
	return 0
}

// The queries read cp's spatial indexes directly (and so allocate nothing):
// with a cp that moved them, this fails, and the queries fall back on cp's
// public API.
func TestQueryIndexesFound(t *testing.T) {
	if !physics.QueryIndexesFound() {
		t.Fatal("cp.Space's spatial indexes were not found: queries allocate through cp's public API")
	}
}

// Shapes of sleeping bodies (which cp moves to its static index) are found.
func TestQueryFindsSleepingBodies(t *testing.T) {
	w, p := newPhysics(cp.Vector{Y: 100})
	p.Space().SleepTimeThreshold = 0.2
	p.SpawnBox(400, 20, &physics.BodyOptions{Kind: physics.Static, Position: cp.Vector{Y: 100}, Friction: 1})
	crate := p.SpawnBox(10, 10, &physics.BodyOptions{Position: cp.Vector{Y: 80}, Friction: 1})
	step(w, p, 240)
	if !p.Body(crate).IsSleeping() {
		t.Skip("the crate did not fall asleep")
	}
	if hits := p.QueryPoint(p.Body(crate).Position(), 0, nil, nil); len(hits) != 1 || hits[0].Entity != crate {
		t.Errorf("the sleeping crate: %v", entities(hits))
	}
}

// Every query allocates nothing, given room in dst.
func TestQueriesAllocateNothing(t *testing.T) {
	_, p := randomScene(3, 400)
	dst := make([]physics.Hit, 0, 400)
	pt, q := cp.Vector{X: 500, Y: 500}, cp.Vector{X: 100, Y: 900}
	for name, f := range map[string]func(){
		"QueryNearest":      func() { p.QueryNearest(pt, 50, nil) },
		"QueryPoint":        func() { dst = p.QueryPoint(pt, 50, nil, dst[:0]) },
		"QuerySegmentFirst": func() { p.QuerySegmentFirst(pt, q, 0, nil) },
		"QuerySegment":      func() { dst = p.QuerySegment(pt, q, 0, nil, dst[:0]) },
		"thick QuerySegment": func() {
			dst = p.QuerySegment(pt, q, 4, &physics.QueryFilter{Sensors: true}, dst[:0])
		},
		"QueryBox": func() { dst = p.QueryBox(cp.NewBB(400, 400, 600, 600), nil, dst[:0]) },
	} {
		f()
		if len(dst) == 0 && name != "QueryNearest" && name != "QuerySegmentFirst" {
			t.Errorf("%s found nothing: the count proves little", name)
		}
		if n := testing.AllocsPerRun(100, f); n != 0 {
			t.Errorf("%s: %v allocations", name, n)
		}
	}
}

// BenchmarkQuery times each query on a random scene of 1000 shapes (a third
// static), beside cp's own query doing the same work: PointQueryNearest,
// SegmentQueryFirst, SegmentQuery and BBQuery (cp's box query stops at
// bounding boxes; QueryBox tests the outlines) collecting shapes into a
// slice, and for all shapes near a point, BBQuery with a point query on each
// shape. Each op is 64 queries at points and segments drawn once.
func BenchmarkQuery(b *testing.B) {
	_, p := randomScene(11, 1000)
	space := p.Space()
	rng := rand.New(rand.NewPCG(12, 13))
	type probe struct {
		a, b cp.Vector
		bb   cp.BB
	}
	probes := make([]probe, 64)
	for i := range probes {
		a := cp.Vector{X: rng.Float64() * 1000, Y: rng.Float64() * 1000}
		d := cp.ForAngle(rng.Float64() * 2 * math.Pi).Mult(300)
		probes[i] = probe{a, a.Add(d), cp.NewBBForExtents(a, 40, 30)}
	}
	hits := make([]physics.Hit, 0, 256)
	var shapes []*cp.Shape
	collect := func(s *cp.Shape, _ any) { shapes = append(shapes, s) }
	collectSeg := func(s *cp.Shape, _, _ cp.Vector, _ float64, _ any) { shapes = append(shapes, s) }
	collectNear := func(s *cp.Shape, data any) {
		if s.PointQuery(*data.(*cp.Vector)).Distance <= 20 {
			shapes = append(shapes, s)
		}
	}
	found := 0
	for _, c := range []struct {
		name        string
		engine, raw func(pr *probe)
	}{
		{"nearest", func(pr *probe) {
			if _, ok := p.QueryNearest(pr.a, 20, nil); ok {
				found++
			}
		}, func(pr *probe) {
			if space.PointQueryNearest(pr.a, 20, cp.SHAPE_FILTER_ALL).Shape != nil {
				found++
			}
		}},
		{"point", func(pr *probe) {
			hits = p.QueryPoint(pr.a, 20, nil, hits[:0])
			found += len(hits)
		}, func(pr *probe) {
			shapes = shapes[:0]
			space.BBQuery(cp.NewBBForCircle(pr.a, 20), cp.SHAPE_FILTER_ALL, collectNear, &pr.a)
			found += len(shapes)
		}},
		{"segment-first", func(pr *probe) {
			if _, ok := p.QuerySegmentFirst(pr.a, pr.b, 0, nil); ok {
				found++
			}
		}, func(pr *probe) {
			if space.SegmentQueryFirst(pr.a, pr.b, 0, cp.SHAPE_FILTER_ALL).Shape != nil {
				found++
			}
		}},
		{"segment", func(pr *probe) {
			hits = p.QuerySegment(pr.a, pr.b, 0, nil, hits[:0])
			found += len(hits)
		}, func(pr *probe) {
			shapes = shapes[:0]
			space.SegmentQuery(pr.a, pr.b, 0, cp.SHAPE_FILTER_ALL, collectSeg, nil)
			found += len(shapes)
		}},
		{"box", func(pr *probe) {
			hits = p.QueryBox(pr.bb, nil, hits[:0])
			found += len(hits)
		}, func(pr *probe) {
			shapes = shapes[:0]
			space.BBQuery(pr.bb, cp.SHAPE_FILTER_ALL, collect, nil)
			found += len(shapes)
		}},
	} {
		for _, side := range []string{"engine", "raw-cp"} {
			f := c.engine
			if side == "raw-cp" {
				f = c.raw
			}
			b.Run(side+"/"+c.name, func(b *testing.B) {
				b.ReportAllocs()
				found = 0
				for b.Loop() {
					for i := range probes {
						f(&probes[i])
					}
				}
				b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*len(probes)), "ns/query")
				b.ReportMetric(float64(found)/float64(b.N*len(probes)), "hits/query")
			})
		}
	}
}
