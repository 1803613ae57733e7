package cp

import (
	"cmp"
	"encoding/binary"
	"errors"
	"fmt"
	"math"
	"reflect"
	"slices"
	"unsafe"
)

// The space's whole state as portable bytes (SpaceWriter, SpaceReader).
//
// Format, version 1: every number little-endian and of a fixed width (u8,
// u32, u64; a float64 as its IEEE bits in a u64), no padding:
//
//	"cpSB", version (u8)
//	the space's scalars: iterations, gravity, damping, idle speed and sleep
//	  time thresholds, collision slop, bias, persistence, stamp, curr_dt,
//	  shape id counter, skipPostStep
//	table sizes (u32 each): bodies, shapes, constraints, arbiters, contact
//	  buffers, BBTree nodes, BBTree pairs, SpaceHash handles
//	the static body's reference
//	bodies: UserData, velocity and position func tags, mass, moment, their
//	  inverses, cog, p, v, f, a, w, t, transform, v_bias, w_bias, space
//	  flag, shape list, arbiter list, constraint list, sleeping root and next
//	  (references), idle time (the id of Body.String is the reader's own)
//	shapes: class tag and the class's fields (a polygon's planes), space
//	  flag, body, mass info, bb, sensor, e, u, surface v, UserData,
//	  collision type, filter, hashid
//	constraints: joint tag and the joint's fields, space flag, bodies a and
//	  b, next a and b, max force, error bias, max bias, collide bodies,
//	  UserData
//	arbiters: e, u, surface vr, UserData, shapes, bodies, threads, count,
//	  contacts (none; a slice of a contact buffer: its reference, offset,
//	  length and the contacts; or contacts of their own), n, the three
//	  handlers (tags: nil, cp's DoNothing, cp's Default, the space's default,
//	  or a pair of collision types), swapped, stamp, state
//	contact buffers: stamp, next, number of contacts (their contacts are
//	  written with the arbiters that use them; no step reads the others)
//	the space's lists: dynamic, static and roused bodies, sleeping
//	  components, constraints, arbiters; the cached arbiters' set: its size,
//	  its arbiters in the order of their shapes' references (the set hashes
//	  addresses: the reader inserts them again), its free bins (a count);
//	  free arbiters (a count); the contact buffers' head
//	BBTree nodes (leaf: shape, bb, parent, stamp, pairs; inner: bb, parent,
//	  children), pairs (two threads: prev, next, leaf; collision id),
//	  SpaceHash handles (shape, retains, stamp)
//	the static index, then the dynamic one: a BBTree (velocity func tag,
//	  root, stamp, leaves set: size and every bucket's bins in order, free
//	  bins, nodes and pairs as counts) or a SpaceHash (cell size, stamp,
//	  every cell's handles in order, handle set as the leaves set, free bins
//	  as counts, free handles: references, 0 for a fresh one)
//
// A pointer is a u32 reference: 0 is nil, i+1 the i-th object of its
// table, in the order the writer reached them from the space's lists (never
// addresses or map order). A function is a tag naming one of cp's own. Free
// lists are counts: their objects are made anew (every use sets them whole).
const (
	spaceBytesMagic   = "cpSB"
	spaceBytesVersion = 1
	maxSpaceObjects   = 1 << 24
)

// A SpaceWriter writes a space's state as bytes. Between two Appends it
// keeps its tables: BodyRef, ShapeRef and ConstraintRef give the reference
// of an object written by the last Append, so that a game can write its own
// pointers to cp's objects as references.
type SpaceWriter struct {
	// UserData writes a UserData value (of a body, shape, constraint or
	// arbiter). With no hook, nil is written and anything else is an error.
	UserData func(b []byte, v any) ([]byte, error)

	space       *Space
	bodies      []*Body
	shapes      []*Shape
	constraints []*Constraint
	arbiters    []*Arbiter
	buffers     []*ContactBuffer
	nodes       []*Node
	pairs       []*Pair
	handles     []*Handle
	ix          index
	cached      []*Arbiter
	cachedKeys  []cachedKey
}

// BodyRef returns the reference of a body written by the last Append.
func (w *SpaceWriter) BodyRef(b *Body) (uint32, bool) { return w.ref(b) }

// ShapeRef returns the reference of a shape written by the last Append.
func (w *SpaceWriter) ShapeRef(s *Shape) (uint32, bool) { return w.ref(s) }

// ConstraintRef returns the reference of a constraint written by the last Append.
func (w *SpaceWriter) ConstraintRef(c *Constraint) (uint32, bool) { return w.ref(c) }

func (w *SpaceWriter) ref(p any) (uint32, bool) {
	r, ok := w.ix.get(p)
	return r, ok && r != 0
}

type cachedKey struct {
	key uint64 // the shapes' references
	a   *Arbiter
}

// index maps the objects written to their references.
type index struct {
	bodies      map[*Body]uint32
	shapes      map[*Shape]uint32
	constraints map[*Constraint]uint32
	arbiters    map[*Arbiter]uint32
	buffers     map[*ContactBuffer]uint32
	nodes       map[*Node]uint32
	pairs       map[*Pair]uint32
	handles     map[*Handle]uint32
}

func (ix *index) reset() {
	if ix.bodies == nil {
		*ix = index{map[*Body]uint32{}, map[*Shape]uint32{}, map[*Constraint]uint32{}, map[*Arbiter]uint32{},
			map[*ContactBuffer]uint32{}, map[*Node]uint32{}, map[*Pair]uint32{}, map[*Handle]uint32{}}
	}
	clear(ix.bodies)
	clear(ix.shapes)
	clear(ix.constraints)
	clear(ix.arbiters)
	clear(ix.buffers)
	clear(ix.nodes)
	clear(ix.pairs)
	clear(ix.handles)
}

// get returns p's reference; ok is false for an object not written (0 for nil).
func (ix *index) get(p any) (uint32, bool) {
	switch p := p.(type) {
	case *Body:
		return lookup(ix.bodies, p)
	case *Shape:
		return lookup(ix.shapes, p)
	case *Constraint:
		return lookup(ix.constraints, p)
	case *Arbiter:
		return lookup(ix.arbiters, p)
	case *ContactBuffer:
		return lookup(ix.buffers, p)
	case *Node:
		return lookup(ix.nodes, p)
	case *Pair:
		return lookup(ix.pairs, p)
	case *Handle:
		return lookup(ix.handles, p)
	}
	return 0, false
}

func lookup[T any](m map[*T]uint32, p *T) (uint32, bool) {
	if p == nil {
		return 0, true
	}
	r, ok := m[p]
	return r, ok
}

// name names an object in an error, made only when there is one.
type name struct {
	kind string
	n    uint64
	body *Body
}

func (n name) String() string {
	if n.body != nil {
		return n.body.String()
	}
	return fmt.Sprintf("%s %d", n.kind, n.n)
}

func (w *SpaceWriter) reset(space *Space) {
	w.space = space
	clear(w.bodies)
	clear(w.shapes)
	clear(w.constraints)
	clear(w.arbiters)
	clear(w.buffers)
	clear(w.nodes)
	clear(w.pairs)
	clear(w.handles)
	w.handles = w.handles[:0]
	w.bodies, w.shapes, w.constraints, w.arbiters = w.bodies[:0], w.shapes[:0], w.constraints[:0], w.arbiters[:0]
	w.buffers, w.nodes, w.pairs, w.cached = w.buffers[:0], w.nodes[:0], w.pairs[:0], w.cached[:0]
	clear(w.cachedKeys)
	w.cachedKeys = w.cachedKeys[:0]
	w.ix.reset()
}

// Append appends the bytes of space's whole state to b.
func (w *SpaceWriter) Append(b []byte, space *Space) ([]byte, error) {
	if space.locked != 0 {
		return b, ErrSnapshotLocked
	}
	w.reset(space)
	if err := w.collect(space); err != nil {
		return b, err
	}
	for _, n := range []int{len(w.bodies), len(w.shapes), len(w.constraints), len(w.arbiters), len(w.nodes), len(w.pairs), len(w.handles)} {
		if n > maxSpaceObjects {
			return b, fmt.Errorf("cp: SpaceWriter: %d objects of a kind (at most %d are written)", n, maxSpaceObjects)
		}
	}
	e := &encoder{b: b, w: w}
	e.b = append(e.b, spaceBytesMagic...)
	e.u8(spaceBytesVersion)
	e.u64(uint64(space.Iterations))
	e.vec(space.gravity)
	e.f64(space.damping)
	e.f64(space.IdleSpeedThreshold)
	e.f64(space.SleepTimeThreshold)
	e.f64(space.collisionSlop)
	e.f64(space.collisionBias)
	e.u64(uint64(space.collisionPersistence))
	e.u64(uint64(space.stamp))
	e.f64(space.curr_dt)
	e.u64(uint64(space.shapeIDCounter))
	e.bool(space.skipPostStep)
	for _, n := range []int{len(w.bodies), len(w.shapes), len(w.constraints), len(w.arbiters), len(w.buffers), len(w.nodes), len(w.pairs), len(w.handles)} {
		e.u32(uint32(n))
	}
	e.ref(space.StaticBody)
	for _, x := range w.bodies {
		e.body(x)
	}
	for _, x := range w.shapes {
		e.shape(x)
	}
	for _, x := range w.constraints {
		e.constraint(x)
	}
	for _, x := range w.arbiters {
		e.arbiter(x)
	}
	for _, x := range w.buffers {
		e.buffer(x)
	}
	for _, l := range [][]*Body{space.dynamicBodies, space.staticBodies, space.rousedBodies, space.sleepingComponents} {
		e.refs(l)
	}
	e.refs(space.constraints)
	e.refs(space.arbiters)
	e.pool(int(space.cachedArbiters.size)) // a table of this size is made
	e.refs(w.cached)
	e.pool(count(space.cachedArbiters.pooledBins, func(b *HashSetBin[*Arbiter]) *HashSetBin[*Arbiter] { return b.next }))
	e.pool(len(space.pooledArbiters))
	e.ref(space.contactBuffersHead)
	for _, x := range w.nodes {
		e.node(x)
	}
	for _, x := range w.pairs {
		e.pair(x)
	}
	for _, x := range w.handles {
		e.ref(x.obj)
		e.u64(uint64(int64(x.retains)))
		e.u64(uint64(x.stamp))
	}
	e.index(space.staticShapes)
	e.index(space.dynamicShapes)
	if e.err == nil && e.maxPool > maxFree(len(e.b)-len(b)) {
		e.fail("a free list of %d objects in %d bytes (at most %d are written)", e.maxPool, len(e.b)-len(b), maxFree(len(e.b)-len(b)))
	}
	if e.err != nil {
		return b, e.err
	}
	return e.b, nil
}

// collect numbers every object reachable from the space, in an order that
// depends on the space's lists alone (not on addresses).
func (w *SpaceWriter) collect(space *Space) error {
	if len(space.postStepCallbacks) != 0 {
		return errors.New("cp: SpaceWriter: post-step callbacks are pending (write between steps)")
	}
	if space.StaticBody == nil {
		return errors.New("cp: SpaceWriter: the space has no static body")
	}
	_, tree := space.staticShapes.class.(*BBTree)
	for _, idx := range []*SpatialIndex{space.staticShapes, space.dynamicShapes} {
		switch idx.class.(type) {
		case *BBTree:
			if !tree {
				return errors.New("cp: SpaceWriter: a BBTree index beside a SpaceHash")
			}
		case *SpaceHash:
			if tree {
				return errors.New("cp: SpaceWriter: a SpaceHash index beside a BBTree")
			}
		default:
			return fmt.Errorf("cp: SpaceWriter: a spatial index of type %T is not supported", idx.class)
		}
		if reflect.ValueOf(idx.bbfunc).Pointer() != reflect.ValueOf(SpatialIndexBB(ShapeGetBB)).Pointer() {
			return errors.New("cp: SpaceWriter: a spatial index's bbfunc is not ShapeGetBB")
		}
	}
	if cb := space.defaultHandler; cb == nil {
		return errors.New("cp: SpaceWriter: the space has no default handler")
	}
	w.body(space.StaticBody)
	for _, l := range [][]*Body{space.dynamicBodies, space.staticBodies, space.rousedBodies} {
		for _, b := range l {
			w.body(b)
		}
	}
	for _, root := range space.sleepingComponents {
		for b, n := root, 0; b != nil && n <= maxSpaceObjects; b, n = b.sleepingNext, n+1 {
			w.body(b)
		}
	}
	for _, c := range space.constraints {
		w.constraint(c)
	}
	for _, a := range space.arbiters {
		w.arbiter(a)
	}
	// The set's order is its shapes' addresses': the cached arbiters are
	// written in the order of their shapes' references.
	var bad error
	space.cachedArbiters.Each(func(a *Arbiter) {
		ra, oka := w.ix.shapes[a.a]
		rb, okb := w.ix.shapes[a.b]
		if (!oka || !okb) && bad == nil {
			bad = errors.New("cp: SpaceWriter: a cached arbiter's shape is not the space's")
		}
		w.cachedKeys = append(w.cachedKeys, cachedKey{uint64(ra)<<32 | uint64(rb), a})
	})
	if bad != nil {
		return bad
	}
	slices.SortFunc(w.cachedKeys, func(x, y cachedKey) int { return cmp.Compare(x.key, y.key) })
	for _, k := range w.cachedKeys {
		w.cached = append(w.cached, k.a)
		w.arbiter(k.a)
	}
	if head := space.contactBuffersHead; head != nil {
		for b := head; b != nil; b = b.next {
			if _, ok := w.ix.buffers[b]; ok {
				break
			}
			w.buffers = append(w.buffers, b)
			w.ix.buffers[b] = uint32(len(w.buffers))
		}
	}
	contacts := 0
	for _, a := range w.arbiters {
		contacts += len(a.contacts)
	}
	if len(w.buffers) > maxContactBuffers(contacts) {
		return fmt.Errorf("cp: SpaceWriter: %d contact buffers for %d contacts (at most %d are written)", len(w.buffers), contacts, maxContactBuffers(contacts))
	}
	if !tree {
		for _, idx := range []*SpatialIndex{space.staticShapes, space.dynamicShapes} {
			w.hashHandles(idx.class.(*SpaceHash))
		}
		return nil
	}
	for _, idx := range []*SpatialIndex{space.staticShapes, space.dynamicShapes} {
		w.node(idx.class.(*BBTree).root)
	}
	for _, idx := range []*SpatialIndex{space.staticShapes, space.dynamicShapes} {
		for _, bin := range idx.class.(*BBTree).leaves.table {
			for ; bin != nil; bin = bin.next {
				if _, ok := w.ix.nodes[bin.elt]; !ok {
					return errors.New("cp: SpaceWriter: a BBTree leaf is not in the tree")
				}
			}
		}
	}
	for i := 0; i < len(w.nodes); i++ {
		if n := w.nodes[i]; n.obj != nil {
			for p := n.pairs; p != nil; p = p.threadOf(n).next {
				if _, ok := w.ix.pairs[p]; ok {
					continue
				}
				w.pairs = append(w.pairs, p)
				w.ix.pairs[p] = uint32(len(w.pairs))
			}
		}
	}
	for _, p := range w.pairs {
		for _, n := range []*Node{p.a.leaf, p.b.leaf} {
			if _, ok := w.ix.nodes[n]; !ok || n == nil || n.obj == nil {
				return errors.New("cp: SpaceWriter: a BBTree pair's leaf is not in the tree")
			}
		}
	}
	return nil
}

// hashHandles numbers a spatial hash's handles: its set's, then its cells'.
// Free handles that are nowhere else are written as fresh ones.
func (w *SpaceWriter) hashHandles(h *SpaceHash) {
	add := func(x *Handle) {
		if x == nil {
			return
		}
		if _, ok := w.ix.handles[x]; ok {
			return
		}
		w.handles = append(w.handles, x)
		w.ix.handles[x] = uint32(len(w.handles))
		w.shape(x.obj)
	}
	for _, bin := range h.handleSet.table {
		for ; bin != nil; bin = bin.next {
			add(bin.elt)
		}
	}
	for _, cell := range h.table {
		for ; cell != nil; cell = cell.next {
			add(cell.handle)
		}
	}
}

// maxContactBuffers is the most contact buffers written for n contacts:
// a reader allocates them (100 kB each) before it reads the contacts.
func maxContactBuffers(n int) int { return 16 + n/128 }

func (p *Pair) threadOf(n *Node) *Thread {
	if p.a.leaf == n {
		return &p.a
	}
	return &p.b
}

func (w *SpaceWriter) body(b *Body) {
	if b == nil {
		return
	}
	if _, ok := w.ix.bodies[b]; ok {
		return
	}
	w.bodies = append(w.bodies, b)
	w.ix.bodies[b] = uint32(len(w.bodies))
	for _, s := range b.shapeList {
		w.shape(s)
	}
	for c := b.constraintList; c != nil; c = c.Next(b) {
		if _, ok := w.ix.constraints[c]; ok {
			break
		}
		w.constraint(c)
	}
	for a := b.arbiterList; a != nil; a = a.Next(b) {
		if _, ok := w.ix.arbiters[a]; ok {
			break
		}
		w.arbiter(a)
	}
	w.body(b.sleepingRoot)
	w.body(b.sleepingNext)
}

func (w *SpaceWriter) shape(s *Shape) {
	if s == nil {
		return
	}
	if _, ok := w.ix.shapes[s]; ok {
		return
	}
	w.shapes = append(w.shapes, s)
	w.ix.shapes[s] = uint32(len(w.shapes))
	w.body(s.body)
}

func (w *SpaceWriter) constraint(c *Constraint) {
	if c == nil {
		return
	}
	if _, ok := w.ix.constraints[c]; ok {
		return
	}
	w.constraints = append(w.constraints, c)
	w.ix.constraints[c] = uint32(len(w.constraints))
	w.body(c.a)
	w.body(c.b)
	w.constraint(c.next_a)
	w.constraint(c.next_b)
}

func (w *SpaceWriter) arbiter(a *Arbiter) {
	if a == nil {
		return
	}
	if _, ok := w.ix.arbiters[a]; ok {
		return
	}
	w.arbiters = append(w.arbiters, a)
	w.ix.arbiters[a] = uint32(len(w.arbiters))
	w.shape(a.a)
	w.shape(a.b)
	w.body(a.body_a)
	w.body(a.body_b)
	w.arbiter(a.thread_a.next)
	w.arbiter(a.thread_a.prev)
	w.arbiter(a.thread_b.next)
	w.arbiter(a.thread_b.prev)
}

func (w *SpaceWriter) node(n *Node) {
	for n != nil {
		if _, ok := w.ix.nodes[n]; ok {
			return
		}
		w.nodes = append(w.nodes, n)
		w.ix.nodes[n] = uint32(len(w.nodes))
		if n.obj != nil {
			w.shape(n.obj)
			return
		}
		w.node(n.a)
		n = n.b
	}
}

type encoder struct {
	b       []byte
	w       *SpaceWriter
	err     error
	maxPool int
}

// pool writes the length of a free list: its objects are made anew by the
// reader, at most maxFree(the bytes' length) of them.
func (e *encoder) pool(n int) {
	e.u32(uint32(n))
	e.maxPool = max(e.maxPool, n)
}

// maxFree is the most objects a free list of a space written in n bytes
// may hold: a reader makes them before it knows what they are for.
func maxFree(n int) int { return 4096 + n/8 }

func (e *encoder) fail(format string, args ...any) {
	if e.err == nil {
		e.err = fmt.Errorf("cp: SpaceWriter: "+format, args...)
	}
}

func (e *encoder) u8(v uint8)   { e.b = append(e.b, v) }
func (e *encoder) u32(v uint32) { e.b = binary.LittleEndian.AppendUint32(e.b, v) }
func (e *encoder) u64(v uint64) { e.b = binary.LittleEndian.AppendUint64(e.b, v) }
func (e *encoder) f64(v float64) {
	e.b = binary.LittleEndian.AppendUint64(e.b, math.Float64bits(v))
}

// ctype writes a collision type (a uintptr): the wildcard, all ones, as
// 64 ones on every CPU.
func (e *encoder) ctype(c CollisionType) {
	if c == WILDCARD_COLLISION_TYPE {
		e.u64(math.MaxUint64)
		return
	}
	e.u64(uint64(c))
}

func (e *encoder) vec(v Vector) { e.f64(v.X); e.f64(v.Y) }
func (e *encoder) bb(v BB)      { e.f64(v.L); e.f64(v.B); e.f64(v.R); e.f64(v.T) }
func (e *encoder) bool(v bool) {
	if v {
		e.u8(1)
	} else {
		e.u8(0)
	}
}

// ref writes a reference: p must be nil or in the writer's tables.
func (e *encoder) ref(p any) {
	r, ok := e.w.ix.get(p)
	if !ok {
		e.fail("a %T not reached from the space's lists", p)
	}
	e.u32(r)
}

func refs[T any](e *encoder, l []*T) {
	e.u32(uint32(len(l)))
	for _, p := range l {
		if p == nil {
			e.fail("a nil %T in a list", p)
		}
		e.ref(p)
	}
}

func (e *encoder) refs(l any) {
	switch l := l.(type) {
	case []*Body:
		refs(e, l)
	case []*Constraint:
		refs(e, l)
	case []*Arbiter:
		refs(e, l)
	}
}

func (e *encoder) spaceFlag(s *Space, what name) {
	switch s {
	case nil:
		e.u8(0)
	case e.w.space:
		e.u8(1)
	default:
		e.fail("%s belongs to another space", what)
	}
}

func (e *encoder) userData(v any, what name) {
	if e.w.UserData != nil {
		b, err := e.w.UserData(e.b, v)
		if err != nil {
			e.fail("%s's UserData: %w", what, err)
			return
		}
		e.b = b
		return
	}
	if v != nil {
		e.fail("%s's UserData is a %T (no UserData hook)", what, v)
	}
}

func funcIs(f, g any) bool {
	return reflect.ValueOf(f).Pointer() == reflect.ValueOf(g).Pointer()
}

func (e *encoder) body(b *Body) {
	e.userData(b.UserData, name{body: b})
	switch {
	case b.velocity_func == nil:
		e.u8(0)
	case funcIs(b.velocity_func, BodyVelocityFunc(BodyUpdateVelocity)):
		e.u8(1)
	default:
		e.fail("%s's velocity func is not cp's BodyUpdateVelocity (a game's func is not written)", b)
	}
	switch {
	case b.position_func == nil:
		e.u8(0)
	case funcIs(b.position_func, BodyPositionFunc(BodyUpdatePosition)):
		e.u8(1)
	default:
		e.fail("%s's position func is not cp's BodyUpdatePosition (a game's func is not written)", b)
	}
	e.f64(b.m)
	e.f64(b.m_inv)
	e.f64(b.i)
	e.f64(b.i_inv)
	e.vec(b.cog)
	e.vec(b.p)
	e.vec(b.v)
	e.vec(b.f)
	e.f64(b.a)
	e.f64(b.w)
	e.f64(b.t)
	t := b.transform
	for _, v := range []float64{t.a, t.b, t.c, t.d, t.tx, t.ty} {
		e.f64(v)
	}
	e.vec(b.v_bias)
	e.f64(b.w_bias)
	e.spaceFlag(b.space, name{body: b})
	e.u32(uint32(len(b.shapeList)))
	for _, s := range b.shapeList {
		e.ref(s)
	}
	e.ref(b.arbiterList)
	e.ref(b.constraintList)
	e.ref(b.sleepingRoot)
	e.ref(b.sleepingNext)
	e.f64(b.sleepingIdleTime)
}

const (
	classCircle = 1 + iota
	classSegment
	classPoly
)

func (e *encoder) shape(s *Shape) {
	what := name{kind: "shape with hashid", n: uint64(s.hashid)}
	switch c := s.Class.(type) {
	case *Circle:
		e.u8(classCircle)
		e.classBack(c.Shape, s, what)
		e.vec(c.c)
		e.vec(c.tc)
		e.f64(c.r)
	case *Segment:
		e.u8(classSegment)
		e.classBack(c.Shape, s, what)
		for _, v := range []Vector{c.a, c.b, c.n, c.ta, c.tb, c.tn} {
			e.vec(v)
		}
		e.f64(c.r)
		e.vec(c.a_tangent)
		e.vec(c.b_tangent)
	case *PolyShape:
		e.u8(classPoly)
		e.classBack(c.Shape, s, what)
		e.f64(c.r)
		e.u64(uint64(int64(c.count)))
		e.u32(uint32(len(c.planes)))
		for _, p := range c.planes {
			e.vec(p.v0)
			e.vec(p.n)
		}
	default:
		e.fail("%s's class %T is not supported", what, s.Class)
		return
	}
	e.spaceFlag(s.space, what)
	e.ref(s.body)
	if m := s.massInfo; m == nil {
		e.u8(0)
	} else {
		e.u8(1)
		e.f64(m.m)
		e.f64(m.i)
		e.f64(m.area)
		e.vec(m.cog)
	}
	e.bb(s.bb)
	e.bool(s.sensor)
	e.f64(s.e)
	e.f64(s.u)
	e.vec(s.surfaceV)
	e.userData(s.UserData, what)
	e.ctype(s.collisionType)
	e.u64(s.Filter.Group)
	e.u64(s.Filter.Categories)
	e.u64(s.Filter.Mask)
	e.u64(uint64(s.hashid))
}

func (e *encoder) classBack(back, s *Shape, what name) {
	if back != s {
		e.fail("%s's class belongs to another shape", what)
	}
}

const (
	jointPin = 1 + iota
	jointSlide
	jointPivot
	jointGroove
	jointSpring
	jointRotarySpring
	jointRotaryLimit
	jointRatchet
	jointGear
	jointMotor
)

func (e *encoder) constraint(c *Constraint) {
	what := name{kind: "constraint", n: uint64(e.w.ix.constraints[c])}
	fs := func(v ...float64) {
		for _, x := range v {
			e.f64(x)
		}
	}
	vs := func(v ...Vector) {
		for _, x := range v {
			e.vec(x)
		}
	}
	mat := func(m Mat2x2) { fs(m.a, m.b, m.c, m.d) }
	back := func(b *Constraint) {
		if b != c {
			e.fail("%s's class belongs to another constraint", what)
		}
	}
	switch j := c.Class.(type) {
	case *PinJoint:
		e.u8(jointPin)
		back(j.Constraint)
		vs(j.AnchorA, j.AnchorB)
		fs(j.Dist)
		vs(j.r1, j.r2, j.n)
		fs(j.nMass, j.jnAcc, j.bias)
	case *SlideJoint:
		e.u8(jointSlide)
		back(j.Constraint)
		vs(j.AnchorA, j.AnchorB)
		fs(j.Min, j.Max)
		vs(j.r1, j.r2, j.n)
		fs(j.nMass, j.jnAcc, j.bias)
	case *PivotJoint:
		e.u8(jointPivot)
		back(j.Constraint)
		vs(j.AnchorA, j.AnchorB, j.r1, j.r2)
		mat(j.k)
		vs(j.jAcc, j.bias)
	case *GrooveJoint:
		e.u8(jointGroove)
		back(j.Constraint)
		vs(j.GrooveN, j.GrooveA, j.GrooveB, j.AnchorB, j.grooveTn)
		fs(j.clamp)
		vs(j.r1, j.r2)
		mat(j.k)
		vs(j.jAcc, j.bias)
	case *DampedSpring:
		e.u8(jointSpring)
		back(j.Constraint)
		if !funcIs(j.SpringForceFunc, DampedSpringForceFunc(DefaultSpringForce)) {
			e.fail("%s's SpringForceFunc is not cp's DefaultSpringForce (a game's func is not written)", what)
		}
		vs(j.AnchorA, j.AnchorB)
		fs(j.RestLength, j.Stiffness, j.Damping, j.targetVrn, j.vCoef)
		vs(j.r1, j.r2)
		fs(j.nMass)
		vs(j.n)
		fs(j.jAcc)
	case *DampedRotarySpring:
		e.u8(jointRotarySpring)
		back(j.Constraint)
		if !funcIs(j.SpringTorqueFunc, defaultSpringTorque) {
			e.fail("%s's SpringTorqueFunc is not cp's default (a game's func is not written)", what)
		}
		fs(j.RestAngle, j.Stiffness, j.Damping, j.targetWrn, j.wCoef, j.iSum, j.jAcc)
	case *RotaryLimitJoint:
		e.u8(jointRotaryLimit)
		back(j.Constraint)
		fs(j.Min, j.Max, j.iSum, j.bias, j.jAcc)
	case *RatchetJoint:
		e.u8(jointRatchet)
		back(j.Constraint)
		fs(j.Angle, j.Phase, j.Ratchet, j.iSum, j.bias, j.jAcc)
	case *GearJoint:
		e.u8(jointGear)
		back(j.Constraint)
		fs(j.phase, j.ratio, j.ratio_inv, j.iSum, j.bias, j.jAcc)
	case *SimpleMotor:
		e.u8(jointMotor)
		back(j.Constraint)
		fs(j.Rate, j.iSum, j.jAcc)
	default:
		e.fail("%s's class %T is not supported (a game's own constraint class)", what, c.Class)
		return
	}
	e.spaceFlag(c.space, what)
	e.ref(c.a)
	e.ref(c.b)
	e.ref(c.next_a)
	e.ref(c.next_b)
	fs(c.maxForce, c.errorBias, c.maxBias)
	e.bool(c.collideBodies)
	if c.PreSolve != nil || c.PostSolve != nil {
		e.fail("%s has a PreSolve or PostSolve func (a game's func is not written)", what)
	}
	e.userData(c.UserData, what)
}

const (
	handlerNil = iota
	handlerDoNothing
	handlerDefault
	handlerSpaceDefault
	handlerKeyed
)

func (e *encoder) handler(h *CollisionHandler, what name) {
	space := e.w.space
	switch {
	case h == nil:
		e.u8(handlerNil)
	case h == &CollisionHandlerDoNothing:
		e.u8(handlerDoNothing)
	case h == &CollisionHandlerDefault:
		e.u8(handlerDefault)
	case h == space.defaultHandler:
		e.u8(handlerSpaceDefault)
	default:
		if space.collisionHandlers.Find(HashPair(HashValue(h.TypeA), HashValue(h.TypeB)), h) != h {
			e.fail("%s's collision handler (%d, %d) is not the space's", what, h.TypeA, h.TypeB)
		}
		e.u8(handlerKeyed)
		e.ctype(h.TypeA)
		e.ctype(h.TypeB)
	}
}

const (
	contactsNil = iota
	contactsBuffer
	contactsOwn
)

func (e *encoder) arbiter(a *Arbiter) {
	what := name{kind: "arbiter", n: uint64(e.w.ix.arbiters[a])}
	e.f64(a.e)
	e.f64(a.u)
	e.vec(a.surface_vr)
	e.userData(a.UserData, what)
	e.ref(a.a)
	e.ref(a.b)
	e.ref(a.body_a)
	e.ref(a.body_b)
	e.ref(a.thread_a.next)
	e.ref(a.thread_a.prev)
	e.ref(a.thread_b.next)
	e.ref(a.thread_b.prev)
	e.u64(uint64(int64(a.count)))
	if buf, off := e.w.bufferOf(a.contacts); buf != nil {
		e.u8(contactsBuffer)
		e.ref(buf)
		e.u32(uint32(off))
		e.u32(uint32(len(a.contacts)))
		for i := range a.contacts {
			e.contact(&a.contacts[i])
		}
	} else if len(a.contacts) == 0 {
		e.u8(contactsNil)
	} else {
		e.u8(contactsOwn)
		e.u32(uint32(len(a.contacts)))
		for i := range a.contacts {
			e.contact(&a.contacts[i])
		}
	}
	e.vec(a.n)
	e.handler(a.handler, what)
	e.handler(a.handlerA, what)
	e.handler(a.handlerB, what)
	e.bool(a.swapped)
	e.u64(uint64(a.stamp))
	e.u64(uint64(int64(a.state)))
}

// bufferOf returns the contact buffer the contacts are a slice of, and
// their offset in it.
func (w *SpaceWriter) bufferOf(cs []Contact) (*ContactBuffer, int) {
	if len(cs) == 0 {
		return nil, 0
	}
	p := uintptr(unsafe.Pointer(&cs[0]))
	size := unsafe.Sizeof(Contact{})
	for _, b := range w.buffers {
		base := uintptr(unsafe.Pointer(&b.contacts[0]))
		if p >= base && p < base+size*CONTACTS_BUFFER_SIZE {
			return b, int((p - base) / size)
		}
	}
	return nil, 0
}

func (e *encoder) contact(c *Contact) {
	e.vec(c.r1)
	e.vec(c.r2)
	for _, v := range []float64{c.nMass, c.tMass, c.bounce, c.jnAcc, c.jtAcc, c.jBias, c.bias} {
		e.f64(v)
	}
	e.u64(uint64(c.hash))
}

func (e *encoder) buffer(b *ContactBuffer) {
	e.u64(uint64(b.stamp))
	e.ref(b.next)
	e.u32(uint32(b.numContacts))
	// The contacts are written with the arbiters that hold them: the
	// others are not read again (a contact is written whole by the step
	// that makes it, before any read).
}

func (e *encoder) node(n *Node) {
	if n.obj != nil {
		e.u8(1)
		e.ref(n.obj)
		e.bb(n.bb)
		e.ref(n.parent)
		e.u64(uint64(n.stamp))
		e.ref(n.pairs)
		return
	}
	e.u8(0)
	e.bb(n.bb)
	e.ref(n.parent)
	e.ref(n.a)
	e.ref(n.b)
}

func (e *encoder) pair(p *Pair) {
	for _, t := range []*Thread{&p.a, &p.b} {
		e.ref(t.prev)
		e.ref(t.next)
		e.ref(t.leaf)
	}
	e.u32(p.collisionId)
}

func (e *encoder) index(idx *SpatialIndex) {
	if h, ok := idx.class.(*SpaceHash); ok {
		e.spaceHash(h)
		return
	}
	t := idx.class.(*BBTree)
	e.u8(1) // a BBTree
	switch {
	case t.velocityFunc == nil:
		e.u8(0)
	case funcIs(t.velocityFunc, ShapeVelocityFunc):
		e.u8(1)
	default:
		e.fail("a BBTree's velocity func is not cp's ShapeVelocityFunc")
	}
	e.ref(t.root)
	e.u64(uint64(t.stamp))
	e.u32(uint32(t.leaves.size))
	e.u32(uint32(len(t.leaves.table)))
	for _, bin := range t.leaves.table {
		n := 0
		for b := bin; b != nil; b = b.next {
			n++
		}
		e.u32(uint32(n))
		for b := bin; b != nil; b = b.next {
			e.ref(b.elt)
			e.u64(uint64(b.hash))
		}
	}
	e.pool(count(t.leaves.pooledBins, func(b *HashSetBin[*Node]) *HashSetBin[*Node] { return b.next }))
	e.pool(count(t.pooledNodes, func(n *Node) *Node { return n.parent }))
	e.pool(count(t.pooledPairs, func(p *Pair) *Pair { return p.a.next }))
}

func count[T any](p *T, next func(*T) *T) int {
	n := 0
	for ; p != nil && n <= maxSpaceObjects; p = next(p) {
		n++
	}
	return n
}

func (e *encoder) spaceHash(h *SpaceHash) {
	e.u8(2) // a SpaceHash
	e.f64(h.celldim)
	e.u64(uint64(h.stamp))
	e.u32(uint32(len(h.table)))
	if h.numCells != len(h.table) {
		e.fail("a SpaceHash of %d cells with a table of %d", h.numCells, len(h.table))
	}
	for _, cell := range h.table {
		n := 0
		for b := cell; b != nil; b = b.next {
			n++
		}
		e.u32(uint32(n))
		for b := cell; b != nil; b = b.next {
			e.ref(b.handle)
		}
	}
	e.u32(uint32(h.handleSet.size))
	e.u32(uint32(len(h.handleSet.table)))
	for _, bin := range h.handleSet.table {
		n := 0
		for b := bin; b != nil; b = b.next {
			n++
		}
		e.u32(uint32(n))
		for b := bin; b != nil; b = b.next {
			e.ref(b.elt)
			e.u64(uint64(b.hash))
		}
	}
	e.pool(count(h.handleSet.pooledBins, func(b *HashSetBin[*Handle]) *HashSetBin[*Handle] { return b.next }))
	e.pool(count(h.pooledBins, func(b *SpaceHashBin) *SpaceHashBin { return b.next }))
	e.u32(uint32(len(h.pooledHandles)))
	for _, x := range h.pooledHandles {
		r, ok := e.w.ix.handles[x]
		if !ok {
			r = 0 // a fresh handle
		}
		e.u32(r)
	}
}
