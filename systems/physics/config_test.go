package physics_test

import (
	"errors"
	"math"
	"reflect"
	"strings"
	"testing"

	"github.com/fixedstep/fixedstep/components"
	"github.com/fixedstep/fixedstep/engine"
	"github.com/fixedstep/fixedstep/systems/physics"
	"github.com/fixedstep/fixedstep/third_party/cp"
	"github.com/fixedstep/fixedstep/third_party/donburi"
)

// spaceField reads an unexported field of a cp.Space (cp v2.4.0 has no
// getter for the collision slop or the broad phase): reflection may read
// unexported fields, never set them.
func spaceField(space *cp.Space, name string) reflect.Value {
	v := reflect.ValueOf(space).Elem().FieldByName(name)
	if !v.IsValid() {
		panic("cp.Space has no field " + name)
	}
	return v
}

// broadPhase tells what a space's index of dynamic or static shapes
// ("dynamicShapes", "staticShapes") is: "*cp.BBTree" or "*cp.SpaceHash",
// with the hash's cell size and cell count.
func broadPhase(space *cp.Space, index string) (kind string, cell float64, cells int64) {
	class := spaceField(space, index).Elem().FieldByName("class").Elem()
	kind = class.Type().String()
	if kind == "*cp.SpaceHash" {
		h := class.Elem()
		return kind, h.FieldByName("celldim").Float(), h.FieldByName("numCells").Int()
	}
	return kind, 0, 0
}

// The zero Config is cp's own defaults, read back from the space,
// beside a bare cp.NewSpace: 10 iterations, sleeping off, idle speed from
// gravity, slop 0.1, the bounding-box tree.
func TestConfigDefaultsAreCps(t *testing.T) {
	p := physics.New(donburi.NewWorld(), physics.Config{})
	space, bare := p.Space(), cp.NewSpace()
	if space.Iterations != 10 || space.Iterations != bare.Iterations {
		t.Errorf("Iterations %d, cp's %d; want 10", space.Iterations, bare.Iterations)
	}
	if space.SleepTimeThreshold != bare.SleepTimeThreshold || space.SleepTimeThreshold != cp.INFINITY {
		t.Errorf("SleepTimeThreshold %v, cp's %v; want cp.INFINITY (never)", space.SleepTimeThreshold, bare.SleepTimeThreshold)
	}
	if space.IdleSpeedThreshold != 0 {
		t.Errorf("IdleSpeedThreshold %v, want 0 (gravity's step)", space.IdleSpeedThreshold)
	}
	if got, want := spaceField(space, "collisionSlop").Float(), spaceField(bare, "collisionSlop").Float(); got != want || got != 0.1 {
		t.Errorf("collision slop %v, cp's %v; want 0.1", got, want)
	}
	for _, index := range []string{"dynamicShapes", "staticShapes"} {
		if kind, _, _ := broadPhase(space, index); kind != "*cp.BBTree" {
			t.Errorf("%s: %s, want cp's default *cp.BBTree", index, kind)
		}
	}
}

// Every field reaches the space as documented, read back from cp.
func TestConfigReachesTheSpace(t *testing.T) {
	cfg := physics.Config{Gravity: cp.Vector{X: 1, Y: 300}, Iterations: 4, SleepTimeThreshold: 0.5,
		IdleSpeedThreshold: 20, SpatialHashCell: 14, SpatialHashCells: 30_000, CollisionSlop: 0.5, Damping: 0.6}
	space := physics.New(donburi.NewWorld(), cfg).Space()
	if space.Gravity() != cfg.Gravity || space.Iterations != 4 || space.SleepTimeThreshold != 0.5 || space.IdleSpeedThreshold != 20 ||
		space.Damping() != 0.6 {
		t.Errorf("gravity %v, iterations %d, sleep %v, idle %v, damping %v", space.Gravity(), space.Iterations, space.SleepTimeThreshold,
			space.IdleSpeedThreshold, space.Damping())
	}
	if d := physics.New(donburi.NewWorld(), physics.Config{}).Space().Damping(); d != 1 {
		t.Errorf("damping %v by default, want 1 (none)", d)
	}
	if slop := spaceField(space, "collisionSlop").Float(); slop != 0.5 {
		t.Errorf("collision slop %v, want 0.5", slop)
	}
	for _, index := range []string{"dynamicShapes", "staticShapes"} {
		if kind, cell, cells := broadPhase(space, index); kind != "*cp.SpaceHash" || cell != 14 || cells != 30_000 {
			t.Errorf("%s: %s cell %v cells %d, want *cp.SpaceHash 14 30000", index, kind, cell, cells)
		}
	}
	// SpatialHashCells 0 is the documented default.
	space = physics.New(donburi.NewWorld(), physics.Config{SpatialHashCell: 10}).Space()
	if _, _, cells := broadPhase(space, "dynamicShapes"); cells != physics.DefaultSpatialHashCells {
		t.Errorf("hash cells %d, want DefaultSpatialHashCells %d", cells, physics.DefaultSpatialHashCells)
	}
}

// Bad values are a *ConfigError naming the field; New panics
// with it.
func TestConfigValidate(t *testing.T) {
	nan, inf := math.NaN(), math.Inf(1)
	for _, c := range []struct {
		cfg   physics.Config
		field string
	}{
		{physics.Config{Gravity: cp.Vector{Y: nan}}, "Gravity.Y"},
		{physics.Config{Gravity: cp.Vector{X: -inf}}, "Gravity.X"},
		{physics.Config{Iterations: -1}, "Iterations"},
		{physics.Config{SleepTimeThreshold: -0.5}, "SleepTimeThreshold"},
		{physics.Config{SleepTimeThreshold: inf}, "SleepTimeThreshold"},
		{physics.Config{IdleSpeedThreshold: nan}, "IdleSpeedThreshold"},
		{physics.Config{SpatialHashCell: -14}, "SpatialHashCell"},
		{physics.Config{SpatialHashCell: 14, SpatialHashCells: -1}, "SpatialHashCells"},
		{physics.Config{SpatialHashCells: 1000}, "SpatialHashCells"},
		{physics.Config{CollisionSlop: -0.1}, "CollisionSlop"},
		{physics.Config{Damping: 1.5}, "Damping"},
		{physics.Config{Damping: nan}, "Damping"},
	} {
		err := c.cfg.Validate()
		var ce *physics.ConfigError
		if !errors.As(err, &ce) || ce.Field != c.field || !strings.Contains(err.Error(), c.field) {
			t.Errorf("%+v: Validate() = %v, want a *ConfigError naming %s", c.cfg, err, c.field)
			continue
		}
		func() {
			defer func() {
				if r := recover(); r == nil || !strings.Contains(r.(error).Error(), c.field) {
					t.Errorf("%+v: New recovered %v, want a panic naming %s", c.cfg, r, c.field)
				}
			}()
			physics.New(donburi.NewWorld(), c.cfg)
		}()
	}
	if err := (physics.Config{}).Validate(); err != nil {
		t.Errorf("the zero config: %v", err)
	}
}

// floorScene is a static floor at y=0 (gravity pulls towards -y) through
// the physics system, and a helper to drop circles of radius r on it.
func floorScene(cfg physics.Config) (donburi.World, *physics.Physics, func(x, y, r float64) donburi.Entity) {
	w := donburi.NewWorld()
	p := physics.New(w, cfg)
	floor := cp.NewSegment(p.Space().StaticBody, cp.Vector{X: -1000}, cp.Vector{X: 1000}, 0)
	floor.SetFriction(1)
	p.Spawn(p.Space().StaticBody, []*cp.Shape{floor})
	drop := func(x, y, r float64) donburi.Entity {
		b := cp.NewBody(1, cp.MomentForCircle(1, 0, r, cp.Vector{}))
		b.SetPosition(cp.Vector{X: x, Y: y})
		s := cp.NewCircle(b, r, cp.Vector{})
		s.SetFriction(1)
		return p.Spawn(b, []*cp.Shape{s})
	}
	return w, p, drop
}

func bodyOf(w donburi.World, e donburi.Entity) *cp.Body {
	return components.BodyC.Get(w.Entry(e)).Body
}

// A ball at rest falls asleep after SleepTimeThreshold (and not before); with
// sleeping off (the default) it never does.
func TestSleepTimeThreshold(t *testing.T) {
	ev := engine.Event{Kind: engine.Update, DT: 1.0 / 60}
	for _, sleep := range []float64{0, 0.5} {
		w, p, drop := floorScene(physics.Config{Gravity: cp.Vector{Y: -100}, SleepTimeThreshold: sleep})
		ball := drop(0, 5, 5) // resting on the floor
		fellAsleep := -1
		for tick := 1; tick <= 600; tick++ {
			p.Update(w, ev)
			if bodyOf(w, ball).IsSleeping() && fellAsleep < 0 {
				fellAsleep = tick
			}
		}
		switch {
		case sleep == 0 && fellAsleep >= 0:
			t.Errorf("sleeping off: the ball fell asleep at tick %d", fellAsleep)
		case sleep > 0 && (fellAsleep < 30 || fellAsleep > 60):
			t.Errorf("sleep %v s: the ball fell asleep at tick %d, want after 30 ticks and soon after", sleep, fellAsleep)
		}
		if want := map[bool]int{true: 1, false: 0}[sleep > 0]; p.Sleeping() != want {
			t.Errorf("sleep %v: Sleeping() = %d, want %d", sleep, p.Sleeping(), want)
		}
	}
}

// IdleSpeedThreshold decides what counts as idle: a ball rolling at 10
// units/s on a flat floor never sleeps at a threshold of 5 (or at the
// default, gravity's step, about 1.7), and falls asleep, still rolling, at
// 20.
func TestIdleSpeedThreshold(t *testing.T) {
	ev := engine.Event{Kind: engine.Update, DT: 1.0 / 60}
	for _, idle := range []float64{0, 5, 20} {
		w, p, drop := floorScene(physics.Config{Gravity: cp.Vector{Y: -100}, SleepTimeThreshold: 0.2, IdleSpeedThreshold: idle})
		ball := drop(0, 5, 5)
		b := bodyOf(w, ball)
		b.SetVelocity(10, 0)
		b.SetAngularVelocity(-2) // rolling without slipping: v = w r
		for range 120 {
			p.Update(w, ev)
		}
		if asleep := b.IsSleeping(); asleep != (idle == 20) {
			t.Errorf("idle speed %v: asleep %v at speed %.1f", idle, asleep, b.Velocity().Length())
		}
	}
}

// CollisionSlop is the overlap cp leaves alone: a ball put 3 units deep into
// the floor (no gravity) is pushed out until it overlaps by the slop, and no
// further.
func TestCollisionSlop(t *testing.T) {
	ev := engine.Event{Kind: engine.Update, DT: 1.0 / 60}
	for _, slop := range []float64{0, 0.5, 2} {
		w, p, drop := floorScene(physics.Config{CollisionSlop: slop})
		ball := drop(0, 2, 5)
		for range 300 {
			p.Update(w, ev)
		}
		want := slop
		if slop == 0 {
			want = 0.1 // cp's default
		}
		if overlap := 5 - bodyOf(w, ball).Position().Y; math.Abs(overlap-want) > 0.01 {
			t.Errorf("slop %v: the ball overlaps the floor by %.4f after 5 s, want %v", slop, overlap, want)
		}
	}
}

// With the spatial hash, collisions are found as with the tree: the same
// pile of 200 balls in a box comes to rest in the box, every ball inside it,
// and the events report the same pairs touching the floor at the end.
func TestSpatialHashFindsTheSameContacts(t *testing.T) {
	ev := engine.Event{Kind: engine.Update, DT: 1.0 / 60}
	for _, cell := range []float64{0, 10, 40} {
		cfg := physics.Config{Gravity: cp.Vector{Y: -100}, SpatialHashCell: cell}
		if cell > 0 {
			cfg.SpatialHashCells = 2000
		}
		w, p, drop := floorScene(cfg)
		for _, x := range []float64{-100, 100} { // the box's walls
			wall := cp.NewSegment(p.Space().StaticBody, cp.Vector{X: x}, cp.Vector{X: x, Y: 400}, 0)
			p.Spawn(p.Space().StaticBody, []*cp.Shape{wall})
		}
		touching := map[physics.Collision]bool{}
		physics.CollisionBegin.Subscribe(w, func(_ donburi.World, c physics.Collision) { touching[c] = true })
		physics.CollisionSeparate.Subscribe(w, func(_ donburi.World, c physics.Collision) { delete(touching, c) })
		var balls []donburi.Entity
		for i := range 200 {
			balls = append(balls, drop(-90+float64(i%18)*10.5, 20+float64(i/18)*12, 5))
		}
		for range 600 {
			p.Update(w, ev)
		}
		for _, e := range balls {
			if pos := bodyOf(w, e).Position(); pos.X < -100 || pos.X > 100 || pos.Y < 0 || pos.Y > 400 {
				t.Fatalf("cell %v: a ball left the box: %v", cell, pos)
			}
		}
		if len(touching) < 200 { // each ball touches something: a pile
			t.Errorf("cell %v: %d pairs touching at rest, want a pile (at least 200)", cell, len(touching))
		}
	}
}

// A body that falls asleep is drawn where it is, and a hit wakes it: its
// Transform follows its body at every tick (asleep: Prev = Cur = its pose,
// so any alpha draws it there; woken: Prev is the pose it slept at), and the
// collision events arrive as with sleeping off: the sleeper's Begin with the
// floor once, no Separate while it sleeps, the hit's Begin in the tick the
// falling ball reaches it.
func TestSleepingBodyWokenByAHit(t *testing.T) {
	ev := engine.Event{Kind: engine.Update, DT: 1.0 / 60}
	type event struct {
		tick  int
		begin bool
		c     physics.Collision
	}
	run := func(sleep float64) (events []event, woke, hit int) {
		w, p, drop := floorScene(physics.Config{Gravity: cp.Vector{Y: -100}, SleepTimeThreshold: sleep, IdleSpeedThreshold: 5})
		tick := 0
		physics.CollisionBegin.Subscribe(w, func(_ donburi.World, c physics.Collision) { events = append(events, event{tick, true, c}) })
		physics.CollisionSeparate.Subscribe(w, func(_ donburi.World, c physics.Collision) { events = append(events, event{tick, false, c}) })
		sleeper := drop(0, 5, 5)
		b := bodyOf(w, sleeper)
		var hammer donburi.Entity
		asleepAt := -1
		wasAsleep := false
		for tick = 1; tick <= 600; tick++ {
			before := components.TransformC.Get(w.Entry(sleeper)).Cur
			p.Update(w, ev)
			tr := components.TransformC.Get(w.Entry(sleeper))
			pos := b.Position()
			if tr.Cur != (components.Pose{X: pos.X, Y: pos.Y, Angle: b.Angle()}) || tr.Prev != before {
				t.Fatalf("sleep %v, tick %d (asleep %v): Transform %+v, body at %v, previous pose %+v", sleep, tick, b.IsSleeping(), *tr, pos, before)
			}
			if b.IsSleeping() && asleepAt < 0 {
				asleepAt = tick
			}
			if b.IsSleeping() && wasAsleep { // (in the step it fell asleep in, it moved)
				for _, alpha := range []float64{0, 0.37, 0.99} {
					if got := tr.At(alpha); got.X != pos.X || got.Y != pos.Y {
						t.Fatalf("tick %d: asleep at %v but drawn at %+v (alpha %v)", tick, pos, got, alpha)
					}
				}
			}
			if tick == 120 { // drop a ball on it from 40 units up
				hammer = drop(0, 50, 5)
			}
			if tick > 120 && woke == 0 && !b.IsSleeping() && asleepAt > 0 {
				woke = tick
			}
			wasAsleep = b.IsSleeping()
		}
		if sleep > 0 && (asleepAt < 0 || asleepAt > 120) {
			t.Fatalf("sleep %v: the ball fell asleep at tick %d, want before the hit at 121", sleep, asleepAt)
		}
		if sleep > 0 && woke == 0 {
			t.Fatalf("the hit did not wake the sleeping ball")
		}
		pair := physics.Collision{A: min(sleeper, hammer), B: max(sleeper, hammer)}
		for _, e := range events {
			if e.begin && e.c == pair {
				hit = e.tick
			}
		}
		if hit == 0 {
			t.Fatalf("sleep %v: no CollisionBegin for the hit", sleep)
		}
		return events, woke, hit
	}
	awake, _, hitAwake := run(0)
	slept, woke, hit := run(0.5)
	if hit != hitAwake || woke != hit {
		t.Errorf("the hit's Begin at tick %d (%d with sleeping off); the sleeper woke at tick %d: want all the same", hit, hitAwake, woke)
	}
	// The same events, at the same ticks: sleeping does not lose, add or
	// delay one. (Both runs are identical until the ball falls asleep; after
	// the hit the two may differ by cp's rounding, not by an event.)
	if len(awake) == 0 || len(awake) != len(slept) {
		t.Fatalf("events with sleeping off %v, with sleeping %v", awake, slept)
	}
	for i := range awake {
		if awake[i].begin != slept[i].begin || awake[i].c != slept[i].c || awake[i].tick != slept[i].tick {
			t.Errorf("event %d: %+v with sleeping off, %+v with sleeping", i, awake[i], slept[i])
		}
	}
}

// Sleeping changes nothing while no body sleeps: SimpleTerrainCircles_300
// with sleeping on steps bit for bit as with it off, every tick until the
// first body falls asleep (which it does: the test covers that moment).
func TestSleepingChangesNothingWhileAwake(t *testing.T) {
	ev := engine.Event{Kind: engine.Update, DT: 1.0 / 60}
	wOff, pOff, ents := engineScene(circlesScene(300), physics.Config{})
	wOn, pOn, _ := engineScene(circlesScene(300), physics.Config{SleepTimeThreshold: 0.5, IdleSpeedThreshold: 10})
	same := 0
	for tick := 1; tick <= 1200 && pOn.Sleeping() == 0; tick++ {
		pOff.Update(wOff, ev)
		pOn.Update(wOn, ev)
		if pOn.Sleeping() > 0 {
			break
		}
		for _, e := range ents {
			a, b := bodyOf(wOff, e), bodyOf(wOn, e)
			if a.Position() != b.Position() || a.Angle() != b.Angle() || a.Velocity() != b.Velocity() {
				t.Fatalf("tick %d, entity %v: %v %v with sleeping off, %v %v with it on", tick, e, a.Position(), a.Velocity(), b.Position(), b.Velocity())
			}
		}
		same = tick
	}
	if pOn.Sleeping() == 0 || same < 60 {
		t.Fatalf("compared %d ticks; %d bodies asleep: the scene should fall asleep after a second or more", same, pOn.Sleeping())
	}
	t.Logf("identical for %d ticks, then %d of 300 fell asleep", same, pOn.Sleeping())
}

// Removing entities whose bodies sleep takes them out of the space and
// wakes the ones they touched; the rest of the pile keeps working.
func TestRemovingSleepingBodies(t *testing.T) {
	ev := engine.Event{Kind: engine.Update, DT: 1.0 / 60}
	w, p, ents := engineScene(circlesScene(200), physics.Config{SleepTimeThreshold: 0.3, IdleSpeedThreshold: 20})
	for range 1200 {
		p.Update(w, ev)
	}
	asleep := p.Sleeping()
	if asleep < 100 {
		t.Fatalf("only %d of 200 bodies asleep after 20 s", asleep)
	}
	var sleepers []donburi.Entity // collect first: the first removal wakes the group
	for _, e := range ents {
		if bodyOf(w, e).IsSleeping() && len(sleepers) < 50 {
			sleepers = append(sleepers, e)
		}
	}
	for _, e := range sleepers {
		w.Remove(e)
	}
	removed := len(sleepers)
	for range 60 {
		p.Update(w, ev)
	}
	bodies, shapes := p.Bodies()
	// 150 balls; the terrain's segments are shapes of the space's own static body
	if bodies != 200-removed || shapes != 200-removed+len(terrainVertices)-1 {
		t.Fatalf("after removing %d sleeping balls: %d bodies, %d shapes in the space", removed, bodies, shapes)
	}
}
