package physics

import (
	"fmt"
	"math"

	"github.com/fixedstep/fixedstep/third_party/cp"
	"github.com/fixedstep/fixedstep/third_party/donburi"
)

// One-way platforms and collision types.
//
// A shape spawned with BodyOptions.OneWay is solid only from one side: a
// shape that first touches it from that side collides with it; one that
// comes from any other side passes through, ignored until they part, and
// neither OnCollide nor OnSeparate hears of it (contact events are only
// for contacts the physics keeps). An entity with the DropThrough tag
// passes through every one-way platform, the ones it stands on included.
// The platform keeps its side in its OneWay component, and the verdict on
// a pass-through in cp's arbiter, so that snapshots, rewinds and replays
// carry both.

// OneWay is a one-way platform's solid side: the outward normal of the
// face that things land on (a unit vector; (0, -1) for a platform's top
// with y pointing down). SpawnX with BodyOptions.OneWay sets it.
type OneWay struct {
	Normal cp.Vector
}

// OneWayC is the component of a one-way platform.
var OneWayC = donburi.NewComponentType[OneWay]()

// DropThroughC is the tag of an entity that passes through one-way
// platforms: add it (donburi.Entry.AddComponent) to drop through the one a
// player stands on, remove it once below.
var DropThroughC = donburi.NewTag().SetName("DropThrough") // its value "", as before it had a name

// OneWayCollisionType is the cp collision type of one-way platforms'
// shapes: BodyOptions.CollisionType may not take it.
const OneWayCollisionType cp.CollisionType = math.MaxUint32 - 1

// passedThrough marks an arbiter a one-way platform let through (its
// UserData): its separation is not reported either.
type passedThrough struct{}

// watchType has the physics report contacts of shapes of collision type t
// (and decide one-way platforms' contacts): cp calls the wildcard handler
// of each shape's type, so every type in use has one. It is kept in the
// space, so that a snapshot holds it with the shapes of that type.
func (p *Physics) watchType(t cp.CollisionType) {
	if t == 0 && p.noEvents {
		return
	}
	p.watchedType(t)
	h := p.space.NewWildcardCollisionHandler(t)
	h.BeginFunc = p.onBegin
	h.SeparateFunc = p.onSeparate
	if t == OneWayCollisionType {
		h.PreSolveFunc = p.oneWayPreSolve
	}
}

// passes reports whether the contact between shapes a and b, with normal
// n from a to b, is one a one-way platform among them lets through.
func (p *Physics) passes(a, b *cp.Shape, n cp.Vector) bool {
	if a.CollisionType() != OneWayCollisionType && b.CollisionType() != OneWayCollisionType {
		return false
	}
	for _, s := range [2]struct {
		platform, other *cp.Shape
		n               cp.Vector
	}{{a, b, n}, {b, a, n.Neg()}} {
		if s.platform.CollisionType() != OneWayCollisionType {
			continue
		}
		if p.dropsThrough(s.other) {
			return true
		}
		if e := entityOf(s.platform); e != donburi.Null && p.world.Valid(e) {
			if entry := p.world.Entry(e); entry.HasComponent(OneWayC) && s.n.Dot(OneWayC.Get(entry).Normal) < 0 {
				return true // it came from behind the solid side
			}
		}
	}
	return false
}

func (p *Physics) dropsThrough(s *cp.Shape) bool {
	e := entityOf(s)
	return e != donburi.Null && p.world.Valid(e) && p.world.Entry(e).HasComponent(DropThroughC)
}

// oneWayPreSolve lets an entity that took the DropThrough tag while
// touching a one-way platform fall through it: the contact is ignored from
// this step until they part (its end is reported, as its beginning was).
func (p *Physics) oneWayPreSolve(arb *cp.Arbiter, _ *cp.Space, _ any) bool {
	a, b := arb.Shapes()
	if a.CollisionType() == OneWayCollisionType && p.dropsThrough(b) || b.CollisionType() == OneWayCollisionType && p.dropsThrough(a) {
		return arb.Ignore()
	}
	return true
}

// checkCollisionType checks o's collision type and one-way side.
func checkCollisionType(fn string, o *BodyOptions) {
	if o.CollisionType == OneWayCollisionType || o.CollisionType == cp.WILDCARD_COLLISION_TYPE {
		panic(fmt.Sprintf("systems: %s: CollisionType %d is reserved (one-way platforms, cp's wildcard)", fn, o.CollisionType))
	}
	if o.OneWay == (cp.Vector{}) {
		return
	}
	mustFiniteVector(fn, "OneWay", o.OneWay)
	if o.CollisionType != 0 {
		panic(fmt.Sprintf("systems: %s: a one-way platform has its own collision type: set OneWay or CollisionType, not both", fn))
	}
	if o.Sensor {
		panic(fmt.Sprintf("systems: %s: a sensor cannot be a one-way platform (it collides with nothing)", fn))
	}
}
