package physics_test

import (
	"fmt"

	"github.com/fixedstep/fixedstep/components"
	"github.com/fixedstep/fixedstep/engine"
	"github.com/fixedstep/fixedstep/systems/physics"
	"github.com/fixedstep/fixedstep/third_party/cp"
	"github.com/fixedstep/fixedstep/third_party/donburi"
)

// A ball and a crate dropped into a walled room come to rest on its floor.
func ExamplePhysics_SpawnCircle() {
	world := donburi.NewWorld()
	phys := physics.New(world, physics.Config{Gravity: cp.Vector{Y: 500}}) // y down

	// the room: one static entity, a closed outline of segments 4 units thick
	phys.SpawnWalls([]cp.Vector{{X: 0, Y: 0}, {X: 320, Y: 0}, {X: 320, Y: 240}, {X: 0, Y: 240}, {X: 0, Y: 0}},
		2, &physics.BodyOptions{Friction: 0.8})
	// a crate 40 x 40 outside, corners rounded by 4, and a ball of radius 10
	crate := phys.SpawnBox(40, 40, &physics.BodyOptions{Position: cp.Vector{X: 100, Y: 100},
		CornerRadius: 4, Mass: 5, Friction: 0.8})
	ball := phys.SpawnCircle(10, &physics.BodyOptions{Position: cp.Vector{X: 220, Y: 50}, Friction: 0.8})

	for range 180 { // three seconds of 60 Hz steps
		phys.Update(world, engine.Event{Kind: engine.Update, DT: 1.0 / 60})
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
	phys := physics.New(world, physics.Config{})
	for i := range 3 {
		b := phys.SpawnBox(30, 10, &physics.BodyOptions{Kind: physics.Static,
			Position: cp.Vector{X: 100, Y: 100 - float64(i)*12}, Elasticity: 1}, brickC)
		brickC.SetValue(world.Entry(b), brick{Points: 10 * (i + 1)})
	}
	phys.SpawnCircle(4, &physics.BodyOptions{Position: cp.Vector{X: 100, Y: 200},
		Velocity: cp.Vector{Y: -300}, Elasticity: 1}, ballC)

	score := 0
	phys.OnCollide(ballC, brickC, func(w donburi.World, c physics.Contact) {
		score += brickC.Get(w.Entry(c.B)).Points
		fmt.Printf("brick at y %.0f broken, normal (%.0f, %.0f), score %d\n",
			phys.Body(c.B).Position().Y, c.Normal.X, c.Normal.Y, score)
		w.Remove(c.B) // safe inside a handler
	})
	for range 60 {
		phys.Update(world, engine.Event{Kind: engine.Update, DT: 1.0 / 60})
	}
	// Output: brick at y 100 broken, normal (0, -1), score 10
}

// A ray finds the first wall in its way; a point query finds what is under
// the cursor.
func ExamplePhysics_QuerySegmentFirst() {
	world := donburi.NewWorld()
	phys := physics.New(world, physics.Config{})
	static := func(x, y float64) *physics.BodyOptions {
		return &physics.BodyOptions{Kind: physics.Static, Position: cp.Vector{X: x, Y: y}}
	}
	near := phys.SpawnBox(20, 100, static(100, 0))
	phys.SpawnBox(20, 100, static(200, 0))
	pickup := phys.SpawnCircle(8, &physics.BodyOptions{Kind: physics.Static, Sensor: true, Position: cp.Vector{X: 50}})

	hit, ok := phys.QuerySegmentFirst(cp.Vector{}, cp.Vector{X: 300}, 0, nil)
	fmt.Println(ok, hit.Entity == near, hit.Point, hit.Normal.X, hit.Distance)

	hits := phys.QueryPoint(cp.Vector{X: 52, Y: 3}, 0, &physics.QueryFilter{Sensors: true}, nil)
	fmt.Println(len(hits), hits[0].Entity == pickup)
	// Output:
	// true true 90.000000,0.000000 -1 90
	// 1 true
}

type spikes struct{}
type crate struct{ HP int }

var (
	spikesC = donburi.NewComponentType[spikes]()
	crateC  = donburi.NewComponentType[crate]()
)

// A crate resting on spikes loses 1 HP every tick it touches them (OnTouch),
// from the tick it lands (OnCollide) until it is lifted off (OnSeparate);
// Touching says what touches now.
func ExamplePhysics_OnTouch() {
	world := donburi.NewWorld()
	phys := physics.New(world, physics.Config{Gravity: cp.Vector{Y: 500}}) // y down
	phys.SpawnBox(200, 20, &physics.BodyOptions{Kind: physics.Static, Position: cp.Vector{Y: 100}}, spikesC)
	box := phys.SpawnBox(20, 20, &physics.BodyOptions{Position: cp.Vector{Y: 70}}, crateC)
	crateC.SetValue(world.Entry(box), crate{HP: 100})

	tick := 0
	phys.OnCollide(crateC, spikesC, func(w donburi.World, c physics.Contact) {
		fmt.Println("tick", tick, "lands, HP", crateC.Get(w.Entry(c.A)).HP)
	})
	phys.OnTouch(crateC, spikesC, func(w donburi.World, c physics.Contact) {
		crateC.Get(w.Entry(c.A)).HP--
	})
	phys.OnSeparate(crateC, spikesC, func(w donburi.World, c physics.Contact) {
		fmt.Println("tick", tick, "lifted off, HP", crateC.Get(w.Entry(c.A)).HP)
	})
	var touching []physics.Contact // reused: Touching allocates only to grow it
	for tick = 1; tick <= 60; tick++ {
		if tick == 50 {
			phys.Body(box).SetVelocity(0, -400)
		}
		phys.Update(world, engine.Event{Kind: engine.Update, DT: 1.0 / 60})
		touching = phys.Touching(crateC, spikesC, touching[:0])
		if tick == 49 {
			fmt.Printf("tick 49: %d touching, pressing down (normal y %.0f)\n", len(touching), touching[0].Normal.Y)
		}
	}
	fmt.Println("touching at the end:", len(touching))
	// Output:
	// tick 13 lands, HP 100
	// tick 49: 1 touching, pressing down (normal y 1)
	// tick 50 lifted off, HP 63
	// touching at the end: 0
}
