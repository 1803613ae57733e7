package cp

import (
	"errors"
	"fmt"
	"unsafe"
)

func ptr(s *Shape) unsafe.Pointer { return unsafe.Pointer(s) }

// A SpaceReader reads the bytes a SpaceWriter wrote into a space. Body,
// Shape, Constraint and Arbiter give the object of a reference after a
// Read (or a Check).
type SpaceReader struct {
	// UserData reads a UserData value written by SpaceWriter.UserData. With
	// no hook, only a nil UserData can be read (the writer wrote nothing).
	UserData func(b []byte) (any, []byte, error)

	bodies      []*Body
	shapes      []*Shape
	constraints []*Constraint
	arbiters    []*Arbiter
	static      *Body
}

// StaticBody returns the static body of the bytes after a Read (the
// space's own) or a Check (an object of the bytes).
func (r *SpaceReader) StaticBody() *Body { return r.static }

// Body returns the body of a reference, after a Read.
func (r *SpaceReader) Body(ref uint32) (*Body, bool) { return at(r.bodies, ref) }

// Shape returns the shape of a reference, after a Read.
func (r *SpaceReader) Shape(ref uint32) (*Shape, bool) { return at(r.shapes, ref) }

// Constraint returns the constraint of a reference, after a Read.
func (r *SpaceReader) Constraint(ref uint32) (*Constraint, bool) { return at(r.constraints, ref) }

// Arbiter returns the arbiter of a reference, after a Read.
func (r *SpaceReader) Arbiter(ref uint32) (*Arbiter, bool) { return at(r.arbiters, ref) }

func at[T any](l []*T, ref uint32) (*T, bool) {
	if ref == 0 || uint64(ref) > uint64(len(l)) {
		return nil, false
	}
	return l[ref-1], true
}

// Read replaces space's whole state with the state b holds and returns
// the bytes after it. The space must be set up by the same code as the
// written one (the same collision handlers: they are not in the bytes);
// its StaticBody object is kept and given the written static body's state,
// every other object is new. On an error the space is left as it was.
func (r *SpaceReader) Read(b []byte, space *Space) ([]byte, error) {
	if space.locked != 0 {
		return b, ErrSnapshotLocked
	}
	if space.StaticBody == nil {
		return b, errors.New("cp: SpaceReader: the space has no static body")
	}
	d := &decoder{b: b, r: r, space: space, total: len(b)}
	v, err := d.read()
	if err != nil {
		return b, err
	}
	r.bodies, r.shapes, r.constraints, r.arbiters, r.static = d.bodies, d.shapes, d.constraints, d.arbiters, space.StaticBody
	// The static body's object is the space's own: move the read state into it.
	static := space.StaticBody
	tmp := d.static
	tmp.id = static.id
	*static = *tmp
	swap := func(b **Body) {
		if *b == tmp {
			*b = static
		}
	}
	for i, x := range d.bodies {
		if x == tmp {
			d.bodies[i] = static
		}
		swap(&x.sleepingRoot)
		swap(&x.sleepingNext)
	}
	for _, x := range d.shapes {
		swap(&x.body)
	}
	for _, x := range d.constraints {
		swap(&x.a)
		swap(&x.b)
	}
	for _, x := range d.arbiters {
		swap(&x.body_a)
		swap(&x.body_b)
	}
	for _, l := range [][]*Body{v.dynamicBodies, v.staticBodies, v.rousedBodies, v.sleepingComponents} {
		for i := range l {
			swap(&l[i])
		}
	}
	// Setup state, the reading space's own.
	v.bbQueryCtx, v.bbQueryBusy, v.bbQueryFunc = space.bbQueryCtx, space.bbQueryBusy, space.bbQueryFunc
	v.usesWildcards, v.collisionHandlers, v.defaultHandler = space.usesWildcards, space.collisionHandlers, space.defaultHandler
	v.postStepCallbacks = space.postStepCallbacks[:0]
	v.lookupKey = space.lookupKey
	v.solver = space.solver // the contact solver's scratch: a snapshot of the space read keeps it
	v.StaticBody = static
	*space = v
	return d.b, nil
}

// Check reads b as Read would into space, and returns the bytes after the
// space's, but leaves space as it was: for checking a state whose other
// parts (a game's own, holding references) follow the space's before any
// part is read. Until the next Read or Check, Body, Shape, Constraint and
// Arbiter give objects of the bytes that are no space's (the static
// body's too): to resolve references with, not to use.
func (r *SpaceReader) Check(b []byte, space *Space) ([]byte, error) {
	if space.StaticBody == nil {
		return b, errors.New("cp: SpaceReader: the space has no static body")
	}
	d := &decoder{b: b, r: r, space: space, total: len(b)}
	if _, err := d.read(); err != nil {
		return b, err
	}
	r.bodies, r.shapes, r.constraints, r.arbiters, r.static = d.bodies, d.shapes, d.constraints, d.arbiters, d.static
	return d.b, nil
}

func (d *decoder) read() (Space, error) {
	var v Space
	if string(d.take(len(spaceBytesMagic))) != spaceBytesMagic {
		if d.err != nil {
			return v, d.err
		}
		return v, errors.New("cp: SpaceReader: not a space's bytes (no magic)")
	}
	if ver := d.u8(); ver != spaceBytesVersion && d.err == nil {
		return v, fmt.Errorf("cp: SpaceReader: format version %d, not %d", ver, spaceBytesVersion)
	}
	v.Iterations = d.uint()
	v.gravity = d.vec()
	v.damping = d.f64()
	v.IdleSpeedThreshold = d.f64()
	v.SleepTimeThreshold = d.f64()
	v.collisionSlop = d.f64()
	v.collisionBias = d.f64()
	v.collisionPersistence = d.uint()
	v.stamp = d.uint()
	v.curr_dt = d.f64()
	v.shapeIDCounter = d.uint()
	v.skipPostStep = d.bool()
	if v.Iterations == 0 || v.Iterations > 1<<16 {
		d.fail("%d iterations", v.Iterations)
	}
	// Fewer bytes than an object of each kind is written in at least: a
	// body 200, a shape 100, a constraint 60, an arbiter 100, a buffer 16,
	// a node 45, a pair 28.
	d.bodies = newAll[Body](d.n(200))
	d.shapes = newAll[Shape](d.n(100))
	d.constraints = newAll[Constraint](d.n(60))
	d.arbiters = newAll[Arbiter](d.n(100))
	// A contact buffer is 100 kB: there are at most maxContactBuffers(n)
	// for n contacts (contactBytes each) in the bytes.
	nb := d.n(16)
	if nb > maxContactBuffers(len(d.b)/contactBytes) {
		d.fail("%d contact buffers in %d bytes", nb, len(d.b))
		nb = 0
	}
	d.buffers = newAll[ContactBuffer](nb)
	d.nodes = newAll[Node](d.n(45))
	d.pairs = newAll[Pair](d.n(28))
	d.handles = newAll[Handle](d.n(20))
	if d.err != nil {
		return v, d.err
	}
	d.static = ref(d, d.bodies, "body")
	if d.static == nil && d.err == nil {
		d.fail("no static body")
	}
	for i, x := range d.bodies {
		d.body(x, i)
	}
	if d.err == nil {
		ids := bodyCur.Add(int64(len(d.bodies))) - int64(len(d.bodies))
		for i, x := range d.bodies {
			x.id = int(ids) + i // Body.String's number: the process's own
		}
	}
	for i, x := range d.shapes {
		d.shape(x, i)
	}
	for i, x := range d.constraints {
		d.constraint(x, i)
	}
	for i, x := range d.arbiters {
		d.arbiter(x, i)
	}
	for _, x := range d.buffers {
		d.buffer(x)
	}
	if d.err != nil {
		return v, d.err
	}
	v.dynamicBodies = refList(d, d.bodies, "body")
	v.staticBodies = refList(d, d.bodies, "body")
	v.rousedBodies = refList(d, d.bodies, "body")
	v.sleepingComponents = refList(d, d.bodies, "body")
	v.constraints = refList(d, d.constraints, "constraint")
	v.arbiters = refList(d, d.arbiters, "arbiter")
	setSize := d.pool()
	if setSize == 0 || d.err != nil {
		d.fail("a cached arbiters set of size %d", setSize)
		return v, d.err
	}
	d.cached = refList(d, d.arbiters, "arbiter")
	if len(d.cached) >= setSize {
		d.fail("%d cached arbiters in a set of size %d", len(d.cached), setSize)
	}
	pooledBins := d.pool()
	v.cachedArbiters = NewHashSet[ShapePair, *Arbiter](arbiterSetEql)
	v.cachedArbiters.size = uint(setSize)
	v.cachedArbiters.table = make([]*HashSetBin[*Arbiter], setSize)
	if d.err != nil {
		return v, d.err
	}
	// The cached arbiters are hashed by their shapes' addresses: inserted
	// in the written order, into a set of the written size.
	for _, a := range d.cached {
		h := HashPair(HashValue(uintptr(ptr(a.a))), HashValue(uintptr(ptr(a.b))))
		v.cachedArbiters.Insert(h, ShapePair{a.a, a.b}, func(ShapePair) *Arbiter { return a })
	}
	if v.cachedArbiters.entries != uint(len(d.cached)) {
		d.fail("two cached arbiters of the same shapes")
	}
	v.cachedArbiters.pooledBins = nil
	nArbiters := d.pool()
	v.contactBuffersHead = ref(d, d.buffers, "contact buffer")
	for _, x := range d.nodes {
		d.node(x)
	}
	for _, x := range d.pairs {
		d.pair(x)
	}
	for _, x := range d.handles {
		x.obj = ref(d, d.shapes, "shape")
		x.retains = d.int()
		x.stamp = d.uint()
	}
	if d.err != nil {
		return v, d.err
	}
	v.staticShapes = d.index(nil)
	if d.err != nil {
		return v, d.err
	}
	v.dynamicShapes = d.index(v.staticShapes)
	if d.err != nil {
		return v, d.err
	}
	_, tree := v.staticShapes.class.(*BBTree)
	if _, tree2 := v.dynamicShapes.class.(*BBTree); tree != tree2 {
		return v, errors.New("cp: SpaceReader: a BBTree index beside a SpaceHash")
	}
	if err := d.check(&v); err != nil {
		return v, err
	}
	for _, bin := range newAll[HashSetBin[*Arbiter]](pooledBins) {
		v.cachedArbiters.recycle(bin)
	}
	v.pooledArbiters = newAll[Arbiter](nArbiters)
	for _, f := range d.frees {
		f()
	}
	return v, nil
}

// pool reads the count of a free list (made anew, of fresh objects).
func (d *decoder) pool() int {
	v := d.u32()
	if uint64(v) > uint64(maxFree(d.total)) {
		d.fail("a free list of %d objects", v)
		return 0
	}
	return int(v)
}

func (d *decoder) body(b *Body, i int) {
	what := name{kind: "body", n: uint64(i + 1)}
	b.UserData = d.userData(what)
	switch d.u8() {
	case 0:
	case 1:
		b.velocity_func = BodyUpdateVelocity
	default:
		d.fail("%s's velocity func tag", what)
	}
	switch d.u8() {
	case 0:
	case 1:
		b.position_func = BodyUpdatePosition
	default:
		d.fail("%s's position func tag", what)
	}
	b.m, b.m_inv, b.i, b.i_inv = d.f64(), d.f64(), d.f64(), d.f64()
	b.cog, b.p, b.v, b.f = d.vec(), d.vec(), d.vec(), d.vec()
	b.a, b.w, b.t = d.f64(), d.f64(), d.f64()
	b.transform = Transform{d.f64(), d.f64(), d.f64(), d.f64(), d.f64(), d.f64()}
	b.v_bias, b.w_bias = d.vec(), d.f64()
	b.space = d.spaceOf(what)
	if n := d.n(4); n > 0 {
		b.shapeList = make([]*Shape, n)
		for k := range b.shapeList {
			b.shapeList[k] = ref(d, d.shapes, "shape")
			if b.shapeList[k] == nil {
				d.fail("%s's shape list holds nil", what)
			}
		}
	} else {
		b.shapeList = []*Shape{}
	}
	b.arbiterList = ref(d, d.arbiters, "arbiter")
	b.constraintList = ref(d, d.constraints, "constraint")
	b.sleepingRoot = ref(d, d.bodies, "body")
	b.sleepingNext = ref(d, d.bodies, "body")
	b.sleepingIdleTime = d.f64()
}

func (d *decoder) shape(s *Shape, i int) {
	what := name{kind: "shape", n: uint64(i + 1)}
	switch d.u8() {
	case classCircle:
		c := &Circle{Shape: s}
		c.c, c.tc, c.r = d.vec(), d.vec(), d.f64()
		s.Class = c
	case classSegment:
		c := &Segment{Shape: s}
		c.a, c.b, c.n, c.ta, c.tb, c.tn = d.vec(), d.vec(), d.vec(), d.vec(), d.vec(), d.vec()
		c.r, c.a_tangent, c.b_tangent = d.f64(), d.vec(), d.vec()
		s.Class = c
	case classPoly:
		c := &PolyShape{Shape: s}
		c.r, c.count = d.f64(), d.int()
		n := d.n(32)
		if c.count < 0 || 2*c.count != n {
			d.fail("%s: a polygon of %d vertices with %d planes", what, c.count, n)
			return
		}
		c.planes = make([]SplittingPlane, n)
		for k := range c.planes {
			c.planes[k] = SplittingPlane{d.vec(), d.vec()}
		}
		s.Class = c
	default:
		d.fail("%s's class tag", what)
		return
	}
	s.space = d.spaceOf(what)
	s.body = ref(d, d.bodies, "body")
	if s.body == nil {
		d.fail("%s has no body", what)
	}
	switch d.u8() {
	case 0:
	case 1:
		s.massInfo = &ShapeMassInfo{d.f64(), d.f64(), d.f64(), d.vec()}
	default:
		d.fail("%s's mass info flag", what)
	}
	s.bb = d.bb()
	s.sensor = d.bool()
	s.e, s.u, s.surfaceV = d.f64(), d.f64(), d.vec()
	s.UserData = d.userData(what)
	s.collisionType = d.ctype()
	s.Filter = ShapeFilter{d.u64(), d.u64(), d.u64()}
	s.hashid = HashValue(d.u64())
}

func (d *decoder) constraint(c *Constraint, i int) {
	what := name{kind: "constraint", n: uint64(i + 1)}
	f := d.f64
	v := d.vec
	mat := func() Mat2x2 { return Mat2x2{f(), f(), f(), f()} }
	switch d.u8() {
	case jointPin:
		j := &PinJoint{Constraint: c}
		j.AnchorA, j.AnchorB, j.Dist = v(), v(), f()
		j.r1, j.r2, j.n = v(), v(), v()
		j.nMass, j.jnAcc, j.bias = f(), f(), f()
		c.Class = j
	case jointSlide:
		j := &SlideJoint{Constraint: c}
		j.AnchorA, j.AnchorB, j.Min, j.Max = v(), v(), f(), f()
		j.r1, j.r2, j.n = v(), v(), v()
		j.nMass, j.jnAcc, j.bias = f(), f(), f()
		c.Class = j
	case jointPivot:
		j := &PivotJoint{Constraint: c}
		j.AnchorA, j.AnchorB, j.r1, j.r2 = v(), v(), v(), v()
		j.k = mat()
		j.jAcc, j.bias = v(), v()
		c.Class = j
	case jointGroove:
		j := &GrooveJoint{Constraint: c}
		j.GrooveN, j.GrooveA, j.GrooveB, j.AnchorB, j.grooveTn = v(), v(), v(), v(), v()
		j.clamp = f()
		j.r1, j.r2 = v(), v()
		j.k = mat()
		j.jAcc, j.bias = v(), v()
		c.Class = j
	case jointSpring:
		j := &DampedSpring{Constraint: c, SpringForceFunc: DefaultSpringForce}
		j.AnchorA, j.AnchorB = v(), v()
		j.RestLength, j.Stiffness, j.Damping, j.targetVrn, j.vCoef = f(), f(), f(), f(), f()
		j.r1, j.r2 = v(), v()
		j.nMass = f()
		j.n = v()
		j.jAcc = f()
		c.Class = j
	case jointRotarySpring:
		j := &DampedRotarySpring{Constraint: c, SpringTorqueFunc: defaultSpringTorque}
		j.RestAngle, j.Stiffness, j.Damping, j.targetWrn, j.wCoef, j.iSum, j.jAcc = f(), f(), f(), f(), f(), f(), f()
		c.Class = j
	case jointRotaryLimit:
		j := &RotaryLimitJoint{Constraint: c}
		j.Min, j.Max, j.iSum, j.bias, j.jAcc = f(), f(), f(), f(), f()
		c.Class = j
	case jointRatchet:
		j := &RatchetJoint{Constraint: c}
		j.Angle, j.Phase, j.Ratchet, j.iSum, j.bias, j.jAcc = f(), f(), f(), f(), f(), f()
		c.Class = j
	case jointGear:
		j := &GearJoint{Constraint: c}
		j.phase, j.ratio, j.ratio_inv, j.iSum, j.bias, j.jAcc = f(), f(), f(), f(), f(), f()
		c.Class = j
	case jointMotor:
		j := &SimpleMotor{Constraint: c}
		j.Rate, j.iSum, j.jAcc = f(), f(), f()
		c.Class = j
	default:
		d.fail("%s's class tag", what)
		return
	}
	c.space = d.spaceOf(what)
	c.a = ref(d, d.bodies, "body")
	c.b = ref(d, d.bodies, "body")
	if (c.a == nil || c.b == nil) && d.err == nil {
		d.fail("%s lacks a body", what)
	}
	c.next_a = ref(d, d.constraints, "constraint")
	c.next_b = ref(d, d.constraints, "constraint")
	c.maxForce, c.errorBias, c.maxBias = f(), f(), f()
	c.collideBodies = d.bool()
	c.UserData = d.userData(what)
}

func (d *decoder) handler(what name) *CollisionHandler {
	switch d.u8() {
	case handlerNil:
		return nil
	case handlerDoNothing:
		return &CollisionHandlerDoNothing
	case handlerDefault:
		return &CollisionHandlerDefault
	case handlerSpaceDefault:
		return d.space.defaultHandler
	case handlerKeyed:
		a, b := d.ctype(), d.ctype()
		if d.err != nil {
			return nil
		}
		key := CollisionHandler{TypeA: a, TypeB: b}
		h := d.space.collisionHandlers.Find(HashPair(HashValue(a), HashValue(b)), &key)
		if h == nil || h.TypeA != a || h.TypeB != b {
			d.fail("%s's collision handler (%d, %d): the reading space has none of these types", what, a, b)
		}
		return h
	}
	d.fail("%s's collision handler tag", what)
	return nil
}

func (d *decoder) arbiter(a *Arbiter, i int) {
	what := name{kind: "arbiter", n: uint64(i + 1)}
	a.e, a.u, a.surface_vr = d.f64(), d.f64(), d.vec()
	a.UserData = d.userData(what)
	a.a = ref(d, d.shapes, "shape")
	a.b = ref(d, d.shapes, "shape")
	a.body_a = ref(d, d.bodies, "body")
	a.body_b = ref(d, d.bodies, "body")
	a.thread_a.next = ref(d, d.arbiters, "arbiter")
	a.thread_a.prev = ref(d, d.arbiters, "arbiter")
	a.thread_b.next = ref(d, d.arbiters, "arbiter")
	a.thread_b.prev = ref(d, d.arbiters, "arbiter")
	a.count = d.int()
	switch d.u8() {
	case contactsNil:
	case contactsBuffer:
		buf := ref(d, d.buffers, "contact buffer")
		off, n := d.u32(), d.u32()
		if buf == nil || uint64(off)+uint64(n) > CONTACTS_BUFFER_SIZE || n == 0 {
			d.fail("%s's contacts: %d from %d in a buffer", what, n, off)
			return
		}
		a.contacts = buf.contacts[off : off+n]
		for k := range a.contacts {
			d.contact(&a.contacts[k])
		}
	case contactsOwn:
		n := d.n(contactBytes)
		if n == 0 {
			d.fail("%s's contacts: none", what)
		}
		a.contacts = make([]Contact, n)
		for k := range a.contacts {
			d.contact(&a.contacts[k])
		}
	default:
		d.fail("%s's contacts tag", what)
	}
	a.n = d.vec()
	a.handler = d.handler(what)
	a.handlerA = d.handler(what)
	a.handlerB = d.handler(what)
	a.swapped = d.bool()
	a.stamp = d.uint()
	a.state = d.int()
	if d.err != nil {
		return
	}
	if a.a == nil || a.b == nil || a.body_a != a.a.body || a.body_b != a.b.body {
		d.fail("%s's shapes and bodies do not agree", what)
	}
	if a.count < 0 || a.count > MAX_CONTACTS_PER_ARBITER || a.count > len(a.contacts) {
		d.fail("%s: %d contacts of %d", what, a.count, len(a.contacts))
	}
	if a.state < CP_ARBITER_STATE_FIRST_COLLISION || a.state > CP_ARBITER_STATE_INVALIDATED {
		d.fail("%s's state %d", what, a.state)
	}
}

// contactBytes is the length of a contact written.
const contactBytes = 96

func (d *decoder) contact(c *Contact) {
	c.r1, c.r2 = d.vec(), d.vec()
	c.nMass, c.tMass, c.bounce, c.jnAcc, c.jtAcc, c.jBias, c.bias = d.f64(), d.f64(), d.f64(), d.f64(), d.f64(), d.f64(), d.f64()
	c.hash = HashValue(d.u64())
}

func (d *decoder) buffer(b *ContactBuffer) {
	b.stamp = d.uint()
	b.next = ref(d, d.buffers, "contact buffer")
	n := d.u32() // checked before it is an int: on a 32-bit CPU one of 2^31 and more is negative
	if n > CONTACTS_BUFFER_SIZE {
		d.fail("a contact buffer of %d contacts", n)
		return
	}
	b.numContacts = int(n)
}

func (d *decoder) node(n *Node) {
	switch d.u8() {
	case 1:
		n.obj = ref(d, d.shapes, "shape")
		n.bb = d.bb()
		n.parent = ref(d, d.nodes, "node")
		n.stamp = d.uint()
		n.pairs = ref(d, d.pairs, "pair")
		if n.obj == nil {
			d.fail("a leaf without a shape")
		}
	case 0:
		n.bb = d.bb()
		n.parent = ref(d, d.nodes, "node")
		n.a = ref(d, d.nodes, "node")
		n.b = ref(d, d.nodes, "node")
		if n.a == nil || n.b == nil {
			d.fail("an inner node lacks a child")
		}
	default:
		d.fail("a node's tag")
	}
}

func (d *decoder) pair(p *Pair) {
	for _, t := range []*Thread{&p.a, &p.b} {
		t.prev = ref(d, d.pairs, "pair")
		t.next = ref(d, d.pairs, "pair")
		t.leaf = ref(d, d.nodes, "node")
	}
	p.collisionId = d.u32()
	if p.a.leaf == nil || p.b.leaf == nil || p.a.leaf == p.b.leaf {
		d.fail("a pair's leaves")
	}
}

func (d *decoder) index(static *SpatialIndex) *SpatialIndex {
	switch d.u8() {
	case 1:
	case 2:
		return d.spaceHash(static)
	default:
		d.fail("a spatial index's tag")
		return nil
	}
	idx := NewBBTree(ShapeGetBB, static)
	t := idx.class.(*BBTree)
	switch d.u8() {
	case 0:
	case 1:
		t.velocityFunc = BBTreeVelocityFunc(ShapeVelocityFunc)
	default:
		d.fail("a BBTree's velocity func tag")
	}
	t.root = ref(d, d.nodes, "node")
	t.stamp = d.uint()
	size := d.u32()
	n := d.n(4)
	if size == 0 || uint64(size) != uint64(n) {
		d.fail("a leaves set of size %d with %d buckets", size, n)
		return nil
	}
	t.leaves.size = uint(size)
	t.leaves.table = make([]*HashSetBin[*Node], n)
	for i := range t.leaves.table {
		k := d.n(12)
		var last *HashSetBin[*Node]
		for range k {
			bin := &HashSetBin[*Node]{elt: ref(d, d.nodes, "node"), hash: HashValue(d.u64())}
			if d.err != nil {
				return nil
			}
			if bin.elt == nil || bin.elt.obj == nil || bin.hash != bin.elt.obj.hashid || uint64(bin.hash%HashValue(size)) != uint64(i) {
				d.fail("a BBTree leaves set's bin does not hold its leaf")
				return nil
			}
			if last == nil {
				t.leaves.table[i] = bin
			} else {
				last.next = bin
			}
			last = bin
			t.leaves.entries++
		}
	}
	if t.leaves.entries >= t.leaves.size {
		d.fail("a leaves set of %d entries and size %d", t.leaves.entries, t.leaves.size)
	}
	// The free lists are made once the bytes are known good.
	d.frees = append(d.frees, func(bins, nodes, pairs int) func() {
		return func() {
			for _, bin := range newAll[HashSetBin[*Node]](bins) {
				t.leaves.recycle(bin)
			}
			for _, n := range newAll[Node](nodes) {
				t.RecycleNode(n)
			}
			for _, p := range newAll[Pair](pairs) {
				p.a.next = t.pooledPairs
				t.pooledPairs = p
			}
		}
	}(d.pool(), d.pool(), d.pool()))
	return idx
}
