package physics

import (
	"cmp"
	"slices"

	"github.com/fixedstep/fixedstep/third_party/cp"
	"github.com/fixedstep/fixedstep/third_party/donburi"
)

// QueryFilter says which shapes a query sees. The zero value, or nil, sees
// every shape except sensors.
type QueryFilter struct {
	// Categories and Mask work as a shape's (see [BodyOptions]): the query
	// sees a shape when the shape's categories meet Mask and Categories
	// meet the shape's mask. Zero means all categories.
	Categories, Mask uint
	// Group, if not zero, hides the shapes of that group.
	Group uint
	// Sensors makes the query see sensor shapes too (a ray passes through
	// them otherwise, as cp's do).
	Sensors bool
	// Skip hides one entity's shapes: the one casting a ray, say.
	// donburi.Null hides none.
	Skip donburi.Entity
}

// Hit is a shape found by a query, and its entity. What Point, Normal,
// Distance and Fraction hold depends on the query; a field a query does not
// name is zero.
//
// The queries ([Physics.QueryNearest], [Physics.QueryPoint],
// [Physics.QuerySegmentFirst], [Physics.QuerySegment], [Physics.QueryBox])
// find shapes where the last step left them (or where [Physics.Teleport] or
// cp's ReindexShape put them since): a body moved by hand between steps is
// found at its old place until then. Each entity appears at most once in an
// answer, with its best hit (the nearest, the first along the segment);
// shapes of no entity each appear. The order of an answer is given on each
// query and depends only on the simulation: ties go to the lower entity,
// then to the shape that joined the space first (its cp hash id).
//
// They read cp's spatial indexes without locking the space and without
// allocating, and call no game code: they may run anywhere between steps
// (in a system, a contact handler, a render), but not from a cp callback.
// A NaN or infinite point or radius finds nothing; a negative radius or
// distance counts as 0.
type Hit struct {
	Entity donburi.Entity // donburi.Null for a shape put in the space directly
	Shape  *cp.Shape

	// Point queries: the point of the shape's surface nearest the query
	// point. Segment queries: where the segment (swept by its radius) first
	// touches the shape.
	Point cp.Vector
	// Point queries: the outward unit normal of the surface at Point (from
	// the shape towards the query point when it is outside). Segment
	// queries: the surface's normal where it is hit.
	Normal cp.Vector
	// Point queries: the distance from the query point to the surface,
	// negative inside the shape. Segment queries: how far along the
	// segment the hit is, in world units (Fraction times its length).
	Distance float64
	// Segment queries: how far along the segment the hit is, from 0 at its
	// start to 1 at its end.
	Fraction float64
}

// QueryNearest returns the shape nearest to point whose surface is at most
// maxDistance from it (or which contains it: a negative distance), and
// true; or false when there is none. Ties go to the lower entity. Hit's
// Point, Normal and Distance are set. It allocates nothing.
func (p *Physics) QueryNearest(point cp.Vector, maxDistance float64, f *QueryFilter) (Hit, bool) {
	q := p.query(queryPoint, f)
	q.point, q.radius, q.first = point, max(maxDistance, 0), true
	q.bb = cp.NewBBForCircle(point, q.radius)
	q.run(p.space)
	return q.result()
}

// QueryPoint appends to dst every entity with a shape whose surface is at
// most radius from point, or which contains point (radius 0: the entities
// under the point), and returns the extended slice. The hits appended are
// sorted by Distance (the nearest first, those containing the point deepest
// first), then by entity. Point, Normal and Distance are set. It allocates
// only when dst has no room left.
func (p *Physics) QueryPoint(point cp.Vector, radius float64, f *QueryFilter, dst []Hit) []Hit {
	q := p.query(queryPoint, f)
	q.point, q.radius = point, max(radius, 0)
	q.bb = cp.NewBBForCircle(point, q.radius)
	return q.collect(p.space, dst)
}

// QuerySegmentFirst casts the segment from a to b, thickened by radius (0: a
// ray; more: a circle of that radius swept along it), and returns the first
// shape it touches, and true; or false when it touches none. A shape the
// segment starts in (or within radius of) is hit at Fraction 0, with Point
// the nearest point of its surface and Normal its outward normal there.
// Ties go to the lower entity. Point, Normal, Distance and Fraction are set.
// It allocates nothing.
func (p *Physics) QuerySegmentFirst(a, b cp.Vector, radius float64, f *QueryFilter) (Hit, bool) {
	q := p.query(querySegment, f)
	q.segment(a, b, radius)
	q.first = true
	q.run(p.space)
	return q.result()
}

// QuerySegment appends to dst every entity the segment from a to b,
// thickened by radius, touches (see [Physics.QuerySegmentFirst]), with its
// first hit, and returns the extended slice. The hits appended are sorted by
// Fraction (the nearest to a first), then by entity. It allocates only when
// dst has no room left.
func (p *Physics) QuerySegment(a, b cp.Vector, radius float64, f *QueryFilter, dst []Hit) []Hit {
	q := p.query(querySegment, f)
	q.segment(a, b, radius)
	return q.collect(p.space, dst)
}

// QueryBox appends to dst every entity with a shape that overlaps the
// rectangle bb (its real outline, rounding included, not just its bounding
// box; touching counts), and returns the extended slice. bb is cp's BB:
// L and R are its smallest and largest x, B and T its smallest and largest
// y, whichever way y points; with the engine's screen coordinates (y
// down) B is the rectangle's top edge on screen and T its bottom
// (cp.BB{L: x0, B: y0, R: x1, T: y1} for the corners (x0, y0), (x1, y1),
// x0 <= x1 and y0 <= y1). The hits appended
// are sorted by entity; only Entity and Shape are set. It allocates only
// when dst has no room left.
func (p *Physics) QueryBox(bb cp.BB, f *QueryFilter, dst []Hit) []Hit {
	q := p.query(queryBox, f)
	q.bb = bb
	return q.collect(p.space, dst)
}

type queryKind uint8

const (
	queryPoint queryKind = iota
	querySegment
	queryBox
)

// queryState is the one query running: its parameters, its results, and
// the callbacks handed to cp, made once so that a query allocates nothing.
type queryState struct {
	kind    queryKind
	first   bool // keep the best hit only
	point   cp.Vector
	a, b    cp.Vector
	length  float64 // of the segment
	radius  float64
	bb      cp.BB // what may be hit lies in it
	filter  cp.ShapeFilter
	sensors bool
	skip    donburi.Entity

	hits  []Hit
	best  Hit
	found bool
	pinfo cp.PointQueryInfo
	sinfo cp.SegmentQueryInfo

	onIndex   cp.SpatialIndexQuery        // q.visitIndex
	onSegment cp.SpatialIndexSegmentQuery // q.visitSegment
	onBB      cp.SpaceBBQueryFunc         // q.visitBB, when cp's indexes are not found
}

// query returns p's query state, set up for a query of kind through f.
func (p *Physics) query(kind queryKind, f *QueryFilter) *queryState {
	q := p.queries
	if q == nil {
		q = &queryState{}
		q.onIndex = q.visitIndex
		q.onSegment = q.visitSegment
		q.onBB = q.visitBB
		p.queries = q
	}
	if f == nil {
		f = &QueryFilter{}
	}
	q.kind, q.first, q.found, q.best = kind, false, false, Hit{}
	q.radius, q.length = 0, 0
	q.filter = cp.ShapeFilter{Group: f.Group, Categories: f.Categories, Mask: f.Mask}
	if q.filter.Categories == 0 {
		q.filter.Categories = cp.ALL_CATEGORIES
	}
	if q.filter.Mask == 0 {
		q.filter.Mask = cp.ALL_CATEGORIES
	}
	q.sensors, q.skip = f.Sensors, f.Skip
	return q
}

func (q *queryState) segment(a, b cp.Vector, radius float64) {
	q.a, q.b, q.radius, q.length = a, b, max(radius, 0), a.Distance(b)
	q.bb = cp.NewBB(min(a.X, b.X), min(a.Y, b.Y), max(a.X, b.X), max(a.Y, b.Y))
	q.bb = cp.NewBB(q.bb.L-q.radius, q.bb.B-q.radius, q.bb.R+q.radius, q.bb.T+q.radius)
}

// run offers every shape that may be hit to visit: through cp's indexes
// (for a thin segment, walking the segment through them), or through
// Space.BBQuery when they are not found.
func (q *queryState) run(space *cp.Space) {
	if !finiteBB(q.bb) {
		return
	}
	dynamic, static, ok := spaceIndexes(space)
	switch {
	case !ok:
		space.BBQuery(q.bb, cp.SHAPE_FILTER_ALL, q.onBB, nil)
	case q.kind == querySegment && q.radius == 0:
		// cp's index walks a segment without its radius: thick ones go by
		// their bounding box
		static.SegmentQuery(q, q.a, q.b, 1, q.onSegment, nil)
		dynamic.SegmentQuery(q, q.a, q.b, 1, q.onSegment, nil)
	default:
		static.Query(q, q.bb, q.onIndex, nil)
		dynamic.Query(q, q.bb, q.onIndex, nil)
	}
}

// collect runs the query, appending its hits to dst, one per entity, in the
// query's order.
func (q *queryState) collect(space *cp.Space, dst []Hit) []Hit {
	start := len(dst)
	q.hits = dst
	q.run(space)
	dst, q.hits = q.hits, nil
	found := dst[start:]
	// one hit per entity: its best
	slices.SortFunc(found, q.byEntity)
	kept := 0
	for i, h := range found {
		if i > 0 && h.Entity != donburi.Null && h.Entity == found[kept-1].Entity {
			continue
		}
		found[kept] = h
		kept++
	}
	clear(found[kept:])
	found = found[:kept]
	if q.kind != queryBox {
		slices.SortFunc(found, q.byKey)
	}
	return dst[:start+kept]
}

func (q *queryState) result() (Hit, bool) {
	h, ok := q.best, q.found
	q.best = Hit{}
	return h, ok
}

// key is what a hit is sorted by first: its distance or fraction.
func (q *queryState) key(h *Hit) float64 {
	switch q.kind {
	case queryPoint:
		return h.Distance
	case querySegment:
		return h.Fraction
	}
	return 0
}

func (q *queryState) byKey(x, y Hit) int {
	if c := cmp.Compare(q.key(&x), q.key(&y)); c != 0 {
		return c
	}
	if c := cmp.Compare(x.Entity, y.Entity); c != 0 {
		return c
	}
	return cmp.Compare(x.Shape.HashId(), y.Shape.HashId())
}

func (q *queryState) byEntity(x, y Hit) int {
	if c := cmp.Compare(x.Entity, y.Entity); c != 0 {
		return c
	}
	if c := cmp.Compare(q.key(&x), q.key(&y)); c != 0 {
		return c
	}
	return cmp.Compare(x.Shape.HashId(), y.Shape.HashId())
}

func (q *queryState) visitIndex(_ any, s *cp.Shape, id uint32, _ any) uint32 {
	q.visit(s)
	return id
}

func (q *queryState) visitBB(s *cp.Shape, _ any) { q.visit(s) }

// visitSegment is the index's segment callback: it returns how far along
// the segment the index still needs to look. For the first hit, a little
// past the best so far: cp's walk skips what starts at or after the value
// returned, and a tie there may belong to a lower entity.
func (q *queryState) visitSegment(_ any, s *cp.Shape, _ any) float64 {
	q.visit(s)
	if q.first && q.found {
		return min(q.best.Fraction+1e-9, 1)
	}
	return 1
}

// visit tests shape s against the query and keeps the hit.
func (q *queryState) visit(s *cp.Shape) {
	if s.Filter.Reject(q.filter) || s.Sensor() && !q.sensors || !s.BB().Intersects(q.bb) {
		return
	}
	e := entityOf(s)
	if e == q.skip && e != donburi.Null {
		return
	}
	h := Hit{Entity: e, Shape: s}
	switch q.kind {
	case queryPoint:
		q.pinfo = cp.PointQueryInfo{Distance: cp.INFINITY}
		s.Class.PointQuery(q.point, &q.pinfo)
		if !(q.pinfo.Distance <= q.radius) {
			return
		}
		h.Point, h.Normal, h.Distance = q.pinfo.Point, q.pinfo.Gradient, q.pinfo.Distance
		if !finiteVector(h.Point) { // cp's answer at a circle's centre, or on a polygon's edge
			h.Point = q.point.Sub(h.Normal.Mult(h.Distance))
		}
	case querySegment:
		q.pinfo = cp.PointQueryInfo{Distance: cp.INFINITY}
		s.Class.PointQuery(q.a, &q.pinfo)
		if q.pinfo.Distance <= q.radius { // starts in (or touching) it
			h.Point, h.Normal = q.pinfo.Point, q.pinfo.Gradient
			if !finiteVector(h.Point) {
				h.Point = q.a.Sub(h.Normal.Mult(q.pinfo.Distance))
			}
			break
		}
		q.sinfo = cp.SegmentQueryInfo{Point: q.b, Alpha: 1}
		s.Class.SegmentQuery(q.a, q.b, q.radius, &q.sinfo)
		if q.sinfo.Shape == nil {
			return
		}
		h.Point, h.Normal, h.Fraction, h.Distance = q.sinfo.Point, q.sinfo.Normal, q.sinfo.Alpha, float64(q.sinfo.Alpha*q.length)
	case queryBox:
		if !shapeTouchesBB(s, q.bb) {
			return
		}
	}
	if !q.first {
		q.hits = append(q.hits, h)
		return
	}
	if !q.found || q.byKey(h, q.best) < 0 {
		q.best, q.found = h, true
	}
}

func finiteVector(v cp.Vector) bool { return finite(v.X) && finite(v.Y) }

func finiteBB(bb cp.BB) bool { return finite(bb.L) && finite(bb.B) && finite(bb.R) && finite(bb.T) }
