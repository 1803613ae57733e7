package cp

import (
	"encoding/binary"
	"fmt"
	"math"
	"reflect"
	"unsafe"
)

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
		e.fail("%s (UserData %v) has a velocity func of its own (SetVelocityUpdateFunc): only cp's BodyUpdateVelocity is written", b, b.UserData)
	}
	switch {
	case b.position_func == nil:
		e.u8(0)
	case funcIs(b.position_func, BodyPositionFunc(BodyUpdatePosition)):
		e.u8(1)
	default:
		e.fail("%s (UserData %v) has a position func of its own (SetPositionUpdateFunc): only cp's BodyUpdatePosition is written", b, b.UserData)
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
