package cp

import (
	"errors"
	"fmt"
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

	circles  store[Circle]
	segments store[Segment]
	polys    store[PolyShape]
	planes   sliceStore[SplittingPlane]

	constraints store[Constraint]
	joints      jointStores

	arbiters store[Arbiter]
	contacts sliceStore[Contact]
	handlers store[CollisionHandler]
	buffers  []contactBufferHeader

	indexes store[SpatialIndex]
	trees   store[BBTree]
	nodes   store[Node]
	pairs   store[Pair]
	hashes  store[SpaceHash]
	cells   store[SpaceHashBin]
	handles store[Handle]

	arbiterSets setStores[ShapePair, *Arbiter]
	handlerSets setStores[*CollisionHandler, *CollisionHandler]
	leafSets    setStores[*Shape, *Node]
	handleSets  setStores[*Shape, *Handle]

	bodyLists       sliceStore[*Body]
	shapeLists      sliceStore[*Shape]
	arbiterLists    sliceStore[*Arbiter]
	constraintLists sliceStore[*Constraint]
	handleLists     sliceStore[*Handle]
	cellLists       sliceStore[*SpaceHashBin]
	callbackLists   sliceStore[*PostStepCallback]

	freeNodes []freeLink[Node]
	freePairs []freeLink[Pair]
	freeCells []freeLink[SpaceHashBin]
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

	s.bodyLists.add(space.dynamicBodies)
	s.bodyLists.add(space.staticBodies)
	s.bodyLists.add(space.rousedBodies)
	s.bodyLists.add(space.sleepingComponents)
	s.arbiterLists.add(space.arbiters)
	s.arbiterLists.add(space.pooledArbiters)
	s.constraintLists.add(space.constraints)
	s.callbackLists.add(space.postStepCallbacks)
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
	for _, a := range space.arbiters {
		s.arbiter(a)
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
	s.bodies.restore()
	s.shapes.restore()
	s.masses.restore()
	s.circles.restore()
	s.segments.restore()
	s.polys.restore()
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

	// Slice contents last: the slices are the restored values' own.
	s.planes.restore()
	s.contacts.restore()
	s.bodyLists.restore()
	s.shapeLists.restore()
	s.arbiterLists.restore()
	s.constraintLists.restore()
	s.handleLists.restore()
	s.cellLists.restore()
	s.callbackLists.restore()
	relink(s.freeNodes, func(n *Node, next *Node) { n.parent = next })
	relink(s.freePairs, func(p *Pair, next *Pair) { p.a.next = next })
	relink(s.freeCells, func(c *SpaceHashBin, next *SpaceHashBin) { c.next = next })
	return nil
}

func (s *Snapshot) reset() {
	s.bodies, s.shapes, s.masses = s.bodies[:0], s.shapes[:0], s.masses[:0]
	s.circles, s.segments, s.polys = s.circles[:0], s.segments[:0], s.polys[:0]
	s.planes.reset()
	s.constraints = s.constraints[:0]
	s.joints.reset()
	s.arbiters, s.handlers, s.buffers = s.arbiters[:0], s.handlers[:0], s.buffers[:0]
	s.contacts.reset()
	s.indexes, s.trees, s.nodes, s.pairs = s.indexes[:0], s.trees[:0], s.nodes[:0], s.pairs[:0]
	s.hashes, s.cells, s.handles = s.hashes[:0], s.cells[:0], s.handles[:0]
	s.arbiterSets.reset()
	s.handlerSets.reset()
	s.leafSets.reset()
	s.handleSets.reset()
	s.bodyLists.reset()
	s.shapeLists.reset()
	s.arbiterLists.reset()
	s.constraintLists.reset()
	s.handleLists.reset()
	s.cellLists.reset()
	s.callbackLists.reset()
	s.freeNodes, s.freePairs, s.freeCells = s.freeNodes[:0], s.freePairs[:0], s.freeCells[:0]
}

// body saves b, its shapes and its constraints, once.
func (s *Snapshot) body(b *Body) {
	if b == nil || b.snap == s.epoch {
		return
	}
	b.snap = s.epoch
	s.bodies.add(b)
	s.shapeLists.add(b.shapeList)
	for _, sh := range b.shapeList {
		s.shape(sh)
	}
	for c := b.constraintList; c != nil; c = c.Next(b) {
		s.constraint(c)
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
		s.planes.add(c.planes)
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
		for n := c.pooledNodes; n != nil; n = n.parent {
			s.freeNodes = append(s.freeNodes, freeLink[Node]{n, n.parent})
		}
		for p := c.pooledPairs; p != nil; p = p.a.next {
			s.freePairs = append(s.freePairs, freeLink[Pair]{p, p.a.next})
		}
	case *SpaceHash:
		s.hashes.add(c)
		s.cellLists.add(c.table)
		s.handleLists.add(c.pooledHandles)
		for _, cell := range c.table {
			for b := cell; b != nil; b = b.next {
				s.cells.add(b)
				s.handle(b.handle)
			}
		}
		for _, b := range s.handleSets.add(c.handleSet) {
			s.handle(b.v.elt)
		}
		for b := c.pooledBins; b != nil; b = b.next {
			s.freeCells = append(s.freeCells, freeLink[SpaceHashBin]{b, b.next})
		}
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

func (st *store[T]) add(p *T) { *st = append(*st, saved[T]{p, *p}) }

func (st store[T]) restore() {
	for i := range st {
		*st[i].p = st[i].v
	}
}

// sliceStore saves the contents of slices, whose headers are saved with
// the values that hold them: Restore copies the contents back into the
// same arrays.
type sliceStore[E any] struct {
	heads [][]E
	data  []E
}

func (ss *sliceStore[E]) add(x []E) {
	if len(x) == 0 {
		return
	}
	ss.heads = append(ss.heads, x)
	ss.data = append(ss.data, x...)
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

// freeLink is an object on a free list and the next one.
type freeLink[T any] struct{ p, next *T }

func relink[T any](links []freeLink[T], set func(p, next *T)) {
	for _, l := range links {
		set(l.p, l.next)
	}
}

// setStores saves hash sets of one type: each set's value, its table and
// the bins in it, and its free bins.
type setStores[T, U comparable] struct {
	sets  store[HashSet[T, U]]
	table sliceStore[*HashSetBin[U]]
	bins  store[HashSetBin[U]]
	free  []freeLink[HashSetBin[U]]
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
	for b := set.pooledBins; b != nil; b = b.next {
		ss.free = append(ss.free, freeLink[HashSetBin[U]]{b, b.next})
	}
	return ss.bins[first:]
}

func (ss *setStores[T, U]) restore() {
	ss.sets.restore()
	ss.bins.restore()
	ss.table.restore()
	relink(ss.free, func(b, next *HashSetBin[U]) { b.next = next })
}

func (ss *setStores[T, U]) reset() {
	ss.sets, ss.bins, ss.free = ss.sets[:0], ss.bins[:0], ss.free[:0]
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
	n += s.planes.bytes() + s.contacts.bytes() + s.bodyLists.bytes() + s.shapeLists.bytes() + s.arbiterLists.bytes()
	n += s.constraintLists.bytes() + s.handleLists.bytes() + s.cellLists.bytes() + s.callbackLists.bytes()
	n += s.arbiterSets.table.bytes() + s.leafSets.table.bytes() + s.handleSets.table.bytes() + s.handlerSets.table.bytes()
	ptr := int(unsafe.Sizeof(freeLink[Node]{}))
	return n + ptr*(len(s.freeNodes)+len(s.freePairs)+len(s.freeCells)+
		len(s.arbiterSets.free)+len(s.leafSets.free)+len(s.handleSets.free)+len(s.handlerSets.free))
}

func size[T any](st store[T]) int { return len(st) * int(unsafe.Sizeof(saved[T]{})) }

func (ss *sliceStore[E]) bytes() int {
	var e E
	return len(ss.data)*int(unsafe.Sizeof(e)) + len(ss.heads)*int(unsafe.Sizeof(ss.heads[0:0]))
}
