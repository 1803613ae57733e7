package health_test

import (
	"testing"

	"github.com/fixedstep/fixedstep/components"
	"github.com/fixedstep/fixedstep/engine"
	"github.com/fixedstep/fixedstep/systems/health"
	"github.com/fixedstep/fixedstep/systems/physics"
	"github.com/fixedstep/fixedstep/third_party/cp"
	"github.com/fixedstep/fixedstep/third_party/donburi"
)

// Damage lowers HP, starts InvulnerableTicks ticks in which hits are
// ignored, pushes a dynamic body by the impulse times Knockback, and is
// delivered on its tick with its source; the hit that empties HP kills,
// once, and the dead take no more hits. Update allocates nothing.
func TestDamageInvulnerabilityKnockbackDeath(t *testing.T) {
	w := donburi.NewWorld()
	p := physics.New(w, physics.Config{})
	hero := p.SpawnCircle(5, &physics.BodyOptions{Mass: 2}, health.HealthC)
	foe := w.Create(components.TransformC)
	health.HealthC.SetValue(w.Entry(hero), health.Health{HP: 10, Max: 10, InvulnerableTicks: 3, Knockback: 0.5})
	sys := health.New()
	var got, died []health.Event
	sys.OnDamage(func(w donburi.World, ev health.Event) { got = append(got, ev) })
	sys.OnDeath(func(w donburi.World, ev health.Event) { died = append(died, ev) })
	tick := int64(0)
	step := func(d *health.Damage) bool {
		tick++
		took := false
		if d != nil {
			took = sys.Apply(w, hero, *d)
		}
		sys.Update(w, engine.Event{Kind: engine.Update, Tick: tick})
		return took
	}
	hit := &health.Damage{Amount: 4, Source: foe, From: cp.Vector{X: -10}, Impulse: cp.Vector{X: 8}}
	if !step(hit) || len(got) != 1 || got[0].Tick != 1 || got[0].HP != 6 || got[0].Source != foe || got[0].Target != hero || got[0].Died {
		t.Fatalf("first hit: %+v", got)
	}
	if v := p.Body(hero).Velocity(); v != (cp.Vector{X: 2}) {
		t.Fatalf("knocked back to velocity %v, want (2, 0): impulse 8 times 0.5 over mass 2", v)
	}
	for k := 2; k <= 4; k++ {
		if step(hit) {
			t.Fatalf("tick %d: a hit taken within 3 ticks of the last", k)
		}
	}
	if !step(hit) || health.HealthC.Get(w.Entry(hero)).HP != 2 {
		t.Fatalf("tick 5: the hit after 3 ticks of invulnerability not taken: %+v", health.HealthC.Get(w.Entry(hero)))
	}
	for range 3 {
		step(nil)
	}
	if !step(hit) || len(died) != 1 || !died[0].Died || died[0].HP != 0 || died[0].Tick != 9 || !health.HealthC.Get(w.Entry(hero)).Dead {
		t.Fatalf("the killing hit: died %+v", died)
	}
	for range 5 {
		step(nil)
	}
	if step(hit) || len(died) != 1 {
		t.Fatal("the dead took a hit")
	}
	if sys.Apply(w, foe, *hit) || sys.Apply(w, hero, health.Damage{Amount: -1}) {
		t.Fatal("a hit on an entity without Health, or of negative damage, was taken")
	}
	ev := engine.Event{Kind: engine.Update}
	if n := testing.AllocsPerRun(100, func() { sys.Update(w, ev) }); n != 0 {
		t.Errorf("Update allocates %v times", n)
	}
}

// Heal adds up to Max; the dead are not healed. A handler that deals
// damage has it delivered in the same Update.
func TestHealAndChainedDamage(t *testing.T) {
	w := donburi.NewWorld()
	a, b := w.Create(health.HealthC), w.Create(health.HealthC)
	health.HealthC.SetValue(w.Entry(a), health.Full(5, 0))
	health.HealthC.SetValue(w.Entry(b), health.Full(5, 0))
	sys := health.New()
	sys.OnDeath(func(w donburi.World, ev health.Event) {
		if ev.Target == a { // a explodes and hurts b
			sys.Apply(w, b, health.Damage{Amount: 2, Source: a})
		}
	})
	sys.Apply(w, a, health.Damage{Amount: 9})
	sys.Update(w, engine.Event{Kind: engine.Update, Tick: 7})
	if ev := sys.Events(); len(ev) != 2 || ev[1].Target != b || ev[1].Source != a || ev[1].Tick != 7 || ev[1].HP != 3 {
		t.Fatalf("events %+v", ev)
	}
	if !health.Heal(w, b, 9) || health.HealthC.Get(w.Entry(b)).HP != 5 || health.Heal(w, a, 1) {
		t.Fatalf("heal: b at %v, the dead a healed", health.HealthC.Get(w.Entry(b)).HP)
	}
}
