package path_test

import (
	"hash/fnv"
	"math"
	"testing"

	"github.com/fixedstep/fixedstep/components"
	"github.com/fixedstep/fixedstep/engine"
	"github.com/fixedstep/fixedstep/systems"
	"github.com/fixedstep/fixedstep/systems/path"
	"github.com/fixedstep/fixedstep/systems/physics"
	"github.com/fixedstep/fixedstep/systems/stage/core"
	"github.com/fixedstep/fixedstep/third_party/cp"
	"github.com/fixedstep/fixedstep/third_party/donburi"
)

var _ systems.Router = (*path.Router)(nil)

// walk moves a point from pos along the router's waypoints, step units a
// move, until it is within step of target or moves runs out; it fails t
// if the point enters a blocked cell, and returns the moves it took, or
// -1.
func walk(t *testing.T, r *path.Router, pos, target cp.Vector, byField bool, step float64, moves int) int {
	t.Helper()
	for i := range moves {
		if pos.Distance(target) <= step {
			return i
		}
		wp, _, _ := r.Route(pos, target, byField)
		d := wp.Sub(pos)
		if l := d.Length(); l > step {
			d = d.Mult(step / l)
		}
		pos = pos.Add(d)
		if c := r.Grid.CellAt(pos); r.Grid.Blocked(c) {
			t.Fatalf("move %d: at %v, in blocked cell %v", i, pos, c)
		}
	}
	return -1
}

// A point led by the router gets round walls to its target, by path and
// by field, never entering a wall's cell; with the way open it heads
// straight at the target.
func TestRouteLeadsRoundWalls(t *testing.T) {
	g, at := parseGrid(
		"####################",
		"#..................#",
		"#..........#.......#",
		"#..#########.......#",
		"#..........#...B...#",
		"#.....A....#.......#",
		"#..........#.......#",
		"#..#########.......#",
		"#..................#",
		"####################",
	)
	r := path.NewRouter(g)
	r.Radius = 0.3
	a, b := g.Center(at['A']), g.Center(at['B'])
	for _, byField := range []bool{false, true} {
		n := walk(t, r, a, b, byField, 0.2, 1000)
		if n < 0 {
			t.Fatalf("by field %v: the target was not reached", byField)
		}
		// The way round: out of the box by its open left side, over it
		// and down to B, some 20 cells; straight would be 9.
		t.Logf("by field %v: %d moves", byField, n)
		if n < 80 || n > 150 {
			t.Errorf("by field %v: %d moves of 0.2", byField, n)
		}
	}
	wp, straight, st := r.Route(g.Center(path.Cell{X: 14, Y: 2}), b, false)
	if wp != b || !straight || st != path.Reached {
		t.Errorf("in sight: %v %v %v", wp, straight, st)
	}
	// A target that cannot be reached: the path ends nearest it, then
	// the point heads straight at it.
	g.Set(path.Cell{X: 11, Y: 1}, true)
	g.Set(path.Cell{X: 11, Y: 8}, true)
	if _, _, st := r.Route(a, b, false); st != path.Unreachable {
		t.Errorf("walled off, by path: %v", st)
	}
	if _, _, st := r.Route(a, b, true); st != path.Unreachable {
		t.Errorf("walled off, by field: %v", st)
	}
	if wp, straight, st := r.Route(cp.Vector{X: -5, Y: 3}, b, false); wp != b || !straight || st != path.Outside {
		t.Errorf("from outside: %v %v %v", wp, straight, st)
	}
}

// The router keeps at most MaxFields fields, and the field it gives for a
// cell is that cell's, however many it built before.
func TestRouterFields(t *testing.T) {
	g := randomGrid(30, 30, 0.2, 4)
	r := path.Router{Grid: g, MaxFields: 2}
	var fresh path.Field
	for i, c := range []path.Cell{{X: 1, Y: 1}, {X: 5, Y: 5}, {X: 1, Y: 1}, {X: 9, Y: 2}, {X: 5, Y: 5}, {X: 1, Y: 1}} {
		f := r.Field(c)
		fresh.Build(g, c)
		if f.Goal() != c {
			t.Fatalf("ask %d: the field of %v for %v", i, f.Goal(), c)
		}
		for y := range 30 {
			for x := range 30 {
				if cc := (path.Cell{X: x, Y: y}); f.Dist(cc) != fresh.Dist(cc) {
					t.Fatalf("ask %d: cell %v: distance %d, built afresh %d", i, cc, f.Dist(cc), fresh.Dist(cc))
				}
			}
		}
	}
	before := r.Field(path.Cell{X: 1, Y: 1}).Dist(path.Cell{X: 2, Y: 1})
	g.Set(path.Cell{X: 2, Y: 1}, !g.Blocked(path.Cell{X: 2, Y: 1}))
	fresh.Build(g, path.Cell{X: 1, Y: 1})
	if after := r.Field(path.Cell{X: 1, Y: 1}).Dist(path.Cell{X: 2, Y: 1}); after == before || after != fresh.Dist(path.Cell{X: 2, Y: 1}) {
		t.Errorf("the field kept after its grid changed: distance %d, before %d, afresh %d", after, before, fresh.Dist(path.Cell{X: 2, Y: 1}))
	}
}

// The chase scene: a 480 x 320 room of cells of 16, a wall down its middle
// from the top to 64 units short of the bottom, the player at rest on its
// right, agents on its left. Straight at the player, the agents would
// stand pressed to the wall.
const (
	roomW, roomH = 480.0, 320.0
	cellSize     = 16.0
	agentRadius  = 6.0
)

type chase struct {
	phys   *physics.Physics
	ai     *systems.AI
	router *path.Router
	agents []donburi.Entity
	player donburi.Entity
}

// newChase builds the chase scene in w with phys: with a router when route,
// every other agent following a field.
func newChase(w donburi.World, phys *physics.Physics, route bool, seed uint64) *chase {
	c := &chase{phys: phys}
	static := &physics.BodyOptions{Kind: physics.Static}
	phys.SpawnWalls([]cp.Vector{{}, {X: roomW}, {X: roomW, Y: roomH}, {Y: roomH}, {}}, 4, static)
	phys.SpawnBox(32, roomH-64, &physics.BodyOptions{Kind: physics.Static, Position: cp.Vector{X: 240, Y: (roomH - 64) / 2}})
	c.player = phys.SpawnCircle(8, &physics.BodyOptions{Kind: physics.Kinematic, Position: cp.Vector{X: 400, Y: 120}}, components.PlayerC)
	for i := range 6 {
		comps := []donburi.IComponentType{components.AgentC}
		if route {
			comps = append(comps, path.FollowC)
		}
		e := phys.SpawnCircle(agentRadius, &physics.BodyOptions{Position: cp.Vector{X: 60 + float64(20*(i%2)), Y: float64(60 + 40*i)}}, comps...)
		a := components.NewAgent(110, 700)
		a.SightRange = 1000
		a.SeparationRadius = 16
		components.AgentC.SetValue(w.Entry(e), a)
		if route {
			path.FollowC.SetValue(w.Entry(e), path.Follow{Field: i%2 == 1})
		}
		c.agents = append(c.agents, e)
	}
	c.ai = systems.NewAI(w, phys.Space(), seed)
	if route {
		g := path.NewGrid(int(roomW/cellSize), int(roomH/cellSize), cellSize, cp.Vector{})
		g.BlockStatic(phys.Space(), 0)
		c.router = path.NewRouter(g)
		c.router.Radius = agentRadius
		c.ai.Router = c.router
	}
	return c
}

// near reports how many agents are within reach of the player.
func (c *chase) near(w donburi.World) int {
	p := components.TransformC.Get(w.Entry(c.player)).Cur
	n := 0
	for _, e := range c.agents {
		a := components.TransformC.Get(w.Entry(e)).Cur
		if math.Hypot(a.X-p.X, a.Y-p.Y) < 60 {
			n++
		}
	}
	return n
}

// sum hashes the agents' positions, velocities and Follow components.
func (c *chase) sum(w donburi.World) uint64 {
	h := fnv.New64a()
	for _, e := range c.agents {
		entry := w.Entry(e)
		b := c.phys.Body(e)
		var buf [8]byte
		for _, v := range []float64{b.Position().X, b.Position().Y, b.Velocity().X, b.Velocity().Y} {
			bits := math.Float64bits(v)
			for i := range buf {
				buf[i] = byte(bits >> (8 * i))
			}
			h.Write(buf[:])
		}
		if entry.HasComponent(path.FollowC) {
			f := path.FollowC.Get(entry)
			for _, v := range []float64{f.Waypoint.X, f.Waypoint.Y} {
				bits := math.Float64bits(v)
				for i := range buf {
					buf[i] = byte(bits >> (8 * i))
				}
				h.Write(buf[:])
			}
		}
	}
	return h.Sum64()
}

// runChase runs the chase scene for seconds of game time through the
// engine (physics at 60 Hz, AI at 10 Hz), with opts, and returns how many
// agents reached the player, and the sum of the agents' state at the end.
func runChase(t *testing.T, route bool, seconds int64, opts *engine.Options) (near int, sum uint64) {
	t.Helper()
	scene := engine.NewScene("Chase", func(loop *engine.Loop) (engine.Scene, error) {
		st := core.New(loop, core.Options{
			Groups:  []engine.Group{{Name: "physics", Hz: 60}, {Name: "ai", Hz: systems.AIHz}},
			Physics: &physics.Config{},
		})
		defer st.Release()
		c := newChase(st.World, st.Physics, route, 1)
		core.Keep(st, c.ai.Source())
		st.Sched.AddUpdate(0, "steer", st.Physics.Steer).
			AddUpdate(0, "physics", st.Physics.Update).
			AddUpdate(0, "end", func(w donburi.World, ev engine.Event) {
				if ev.Tick == seconds*60 {
					near, sum = c.near(w), c.sum(w)
					st.End(nil)
				}
			}).
			AddUpdate(1, "ai", c.ai.Update)
		return st.Run()
	})
	if opts == nil {
		opts = &engine.Options{}
	}
	opts.Headless = &engine.Headless{}
	if err := engine.Run(scene, opts); err != nil {
		t.Fatal(err)
	}
	return near, sum
}

// Agents chasing through the AI with the router get round the wall to the
// player, by path and by field; without it they stay pressed to the wall.
func TestRouterLeadsAgentsRoundAWall(t *testing.T) {
	if near, _ := runChase(t, false, 15, nil); near != 0 {
		t.Errorf("without a router %d agents reached the player", near)
	}
	if near, _ := runChase(t, true, 15, nil); near != 6 {
		t.Errorf("with a router %d of 6 agents reached the player", near)
	}
}

// The chase is the same on every run and under the engine's sync test,
// which rolls the world back and simulates again every tick: the router's
// state is in the world, its caches are not state.
func TestRouterSyncTest(t *testing.T) {
	_, a := runChase(t, true, 6, nil)
	_, b := runChase(t, true, 6, nil)
	_, c := runChase(t, true, 6, &engine.Options{SyncTest: 8})
	if a != b || a != c {
		t.Fatalf("agents' state at the end: %x, again %x, under -synctest 8 %x", a, b, c)
	}
}

// The AI with a router allocates nothing once warm.
func TestRouterAllocatesNothing(t *testing.T) {
	w := donburi.NewWorld()
	phys := physics.New(w, physics.Config{})
	c := newChase(w, phys, true, 1)
	tick := int64(0)
	step := func() {
		for range 6 {
			tick++
			ev := engine.Event{Kind: engine.Update, DT: 1.0 / 60, Tick: tick}
			phys.Steer(w, ev)
			phys.Update(w, ev)
		}
	}
	aiTick := engine.Event{Kind: engine.Update, DT: 1.0 / systems.AIHz}
	for range 20 {
		step()
		c.ai.Update(w, aiTick)
	}
	step()
	chasing := 0
	for _, e := range c.agents {
		if components.AgentC.Get(w.Entry(e)).State == components.AgentChase {
			chasing++
		}
	}
	if chasing == 0 {
		t.Fatal("no agent chases")
	}
	target := components.TransformC.Get(w.Entry(c.player)).Cur
	if allocs := testing.AllocsPerRun(10, func() {
		for _, e := range c.agents {
			p := components.TransformC.Get(w.Entry(e)).Cur
			c.router.Waypoint(w, e, cp.Vector{X: p.X, Y: p.Y}, cp.Vector{X: target.X, Y: target.Y})
		}
	}); allocs != 0 {
		t.Errorf("%v allocations a round of Waypoint", allocs)
	}
	if debugBuild {
		t.Skip("cp's asserts allocate under -tags debug: the AI's tick is not counted")
	}
	if allocs := testing.AllocsPerRun(10, func() { c.ai.Update(w, aiTick) }); allocs != 0 {
		t.Errorf("%v allocations an AI tick", allocs)
	}
}

// BenchmarkRouterAI is an AI tick of the chase scene's 6 agents, half by
// path, half by field, the router's caches warm.
func BenchmarkRouterAI(b *testing.B) {
	w := donburi.NewWorld()
	phys := physics.New(w, physics.Config{})
	c := newChase(w, phys, true, 1)
	aiTick := engine.Event{Kind: engine.Update, DT: 1.0 / systems.AIHz}
	for i := range 60 {
		ev := engine.Event{Kind: engine.Update, DT: 1.0 / 60, Tick: int64(i + 1)}
		phys.Steer(w, ev)
		phys.Update(w, ev)
		if i%6 == 5 {
			c.ai.Update(w, aiTick)
		}
	}
	b.ReportAllocs()
	for b.Loop() {
		c.ai.Update(w, aiTick)
	}
}

// Routes are the same bits on every run and CPU: the waypoints of many
// routes, by path and by field, over a random grid of cells of 12.5
// units away from the origin, hash to a value fixed here (run under
// GOARCH=386, GOAMD64=v3, and arm64 and riscv64 through qemu too).
func TestRouteIsDeterministic(t *testing.T) {
	g0 := randomGrid(64, 48, 0.25, 11)
	g := path.NewGrid(64, 48, 12.5, cp.Vector{X: -317.3, Y: 91.7})
	for y := range 48 {
		for x := range 64 {
			g.Set(path.Cell{X: x, Y: y}, g0.Blocked(path.Cell{X: x, Y: y}))
		}
	}
	r := path.NewRouter(g)
	r.Radius = 3.7
	r.Search.MaxExpanded = 500
	h := fnv.New64a()
	var buf [8]byte
	put := func(v uint64) {
		for i := range buf {
			buf[i] = byte(v >> (8 * i))
		}
		h.Write(buf[:])
	}
	b := g.Bounds()
	at := func(i, k int) cp.Vector {
		return cp.Vector{X: b.L + float64(float64((i*k)%997)/997*(b.R-b.L)), Y: b.B + float64(float64((i*k*7+k)%991)/991*(b.T-b.B))}
	}
	for i := range 400 {
		pos := at(i, 31)
		near := cp.Vector{X: pos.X + float64(float64(i%7-3)*9.1), Y: pos.Y + float64(float64(i%5-2)*8.3)}
		for k, byField := range []bool{false, true, false, true} {
			target := at(i, 57)
			if k >= 2 {
				target = near
			}
			wp, straight, st := r.Route(pos, target, byField)
			put(math.Float64bits(wp.X))
			put(math.Float64bits(wp.Y))
			if straight {
				put(1)
			}
			put(uint64(st))
		}
	}
	const want = 0x74e309c2eac0be81
	if got := h.Sum64(); got != want {
		t.Errorf("routes hash to %#x, want %#x", got, uint64(want))
	}
}
