package cp

import (
	"errors"
	"fmt"
	"slices"
	"sync/atomic"
	"unsafe"
)

// A Snapshot holds the whole state of a Space between two steps, so that
// Restore can put the space back exactly as it was: the next steps then
// give, bit for bit, what they gave after the snapshot was taken.
//
// The whole state is more than the bodies' positions and velocities: the
// arbiters with their cached contact impulses (warm starting), the spatial
// indexes (their trees, pairs and stamps decide the order of collisions),
// sleeping components and idle times, the contact buffers, the free lists
// objects are reused from, and every counter. A snapshot saves the value of
// every object reachable from the space, and Restore writes each value back
// into the same object: a *Body, *Shape or *Constraint the game holds is
// still the space's after a restore, as it was. Objects made after the
// snapshot are no longer the space's; objects removed after it are again.
//
// A snapshot's memory is reused by the next Snapshot into it: once it has
// held a space of a size, snapshotting that space again allocates nothing.
// The values are shallow where the space's are: UserData, callbacks and
// collision handlers' functions are kept as they were, not copied; a
// constraint class of the game's own (not one of cp's joints) is not saved.
//
// A Snapshot is for one space; Restore into another is an error.
type Snapshot struct {
	space  *Space
	value  Space
	epoch  uint64
	bodies store[Body]
	shapes store[Shape]
	masses store[ShapeMassInfo]

	// The contents of the slices that bodies and polygons own, one after
	// the other in the order of their owners' stores: each is copied back
	// into the array its owner's saved value points to.
	shapeLists []*Shape         // the bodies'
	planes     []SplittingPlane // the polygons'

	circles  store[Circle]
	segments store[Segment]
	polys    store[PolyShape]

	constraints store[Constraint]
	joints      jointStores

	arbiters store[Arbiter]
	contacts sliceStore[Contact] // the arbiters': runs of a contact buffer
	handlers store[CollisionHandler]
	buffers  []contactBufferHeader

	indexes store[SpatialIndex]
	trees   store[BBTree]
	nodes   store[Node]
	pairs   store[Pair]
	hashes  store[SpaceHash]
	cells   store[SpaceHashBin]
	handles store[Handle]

	// The spatial hashes' tables: the index of each cell that holds bins,
	// in table order, and how many of them each hash has (in the order of
	// hashes). A cell's bins are next in cells, so a table is written back
	// whole from the two; its empty cells, most of it, cost nothing.
	tableCells []int
	tableSpans []int

	arbiterSets setStores[ShapePair, *Arbiter]
	handlerSets setStores[*CollisionHandler, *CollisionHandler]
	leafSets    setStores[*Shape, *Node]
	handleSets  setStores[*Shape, *Handle]

	bodyLists       sliceStore[*Body]
	arbiterLists    sliceStore[*Arbiter]
	constraintLists sliceStore[*Constraint]
	handleLists     sliceStore[*Handle]
	callbackLists   sliceStore[*PostStepCallback]

	freeNodes freeList[Node]
	freePairs freeList[Pair]
	freeCells freeList[SpaceHashBin]

	// Whether the bodies' arbiter lists are walked: only while a body
	// sleeps (see Space.Snapshot).
	threads bool
}

// snapEpochs numbers snapshots, for the marks that keep an object reached
// twice from being saved twice. It is never restored, so a mark left by a
// snapshot that was later discarded cannot be mistaken for a new one's.
var snapEpochs atomic.Uint64

// ErrSnapshotLocked is the error of Snapshot and Restore called during a
// step (from a callback): the space is only whole between steps.
var ErrSnapshotLocked = errors.New("cp: snapshot: the space is stepping (call it between steps)")

// Snapshot saves the space's whole state into s, replacing what s held.
func (space *Space) Snapshot(s *Snapshot) error {
	if space.locked != 0 {
		return ErrSnapshotLocked
	}
	s.reset()
	s.space, s.value, s.epoch = space, *space, snapEpochs.Add(1)
	// The arbiters on the bodies' lists are the step's (space.arbiters,
	// saved below) while no body sleeps: the step threads its arbiters
	// onto their bodies and unthreads them at the next step, and a
	// shape's removal unthreads and drops its arbiters from both. A
	// sleeping body's arbiters are on its list only (out of the step's
	// and out of the cache, until it wakes and they are put back in
	// both): its list is then walked, and every body's with it.
	s.threads = len(space.sleepingComponents) > 0

	s.bodyLists.add(space.dynamicBodies)
	s.bodyLists.add(space.staticBodies)
	s.bodyLists.add(space.rousedBodies)
	s.bodyLists.add(space.sleepingComponents)
	s.arbiterLists.add(space.arbiters)
	s.arbiterLists.add(space.pooledArbiters)
	s.constraintLists.add(space.constraints)
	s.callbackLists.add(space.postStepCallbacks)
	// The step's arbiters first, in the order they took their contacts
	// from the contact buffers: their contacts are saved as a few runs.
	for _, a := range space.arbiters {
		s.arbiter(a)
	}
	for _, list := range [][]*Body{space.dynamicBodies, space.staticBodies} {
		for _, b := range list {
			s.body(b)
		}
	}
	for _, root := range space.sleepingComponents {
		for b := root; b != nil; b = b.sleepingNext {
			s.body(b)
		}
	}
	s.body(space.StaticBody)
	for _, c := range space.constraints {
		s.constraint(c)
	}
	for _, b := range s.arbiterSets.add(space.cachedArbiters) {
		s.arbiter(b.v.elt)
	}
	for _, b := range s.handlerSets.add(space.collisionHandlers) {
		s.handlers.add(b.v.elt)
	}
	if h := space.defaultHandler; h != &CollisionHandlerDoNothing && h != &CollisionHandlerDefault {
		s.handlers.add(h)
	}
	if head := space.contactBuffersHead; head != nil {
		for b := head; ; b = b.next {
			s.buffers = append(s.buffers, contactBufferHeader{b, b.stamp, b.next, b.numContacts})
			if b.next == head || b.next == nil {
				break
			}
		}
	}
	if err := s.index(space.staticShapes); err != nil {
		return err
	}
	return s.index(space.dynamicShapes)
}

// Restore puts the space back as it was when s was taken of it.
func (space *Space) Restore(s *Snapshot) error {
	if s.space != space {
		return errors.New("cp: Restore: the snapshot is of another space (or empty)")
	}
	if space.locked != 0 {
		return ErrSnapshotLocked
	}
	*space = s.value
	// A body's shape list and a polygon's planes are written back with
	// their owner, into the arrays its restored value points to (arrays
	// that no value restored after holds).
	off := 0
	for i := range s.bodies {
		e := &s.bodies[i]
		*e.p = e.v
		off += copy(e.v.shapeList, s.shapeLists[off:])
	}
	s.shapes.restore()
	s.masses.restore()
	s.circles.restore()
	s.segments.restore()
	off = 0
	for i := range s.polys {
		e := &s.polys[i]
		*e.p = e.v
		off += copy(e.v.planes, s.planes[off:])
	}
	s.constraints.restore()
	s.joints.restore()
	s.arbiters.restore()
	s.handlers.restore()
	for i := range s.buffers {
		h := &s.buffers[i]
		h.buffer.stamp, h.buffer.next, h.buffer.numContacts = h.stamp, h.next, h.numContacts
	}
	s.indexes.restore()
	s.trees.restore()
	s.nodes.restore()
	s.pairs.restore()
	s.hashes.restore()
	s.cells.restore()
	s.handles.restore()
	s.arbiterSets.restore()
	s.handlerSets.restore()
	s.leafSets.restore()
	s.handleSets.restore()

	// Other slices' contents last: the slices are the restored values' own.
	s.contacts.restore()
	s.restoreTables()
	s.bodyLists.restore()
	s.arbiterLists.restore()
	s.constraintLists.restore()
	s.handleLists.restore()
	s.callbackLists.restore()
	s.freeNodes.relink(func(n *Node, next *Node) { n.parent = next })
	s.freePairs.relink(func(p *Pair, next *Pair) { p.a.next = next })
	s.freeCells.relink(func(c *SpaceHashBin, next *SpaceHashBin) { c.next = next })
	return nil
}

// restoreTables writes the spatial hashes' tables back: each cell that
// held bins points to the first of them again (the bins, restored, chain
// to the others), every other cell is empty.
func (s *Snapshot) restoreTables() {
	k, cells := 0, s.tableCells
	for i := range s.hashes {
		table := s.hashes[i].v.table
		clear(table)
		for _, c := range cells[:s.tableSpans[i]] {
			bin := s.cells[k].p
			table[c] = bin
			for ; bin != nil; bin = bin.next {
				k++
			}
		}
		cells = cells[s.tableSpans[i]:]
	}
}

func (s *Snapshot) reset() {
	s.bodies, s.shapes, s.masses = s.bodies[:0], s.shapes[:0], s.masses[:0]
	clear(s.shapeLists) // let go of shapes no longer the space's
	s.shapeLists, s.planes = s.shapeLists[:0], s.planes[:0]
	s.circles, s.segments, s.polys = s.circles[:0], s.segments[:0], s.polys[:0]
	s.constraints = s.constraints[:0]
	s.joints.reset()
	s.arbiters, s.handlers, s.buffers = s.arbiters[:0], s.handlers[:0], s.buffers[:0]
	s.contacts.reset()
	s.indexes, s.trees, s.nodes, s.pairs = s.indexes[:0], s.trees[:0], s.nodes[:0], s.pairs[:0]
	s.hashes, s.cells, s.handles = s.hashes[:0], s.cells[:0], s.handles[:0]
	s.tableCells, s.tableSpans = s.tableCells[:0], s.tableSpans[:0]
	s.arbiterSets.reset()
	s.handlerSets.reset()
	s.leafSets.reset()
	s.handleSets.reset()
	s.bodyLists.reset()
	s.arbiterLists.reset()
	s.constraintLists.reset()
	s.handleLists.reset()
	s.callbackLists.reset()
	s.freeNodes.reset()
	s.freePairs.reset()
	s.freeCells.reset()
}

// body saves b, its shapes and its constraints, once.
func (s *Snapshot) body(b *Body) {
	if b == nil || b.snap == s.epoch {
		return
	}
	b.snap = s.epoch
	s.bodies.add(b)
	s.shapeLists = append(s.shapeLists, b.shapeList...)
	for _, sh := range b.shapeList {
		s.shape(sh)
	}
	for c := b.constraintList; c != nil; c = c.Next(b) {
		s.constraint(c)
	}
	if !s.threads {
		return
	}
	for a := b.arbiterList; a != nil; a = a.Next(b) {
		s.arbiter(a)
	}
}

func (s *Snapshot) shape(sh *Shape) {
	if sh == nil || sh.snap == s.epoch {
		return
	}
	sh.snap = s.epoch
	s.shapes.add(sh)
	if sh.massInfo != nil {
		s.masses.add(sh.massInfo)
	}
	switch c := sh.Class.(type) {
	case *Circle:
		s.circles.add(c)
	case *Segment:
		s.segments.add(c)
	case *PolyShape:
		s.polys.add(c)
		s.planes = append(s.planes, c.planes...)
	}
	s.body(sh.body)
}

func (s *Snapshot) constraint(c *Constraint) {
	if c == nil || c.snap == s.epoch {
		return
	}
	c.snap = s.epoch
	s.constraints.add(c)
	s.joints.add(c.Class)
	s.body(c.a)
	s.body(c.b)
}

func (s *Snapshot) arbiter(a *Arbiter) {
	if a == nil || a.snap == s.epoch {
		return
	}
	a.snap = s.epoch
	s.arbiters.add(a)
	s.contacts.add(a.contacts)
}

// index saves a spatial index and the tree or hash behind it.
func (s *Snapshot) index(idx *SpatialIndex) error {
	if idx == nil {
		return nil
	}
	s.indexes.add(idx)
	switch c := idx.class.(type) {
	case *BBTree:
		s.trees.add(c)
		s.leafSets.add(c.leaves) // the leaves are the tree's nodes, saved below
		s.node(c.root)
		s.freeNodes.add(c.pooledNodes, func(n *Node) *Node { return n.parent })
		s.freePairs.add(c.pooledPairs, func(p *Pair) *Pair { return p.a.next })
	case *SpaceHash:
		s.hashes.add(c)
		s.handleLists.add(c.pooledHandles)
		first := len(s.tableCells)
		for i, cell := range c.table {
			if cell == nil {
				continue
			}
			s.tableCells = append(s.tableCells, i)
			for b := cell; b != nil; b = b.next {
				s.cells.add(b)
				s.handle(b.handle)
			}
		}
		s.tableSpans = append(s.tableSpans, len(s.tableCells)-first)
		for _, b := range s.handleSets.add(c.handleSet) {
			s.handle(b.v.elt)
		}
		s.freeCells.add(c.pooledBins, func(b *SpaceHashBin) *SpaceHashBin { return b.next })
	default:
		return fmt.Errorf("cp: Snapshot: a spatial index of type %T", idx.class)
	}
	return nil
}

func (s *Snapshot) node(n *Node) {
	for n != nil && n.snap != s.epoch {
		n.snap = s.epoch
		s.nodes.add(n)
		if n.obj == nil { // an inner node: its children
			s.node(n.a)
			n = n.b
			continue
		}
		for p := n.pairs; p != nil; { // a leaf: its pairs
			if p.snap != s.epoch {
				p.snap = s.epoch
				s.pairs.add(p)
			}
			if p.a.leaf == n {
				p = p.a.next
			} else {
				p = p.b.next
			}
		}
		return
	}
}

func (s *Snapshot) handle(h *Handle) {
	if h == nil || h.snap == s.epoch {
		return
	}
	h.snap = s.epoch
	s.handles.add(h)
}

// contactBufferHeader is what a snapshot keeps of a contact buffer: the
// contacts an arbiter still uses are saved with the arbiter.
type contactBufferHeader struct {
	buffer      *ContactBuffer
	stamp       uint
	next        *ContactBuffer
	numContacts int
}

// saved is an object and its value when the snapshot was taken.
type saved[T any] struct {
	p *T
	v T
}

// store is the saved objects of one type.
type store[T any] []saved[T]

// add saves p's value, copied once, into the store's memory (an append of
// saved[T]{p, *p} would build the value on the stack and copy it again).
func (st *store[T]) add(p *T) {
	n := len(*st)
	if n == cap(*st) {
		*st = slices.Grow(*st, 1)
	}
	*st = (*st)[:n+1]
	e := &(*st)[n]
	e.p = p
	e.v = *p
}

func (st store[T]) restore() {
	for i := range st {
		e := &st[i]
		*e.p = e.v
	}
}

// sliceStore saves the contents of slices, whose headers are saved with
// the values that hold them: Restore copies the contents back into the
// same arrays. A slice that goes on where the one saved before it ends, in
// the same array, lengthens that one's run: the arbiters' contacts, taken
// one after the other from a buffer, are copied back a run at a time.
type sliceStore[E any] struct {
	heads [][]E
	data  []E
}

func (ss *sliceStore[E]) add(x []E) {
	if len(x) == 0 {
		return
	}
	ss.data = append(ss.data, x...)
	if n := len(ss.heads); n > 0 {
		last := ss.heads[n-1]
		if len(x) <= cap(last)-len(last) && &last[:len(last)+1][len(last)] == &x[0] {
			ss.heads[n-1] = last[:len(last)+len(x)]
			return
		}
	}
	ss.heads = append(ss.heads, x)
}

func (ss *sliceStore[E]) restore() {
	off := 0
	for _, h := range ss.heads {
		off += copy(h, ss.data[off:off+len(h)])
	}
}

func (ss *sliceStore[E]) reset() {
	clear(ss.heads) // let go of arrays no longer the space's
	ss.heads, ss.data = ss.heads[:0], ss.data[:0]
}

// freeList is the objects on free lists, each list in its order and
// ended by a nil (a snapshot walks several lists of a type into one).
type freeList[T any] []*T

// add saves the list that starts at head and goes on through next.
func (fl *freeList[T]) add(head *T, next func(*T) *T) {
	for p := head; p != nil; p = next(p) {
		*fl = append(*fl, p)
	}
	*fl = append(*fl, nil)
}

// relink links each list's objects again in its order, with set; the
// last one's link is nil, as it was.
func (fl freeList[T]) relink(set func(p, next *T)) {
	for i, p := range fl {
		if p != nil {
			set(p, fl[i+1])
		}
	}
}

func (fl *freeList[T]) reset() {
	clear(*fl) // let go of objects no longer the space's
	*fl = (*fl)[:0]
}

// setStores saves hash sets of one type: each set's value, its table and
// the bins in it, and its free bins.
type setStores[T, U comparable] struct {
	sets  store[HashSet[T, U]]
	table sliceStore[*HashSetBin[U]]
	bins  store[HashSetBin[U]]
	free  freeList[HashSetBin[U]]
}

// add saves set and returns its bins, for their elements to be saved.
func (ss *setStores[T, U]) add(set *HashSet[T, U]) store[HashSetBin[U]] {
	if set == nil {
		return nil
	}
	ss.sets.add(set)
	ss.table.add(set.table)
	first := len(ss.bins)
	for _, b := range set.table {
		for ; b != nil; b = b.next {
			ss.bins.add(b)
		}
	}
	ss.free.add(set.pooledBins, func(b *HashSetBin[U]) *HashSetBin[U] { return b.next })
	return ss.bins[first:]
}

func (ss *setStores[T, U]) restore() {
	ss.sets.restore()
	ss.bins.restore()
	ss.table.restore()
	ss.free.relink(func(b, next *HashSetBin[U]) { b.next = next })
}

func (ss *setStores[T, U]) reset() {
	ss.sets, ss.bins = ss.sets[:0], ss.bins[:0]
	ss.free.reset()
	ss.table.reset()
}

// jointStores saves the constraints' classes, one store per joint type.
type jointStores struct {
	pin      store[PinJoint]
	slide    store[SlideJoint]
	pivot    store[PivotJoint]
	groove   store[GrooveJoint]
	spring   store[DampedSpring]
	rotary   store[DampedRotarySpring]
	limit    store[RotaryLimitJoint]
	ratchet  store[RatchetJoint]
	gear     store[GearJoint]
	motor    store[SimpleMotor]
	unknowns []Constrainer // classes of the game's own: kept as they are
}

func (js *jointStores) add(c Constrainer) {
	switch j := c.(type) {
	case *PinJoint:
		js.pin.add(j)
	case *SlideJoint:
		js.slide.add(j)
	case *PivotJoint:
		js.pivot.add(j)
	case *GrooveJoint:
		js.groove.add(j)
	case *DampedSpring:
		js.spring.add(j)
	case *DampedRotarySpring:
		js.rotary.add(j)
	case *RotaryLimitJoint:
		js.limit.add(j)
	case *RatchetJoint:
		js.ratchet.add(j)
	case *GearJoint:
		js.gear.add(j)
	case *SimpleMotor:
		js.motor.add(j)
	default:
		js.unknowns = append(js.unknowns, c)
	}
}

func (js *jointStores) restore() {
	js.pin.restore()
	js.slide.restore()
	js.pivot.restore()
	js.groove.restore()
	js.spring.restore()
	js.rotary.restore()
	js.limit.restore()
	js.ratchet.restore()
	js.gear.restore()
	js.motor.restore()
}

func (js *jointStores) reset() {
	js.pin, js.slide, js.pivot, js.groove, js.spring = js.pin[:0], js.slide[:0], js.pivot[:0], js.groove[:0], js.spring[:0]
	js.rotary, js.limit, js.ratchet, js.gear, js.motor = js.rotary[:0], js.limit[:0], js.ratchet[:0], js.gear[:0], js.motor[:0]
	clear(js.unknowns)
	js.unknowns = js.unknowns[:0]
}

// Bytes returns about how much memory the snapshot's saved values take
// (what it holds, not the capacity it keeps for the next snapshot).
func (s *Snapshot) Bytes() int {
	n := int(unsafe.Sizeof(*s))
	n += size(s.bodies) + size(s.shapes) + size(s.masses) + size(s.circles) + size(s.segments) + size(s.polys)
	n += size(s.constraints) + size(s.arbiters) + size(s.handlers) + len(s.buffers)*int(unsafe.Sizeof(contactBufferHeader{}))
	n += size(s.indexes) + size(s.trees) + size(s.nodes) + size(s.pairs) + size(s.hashes) + size(s.cells) + size(s.handles)
	n += size(s.arbiterSets.bins) + size(s.leafSets.bins) + size(s.handleSets.bins) + size(s.handlerSets.bins)
	n += len(s.shapeLists)*int(unsafe.Sizeof((*Shape)(nil))) + len(s.planes)*int(unsafe.Sizeof(SplittingPlane{})) +
		(len(s.tableCells)+len(s.tableSpans))*int(unsafe.Sizeof(0))
	n += s.contacts.bytes() + s.bodyLists.bytes() + s.arbiterLists.bytes() + s.constraintLists.bytes() + s.handleLists.bytes() + s.callbackLists.bytes()
	n += s.arbiterSets.table.bytes() + s.leafSets.table.bytes() + s.handleSets.table.bytes() + s.handlerSets.table.bytes()
	ptr := int(unsafe.Sizeof((*Node)(nil)))
	return n + ptr*(len(s.freeNodes)+len(s.freePairs)+len(s.freeCells)+
		len(s.arbiterSets.free)+len(s.leafSets.free)+len(s.handleSets.free)+len(s.handlerSets.free))
}

func size[T any](st store[T]) int { return len(st) * int(unsafe.Sizeof(saved[T]{})) }

func (ss *sliceStore[E]) bytes() int {
	var e E
	return len(ss.data)*int(unsafe.Sizeof(e)) + len(ss.heads)*int(unsafe.Sizeof(ss.heads[0:0]))
}
