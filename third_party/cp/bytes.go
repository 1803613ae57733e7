package cp

import (
	"cmp"
	"errors"
	"fmt"
	"reflect"
	"slices"
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
// keeps its tables: BodyRef, ShapeRef, ConstraintRef and ArbiterRef give
// the reference of an object written by the last Append, so that a game can write its own
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

// ArbiterRef returns the reference of an arbiter written by the last
// Append: one of the space's arbiters or cached arbiters (a pair of shapes
// touching, or touching within cp's collision persistence).
func (w *SpaceWriter) ArbiterRef(a *Arbiter) (uint32, bool) { return w.ref(a) }

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
