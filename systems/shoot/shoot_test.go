package shoot_test

import (
	"math"
	"testing"

	"github.com/fixedstep/fixedstep/components"
	"github.com/fixedstep/fixedstep/engine"
	"github.com/fixedstep/fixedstep/systems/aim"
	"github.com/fixedstep/fixedstep/systems/physics"
	"github.com/fixedstep/fixedstep/systems/shoot"
	"github.com/fixedstep/fixedstep/third_party/cp"
	"github.com/fixedstep/fixedstep/third_party/donburi"
)

// rig is a world with physics and the shoot system, ticked by hand.
type rig struct {
	w     donburi.World
	p     *physics.Physics
	s     *shoot.System
	tick  int64
	fired []shoot.Hit // every hit its handler saw
}

func newRig() *rig {
	r := &rig{w: donburi.NewWorld()}
	r.p = physics.New(r.w, physics.Config{})
	r.s = shoot.New(r.p)
	r.s.OnHit(func(w donburi.World, h shoot.Hit) { r.fired = append(r.fired, h) })
	return r
}

func (r *rig) step() {
	r.tick++
	ev := engine.Event{Kind: engine.Update, DT: 1.0 / 60, Tick: r.tick}
	r.p.Update(r.w, ev)
	r.s.Update(r.w, ev)
}

// gun spawns a static gun at p, aiming along angle, with g.
func (r *rig) gun(p cp.Vector, angle float64, g shoot.Gun) donburi.Entity {
	e := r.p.SpawnCircle(4, &physics.BodyOptions{Kind: physics.Static, Position: p, Angle: angle}, shoot.GunC)
	shoot.GunC.SetValue(r.w.Entry(e), g)
	return e
}

// live returns the shots in flight.
func (r *rig) live() (n int) {
	for e := range donburi.NewQuery(filterShots).Iter(r.w) {
		if shoot.ShotC.Get(e).Live {
			n++
		}
	}
	return n
}

// A shot meets a thin wall (a segment of no thickness) whatever its
// speed, up to a million units a second (16,667 a tick): it ends on the
// wall's face with a Hit naming the wall, the shot and its owner, and
// never passes it.
func TestNoTunnelling(t *testing.T) {
	for _, speed := range []float64{60, 600, 6000, 1e5, 1e6} {
		r := newRig()
		wall := r.p.SpawnSegment(cp.Vector{X: 100, Y: -50}, cp.Vector{X: 100, Y: 50}, 0, &physics.BodyOptions{Kind: physics.Static})
		g := r.gun(cp.Vector{}, 0, shoot.Gun{Speed: speed, Trigger: true, Lifetime: 600, Muzzle: 5, Damage: 2})
		for range 120 {
			r.step()
			for e := range donburi.NewQuery(filterShots).Iter(r.w) {
				if x := components.TransformC.Get(e).Cur.X; x > 100+1e-9 {
					t.Fatalf("speed %v: a shot at x %v, past the wall at 100", speed, x)
				}
			}
		}
		if flight := int(math.Ceil(95 / (speed / 60))); len(r.fired) < 120-flight-2 {
			t.Fatalf("speed %v: %d hits in 120 ticks of fire, %d ticks to the wall", speed, len(r.fired), flight)
		}
		for _, h := range r.fired {
			if h.Target != wall || h.Owner != g || h.Damage != 2 || math.Abs(h.Point.X-100) > 1e-9 || math.Abs(h.Normal.X) != 1 {
				t.Fatalf("speed %v: hit %+v, want the wall %v at x 100, normal ±X, owner %v", speed, h, wall, g)
			}
		}
	}
}

// A gun fires every Cooldown ticks while triggered, stops when its
// ammunition runs out, fans Shots across Spread; shots end after Lifetime
// ticks in the open and go back to the pool, which then serves the next
// shots without growing.
func TestGunCooldownAmmoSpreadPool(t *testing.T) {
	r := newRig()
	g := r.gun(cp.Vector{}, 0, shoot.Gun{Speed: 60, Cooldown: 5, Lifetime: 12, Limited: true, Ammo: 7, Trigger: true})
	var firedAt []int64
	last := uint64(0)
	for range 60 {
		r.step()
		if f := shoot.GunC.Get(r.w.Entry(g)).Fired; f != last {
			firedAt, last = append(firedAt, r.tick), f
		}
	}
	if want := []int64{1, 6, 11, 16, 21, 26, 31}; len(firedAt) != len(want) {
		t.Fatalf("fired at ticks %v, want %v", firedAt, want)
	} else {
		for i := range want {
			if firedAt[i] != want[i] {
				t.Fatalf("fired at ticks %v, want %v", firedAt, want)
			}
		}
	}
	if n := r.live(); n != 0 {
		t.Fatalf("%d shots still flying 29 ticks after the last, with a lifetime of 12", n)
	}
	// Lifetime 12: never more than 3 in flight, so the pool holds 3.
	if n := donburi.NewQuery(filterShots).Count(r.w); n != 3 {
		t.Fatalf("the pool holds %d shots, want 3", n)
	}

	// Five shots fanned over 0.4 rad leave at -0.2, -0.1, 0, 0.1, 0.2.
	shoot.GunC.SetValue(r.w.Entry(g), shoot.Gun{Speed: 60, Shots: 5, Spread: 0.4, Trigger: true, Cooldown: 100})
	r.step()
	var angles []float64
	for e := range donburi.NewQuery(filterShots).Iter(r.w) {
		if s := shoot.ShotC.Get(e); s.Live {
			angles = append(angles, math.Atan2(s.Vel.Y, s.Vel.X))
		}
	}
	if len(angles) != 5 {
		t.Fatalf("%d shots of a 5-shot pull", len(angles))
	}
	seen := map[int]bool{}
	for _, a := range angles {
		seen[int(math.Round(a*10))] = true
	}
	for k := -2; k <= 2; k++ {
		if !seen[k] {
			t.Fatalf("fanned angles %v: none at %v", angles, float64(k)/10)
		}
	}

	// One shot a pull with a spread leaves within it, at angles that
	// differ, the same for the same gun in another world.
	spread := func() []float64 {
		r := newRig()
		r.gun(cp.Vector{}, 1, shoot.Gun{Speed: 60, Spread: 0.3, Trigger: true, Lifetime: 1})
		var out []float64
		for range 20 {
			r.step()
			for e := range donburi.NewQuery(filterShots).Iter(r.w) {
				if s := shoot.ShotC.Get(e); s.Live {
					out = append(out, math.Atan2(s.Vel.Y, s.Vel.X))
				}
			}
		}
		return out
	}
	a, b := spread(), spread()
	for i := range a {
		if a[i] != b[i] || math.Abs(a[i]-1) > 0.15+1e-12 || i > 0 && a[i] == a[i-1] {
			t.Fatalf("single shots with spread 0.3 about 1 rad: %v, again %v", a, b)
		}
	}
}

// A shot does not hit its owner, ends on the first entity in its way and
// in its Mask, passes sensors; a gun whose muzzle is past a wall hits the
// wall at once; an aim.Aimer's direction and fire action aim and fire it.
func TestHitsOwnerMaskMuzzle(t *testing.T) {
	r := newRig()
	shooter := r.p.SpawnCircle(10, &physics.BodyOptions{Kind: physics.Static}, shoot.GunC, aim.AimerC)
	shoot.GunC.SetValue(r.w.Entry(shooter), shoot.Gun{Speed: 600, Muzzle: 12, Mask: 1, Lifetime: 100})
	aim.AimerC.SetValue(r.w.Entry(shooter), aim.Aimer{Dir: cp.Vector{Y: 1}, Fire: true})
	r.p.SpawnCircle(5, &physics.BodyOptions{Kind: physics.Static, Position: cp.Vector{Y: 40}, Sensor: true})
	r.p.SpawnCircle(5, &physics.BodyOptions{Kind: physics.Static, Position: cp.Vector{Y: 60}, Categories: 2})
	target := r.p.SpawnCircle(5, &physics.BodyOptions{Kind: physics.Static, Position: cp.Vector{Y: 100}, Categories: 1})
	for range 10 {
		r.step()
	}
	if len(r.fired) == 0 {
		t.Fatal("no hit")
	}
	for _, h := range r.fired {
		if h.Target != target || h.Owner != shooter || math.Abs(h.Point.Y-95) > 1e-9 {
			t.Fatalf("hit %+v, want the target %v at y 95 (the sensor and category 2 passed)", h, target)
		}
	}
	if got := r.s.Hits(); len(got) == 0 || got[len(got)-1].Tick != r.tick {
		t.Fatalf("Hits() = %+v on tick %d", got, r.tick)
	}

	r = newRig()
	wall := r.p.SpawnBox(4, 100, &physics.BodyOptions{Kind: physics.Static, Position: cp.Vector{X: 8}})
	g := r.gun(cp.Vector{}, 0, shoot.Gun{Speed: 600, Muzzle: 20, Trigger: true})
	r.step()
	if len(r.fired) != 1 || r.fired[0].Target != wall || r.fired[0].Owner != g || math.Abs(r.fired[0].Point.X-6) > 1e-9 || r.live() != 0 {
		t.Fatalf("a muzzle past a wall: hits %+v, %d live", r.fired, r.live())
	}
}

// Firing and flight allocate nothing once the pool has grown: a tick of
// guns firing every tick and 40 shots in flight.
func TestShootAllocatesNothing(t *testing.T) {
	r := newRig()
	r.p.SpawnSegment(cp.Vector{X: 300, Y: -500}, cp.Vector{X: 300, Y: 500}, 0, &physics.BodyOptions{Kind: physics.Static})
	for i := range 4 {
		r.gun(cp.Vector{Y: float64(i * 20)}, 0, shoot.Gun{Speed: 1200, Spread: 0.2, Shots: 3, Trigger: true, Cooldown: 2, Lifetime: 30})
	}
	r.fired = nil
	r.s.OnHit(func(donburi.World, shoot.Hit) {})
	for range 120 {
		r.step()
	}
	r.fired = make([]shoot.Hit, 0, 1<<16)
	ev := engine.Event{Kind: engine.Update, DT: 1.0 / 60}
	if n := testing.AllocsPerRun(200, func() { ev.Tick++; r.s.Update(r.w, ev) }); n != 0 {
		t.Errorf("a tick of firing and flight allocates %v times", n)
	}
	if r.live() < 20 {
		t.Fatalf("only %d shots in flight", r.live())
	}
}
