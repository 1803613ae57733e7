package scenes

import (
	"fmt"
	"image/color"
	"time"

	"github.com/hajimehoshi/ebiten/v2/text/v2"

	"github.com/fixedstep/fixedstep/engine"
	"github.com/fixedstep/fixedstep/engine/input"
	"github.com/fixedstep/fixedstep/engine/window"
	"github.com/fixedstep/fixedstep/systems/stage"
	"github.com/fixedstep/fixedstep/third_party/donburi"
)

// Results shows the score and the time played, then goes back to the Title
// (Enter, Space, Esc or the gamepad's A).
type Results struct {
	opts   *Options
	score  int
	played time.Duration
	health float64
	lines  []string
}

// Name names the scene.
func (r *Results) Name() string { return "Results" }

// Run shows the results until the player moves on.
func (r *Results) Run(loop *engine.Loop) (engine.Scene, error) {
	st, err := newStage(loop, r.Name(), r.opts, stage.Options{Groups: []engine.Group{{Name: "menu", Hz: 30}}})
	if err != nil {
		return nil, err
	}
	defer st.Release()
	verdict := "Time is up"
	if r.health <= 0 {
		verdict = "Worn out"
	}
	r.lines = []string{verdict, fmt.Sprintf("Score: %d", r.score), fmt.Sprintf("Time: %.1f s", r.played.Seconds()),
		fmt.Sprintf("Health left: %.0f", r.health), "Enter: back to the title"}
	if r.opts.Autopilot { // three seconds on the results, then the Title
		loop.SetTickInput(0, engine.KeyFrom(input.KeyEnter, 90))
	}
	st.Sched.AddUpdate(0, "next", func(_ donburi.World, ev engine.Event) {
		in := ev.Input
		if in.KeyPressed(input.KeyEnter) || in.KeyPressed(input.KeySpace) || in.KeyPressed(input.KeyEscape) ||
			in.GamepadPressed(0, input.GamepadRightBottom) {
			st.End(&Title{opts: r.opts})
		}
	})
	st.Sched.AddRender(0, "results", func(_ donburi.World, ev engine.Event) {
		screen := window.Screen(ev)
		if screen == nil {
			return
		}
		screen.Fill(color.RGBA{24, 18, 36, 255})
		for i, l := range r.lines {
			st.Text(screen, l, 80, 80+float64(i)*60, 32, color.White, text.AlignStart) //detcheck:ok a drawing's position, not game state
		}
	})
	return st.Run()
}
