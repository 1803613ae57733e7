package core_test

import (
	"fmt"

	"github.com/fixedstep/fixedstep/components"
	"github.com/fixedstep/fixedstep/engine"
	"github.com/fixedstep/fixedstep/engine/input"
	"github.com/fixedstep/fixedstep/systems/physics"
	"github.com/fixedstep/fixedstep/systems/stage/core"
	"github.com/fixedstep/fixedstep/third_party/cp"
	"github.com/fixedstep/fixedstep/third_party/donburi"
)

// A scene's simulation on a core.Stage, with no graphics linked: a ball
// falls for a second of game time under cp's gravity (49 units: cp steps
// where ½gt² would say 50), then a rule ends the scene. A server runs a
// scene like this one; a window game builds the same on stage.Stage, which
// embeds it, and draws it.
func Example() {
	fall := engine.NewScene("Fall", func(loop *engine.Loop) (engine.Scene, error) {
		st := core.New(loop, core.Options{Physics: &physics.Config{Gravity: cp.Vector{Y: -100}}})
		defer st.Release()
		ball := st.Physics.SpawnCircle(5, &physics.BodyOptions{Position: cp.Vector{Y: 100}})
		st.Sched.AddUpdate(0, "physics", st.Physics.Update).
			AddUpdate(0, "rules", func(w donburi.World, ev engine.Event) {
				if ev.Tick == 60 {
					y := components.TransformC.Get(w.Entry(ball)).Cur.Y
					fmt.Printf("after %v the ball is %.0f units lower\n", ev.Time, 100-y)
					st.End(nil)
				}
			})
		return st.Run()
	})
	if err := engine.Run(fall, &engine.Options{Headless: &engine.Headless{}}); err != nil {
		fmt.Println(err)
	}
	// Output: after 1s the ball is 49 units lower
}

// Local multiplayer with a join screen: the scene starts with no seats
// (SetSeats while building it), and each device pressed on a tick takes
// the next seat (input.Seats.Join over the machines' input), up to two.
// Seated, a player's input is its device's alone: here the left half of
// the keyboard (kb1) holds W, and only player 2, who joined with it, sees
// it. The seats are the scene's state: a replay, -synctest and a step back
// seat the same players on the same ticks. (-seats kb1,kb2 and
// cli.App.Seats give seats without a join screen.)
func ExampleStage_SetSeats() {
	lobby := engine.NewScene("Lobby", func(loop *engine.Loop) (engine.Scene, error) {
		st := core.New(loop, core.Options{})
		defer st.Release()
		st.SetSeats(input.Seats{})
		loop.SetTickInput(0, engine.TickInputFunc(func(t engine.TickInfo, in *input.State) {
			in.SetGamepadButton(1, input.GamepadRightBottom, t.Tick >= 5) // pad 1's A, from tick 5
			in.SetKey(input.KeyW, t.Tick >= 9)                            // W, from tick 9
		}))
		st.Sched.AddUpdate(0, "join", func(w donburi.World, ev engine.Event) {
			seats := st.Seats()
			if seats.Join(st.Machines(), 2) > 0 {
				st.SetSeats(seats) // from the next tick
				fmt.Printf("tick %d: seats %v\n", ev.Tick, seats)
			}
			if ev.Tick == 12 {
				for p := range st.Players() {
					fmt.Printf("player %d holds W: %v\n", p+1, ev.Player(p).KeyDown(input.KeyW))
				}
				st.End(nil)
			}
		})
		return st.Run()
	})
	if err := engine.Run(lobby, nil); err != nil {
		fmt.Println(err)
	}
	// Output:
	// tick 5: seats pad1
	// tick 9: seats pad1,kb1
	// player 1 holds W: false
	// player 2 holds W: true
}
