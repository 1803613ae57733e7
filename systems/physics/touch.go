package physics

import (
	"cmp"
	"slices"

	"github.com/fixedstep/fixedstep/third_party/cp"
	"github.com/fixedstep/fixedstep/third_party/donburi"
)

// OnTouch calls f, after each physics step, for every pair of shapes
// touching at the end of that step whose entities have the component types
// a and b: every tick from the tick the touch begins ([Physics.OnCollide])
// up to the tick before the one it ends in ([Physics.OnSeparate]). A pair
// that touches for N steps gets one OnCollide call, N OnTouch calls (the
// first in the same step as OnCollide, after it) and one OnSeparate call,
// in the step after the last touch: in a step, every begun contact's
// OnCollide handlers, then every touching pair's OnTouch handlers, then
// every ended contact's OnSeparate handlers. Roles, the nil component type,
// the order of pairs (by their two entities' ids, then by their shapes'),
// the checks before each call and the panics are OnCollide's.
//
// Normal and Point are the contact's now, at the end of the step (read
// from cp's arbiter for the two shapes): the direction to push a body
// pressed against another. A pair stays touching while its bodies sleep,
// with the contact cp kept from when they fell asleep. An overlap a one-way
// platform lets through is not a touch.
//
// # Removing entities
//
// A pair whose entity is removed stops touching at once, even between two
// steps: [Physics.Touching] no longer lists it, no OnTouch call names it
// (not even later in the same step, when a handler removes it) and, as
// with OnCollide's contacts, no OnSeparate call follows.
//
// # State
//
// Which pairs touch is physics state, kept in the order of the pairs (never
// Go map order), saved and put back by [Physics.Snapshot] and
// [Physics.Restore] with the space: after a rewind, a rollback or a replay
// the same pairs are touching and the same OnTouch calls follow, tick for
// tick. Like cp's arbiters it is outside the world's state checksum; what
// handlers write into components is in it.
//
// # Cost
//
// Tracking which pairs touch costs nothing in a step where no contact
// begins or ends; otherwise the step's begun contacts are sorted and merged
// into the pairs touching (linear in them). Each step OnTouch walks the
// pairs touching, checks their components against each handler and, for
// the pairs a handler takes, reads the contact points of cp's arbiter.
// BenchmarkTouching measures both beside the step with no tracking
// (BENCHMARKS.md, "The kit's pieces"). It allocates nothing once the
// buffers have grown to the most pairs touching at once.
func (p *Physics) OnTouch(a, b donburi.IComponentType, f ContactFunc) {
	p.mustReportContacts("OnTouch", f)
	p.contacts.touch = append(p.contacts.touch, contactHandler{a, b, f})
}

// Touching appends to dst every pair of shapes touching now (at the end of
// the last step, less the pairs whose entity was removed since) whose
// entities have the component types a and b, as [Physics.OnTouch] would get
// them: A has a, B has b, Normal and Point the contact's now, in the order
// of the pairs (their entities' ids, lower first, then their shapes'). A
// pair of entities that touch with two shapes (a ball in the corner of an
// outline from SpawnWalls) is there twice. It allocates only when dst must
// grow, and panics when the Physics was made with NoCollisionEvents.
func (p *Physics) Touching(a, b donburi.IComponentType, dst []Contact) []Contact {
	if p.noEvents {
		panic("systems: Touching on a Physics made with NoCollisionEvents: no contact would be reported")
	}
	for i := range p.touches.touching {
		t := &p.touches.touching[i]
		if t.ended || !alive(p.world, t.a) || !alive(p.world, t.b) {
			continue
		}
		switch {
		case has(p.world, t.a, a) && has(p.world, t.b, b):
			dst = append(dst, p.touchContact(t, false))
		case has(p.world, t.b, a) && has(p.world, t.a, b):
			dst = append(dst, p.touchContact(t, true))
		}
	}
	return dst
}

// touch is a pair of shapes touching: entities a < b (as in Collision),
// a's shape and b's, the shapes' hash ids at the begin (the order of pairs
// of the same entities), and cp's arbiter of the pair, which cp keeps (the
// same object, asleep or awake) from the begin to the separate, and a
// snapshot restores. ended marks a pair that stopped touching since the
// last step (a removal): skipped, and dropped by the next step.
type touch struct {
	a, b   donburi.Entity
	sa, sb *cp.Shape
	ha, hb cp.HashValue
	arb    *cp.Arbiter
	ended  bool
}

// touches is which pairs of shapes touch, kept in Physics: touching, sorted
// by compareTouches, and begun, the pairs begun in the step under way,
// merged into touching after it. Both are saved by Snapshot.
type touches struct {
	touching []touch
	begun    []touch
	ended    int  // touching's pairs marked ended
	off      bool // no pair tracked: only for the benchmark's baseline (export_test.go)
}

func compareTouches(x, y touch) int {
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

// beginTouch notes that the shapes of c (from cp's begin) began touching.
func (p *Physics) beginTouch(arb *cp.Arbiter, c Collision) {
	if p.touches.off {
		return
	}
	sa, sb := orient(arb, c)
	p.touches.begun = append(p.touches.begun, touch{a: c.A, b: c.B, sa: sa, sb: sb, ha: sa.HashId(), hb: sb.HashId(), arb: arb})
}

// endTouch notes that the shapes of c (from cp's separate) stopped
// touching: their pair is marked ended, or taken out of the step's begun
// pairs (a shape removed by a post-step callback).
func (p *Physics) endTouch(arb *cp.Arbiter, c Collision) {
	if p.touches.off {
		return
	}
	sa, sb := orient(arb, c)
	i, _ := slices.BinarySearchFunc(p.touches.touching, c, func(t touch, c Collision) int {
		if x := cmp.Compare(t.a, c.A); x != 0 {
			return x
		}
		return cmp.Compare(t.b, c.B)
	})
	for ; i < len(p.touches.touching) && p.touches.touching[i].a == c.A && p.touches.touching[i].b == c.B; i++ {
		if t := &p.touches.touching[i]; !t.ended && t.sa == sa && t.sb == sb {
			t.ended = true
			p.touches.ended++
			return
		}
	}
	begun := p.touches.begun
	for i := range begun {
		if t := &begun[i]; t.sa == sa && t.sb == sb {
			last := len(begun) - 1
			begun[i], begun[last] = begun[last], touch{}
			p.touches.begun = begun[:last]
			return
		}
	}
}

// orient returns an arbiter's shapes as c's A's and B's.
func orient(arb *cp.Arbiter, c Collision) (sa, sb *cp.Shape) {
	sa, sb = arb.Shapes()
	if entityOf(sa) != c.A {
		sa, sb = sb, sa
	}
	return sa, sb
}

// settleTouches drops the pairs that ended and merges the ones begun into
// touching, keeping it sorted: after every step. Linear in the pairs
// touching, plus sorting the begun ones; it allocates only to grow.
func (p *Physics) settleTouches() {
	t := &p.touches
	if t.ended > 0 {
		t.touching = slices.DeleteFunc(t.touching, func(x touch) bool { return x.ended })
		t.ended = 0
	}
	if len(t.begun) == 0 {
		return
	}
	slices.SortFunc(t.begun, compareTouches)
	n, k := len(t.touching), len(t.begun)
	t.touching = append(t.touching, t.begun...)
	// merge from the back: touching[:n] and begun, both sorted, into touching
	i, j := n-1, k-1
	for out := n + k - 1; j >= 0; out-- {
		if i >= 0 && compareTouches(t.touching[i], t.begun[j]) > 0 {
			t.touching[out] = t.touching[i]
			i--
		} else {
			t.touching[out] = t.begun[j]
			j--
		}
	}
	clear(t.begun) // hold no shapes
	t.begun = t.begun[:0]
}

// dispatchTouches calls the OnTouch handlers for every pair touching.
func (p *Physics) dispatchTouches(w donburi.World) {
	for i := range p.touches.touching {
		t := &p.touches.touching[i]
		var c Contact
		found := false
		for j := range p.contacts.touch {
			h := &p.contacts.touch[j]
			if t.ended || !alive(w, t.a) || !alive(w, t.b) {
				break
			}
			var swapped bool
			switch {
			case has(w, t.a, h.a) && has(w, t.b, h.b):
			case has(w, t.b, h.a) && has(w, t.a, h.b):
				swapped = true
			default:
				continue
			}
			if !found {
				c, found = p.touchContact(t, false), true
			}
			if swapped {
				h.f(w, Contact{A: c.B, B: c.A, ShapeA: c.ShapeB, ShapeB: c.ShapeA, Normal: c.Normal.Neg(), Point: c.Point})
			} else {
				h.f(w, c)
			}
		}
	}
}

// touchContact makes the Contact of pair t, with the normal and point of
// cp's arbiter now; swapped puts b's entity in the role of A.
func (p *Physics) touchContact(t *touch, swapped bool) Contact {
	c := Contact{A: t.a, B: t.b, ShapeA: t.sa, ShapeB: t.sb}
	set := t.arb.ContactPointSet()
	c.Normal, c.Point = set.Normal, meanPoint(&set)
	if first, _ := t.arb.Shapes(); first != t.sa {
		c.Normal = c.Normal.Neg()
	}
	if swapped {
		c.A, c.B, c.ShapeA, c.ShapeB, c.Normal = c.B, c.A, c.ShapeB, c.ShapeA, c.Normal.Neg()
	}
	return c
}

// meanPoint is the mean of a contact's points, each midway between the
// two surfaces; zero for none.
func meanPoint(set *cp.ContactPointSet) cp.Vector {
	var point cp.Vector
	for i := range set.Count {
		point = point.Add(set.Points[i].PointA).Add(set.Points[i].PointB)
	}
	if set.Count > 0 {
		point = point.Mult(0.5 / float64(set.Count))
	}
	return point
}
