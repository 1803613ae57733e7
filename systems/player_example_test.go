package systems_test

import (
	"fmt"

	"github.com/fixedstep/fixedstep/components"
	"github.com/fixedstep/fixedstep/engine"
	"github.com/fixedstep/fixedstep/engine/input"
	"github.com/fixedstep/fixedstep/systems"
	"github.com/fixedstep/fixedstep/systems/physics"
	"github.com/fixedstep/fixedstep/third_party/donburi"
)

// The player system drives a body from the keys: here a script holds the
// right arrow for half a second of a headless run.
func ExamplePlayerControl() {
	world := donburi.NewWorld()
	phys := physics.New(world, physics.Config{})
	player := phys.SpawnCircle(14, &physics.BodyOptions{Mass: 1}, components.PlayerC)
	components.PlayerC.SetValue(world.Entry(player), components.Player{Force: 1500, Speed: 260, Face: true})

	control := systems.NewPlayerControl()
	sched := engine.NewScheduler(world, engine.Group{Name: "physics", Hz: 60})
	sched.AddUpdate(0, "player", control.Update).AddUpdate(0, "physics", phys.Update)

	holdRight := engine.InputFunc(func(frame int64, in *input.State) {
		in.SetKey(input.KeyArrowRight, frame <= 30)
	})
	loop, err := engine.NewHeadlessLoop(engine.Config{}, &engine.Headless{FPS: 60, Frames: 60}, &engine.Options{Input: holdRight})
	if err != nil {
		panic(err)
	}
	for ev := range loop.Events(sched.Groups()...) {
		sched.Handle(ev)
	}
	body := phys.Body(player)
	fmt.Printf("x %.0f, speed %.0f, facing %.0f rad\n", body.Position().X, body.Velocity().Length(), body.Angle())
	// Output: x 126, speed 0, facing 0 rad
}
