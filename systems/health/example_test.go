package health_test

import (
	"fmt"

	"github.com/fixedstep/fixedstep/engine"
	"github.com/fixedstep/fixedstep/systems/health"
	"github.com/fixedstep/fixedstep/systems/physics"
	"github.com/fixedstep/fixedstep/third_party/cp"
	"github.com/fixedstep/fixedstep/third_party/donburi"
)

// A ship of 3 HP, invulnerable for 2 ticks after a hit, is hit every tick
// by a drone: it takes every third hit, is knocked back by each, and dies
// of the third it takes. Its body (mass 1) gains 30 units a second from
// each hit taken.
func Example() {
	w := donburi.NewWorld()
	phys := physics.New(w, physics.Config{})
	ship := phys.SpawnCircle(8, nil, health.HealthC)
	drone := phys.SpawnCircle(6, &physics.BodyOptions{Position: cp.Vector{X: -20}})
	health.HealthC.SetValue(w.Entry(ship), health.Full(3, 2))

	hp := health.New()
	hp.OnDamage(func(w donburi.World, ev health.Event) {
		fmt.Printf("tick %d: hit by the drone (%v), %v HP left, moving at %v\n", ev.Tick, ev.Source == drone, ev.HP, phys.Body(ship).Velocity().X)
	})
	hp.OnDeath(func(w donburi.World, ev health.Event) {
		fmt.Printf("tick %d: dead\n", ev.Tick)
		w.Remove(ev.Target)
	})
	for tick := int64(1); tick <= 10; tick++ {
		hp.Apply(w, ship, health.Damage{Amount: 1, Source: drone, From: cp.Vector{X: -20}, Impulse: cp.Vector{X: 30}})
		hp.Update(w, engine.Event{Kind: engine.Update, Tick: tick})
	}
	// Output:
	// tick 1: hit by the drone (true), 2 HP left, moving at 30
	// tick 4: hit by the drone (true), 1 HP left, moving at 60
	// tick 7: hit by the drone (true), 0 HP left, moving at 90
	// tick 7: dead
}
