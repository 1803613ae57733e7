package physics

import (
	"cmp"
	"fmt"
	"slices"

	"github.com/fixedstep/fixedstep/components"
	"github.com/fixedstep/fixedstep/engine"
	"github.com/fixedstep/fixedstep/third_party/cp"
	"github.com/fixedstep/fixedstep/third_party/donburi"
	"github.com/fixedstep/fixedstep/third_party/donburi/features/events"
	"github.com/fixedstep/fixedstep/third_party/donburi/filter"
)

// Config configures a world's cp.Space. Zero fields take the
// defaults, which are cp's own: the zero Config steps exactly as a
// bare cp.NewSpace does. New reads every field back from the space
// in its tests; [Config.Validate] says what is out of range.
//
// Which settings pay off depends on the scene. On the demo's Stress scene,
// a pile of balls in a bin, BenchmarkBodymark finds how many balls fit a
// tick's budget under each setting and BenchmarkStressSettings weighs each
// per tick on an awake pile (package scenes; figures in BENCHMARKS.md):
// sleeping cuts the cost of a pile at rest to almost nothing, but a hit
// wakes every body the sleeping group touches, and an awake pile costs what
// it did; the spatial hash, 5 Iterations instead of 10 (a softer pile) and
// a CollisionSlop of 1 each save a little of an awake tick. Nothing here
// makes an awake step twice as fast: the step is cp's contact solving and
// narrow phase, which no setting removes. cp's collision bias and collision persistence are not
// here: cp v2.4.0 keeps them unexported, with no setter, so they stay at
// cp's defaults (see [Config.CollisionSlop] for the bias; a contact
// is remembered for 3 steps after its shapes part).
type Config struct {
	Gravity    cp.Vector // world units per second squared
	Iterations int       // solver iterations per step; 0 means 10 (cp's default). More: stiffer stacks, a slower step.

	// SleepTimeThreshold is how long, in seconds of game time, a group of
	// touching bodies must stay idle (every one of them slower than
	// IdleSpeedThreshold) before cp puts the whole group to sleep. 0 means
	// never: sleeping off, cp's default. A sleeping body costs (almost)
	// nothing in a step: cp neither integrates it nor solves its contacts,
	// and keeps its shapes with the static ones; its Transform stays at its
	// pose (Prev = Cur, so it is drawn where it is).
	//
	// Sleeping never changes a step while no body sleeps: until a group
	// falls asleep the simulation is the one with sleeping off. A group
	// wakes as a whole when an awake body touches it (and that step's
	// collision events arrive as usual), when a force, a velocity or a
	// position is set on one of its bodies (cp's setters wake it), when a
	// shape or body of it is removed, or when the gravity changes. A
	// kinematic body never sleeps and keeps the bodies it touches awake. The
	// catch: waking costs the whole group's awake price at once, so a big
	// pile at rest is cheap until something hits it.
	SleepTimeThreshold float64

	// IdleSpeedThreshold is the speed, in world units per second, under
	// which a body counts as idle for sleeping (cp compares kinetic energy,
	// rotation included). 0 means cp's default: the speed gravity adds in
	// one step (|Gravity|/Hz). Bodies resting in a pile jitter at about that
	// speed as the solver pushes them apart, so at the default a pile may
	// never fall asleep; a few times gravity's step lets it. Higher: groups
	// sleep sooner, but a body moving slower than this stops when its group
	// falls asleep.
	IdleSpeedThreshold float64

	// SpatialHashCell, when positive, makes cp find colliding pairs with a
	// spatial hash of square cells this wide (world units) instead of its
	// default bounding-box tree. The hash suits many shapes of about one size
	// (cp advises a cell about the size of a typical shape); a shape much
	// larger than a cell (a long wall) sits in every cell it covers, and
	// shapes much smaller than a cell are compared with everything in it.
	SpatialHashCell float64
	// SpatialHashCells is the number of cells in the hash's table, which
	// never grows: cp advises about 10 per shape; fewer make false pairs,
	// more waste memory and cache. 0 means 10,000. Only with SpatialHashCell.
	SpatialHashCells int

	// CollisionSlop is how far, in world units, shapes may overlap before
	// cp pushes them apart; 0 means cp's default, 0.1. A larger slop makes
	// resting contacts steadier (less jitter) at the cost of visible
	// overlap. cp removes the overlap beyond the slop at its fixed
	// collision bias: 0.2% of it is left after a second (0.9^60), 10% of it
	// corrected per 60 Hz step.
	CollisionSlop float64

	// Damping is the fraction of its velocity a body keeps each second
	// (cp's damping): 0.6 slows things down as a floor seen from above
	// does. 0 means 1: no damping.
	Damping float64

	// NoCollisionEvents leaves cp's collision callbacks uninstalled: no
	// CollisionBegin or CollisionSeparate events, and a cheaper step (cp
	// allocates a lookup key for every handler lookup; with callbacks each
	// contact takes two more: BenchmarkPhysics shows the difference).
	NoCollisionEvents bool

	// Loop, if set, is failed (see engine.Loop.Fail) with the first
	// *BadBodyError: its event stream ends after the current event and
	// engine.Run returns the error, wrapped in a *engine.SceneError. Nil: the
	// error is only kept, for Physics.Err.
	Loop *engine.Loop
}

// A BadBodyError reports a body whose state is not finite (NaN or ±Inf):
// found before a step (set so by the game, or by steering from an Agent) or
// after it (the solver blew up). Physics stops at the first one (see
// Physics.Err) instead of letting it spread to every body it touches.
//
// Before the step the entity named is the one whose value is bad. After it,
// the bad value may already have reached the bodies the culprit touched in
// that step (a static body's velocity turns NaN when an infinite impulse
// meets its zero inverse mass): the entity named is the first bad one in the
// world's query order.
type BadBodyError struct {
	Entity donburi.Entity // the body's entity; donburi.Null for a body put in the space directly
	Tick   int64          // the tick (engine.Event.Tick) of the step
	Before bool           // found before the step, not made by it
	// Field is what is not finite: "position", "angle", "velocity",
	// "angular velocity", or before the step also "force", "torque" or the
	// Agent's "desired velocity".
	Field string
	Value cp.Vector // the bad value; for a scalar field, in X (Y is 0)
}

func (e *BadBodyError) Error() string {
	when := "after"
	if e.Before {
		when = "before"
	}
	v := fmt.Sprintf("(%v, %v)", e.Value.X, e.Value.Y)
	if e.Field == "angle" || e.Field == "angular velocity" || e.Field == "torque" {
		v = fmt.Sprint(e.Value.X)
	}
	return fmt.Sprintf("physics: entity %d (version %d) has %s %s %s the step of tick %d",
		e.Entity.Id(), e.Entity.Version(), e.Field, v, when, e.Tick)
}

// Collision names the two entities whose shapes began or stopped touching,
// A < B: the event of CollisionBegin and CollisionSeparate. An entity is
// donburi.Null for a shape that belongs to no entity (for example a wall
// put straight into the space).
type Collision struct {
	A, B donburi.Entity
}

// CollisionBegin and CollisionSeparate are published on the world when two
// shapes begin and stop touching, and processed in the same tick, right after
// the step. Subscribe with CollisionBegin.Subscribe(world, handler).
//
// cp calls its Separate callbacks in an order that changes from run to run
// (it walks a pointer-hashed set), so the physics system buffers both kinds
// during the step and publishes them sorted by (A, B): the order depends only
// on the simulation. A shape removed between steps separates at once; that
// event is published with the next step's, and may name an entity that no
// longer exists (check world.Valid).
var (
	CollisionBegin    = events.NewEventType[Collision]().SetName("CollisionBegin")
	CollisionSeparate = events.NewEventType[Collision]().SetName("CollisionSeparate")
)

// Physics owns a world's cp.Space and keeps it and the world in step: an
// entity spawned with a body puts the body and its shapes in the space; an
// entity removed from the world takes its body, shapes and constraints out;
// each fixed step moves every Transform (previous <- current <- body).
//
// Entities with a body come from Spawn (a body and shapes built by hand) or
// from the spawn helpers, which build them as the settings say and avoid
// cp's traps: [Physics.SpawnCircle], [Physics.SpawnBox],
// [Physics.SpawnPolygon], [Physics.SpawnSegment], [Physics.SpawnWalls] (see
// [BodyKind] for what collides with what). Queries answer entities
// ([Hit]); contact handlers pick contacts by component
// ([Physics.OnCollide]).
//
// Collisions are reported (see CollisionBegin) for every pair that involves a
// shape of collision type 0, the default: Physics installs cp's wildcard
// handler for that type. A game's own handler for a pair reports to Physics
// only if it calls cp's wildcard callbacks.
//
// Bad values stop it: a body whose force, torque, velocity or pose is NaN or
// infinite before a step (or an Agent whose desired velocity is), or whose
// pose or velocity is after it, is reported
// as a *BadBodyError naming its entity and the tick (Physics.Err, and the
// loop's error when Config.Loop is set), and from then on Update does
// nothing, so the space keeps the state in which it was found. The checks
// read each body once before the step and once while syncing after it, and
// allocate nothing unless they find something.
type Physics struct {
	space            *cp.Space
	world            donburi.World
	loop             *engine.Loop
	moving           *donburi.Query // Transform + Body
	agents           *donburi.Query // Agent + Body
	limited          *donburi.Query // SpeedLimit + Body
	begins, separate []Collision
	tick             int64 // of the current or last Update
	err              *BadBodyError
	contacts         contactHandlers    // OnCollide, OnTouch and OnSeparate (contact.go)
	touches          touches            // the pairs of shapes touching (touch.go)
	noEvents         bool               // Config.NoCollisionEvents
	queries          *queryState        // made by the first query (query.go)
	watched          []cp.CollisionType // the types watchType was given, in order (bytes.go)
	bytes            *stateBytes        // made by the first AppendState or ReadState (bytes.go)
}

// New returns the physics system of world w, with a new space set
// up by cfg. It panics with [Config.Validate]'s error if cfg is out
// of range: a programming error, found when the scene is built.
func New(w donburi.World, cfg Config) *Physics {
	if err := cfg.Validate(); err != nil {
		panic(err)
	}
	p := &Physics{
		space:   cp.NewSpace(),
		world:   w,
		loop:    cfg.Loop,
		moving:  donburi.NewQuery(filter.Contains(components.TransformC, components.BodyC)),
		agents:  donburi.NewQuery(filter.Contains(components.AgentC, components.BodyC)),
		limited: donburi.NewQuery(filter.Contains(SpeedLimitC, components.BodyC)),
	}
	cfg.apply(p.space)
	p.noEvents = cfg.NoCollisionEvents
	p.watchType(0)
	w.OnRemove(p.onRemove)
	return p
}

// Space returns the cp space, for queries and for constraints. Bodies and
// shapes of entities go in through Spawn, not Space().AddBody.
func (p *Physics) Space() *cp.Space { return p.space }

// Spawn creates an entity with a Transform, a Body and a Shape (plus the
// component types comps, at their zero values), puts body and shapes in the
// space, and sets their UserData to the entity. The Transform rests at the
// body's pose. A static or kinematic body works too.
func (p *Physics) Spawn(body *cp.Body, shapes []*cp.Shape, comps ...donburi.IComponentType) donburi.Entity {
	types := append([]donburi.IComponentType{components.TransformC, components.BodyC, components.ShapeC}, comps...)
	e := p.world.Create(types...)
	entry := p.world.Entry(e)
	if body != p.space.StaticBody && !p.space.ContainsBody(body) {
		p.space.AddBody(body)
	}
	body.UserData = e
	for _, s := range shapes {
		s.UserData = e
		p.space.AddShape(s)
	}
	pos := body.Position()
	components.TransformC.SetValue(entry, components.NewTransform(components.Pose{X: pos.X, Y: pos.Y, Angle: body.Angle()}))
	components.BodyC.SetValue(entry, components.Body{Body: body})
	components.ShapeC.SetValue(entry, components.Shape{Shapes: slices.Clone(shapes)})
	return e
}

// onRemove takes an entity's constraints, shapes and body out of the space
// before the world forgets it.
func (p *Physics) onRemove(w donburi.World, e donburi.Entity) {
	entry := w.Entry(e)
	if entry.HasComponent(components.ShapeC) {
		for _, s := range components.ShapeC.Get(entry).Shapes {
			if s.Space() == p.space {
				p.space.RemoveShape(s)
			}
		}
	}
	if !entry.HasComponent(components.BodyC) {
		return
	}
	body := components.BodyC.Get(entry).Body
	if body == nil || body == p.space.StaticBody {
		return
	}
	body.EachConstraint(func(c *cp.Constraint) {
		if p.space.ContainsConstraint(c) {
			p.space.RemoveConstraint(c)
		}
	})
	if p.space.ContainsBody(body) {
		p.space.RemoveBody(body)
	}
}

// Update is the physics system: one fixed step of ev.DT seconds. It checks
// every body in the space (agents' steering is Steer's, a system of its
// own, run before it), steps the space, moves every Transform to its
// body's pose (the old pose becomes Prev), checking it, then publishes and
// processes the step's collisions, sorted, and calls the contact handlers
// (see OnCollide and OnTouch). Once a bad body has been found (see Err) it
// does nothing.
func (p *Physics) Update(w donburi.World, ev engine.Event) {
	if p.err != nil {
		return
	}
	p.tick = ev.Tick
	p.checkBefore()
	if p.err != nil {
		return
	}
	p.limitSpeeds(w)
	p.space.Step(ev.DT)
	p.settleTouches()
	p.Sync(w)
	if p.err != nil {
		return
	}
	p.publish(w)
	p.dispatchContacts(w)
}

// Err returns the first body found with a NaN or infinite value, as a
// *BadBodyError, or nil.
func (p *Physics) Err() error {
	if p.err == nil {
		return nil
	}
	return p.err
}

// Sync moves every Transform to its body's pose, the old pose becoming Prev.
// Update calls it after each step. A body whose pose or velocity is not
// finite is reported (see Err) and its Transform keeps its last good pose.
//
// It reads the entities an archetype at a time ([donburi.Columns2]), in the
// order of the query's Iter, and allocates nothing.
func (p *Physics) Sync(w donburi.World) {
	for cols := range donburi.Columns2(p.moving, w, components.TransformC, components.BodyC) {
		trs, bodies := cols.A[:len(cols.Entities)], cols.B[:len(cols.Entities)]
		for i, e := range cols.Entities {
			if !e.IsReady() {
				continue
			}
			b := bodies[i].Body
			pos, a, v, av := b.Position(), b.Angle(), b.Velocity(), b.AngularVelocity()
			if s := pos.X + pos.Y + a + v.X + v.Y + av; s-s != 0 && p.check(e, b, false) {
				continue
			}
			trs[i].Set(components.Pose{X: pos.X, Y: pos.Y, Angle: a})
		}
	}
}

// checkBefore checks every awake body in the space (dynamic and kinematic
// bodies, then static ones) before the step. It reads cp's own arrays, not
// EachBody: that locks the space, and cp's debug build allocates in the
// unlock. Sleeping bodies are left out: cp does not step them, and setting a
// body's velocity, force or position wakes it.
func (p *Physics) checkBefore() {
	for _, kind := range [...]int{cp.BODY_DYNAMIC, cp.BODY_STATIC} {
		for _, b := range *p.space.ArrayForBodyType(kind) {
			f, t, v, w, pos, a := b.Force(), b.Torque(), b.Velocity(), b.AngularVelocity(), b.Position(), b.Angle()
			if s := f.X + f.Y + t + v.X + v.Y + w + pos.X + pos.Y + a; s-s != 0 { // NaN or ±Inf somewhere (or a finite overflow)
				p.check(entityOfBody(b), b, true)
			}
		}
	}
}

// check looks at each of a body's values on its own (their sum was not
// finite) and reports the first that is not finite, if any: false means a
// sum of large finite values overflowed.
func (p *Physics) check(e donburi.Entity, b *cp.Body, before bool) bool {
	type value struct {
		field string
		v     cp.Vector
	}
	values := []value{{"position", b.Position()}, {"angle", cp.Vector{X: b.Angle()}},
		{"velocity", b.Velocity()}, {"angular velocity", cp.Vector{X: b.AngularVelocity()}}}
	if before {
		values = append(values, value{"force", b.Force()}, value{"torque", cp.Vector{X: b.Torque()}})
	}
	for _, x := range values {
		if finite(x.v.X) && finite(x.v.Y) {
			continue
		}
		p.report(&BadBodyError{Entity: e, Tick: p.tick, Before: before, Field: x.field, Value: x.v})
		return true
	}
	return false
}

// report keeps the first bad body and fails the loop with it.
func (p *Physics) report(err *BadBodyError) {
	if p.err != nil {
		return
	}
	p.err = err
	if p.loop != nil {
		p.loop.Fail(err)
	}
}

func finite(x float64) bool { return x-x == 0 }

func entityOfBody(b *cp.Body) donburi.Entity {
	if e, ok := b.UserData.(donburi.Entity); ok {
		return e
	}
	return donburi.Null
}

func (p *Physics) publish(w donburi.World) {
	if len(p.begins) == 0 && len(p.separate) == 0 {
		return
	}
	slices.SortFunc(p.begins, compareCollisions)
	slices.SortFunc(p.separate, compareCollisions)
	for _, c := range p.begins {
		CollisionBegin.Publish(w, c)
	}
	for _, c := range p.separate {
		CollisionSeparate.Publish(w, c)
	}
	p.begins, p.separate = p.begins[:0], p.separate[:0]
	CollisionBegin.ProcessEvents(w)
	CollisionSeparate.ProcessEvents(w)
}

func compareCollisions(a, b Collision) int {
	if c := cmp.Compare(a.A, b.A); c != 0 {
		return c
	}
	return cmp.Compare(a.B, b.B)
}

// onBegin is every watched type's begin: a one-way platform's verdict (a
// contact it lets through is ignored until the shapes part, and not
// reported), then the contact noted for the events.
func (p *Physics) onBegin(arb *cp.Arbiter, _ *cp.Space, _ any) bool {
	a, b := arb.Shapes()
	if p.passes(a, b, arb.Normal()) {
		arb.UserData = passedThrough{}
		return false
	}
	if c, ok := collision(arb); ok && !p.noEvents {
		p.begins = append(p.begins, c)
		p.beginTouch(arb, c)
		p.noteContact(arb, c, true)
	}
	return true
}

func (p *Physics) onSeparate(arb *cp.Arbiter, _ *cp.Space, _ any) {
	if _, passed := arb.UserData.(passedThrough); passed || p.noEvents {
		return
	}
	if c, ok := collision(arb); ok {
		p.separate = append(p.separate, c)
		p.endTouch(arb, c)
		p.noteContact(arb, c, false)
	}
}

// collision names the entities of an arbiter's shapes. cp calls the
// wildcard handlers of both shapes' collision types, once each way round:
// only the call with the lower type first counts, and with one type the
// call with the lower entity first. A contact between two shapes of no
// entity names nothing and is not reported.
func collision(arb *cp.Arbiter) (Collision, bool) {
	a, b := arb.Shapes()
	ea, eb := entityOf(a), entityOf(b)
	ta, tb := a.CollisionType(), b.CollisionType()
	if ea == donburi.Null && eb == donburi.Null || ta > tb || ta == tb && ea > eb {
		return Collision{}, false
	}
	return Collision{A: min(ea, eb), B: max(ea, eb)}, true
}

func entityOf(s *cp.Shape) donburi.Entity {
	if e, ok := s.UserData.(donburi.Entity); ok {
		return e
	}
	return donburi.Null
}

// Bodies returns how many bodies and shapes the space holds, for overlays and
// leak checks.
func (p *Physics) Bodies() (bodies, shapes int) {
	p.space.EachBody(func(*cp.Body) { bodies++ })
	p.space.EachShape(func(*cp.Shape) { shapes++ })
	return bodies, shapes
}

// Steer is the steering system: it pushes every agent's body (an entity
// with a components.Agent and a Body) towards its desired velocity, with
// at most its MaxForce (see components.Agent.SteeringForce), adding to the forces
// already on the body. The AI decides at its own rate what each agent
// wants; Steer turns that into forces every physics tick. Add it to the
// physics group right before Update, which applies the forces in its step:
//
//	sched.AddUpdate(physics, "steer", phys.Steer).AddUpdate(physics, "physics", phys.Update)
//
// A desired velocity that is not finite is reported as a *BadBodyError
// (field "desired velocity"; SteeringForce would quietly make it no
// force), as a bad body is, and Update does nothing from then on. Once a
// bad body has been found Steer does nothing either. It allocates nothing.
func (p *Physics) Steer(w donburi.World, ev engine.Event) {
	if p.err != nil {
		return
	}
	p.tick = ev.Tick
	for cols := range donburi.Columns2(p.agents, w, components.AgentC, components.BodyC) {
		agents, bodies := cols.A[:len(cols.Entities)], cols.B[:len(cols.Entities)]
		for i, e := range cols.Entities {
			if !e.IsReady() {
				continue
			}
			a, b := agents[i], bodies[i].Body
			if !finite(a.Desired.X) || !finite(a.Desired.Y) {
				p.report(&BadBodyError{Entity: e, Tick: p.tick, Before: true, Field: "desired velocity", Value: a.Desired})
				return
			}
			f := a.SteeringForce(b.Velocity(), b.Mass(), ev.DT)
			b.SetForce(b.Force().Add(f))
		}
	}
}
