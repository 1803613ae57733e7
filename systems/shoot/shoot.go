// Package shoot fires projectiles and moves them: a [Gun] on an entity
// fires while its trigger is held (or its aim.Aimer's fire action), with
// a speed, a spread, shots a pull, a cooldown in ticks and ammunition if
// asked; each shot flies as a swept point (or circle) that cannot pass
// through a wall however thin and however fast it flies, lives a number
// of ticks, and ends on the first shape it meets, reported as a [Hit] on
// that tick: what was hit, where, and by whose shot.
//
// Shots are entities from a pool: a shot that ends waits in the pool for
// the next one fired, so that once the pool has grown to the most shots
// in flight, firing and flying allocate nothing. They are not bodies in
// the cp space: each tick a shot casts a segment from where it was to
// where it goes (physics.QuerySegmentFirst), the usual way to keep fast
// projectiles from tunnelling. Everything that decides a shot is in its
// entity's components and its gun's, so a snapshot (a rollback, a step
// back, -synctest) restores it and a replay repeats it.
//
//	shots := shoot.New(st.Physics)
//	shots.Look = &gfx.Sprite{Image: bullet}     // drawn while flying, hidden in the pool
//	shots.OnHit(func(w donburi.World, h shoot.Hit) { ... })
//	st.Sched.AddUpdate(g, "aim", aims.Update).AddUpdate(g, "physics", st.Physics.Update).AddUpdate(g, "shoot", shots.Update)
//	shoot.GunC.SetValue(st.World.Entry(ship), shoot.Gun{Speed: 600, Cooldown: 6, Lifetime: 60, Damage: 1, Muzzle: 14})
package shoot

import (
	"fmt"

	"github.com/fixedstep/fixedstep/components"
	"github.com/fixedstep/fixedstep/engine"
	"github.com/fixedstep/fixedstep/engine/detmath"
	"github.com/fixedstep/fixedstep/systems/aim"
	"github.com/fixedstep/fixedstep/systems/physics"
	"github.com/fixedstep/fixedstep/third_party/cp"
	"github.com/fixedstep/fixedstep/third_party/donburi"
	"github.com/fixedstep/fixedstep/third_party/donburi/filter"
)

// Gun fires shots: its settings (speeds in world units a second, times in
// ticks of the shoot system's group) and its state.
type Gun struct {
	Speed float64 // of a shot
	// Spread is the cone shots leave in, in radians about the aim: a
	// single shot leaves at an angle drawn within ±Spread/2 from the gun's
	// own sequence (the owner and the shots it fired: the same in a
	// replay), Shots > 1 leave fanned evenly across it.
	Spread float64
	Shots  int // shots a pull; 0 means 1
	// Cooldown is the ticks from one pull to the next while the trigger
	// is held: 6 fires every 6th tick; 0 or 1, every tick.
	Cooldown int64
	Lifetime int64   // ticks a shot flies before it ends unseen; 0 means 60
	Damage   float64 // carried to the Hit
	Radius   float64 // of a shot (0: a point), swept along its path
	Muzzle   float64 // how far from the owner's position a shot appears
	// Mask, if not zero, is the shape categories a shot hits (as
	// physics.QueryFilter's): others it flies through.
	Mask uint64

	// Limited makes Ammo count: each shot takes one, and the gun is
	// silent at 0. Otherwise Ammo is not read.
	Limited bool
	Ammo    int

	// Trigger fires the gun while it is held (set by the game, an
	// agent's rules); an aim.Aimer's Fire on the same entity does too.
	Trigger bool

	// State: the ticks before the gun may fire again, and the shots it
	// has fired.
	Wait  int64
	Fired uint64
}

// GunC is the Gun component type.
var GunC = donburi.NewComponentType[Gun]()

// Shot is a projectile of the pool, in flight while Live.
type Shot struct {
	Live   bool
	Owner  donburi.Entity // the entity whose gun fired it; its shapes are not hit
	Vel    cp.Vector      // world units a second
	Left   int64          // ticks left to fly
	Damage float64
	Radius float64
	Mask   uint64
}

// ShotC is the Shot component type.
var ShotC = donburi.NewComponentType[Shot]()

// Hit is a shot ending on a shape, reported on the tick it happened.
type Hit struct {
	Tick   int64          // the shoot system's tick (engine.Event.Tick)
	Shot   donburi.Entity // the shot (back in the pool after the tick)
	Owner  donburi.Entity // whose gun fired it
	Target donburi.Entity // the entity hit: donburi.Null for a shape of no entity
	Shape  *cp.Shape
	// Point is where the shot met the shape's surface and Normal the
	// surface's normal there (physics.Hit's).
	Point, Normal cp.Vector
	Vel           cp.Vector // the shot's velocity
	Damage        float64   // its gun's
}

// A Hider is a look that a shot's entity shows while it flies and hides
// while it waits in the pool. *gfx.Sprite is one.
type Hider interface {
	SetHidden(e *donburi.Entry, hidden bool)
}

// System fires every gun and moves every shot, once a tick.
type System struct {
	// Look, when set before the first shot, is put on every shot of the
	// pool (a *gfx.Sprite: physics.Look's rules), and shown and hidden
	// with the shot when it is a Hider.
	Look physics.Look

	phys     *physics.Physics
	guns     *donburi.Query
	shots    *donburi.Query
	handlers []func(w donburi.World, h Hit)

	// Rebuilt each tick from the world: not state.
	free []donburi.Entity
	hits []Hit
	tick int64
}

// New returns the shoot system over phys's world and space.
func New(phys *physics.Physics) *System {
	return &System{
		phys:  phys,
		guns:  donburi.NewQuery(filter.Contains(GunC, components.TransformC)),
		shots: donburi.NewQuery(filter.Contains(ShotC, components.TransformC)),
	}
}

// OnHit calls f for every hit of a tick, in the order of [System.Hits],
// at the end of Update, when no query of the system is under way: f may
// remove entities (the target), spawn them, deal damage. Handlers stay
// registered for the life of the system.
func (s *System) OnHit(f func(w donburi.World, h Hit)) {
	if f == nil {
		panic("shoot: OnHit with a nil handler")
	}
	s.handlers = append(s.handlers, f)
}

// Hits returns the hits of the last Update's tick: shots that met a shape
// in flight, in the world's query order of the shots, then shots that met
// one between their owner and the muzzle as they were fired, in the
// order of the guns. It is valid until the next Update; systems after
// shoot in the same tick read it (the sound of a hit, a score).
func (s *System) Hits() []Hit { return s.hits }

// Reserve grows the pool to at least n shots, so that firing up to n
// shots in flight never creates an entity (call it when the scene is
// built, in the order it is always built: it creates entities).
func (s *System) Reserve(w donburi.World, n int) {
	for s.shots.Count(w) < n {
		s.newShot(w)
	}
}

// newShot adds a waiting shot to the pool.
func (s *System) newShot(w donburi.World) donburi.Entity {
	types := []donburi.IComponentType{components.TransformC, ShotC}
	if s.Look != nil {
		if err := s.Look.CheckLook(); err != nil {
			panic(fmt.Sprintf("shoot: Look: %v", err))
		}
		types = append(types, s.Look.LookType())
	}
	e := w.Create(types...)
	if s.Look != nil {
		entry := w.Entry(e)
		s.Look.SetLook(entry)
		if h, ok := s.Look.(Hider); ok {
			h.SetHidden(entry, true)
		}
	}
	return e
}

// Update is the system, for a tick of ev.DT seconds: first every shot in
// flight moves, in the world's query order, casting a segment (of its
// radius) from where it was to where it goes; the first shape met (not
// its owner's, not a sensor, in its Mask) ends it with a Hit, and a shot
// with no tick left ends too. Then every gun, in query order, counts its
// cooldown down and, triggered and ready (and with ammunition when
// Limited), fires its shots from its owner's position plus Muzzle along
// its aim: the entity's aim.Aimer when it has one, else its Transform's
// angle. A shot whose way from the owner to the muzzle meets a shape
// ends there with a Hit at once (a gun against a wall). Then the handlers
// see the tick's hits.
//
// Schedule it after the physics step in the same group: queries find
// shapes where the last step left them. A shot fired flies from the next
// tick. Once the pool holds the most shots in flight, Update allocates
// nothing (nor do handlers that allocate nothing); it panics on a gun
// whose Speed or Spread is not finite.
func (s *System) Update(w donburi.World, ev engine.Event) {
	s.tick = ev.Tick
	s.hits = s.hits[:0]
	s.free = s.free[:0]
	for e := range s.shots.Iter(w) {
		sh := ShotC.Get(e)
		if !sh.Live {
			s.free = append(s.free, e.Entity())
			continue
		}
		s.fly(e, sh, ev.DT)
		if !sh.Live {
			s.free = append(s.free, e.Entity())
		}
	}
	for e := range s.guns.Iter(w) {
		g := GunC.Get(e)
		if g.Wait > 0 {
			g.Wait--
		}
		triggered := g.Trigger
		if !triggered && e.HasComponent(aim.AimerC) {
			triggered = aim.AimerC.Get(e).Fire
		}
		if !triggered || g.Wait > 0 || g.Limited && g.Ammo <= 0 {
			continue
		}
		s.pull(w, e, g)
		g.Wait = g.Cooldown
	}
	for i := range s.hits {
		for _, f := range s.handlers {
			f(w, s.hits[i])
		}
	}
}

// fly moves shot e one tick of dt seconds.
func (s *System) fly(e *donburi.Entry, sh *Shot, dt float64) {
	t := components.TransformC.Get(e)
	from := cp.Vector{X: t.Cur.X, Y: t.Cur.Y}
	to := cp.Vector{X: from.X + float64(sh.Vel.X*dt), Y: from.Y + float64(sh.Vel.Y*dt)}
	q := physics.QueryFilter{Skip: sh.Owner, Mask: sh.Mask}
	if h, ok := s.phys.QuerySegmentFirst(from, to, sh.Radius, &q); ok {
		t.Set(components.Pose{X: h.Point.X, Y: h.Point.Y, Angle: t.Cur.Angle})
		s.hit(e, sh, h)
		return
	}
	t.Set(components.Pose{X: to.X, Y: to.Y, Angle: t.Cur.Angle})
	if sh.Left--; sh.Left <= 0 {
		s.end(e, sh)
	}
}

// hit ends shot e on h and reports it.
func (s *System) hit(e *donburi.Entry, sh *Shot, h physics.Hit) {
	s.hits = append(s.hits, Hit{
		Tick: s.tick, Shot: e.Entity(), Owner: sh.Owner, Target: h.Entity, Shape: h.Shape,
		Point: h.Point, Normal: h.Normal, Vel: sh.Vel, Damage: sh.Damage,
	})
	s.end(e, sh)
}

// end puts shot e back in the pool.
func (s *System) end(e *donburi.Entry, sh *Shot) {
	sh.Live = false
	if h, ok := s.Look.(Hider); ok && e.HasComponent(s.Look.LookType()) {
		h.SetHidden(e, true)
	}
}

// pull fires gun g of entity e once: its shots along its aim.
func (s *System) pull(w donburi.World, e *donburi.Entry, g *Gun) {
	if !(g.Speed-g.Speed == 0) || !(g.Spread-g.Spread == 0) {
		panic(fmt.Sprintf("shoot: entity %d's gun has speed %v, spread %v", e.Entity().Id(), g.Speed, g.Spread))
	}
	at := components.TransformC.Get(e).Cur
	pos := cp.Vector{X: at.X, Y: at.Y}
	var dir cp.Vector
	if e.HasComponent(aim.AimerC) {
		dir = aim.AimerC.Get(e).Direction()
	} else {
		sin, cos := detmath.Sincos(at.Angle)
		dir = cp.Vector{X: cos, Y: sin}
	}
	n := max(g.Shots, 1)
	owner := e.Entity()
	for i := range n {
		if g.Limited {
			if g.Ammo <= 0 {
				return
			}
			g.Ammo--
		}
		var u float64 // where in the cone, from 0 to 1
		if n == 1 {
			u = unitFloat(uint64(owner.Id())<<32 ^ uint64(owner.Version()) ^ g.Fired*0x9e3779b97f4a7c15)
		} else {
			u = float64(i) / float64(n-1)
		}
		g.Fired++
		d := dir
		if g.Spread != 0 {
			sin, cos := detmath.Sincos(float64(g.Spread * (u - 0.5)))
			d = cp.Vector{X: float64(cos*dir.X) - float64(sin*dir.Y), Y: float64(sin*dir.X) + float64(cos*dir.Y)}
		}
		muzzle := cp.Vector{X: pos.X + float64(d.X*g.Muzzle), Y: pos.Y + float64(d.Y*g.Muzzle)}
		sh := s.take(w)
		entry := w.Entry(sh)
		shot := ShotC.Get(entry)
		*shot = Shot{
			Live: true, Owner: owner, Left: g.Lifetime, Damage: g.Damage, Radius: g.Radius, Mask: g.Mask,
			Vel: cp.Vector{X: float64(d.X * g.Speed), Y: float64(d.Y * g.Speed)},
		}
		if shot.Left <= 0 {
			shot.Left = 60
		}
		angle := detmath.Atan2(d.Y, d.X)
		q := physics.QueryFilter{Skip: owner, Mask: g.Mask}
		if h, ok := s.phys.QuerySegmentFirst(pos, muzzle, g.Radius, &q); ok {
			components.TransformC.Get(entry).Teleport(components.Pose{X: h.Point.X, Y: h.Point.Y, Angle: angle})
			s.hit(entry, shot, h)
			s.free = append(s.free, sh)
			continue
		}
		components.TransformC.Get(entry).Teleport(components.Pose{X: muzzle.X, Y: muzzle.Y, Angle: angle})
		if h, ok := s.Look.(Hider); ok && entry.HasComponent(s.Look.LookType()) {
			h.SetHidden(entry, false)
		}
	}
}

// take returns a shot waiting in the pool, growing it when none waits.
func (s *System) take(w donburi.World) donburi.Entity {
	if n := len(s.free); n > 0 {
		e := s.free[n-1]
		s.free = s.free[:n-1]
		return e
	}
	return s.newShot(w)
}

// unitFloat returns a number in [0, 1) from x (SplitMix64's finaliser).
func unitFloat(x uint64) float64 {
	x ^= x >> 30
	x *= 0xbf58476d1ce4e5b9
	x ^= x >> 27
	x *= 0x94d049bb133111eb
	x ^= x >> 31
	return float64(x>>11) / (1 << 53)
}
