package stage_test

import (
	"fmt"

	"github.com/fixedstep/fixedstep/assets"
	"github.com/fixedstep/fixedstep/engine"
	"github.com/fixedstep/fixedstep/systems/physics"
	"github.com/fixedstep/fixedstep/systems/render"
	"github.com/fixedstep/fixedstep/systems/stage"
	"github.com/fixedstep/fixedstep/third_party/cp"
	"github.com/fixedstep/fixedstep/third_party/donburi"
)

// A scene on a Stage: a ball dropped onto a floor, drawn with a sprite of
// the stage's bundle; a rule ends the scene two seconds in, on a tick, with
// the ball at rest on the floor (its centre 10 above the floor's top at
// 98, less cp's slop), and Release leaves nothing behind. Headless, as
// here, nothing is drawn.
func ExampleStage() {
	drop := engine.NewScene("Drop", func(loop *engine.Loop) (engine.Scene, error) {
		st, err := stage.New(loop, stage.Options{
			Groups:    []engine.Group{{Name: "physics", Hz: 60}},
			Physics:   &physics.Config{Gravity: cp.Vector{Y: 500}}, // y down
			OnRelease: func(left stage.Leftovers) { fmt.Printf("left: %+v\n", left) },
		})
		if err != nil {
			return nil, err
		}
		defer st.Release()
		ball := st.Physics.SpawnCircle(10, &physics.BodyOptions{Position: cp.Vector{X: 50},
			Sprite: st.Sprite(assets.SpriteBall)})
		st.Physics.SpawnWalls([]cp.Vector{{X: 0, Y: 100}, {X: 100, Y: 100}}, 2, nil)
		st.Sched.AddUpdate(0, "physics", st.Physics.Update).
			AddUpdate(0, "rules", func(w donburi.World, ev engine.Event) {
				if ev.Tick == 120 {
					b := st.Physics.Body(ball)
					fmt.Printf("after tick %d: y %.1f, speed %.0f\n", ev.Tick, b.Position().Y, b.Velocity().Length())
					st.End(nil) // no next scene: the game ends
				}
			}).
			AddRender(0, "sprites", render.New(st.World).Draw)
		return st.Run()
	})
	err := engine.Run(drop, nil)
	fmt.Println("err:", err)
	// Output:
	// after tick 120: y 88.1, speed 0
	// left: {Entities:0 Bodies:0 BundleReleased:true}
	// err: <nil>
}
