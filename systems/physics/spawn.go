package physics

import (
	"fmt"
	"math"
	"reflect"
	"slices"

	"github.com/fixedstep/fixedstep/components"
	"github.com/fixedstep/fixedstep/third_party/cp"
	"github.com/fixedstep/fixedstep/third_party/donburi"
)

// BodyKind is how a body moves. The zero value is [Dynamic].
//
// What collides with what (a collision is cp's response: bodies pushed
// apart, bouncing, friction):
//
//	             static   kinematic   dynamic
//	static         -         (-)        yes
//	kinematic     (-)        (-)        yes
//	dynamic       yes        yes        yes
//
// (-): the two shapes overlap freely, but the contact is still reported
// ([Physics.OnCollide], [CollisionBegin]), as a sensor's is. A kinematic body
// passes through walls: the game keeps it in bounds itself.
//
// A sensor shape ([BodyOptions].Sensor) never collides; its contacts are
// reported like any other, with every kind of body.
type BodyKind uint8

const (
	// Dynamic bodies are moved by cp: gravity, forces, impulses and
	// collisions. Balls, crates, players, enemies.
	Dynamic BodyKind = iota
	// Kinematic bodies move only by the velocity the game gives them (cp
	// integrates it; gravity and collisions do not change it) and push
	// dynamic bodies as if their mass were infinite. A moving platform, an
	// elevator, a Breakout paddle: set the velocity every tick (a platform
	// carries what stands on it by friction) and keep the body in bounds
	// yourself, since it passes through static walls.
	Kinematic
	// Static bodies never move by themselves (move one only by
	// [Physics.Teleport], which re-indexes its shapes). Walls, floors,
	// bricks, pickups (with a sensor shape). The cheapest kind: cp does not
	// integrate them, and static shapes are not tested against each other.
	Static
)

func (k BodyKind) String() string {
	switch k {
	case Dynamic:
		return "Dynamic"
	case Kinematic:
		return "Kinematic"
	case Static:
		return "Static"
	}
	return fmt.Sprintf("BodyKind(%d)", uint8(k))
}

// BodyOptions are the settings of a body made by the spawn helpers
// ([Physics.SpawnCircle], [Physics.SpawnBox], [Physics.SpawnPolygon],
// [Physics.SpawnSegment], [Physics.SpawnWalls]). The zero value, or nil, is a
// dynamic body of mass 1 at rest at the origin, at angle 0, whose shape has
// no friction, does not bounce, is solid and collides with everything.
//
// Units: world units (one unit is one pixel at camera zoom 1), radians,
// seconds, and mass in whatever unit the game's forces use.
type BodyOptions struct {
	Kind BodyKind

	// Position is where the body's origin is: the shape's centre for a
	// circle or a box, the origin of the vertices of a polygon, segment or
	// wall. Angle turns the body about it.
	Position cp.Vector
	Angle    float64
	// Velocity and AngularVelocity (radians per second) are the body's at
	// spawn. A static body must have none.
	Velocity        cp.Vector
	AngularVelocity float64

	// Mass is a dynamic body's mass. Zero: Density times the shape's area,
	// or 1 when Density is zero too. Static and kinematic bodies ignore it
	// (their mass is infinite).
	Mass float64
	// Density is mass per square world unit, used when Mass is zero.
	Density float64
	// Moment is a dynamic body's moment of inertia. Zero: computed from the
	// mass and the real shape, rounding included, about the shape's centre
	// of gravity (cp's own estimate leaves a polygon's rounding out).
	// math.Inf(1): the body never turns (a top-down player whose facing the
	// game sets).
	Moment float64

	// Friction is the shape's friction coefficient (cp multiplies the two
	// shapes'): 0, the default, slides freely; 0.5 to 1 grips.
	Friction float64
	// Elasticity is how much of the speed along the normal survives a
	// bounce (cp multiplies the two shapes'): 0, the default, does not
	// bounce; 1 bounces without loss, with a partner of elasticity 1.
	Elasticity float64
	// Sensor makes the shape report contacts without colliding: a pickup, a
	// trigger zone.
	Sensor bool

	// Collision filter, as cp's ShapeFilter: two shapes collide (and
	// report contacts) only if each one's Categories meet the other's Mask,
	// and they are not in the same non-zero Group. Zero Categories or Mask
	// mean all categories; Group 0 is no group.
	Categories, Mask uint64
	Group            uint64

	// CollisionType is cp's collision type of the shape, for the game's
	// own cp collision handlers (Physics.Space); 0 is the default. Contact
	// events (OnCollide, CollisionBegin) report every type: a game's
	// handler for a pair of types (Space().NewCollisionHandler) replaces
	// the physics' own, so it calls cp's CallWildcardBeginA and B (and the
	// others) for the events to go on.
	CollisionType cp.CollisionType
	// OneWay, when not zero, makes the shape a one-way platform solid from
	// this side (the outward normal of its top: (0, -1) with y pointing
	// down): a shape that first touches it from that side collides, one
	// from any other side passes through, unreported (see OneWay and
	// DropThroughC). It takes the collision type OneWayCollisionType.
	OneWay cp.Vector

	// CornerRadius rounds a box's or polygon's corners; the outline stays
	// the size given (cp's own rounding grows the shape by the radius all
	// round). It must be less than half the box's shorter side; a polygon
	// must keep every edge once moved in by it. Circles, segments and walls
	// take their radius as an argument and ignore it.
	//
	// Beware: cp v2.4.0 gets a circle's contact with a rounded polygon
	// wrong (an old Chipmunk bug, fixed in Chipmunk2D but not in the Go
	// port): circles sink into a rounded box or polygon, up to twice its
	// corner radius, the deeper the faster they hit it. Polygons, boxes and
	// segments meet it correctly. Where circles must rest on or bounce off a
	// box precisely, leave its corners sharp (TestCpCircleSinksIntoRoundedPolygons).
	CornerRadius float64

	// MaxSpeed, when positive, bounds a dynamic or kinematic body's speed
	// before every step (after the last step's solver and the systems
	// between, before the body moves), so it travels at most MaxSpeed x dt
	// a step (plus cp's small push that separates overlapping shapes): a
	// guard against tunnelling (see the package doc's Speed). The entity
	// gets a SpeedLimit, which holds the bound. 0: no bound.
	MaxSpeed float64

	// Sprite, if set, is how the entity is drawn: a *gfx.Sprite (package
	// components/gfx) gives the entity that Sprite, with its origin at the
	// centre of its Image when OriginX and OriginY are both zero; its Image
	// must be set. A *gfx.FittedSprite (Sprite.Fitted) gives it the Sprite
	// fitted to the body's box; a *gfx.Fill draws the body's segments and
	// boxes themselves (walls, platforms) with no sprite. Left nil (or a
	// nil pointer), as a server's simulation leaves it, the entity has no
	// look.
	Sprite Look
}

// lookOf returns o's look, nil for none: a nil pointer in the interface (a
// *gfx.Sprite left nil) is none too.
func lookOf(o *BodyOptions) Look {
	if o.Sprite == nil {
		return nil
	}
	if v := reflect.ValueOf(o.Sprite); v.Kind() == reflect.Pointer && v.IsNil() {
		return nil
	}
	return o.Sprite
}

// Look is a component that says how an entity is drawn, given to a spawn
// through BodyOptions.Sprite: *gfx.Sprite is one. Physics adds it through
// this interface, so that it links no graphics library and a simulation
// without graphics (a server's) runs it.
type Look interface {
	// LookType is the component type the look sets.
	LookType() donburi.IComponentType
	// CheckLook reports a look that cannot be drawn, before anything is
	// made: the spawn panics with it.
	CheckLook() error
	// SetLook sets the component on the new entity, which has LookType.
	SetLook(e *donburi.Entry)
}

var noOptions BodyOptions

// SpawnCircle creates an entity with a circle of radius r centred on its
// body, as [Physics.Spawn] does (Transform, Body, Shape, the body and shape
// in the space, UserData set), with the settings o (nil: the defaults of
// [BodyOptions]), the look o.Sprite when set, and the component types
// comps at their zero values (every type the game sets on the entity later:
// donburi's SetValue panics on a type the entity lacks). It returns the
// entity.
//
// It panics, naming the problem, on a radius or setting that is not finite,
// a radius that is not positive, or any other setting BodyOptions rules out:
// spawning is done when a scene is built, and a panic there comes back from
// engine.Run as the scene's error.
func (p *Physics) SpawnCircle(r float64, o *BodyOptions, comps ...donburi.IComponentType) donburi.Entity {
	const fn = "SpawnCircle"
	mustPositive(fn, "radius", r)
	return p.spawnShape(fn, o, comps, func(body *cp.Body) *cp.Shape { return cp.NewCircle(body, r, cp.Vector{}) },
		outline{core: []cp.Vector{{}}, r: r})
}

// SpawnBox creates an entity with a box exactly w by h world units outside,
// centred on its body, with its corners rounded by o.CornerRadius. Otherwise
// it is [Physics.SpawnCircle].
//
// cp's NewBox(body, w, h, r) is (w+2r) x (h+2r) outside; SpawnBox builds the
// w x h outline. The moment of inertia is the rounded box's own.
func (p *Physics) SpawnBox(w, h float64, o *BodyOptions, comps ...donburi.IComponentType) donburi.Entity {
	const fn = "SpawnBox"
	mustPositive(fn, "width", w)
	mustPositive(fn, "height", h)
	o = orDefault(o)
	r := o.CornerRadius
	mustNonNegative(fn, "CornerRadius", r)
	if 2*r >= min(w, h) {
		panic(fmt.Sprintf("systems: %s: CornerRadius %v is not less than half the shorter side of a %v x %v box", fn, r, w, h))
	}
	hw, hh := w/2-r, h/2-r
	core := []cp.Vector{{X: hw, Y: -hh}, {X: hw, Y: hh}, {X: -hw, Y: hh}, {X: -hw, Y: -hh}} // cp.NewBox's order
	return p.spawnShape(fn, o, comps, func(body *cp.Body) *cp.Shape { return cp.NewBox(body, 2*hw, 2*hh, r) },
		outline{core: core, r: r, box: true})
}

// SpawnPolygon creates an entity with the convex hull of verts (body-local
// points, any order; at least three not on one line) as its shape, with its
// corners rounded by o.CornerRadius inside that outline. Otherwise it is
// [Physics.SpawnCircle].
//
// A dynamic polygon turns about its centre of gravity, which is its
// centroid: not the body's origin unless the vertices are centred on it. When
// it is rounded, cp puts that centre at the centroid of the polygon before
// rounding, which differs from the rounded shape's by a fraction of the
// radius unless the polygon is symmetric; the moment is taken about cp's
// point.
func (p *Physics) SpawnPolygon(verts []cp.Vector, o *BodyOptions, comps ...donburi.IComponentType) donburi.Entity {
	const fn = "SpawnPolygon"
	for i, v := range verts {
		mustFiniteVector(fn, fmt.Sprintf("verts[%d]", i), v)
	}
	hull := convexHull(verts)
	if len(hull) < 3 {
		panic(fmt.Sprintf("systems: %s: the %d vertices have no area (their hull has %d points)", fn, len(verts), len(hull)))
	}
	o = orDefault(o)
	r := o.CornerRadius
	mustNonNegative(fn, "CornerRadius", r)
	core, ok := insetPolygon(hull, r)
	if !ok {
		panic(fmt.Sprintf("systems: %s: CornerRadius %v is too large for this polygon (an edge would vanish)", fn, r))
	}
	return p.spawnShape(fn, o, comps, func(body *cp.Body) *cp.Shape { return cp.NewPolyShapeRaw(body, len(core), core, r) },
		outline{core: core, r: r})
}

// SpawnSegment creates an entity with a segment from a to b (body-local) of
// radius r as its shape: a capsule 2r thick, with round ends (r 0: a line,
// which can still be hit). Otherwise it is [Physics.SpawnCircle]; a
// dynamic line of radius 0 needs a Mass (it has no area for a Density).
func (p *Physics) SpawnSegment(a, b cp.Vector, r float64, o *BodyOptions, comps ...donburi.IComponentType) donburi.Entity {
	const fn = "SpawnSegment"
	mustFiniteVector(fn, "a", a)
	mustFiniteVector(fn, "b", b)
	mustNonNegative(fn, "radius", r)
	if a == b {
		panic(fmt.Sprintf("systems: %s: the ends are the same point %v (use SpawnCircle)", fn, a))
	}
	return p.spawnShape(fn, o, comps, func(body *cp.Body) *cp.Shape { return cp.NewSegment(body, a, b, r) },
		outline{core: []cp.Vector{a, b}, r: r})
}

// SpawnWalls creates one static entity whose shape is the outline through
// points (body-local, at least two): a segment of radius r from each point to
// the next. To close the outline, repeat the first point at the end. It
// takes o's position, angle, friction, elasticity, sensor flag, filter and
// sprite; o.Kind must be Static or left zero (walls are static), and its
// velocities, mass and moment zero. Each segment of the outline is a shape of the entity: a contact
// or query names the entity, with the segment as its shape.
func (p *Physics) SpawnWalls(points []cp.Vector, r float64, o *BodyOptions, comps ...donburi.IComponentType) donburi.Entity {
	const fn = "SpawnWalls"
	if len(points) < 2 {
		panic(fmt.Sprintf("systems: %s: %d points make no wall (at least 2)", fn, len(points)))
	}
	for i, v := range points {
		mustFiniteVector(fn, fmt.Sprintf("points[%d]", i), v)
		if i > 0 && v == points[i-1] {
			panic(fmt.Sprintf("systems: %s: points[%d] repeats points[%d] %v", fn, i, i-1, v))
		}
	}
	mustNonNegative(fn, "radius", r)
	o = orDefault(o)
	if o.Kind != Dynamic && o.Kind != Static || o.Mass != 0 || o.Density != 0 || o.Moment != 0 || o.MaxSpeed != 0 {
		panic(fmt.Sprintf("systems: %s: walls are static: Kind Static (or zero), and Mass, Density, Moment and MaxSpeed zero", fn))
	}
	static := *o
	static.Kind = Static
	body := p.newBody(fn, &static)
	shapes := make([]*cp.Shape, len(points)-1)
	for i := range shapes {
		shapes[i] = cp.NewSegment(body, points[i], points[i+1], r)
		shapeSettings(shapes[i], &static)
	}
	return p.spawnEntity(body, shapes, &static, comps)
}

// outline is a shape's geometry for its mass: the polygon before rounding
// (one point for a circle, two for a segment) and the rounding radius.
type outline struct {
	core []cp.Vector
	r    float64
	box  bool // a box, centred: core[0] is its (w/2, -h/2) corner
}

// spawnShape checks o, makes the body and the shape, gives a dynamic body its
// mass and moment, and spawns the entity.
func (p *Physics) spawnShape(fn string, o *BodyOptions, comps []donburi.IComponentType, shape func(*cp.Body) *cp.Shape, g outline) donburi.Entity {
	o = orDefault(o)
	body := p.newBody(fn, o)
	s := shape(body)
	shapeSettings(s, o)
	if o.Kind != Dynamic {
		return p.spawnEntity(body, []*cp.Shape{s}, o, comps)
	}
	area, centroid, perMass := roundedMass(g.core, g.r)
	mass := o.Mass
	if mass == 0 {
		mass = 1
		if o.Density > 0 {
			mass = float64(o.Density * area)
		}
	}
	if !(mass > 0) || math.IsInf(mass, 0) {
		panic(fmt.Sprintf("systems: %s: a dynamic body needs a positive finite mass, got %v (Mass %v, Density %v, area %v)", fn, mass, o.Mass, o.Density, area))
	}
	// cp sums the body's mass and centre of gravity from its shapes' as the
	// shape joins the space; the moment is set after, from the real shape.
	s.SetMass(mass)
	e := p.spawnEntity(body, []*cp.Shape{s}, o, comps)
	switch {
	case o.Moment > 0:
		body.SetMoment(o.Moment)
	case len(g.core) == 1: // cp's formulas where they are exact, bit for bit
		body.SetMoment(cp.MomentForCircle(mass, 0, g.r, cp.Vector{}))
	case g.box && g.r == 0:
		body.SetMoment(cp.MomentForBox(mass, 2*g.core[0].X, -2*g.core[0].Y))
	default: // about cp's centre of gravity (the unrounded polygon's centroid)
		body.SetMoment(float64(mass * (perMass + centroid.DistanceSq(s.CenterOfGravity()))))
	}
	return e
}

// newBody checks o and makes its body, placed and moving as o says.
func (p *Physics) newBody(fn string, o *BodyOptions) *cp.Body {
	mustFiniteVector(fn, "Position", o.Position)
	mustFinite(fn, "Angle", o.Angle)
	mustFiniteVector(fn, "Velocity", o.Velocity)
	mustFinite(fn, "AngularVelocity", o.AngularVelocity)
	mustNonNegative(fn, "Mass", o.Mass)
	mustNonNegative(fn, "Density", o.Density)
	if math.IsNaN(o.Moment) || o.Moment < 0 {
		panic(fmt.Sprintf("systems: %s: Moment %v is negative or NaN", fn, o.Moment))
	}
	mustNonNegative(fn, "MaxSpeed", o.MaxSpeed)
	mustNonNegative(fn, "Friction", o.Friction)
	mustNonNegative(fn, "Elasticity", o.Elasticity)
	checkCollisionType(fn, o)
	if l := lookOf(o); l != nil {
		if err := l.CheckLook(); err != nil {
			panic(fmt.Sprintf("systems: %s: %v", fn, err))
		}
	}
	var body *cp.Body
	switch o.Kind {
	case Dynamic:
		body = cp.NewBody(0, 0) // mass and moment come with the shape
	case Kinematic:
		body = cp.NewKinematicBody()
	case Static:
		if o.Velocity != (cp.Vector{}) || o.AngularVelocity != 0 {
			panic(fmt.Sprintf("systems: %s: a static body cannot move (Velocity %v, AngularVelocity %v): make it Kinematic", fn, o.Velocity, o.AngularVelocity))
		}
		body = cp.NewStaticBody()
	default:
		panic(fmt.Sprintf("systems: %s: unknown %v", fn, o.Kind))
	}
	body.SetPosition(o.Position)
	body.SetAngle(o.Angle)
	if o.Kind != Static {
		body.SetVelocityVector(o.Velocity)
		body.SetAngularVelocity(o.AngularVelocity)
	}
	return body
}

// shapeSettings applies o's surface, sensor and filter settings to s.
func shapeSettings(s *cp.Shape, o *BodyOptions) {
	s.SetFriction(o.Friction)
	s.SetElasticity(o.Elasticity)
	s.SetSensor(o.Sensor)
	f := cp.ShapeFilter{Group: o.Group, Categories: o.Categories, Mask: o.Mask}
	if f.Categories == 0 {
		f.Categories = cp.ALL_CATEGORIES
	}
	if f.Mask == 0 {
		f.Mask = cp.ALL_CATEGORIES
	}
	s.SetFilter(f)
}

// spawnEntity spawns body and shapes with the look of o and comps (those
// that Spawn or the look adds anyway left out, so that none is there twice).
func (p *Physics) spawnEntity(body *cp.Body, shapes []*cp.Shape, o *BodyOptions, comps []donburi.IComponentType) donburi.Entity {
	look := lookOf(o)
	t := o.CollisionType
	if o.OneWay != (cp.Vector{}) {
		t = OneWayCollisionType
	}
	for _, s := range shapes {
		s.SetCollisionType(t)
	}
	if t != 0 {
		p.watchType(t)
	}
	if t == OneWayCollisionType {
		comps = append(slices.Clone(comps), OneWayC)
	}
	limited := o.MaxSpeed > 0 && o.Kind != Static
	if limited {
		comps = append(slices.Clone(comps), SpeedLimitC)
	}
	extra := make([]donburi.IComponentType, 0, len(comps)+1)
	for _, c := range comps {
		if c == nil {
			panic("systems: spawn: a nil component type")
		}
		if c.Id() == components.TransformC.Id() || c.Id() == components.BodyC.Id() || c.Id() == components.ShapeC.Id() ||
			look != nil && c.Id() == look.LookType().Id() ||
			slices.ContainsFunc(extra, func(x donburi.IComponentType) bool { return x.Id() == c.Id() }) {
			continue
		}
		extra = append(extra, c)
	}
	if look != nil {
		extra = append(extra, look.LookType())
	}
	e := p.Spawn(body, shapes, extra...)
	if look != nil {
		look.SetLook(p.world.Entry(e))
	}
	if t == OneWayCollisionType {
		OneWayC.SetValue(p.world.Entry(e), OneWay{Normal: o.OneWay.Normalize()})
	}
	if limited {
		SpeedLimitC.SetValue(p.world.Entry(e), SpeedLimit{Max: o.MaxSpeed})
	}
	return e
}

// Body returns entity e's body, or nil when e is not alive or has no Body.
func (p *Physics) Body(e donburi.Entity) *cp.Body {
	if !p.world.Valid(e) {
		return nil
	}
	entry := p.world.Entry(e)
	if !entry.HasComponent(components.BodyC) {
		return nil
	}
	return components.BodyC.Get(entry).Body
}

// Teleport puts entity e's body at pose (position and angle), keeping its
// velocities, and its Transform there with no interpolation from where it
// was ([components.Transform.Teleport]). It re-indexes the body's shapes, so
// that collisions and queries find them there at once: a static body must be
// moved this way (cp does not look for moved static shapes by itself). It
// reports false, and does nothing, when e is not alive or has no Body.
// Call it between steps (in a system or a contact handler), never from a cp
// callback.
func (p *Physics) Teleport(e donburi.Entity, pose components.Pose) bool {
	body := p.Body(e)
	if body == nil {
		return false
	}
	entry := p.world.Entry(e)
	body.SetPosition(cp.Vector{X: pose.X, Y: pose.Y})
	body.SetAngle(pose.Angle)
	if entry.HasComponent(components.ShapeC) {
		for _, s := range components.ShapeC.Get(entry).Shapes {
			if s.Space() == p.space {
				p.space.ReindexShape(s)
			}
		}
	}
	if entry.HasComponent(components.TransformC) {
		components.TransformC.Get(entry).Teleport(pose)
	}
	return true
}

func orDefault(o *BodyOptions) *BodyOptions {
	if o == nil {
		return &noOptions
	}
	return o
}

func mustFinite(fn, name string, v float64) {
	if math.IsNaN(v) || math.IsInf(v, 0) {
		panic(fmt.Sprintf("systems: %s: %s is %v", fn, name, v))
	}
}

func mustFiniteVector(fn, name string, v cp.Vector) {
	if math.IsNaN(v.X) || math.IsInf(v.X, 0) || math.IsNaN(v.Y) || math.IsInf(v.Y, 0) {
		panic(fmt.Sprintf("systems: %s: %s is %v", fn, name, v))
	}
}

func mustPositive(fn, name string, v float64) {
	if !(v > 0) || math.IsInf(v, 0) {
		panic(fmt.Sprintf("systems: %s: %s %v is not a positive finite number", fn, name, v))
	}
}

func mustNonNegative(fn, name string, v float64) {
	if !(v >= 0) || math.IsInf(v, 0) {
		panic(fmt.Sprintf("systems: %s: %s %v is negative or not finite", fn, name, v))
	}
}
