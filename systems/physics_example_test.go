package systems_test

import (
	"fmt"

	"github.com/jakecoffman/cp/v2"
	"github.com/yohamta/donburi"

	"github.com/fixedstep/fixedstep/components"
	"github.com/fixedstep/fixedstep/engine"
	"github.com/fixedstep/fixedstep/engine/input"
	"github.com/fixedstep/fixedstep/systems"
)

// A ball and a crate dropped into a walled room come to rest on its floor.
func ExamplePhysics_SpawnCircle() {
	world := donburi.NewWorld()
	physics := systems.NewPhysics(world, systems.PhysicsConfig{Gravity: cp.Vector{Y: 500}}) // y down

	// the room: one static entity, a closed outline of segments 4 units thick
	physics.SpawnWalls([]cp.Vector{{X: 0, Y: 0}, {X: 320, Y: 0}, {X: 320, Y: 240}, {X: 0, Y: 240}, {X: 0, Y: 0}},
		2, &systems.BodyOptions{Friction: 0.8})
	// a crate 40 x 40 outside, corners rounded by 4, and a ball of radius 10
	crate := physics.SpawnBox(40, 40, &systems.BodyOptions{Position: cp.Vector{X: 100, Y: 100},
		CornerRadius: 4, Mass: 5, Friction: 0.8})
	ball := physics.SpawnCircle(10, &systems.BodyOptions{Position: cp.Vector{X: 220, Y: 50}, Friction: 0.8})

	for range 180 { // three seconds of 60 Hz steps
		physics.Update(world, engine.Event{Kind: engine.Update, DT: 1.0 / 60})
	}
	// the floor's surface is at y 238: the crate's centre rests 20 above it, the ball's 10
	c := components.TransformC.Get(world.Entry(crate)).Cur
	b := components.TransformC.Get(world.Entry(ball)).Cur
	fmt.Printf("crate at y %.0f, ball at y %.0f\n", c.Y, b.Y)
	// Output: crate at y 218, ball at y 228
}

type ball struct{}
type brick struct{ Points int }

var (
	ballC  = donburi.NewComponentType[ball]()
	brickC = donburi.NewComponentType[brick]()
)

// Breakout's rule in one handler: a ball that touches a brick breaks it.
func ExamplePhysics_OnCollide() {
	world := donburi.NewWorld()
	physics := systems.NewPhysics(world, systems.PhysicsConfig{})
	for i := range 3 {
		b := physics.SpawnBox(30, 10, &systems.BodyOptions{Kind: systems.Static,
			Position: cp.Vector{X: 100, Y: 100 - float64(i)*12}, Elasticity: 1}, brickC)
		brickC.SetValue(world.Entry(b), brick{Points: 10 * (i + 1)})
	}
	physics.SpawnCircle(4, &systems.BodyOptions{Position: cp.Vector{X: 100, Y: 200},
		Velocity: cp.Vector{Y: -300}, Elasticity: 1}, ballC)

	score := 0
	physics.OnCollide(ballC, brickC, func(w donburi.World, c systems.Contact) {
		score += brickC.Get(w.Entry(c.B)).Points
		fmt.Printf("brick at y %.0f broken, normal (%.0f, %.0f), score %d\n",
			physics.Body(c.B).Position().Y, c.Normal.X, c.Normal.Y, score)
		w.Remove(c.B) // safe inside a handler
	})
	for range 60 {
		physics.Update(world, engine.Event{Kind: engine.Update, DT: 1.0 / 60})
	}
	// Output: brick at y 100 broken, normal (0, -1), score 10
}

// A ray finds the first wall in its way; a point query finds what is under
// the cursor.
func ExamplePhysics_QuerySegmentFirst() {
	world := donburi.NewWorld()
	physics := systems.NewPhysics(world, systems.PhysicsConfig{})
	static := func(x, y float64) *systems.BodyOptions {
		return &systems.BodyOptions{Kind: systems.Static, Position: cp.Vector{X: x, Y: y}}
	}
	near := physics.SpawnBox(20, 100, static(100, 0))
	physics.SpawnBox(20, 100, static(200, 0))
	pickup := physics.SpawnCircle(8, &systems.BodyOptions{Kind: systems.Static, Sensor: true, Position: cp.Vector{X: 50}})

	hit, ok := physics.QuerySegmentFirst(cp.Vector{}, cp.Vector{X: 300}, 0, nil)
	fmt.Println(ok, hit.Entity == near, hit.Point, hit.Normal.X, hit.Distance)

	hits := physics.QueryPoint(cp.Vector{X: 52, Y: 3}, 0, &systems.QueryFilter{Sensors: true}, nil)
	fmt.Println(len(hits), hits[0].Entity == pickup)
	// Output:
	// true true 90.000000,0.000000 -1 90
	// 1 true
}

// The player system drives a body from the keys: here a script holds the
// right arrow for half a second of a headless run.
func ExamplePlayerControl() {
	world := donburi.NewWorld()
	physics := systems.NewPhysics(world, systems.PhysicsConfig{})
	player := physics.SpawnCircle(14, &systems.BodyOptions{Mass: 1}, components.PlayerC)
	components.PlayerC.SetValue(world.Entry(player), components.Player{Force: 1500, Speed: 260, Face: true})

	control := systems.NewPlayerControl()
	sched := engine.NewScheduler(world, engine.Group{Name: "physics", Hz: 60})
	sched.AddUpdate(0, "player", control.Update).AddUpdate(0, "physics", physics.Update)

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
	body := physics.Body(player)
	fmt.Printf("x %.0f, speed %.0f, facing %.0f rad\n", body.Position().X, body.Velocity().Length(), body.Angle())
	// Output: x 126, speed 0, facing 0 rad
}
