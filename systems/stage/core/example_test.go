package core_test

import (
	"fmt"

	"github.com/fixedstep/fixedstep/components"
	"github.com/fixedstep/fixedstep/engine"
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
