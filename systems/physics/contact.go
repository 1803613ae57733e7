package physics

import (
	"cmp"
	"slices"

	"github.com/fixedstep/fixedstep/third_party/cp"
	"github.com/fixedstep/fixedstep/third_party/donburi"
)

// Contact is two entities' shapes beginning, continuing or ending a touch,
// as a handler registered with [Physics.OnCollide], [Physics.OnTouch] or
// [Physics.OnSeparate] receives it and [Physics.Touching] lists it: A has
// the handler's first component type, B its second.
type Contact struct {
	A, B           donburi.Entity
	ShapeA, ShapeB *cp.Shape // A's and B's shape (an outline from SpawnWalls has one per segment)

	// Normal is the unit contact normal, pointing from A towards B, and
	// Point where they touch (the mean of cp's contact points, each midway
	// between the two surfaces), in world units, as they were at the end of
	// the step where the touch began (OnCollide) or of the last step
	// (OnTouch, Touching). Both are zero in OnSeparate.
	Normal, Point cp.Vector
}

// ContactFunc handles a contact; w is the physics system's world.
type ContactFunc func(w donburi.World, c Contact)

// OnCollide calls f, after each physics step, for every pair of shapes that
// began touching in that step whose entities have the component types a and
// b: with A the entity with a, B the one with b. A nil component type stands
// for any entity, and also for a shape of no entity (donburi.Null). When each
// entity could take either role (OnCollide(BallC, BallC, ...)), f is called
// once, with the lower entity as A. Sensors count: a shape that only
// overlaps a sensor, or a kinematic body touching a static one, begins a
// contact like any other (see [BodyKind]).
//
// # Order
//
// Handlers run in [Physics.Update], right after the step and after the
// [CollisionBegin] and [CollisionSeparate] events: first every new contact
// of the step, then every pair touching ([Physics.OnTouch]), then every
// ended contact ([Physics.OnSeparate]); contacts sorted
// by their two entities' ids (lower first), then by their shapes' cp hash
// ids (the order shapes were added to the space); for each contact, the
// handlers in the order they were registered. The order depends only on the
// simulation, never on cp's callback order (which for separations changes
// from run to run).
//
// # Removing entities
//
// A handler may remove entities (world.Remove), spawn them and change
// components. Each handler call first checks that both entities are still
// alive and still have the components: an entity removed (or changed) by an
// earlier handler gets no more calls, for this contact or any later one. A
// removed entity's contacts end silently: no OnSeparate call follows, since
// the entity can no longer be asked what it was (count contacts with that in
// mind, or ask [Physics.Touching], which drops the removed entity's pairs at
// once). Removing an entity makes cp end its shapes' contacts at once;
// those ends are noted with the next step's and dropped there, as they name
// a removed entity.
//
// # Cost
//
// With no contact begun or ended in a step, handlers cost nothing and
// allocate nothing. Otherwise each contact is noted during the step (its
// point and normal read from cp's arbiter), sorted and dispatched after it,
// a fraction of what the contact costs in cp's step
// (BenchmarkContactsOverhead times the two in lockstep), plus the
// handlers' own work. The buffers grow to the largest step's
// contacts and are reused: no allocation of their own. cp allocates for
// every contact whatever the handlers (see TestPhysicsAllocatesOnlyInsideCp).
//
// Handlers stay registered for the life of the Physics; OnCollide called
// from a handler takes effect from the next contact. It panics when f is
// nil, or when the Physics was made with NoCollisionEvents (cp's callbacks,
// which report contacts, are not installed then).
func (p *Physics) OnCollide(a, b donburi.IComponentType, f ContactFunc) {
	p.mustReportContacts("OnCollide", f)
	p.contacts.begin = append(p.contacts.begin, contactHandler{a, b, f})
}

// OnSeparate calls f, after each physics step, for every pair of shapes
// whose entities have the component types a and b that stopped touching in
// that step, as [Physics.OnCollide] does for new contacts (same roles, order
// and rules, and panics); Normal and Point are zero. No call follows the
// removal of either entity. A pair that touched for N steps had N
// [Physics.OnTouch] calls before it.
func (p *Physics) OnSeparate(a, b donburi.IComponentType, f ContactFunc) {
	p.mustReportContacts("OnSeparate", f)
	p.contacts.separate = append(p.contacts.separate, contactHandler{a, b, f})
}

// mustReportContacts panics when handler f is nil or when cp does not
// report contacts to p.
func (p *Physics) mustReportContacts(fn string, f ContactFunc) {
	if f == nil {
		panic("systems: " + fn + " with a nil handler")
	}
	if p.space.LookupHandler(0, cp.WILDCARD_COLLISION_TYPE, nil) == nil {
		panic("systems: " + fn + " on a Physics made with NoCollisionEvents: no contact would be reported")
	}
}

type contactHandler struct {
	a, b donburi.IComponentType
	f    ContactFunc
}

// contactRecord is a contact noted during the step: entities a < b (as in
// Collision), their shapes, the shapes' hash ids when noted (cp zeroes a
// removed shape's), and the normal (from a to b) and point of a begin.
type contactRecord struct {
	a, b          donburi.Entity
	sa, sb        *cp.Shape
	ha, hb        cp.HashValue
	normal, point cp.Vector
}

// contactHandlers are the handlers and the contacts noted for them.
type contactHandlers struct {
	begin, separate   []contactHandler
	touch             []contactHandler // OnTouch's (touch.go)
	begins, separates []contactRecord  // noted since the last dispatch
	// the other pair of buffers: dispatching swaps them with begins and
	// separates, so that contacts ended by a handler's removals are noted
	// apart from the batch being dispatched
	spareBegins, spareSeparates []contactRecord
}

// noteContact records a contact for the handlers, when there are handlers
// of its kind. c is the Collision already made of arb.
func (p *Physics) noteContact(arb *cp.Arbiter, c Collision, begin bool) {
	h := &p.contacts
	if begin && len(h.begin) == 0 || !begin && len(h.separate) == 0 {
		return
	}
	sa, sb := orient(arb, c)
	r := contactRecord{a: c.A, b: c.B, sa: sa, sb: sb}
	if begin {
		set := arb.ContactPointSet()
		r.normal, r.point = set.Normal, meanPoint(&set)
		if first, _ := arb.Shapes(); first != sa { // cp's first shape is B's
			r.normal = r.normal.Neg()
		}
	}
	r.ha, r.hb = r.sa.HashId(), r.sb.HashId()
	if begin {
		h.begins = append(h.begins, r)
	} else {
		h.separates = append(h.separates, r)
	}
}

// dispatchContacts calls the handlers for the contacts noted since the last
// call and for the pairs touching (see OnCollide and OnTouch).
func (p *Physics) dispatchContacts(w donburi.World) {
	h := &p.contacts
	touching := len(h.touch) > 0 && len(p.touches.touching) > 0
	if len(h.begins) == 0 && len(h.separates) == 0 && !touching {
		return
	}
	begins, separates := h.begins, h.separates
	h.begins, h.separates = h.spareBegins[:0], h.spareSeparates[:0]
	slices.SortFunc(begins, compareContacts)
	slices.SortFunc(separates, compareContacts)
	for i := range begins {
		dispatchContact(w, h.begin, &begins[i])
	}
	if touching {
		p.dispatchTouches(w)
	}
	for i := range separates {
		dispatchContact(w, h.separate, &separates[i])
	}
	clear(begins) // hold no shapes
	clear(separates)
	h.spareBegins, h.spareSeparates = begins[:0], separates[:0]
}

func compareContacts(x, y contactRecord) int {
	if c := cmp.Compare(x.a, y.a); c != 0 {
		return c
	}
	if c := cmp.Compare(x.b, y.b); c != 0 {
		return c
	}
	if c := cmp.Compare(x.ha, y.ha); c != 0 {
		return c
	}
	return cmp.Compare(x.hb, y.hb)
}

// dispatchContact calls each handler of hs whose component types r's
// entities have, in the handler's role order, checking before every call
// that the entities are still alive.
func dispatchContact(w donburi.World, hs []contactHandler, r *contactRecord) {
	for i := range hs {
		h := &hs[i]
		if !alive(w, r.a) || !alive(w, r.b) {
			return
		}
		switch {
		case has(w, r.a, h.a) && has(w, r.b, h.b):
			h.f(w, Contact{A: r.a, B: r.b, ShapeA: r.sa, ShapeB: r.sb, Normal: r.normal, Point: r.point})
		case has(w, r.b, h.a) && has(w, r.a, h.b):
			h.f(w, Contact{A: r.b, B: r.a, ShapeA: r.sb, ShapeB: r.sa, Normal: r.normal.Neg(), Point: r.point})
		}
	}
}

// alive reports whether e is alive, or is no entity at all (a shape put in
// the space directly).
func alive(w donburi.World, e donburi.Entity) bool { return e == donburi.Null || w.Valid(e) }

// has reports whether entity e has component type c; a nil c matches
// anything, donburi.Null included.
func has(w donburi.World, e donburi.Entity, c donburi.IComponentType) bool {
	if c == nil {
		return true
	}
	return e != donburi.Null && w.Entry(e).HasComponent(c)
}
