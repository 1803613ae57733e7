package shoot_test

import (
	"fmt"

	"github.com/fixedstep/fixedstep/engine"
	"github.com/fixedstep/fixedstep/systems/physics"
	"github.com/fixedstep/fixedstep/systems/shoot"
	"github.com/fixedstep/fixedstep/third_party/cp"
	"github.com/fixedstep/fixedstep/third_party/donburi"
)

// A turret fires three shots fanned over 0.2 rad at 3000 units a second:
// the upper one meets a thin wall, the middle one the crate, the lower one
// passes below both. Each hit is reported on its tick, with the shot's
// owner.
func Example() {
	w := donburi.NewWorld()
	phys := physics.New(w, physics.Config{})
	turret := phys.SpawnCircle(8, &physics.BodyOptions{Kind: physics.Static}, shoot.GunC)
	shoot.GunC.SetValue(w.Entry(turret), shoot.Gun{Speed: 3000, Shots: 3, Spread: 0.2, Cooldown: 10, Muzzle: 10, Damage: 5, Trigger: true})
	wall := phys.SpawnSegment(cp.Vector{X: 100, Y: 3}, cp.Vector{X: 100, Y: 40}, 0, &physics.BodyOptions{Kind: physics.Static})
	phys.SpawnBox(10, 10, &physics.BodyOptions{Kind: physics.Static, Position: cp.Vector{X: 200}})

	shots := shoot.New(phys)
	shots.Reserve(w, 3)
	shots.OnHit(func(w donburi.World, h shoot.Hit) {
		what := "the crate"
		if h.Target == wall {
			what = "the wall"
		}
		fmt.Printf("tick %d: %s hit at x %.0f by the turret's shot (%v), damage %v\n", h.Tick, what, h.Point.X, h.Owner == turret, h.Damage)
	})
	for tick := int64(1); tick <= 12; tick++ {
		ev := engine.Event{Kind: engine.Update, DT: 1.0 / 60, Tick: tick}
		phys.Update(w, ev)
		shots.Update(w, ev)
	}
	// Output:
	// tick 3: the wall hit at x 100 by the turret's shot (true), damage 5
	// tick 5: the crate hit at x 195 by the turret's shot (true), damage 5
}
