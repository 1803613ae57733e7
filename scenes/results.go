package scenes

import (
	"fmt"
	"image/color"
	"time"

	"github.com/fixedstep/fixedstep/engine"
	"github.com/fixedstep/fixedstep/engine/input"
	"github.com/fixedstep/fixedstep/systems/menu"
	"github.com/fixedstep/fixedstep/systems/stage"
)

// Results shows the score and the time played, then goes back to the Title
// (Enter, Space, Esc or the gamepad's A).
type Results struct {
	opts   *Options
	score  int
	played time.Duration
	health float64
}

// Name names the scene.
func (r *Results) Name() string { return "Results" }

// Run shows the results until the player moves on.
func (r *Results) Run(loop *engine.Loop) (engine.Scene, error) {
	verdict := "Time is up"
	if r.health <= 0 {
		verdict = "Worn out"
	}
	title := &Title{opts: r.opts}
	m := &menu.Screen{Stage: stageOptions(r.Name(), r.opts, stage.Options{Groups: []engine.Group{{Name: "menu", Hz: 30}},
		Background: color.RGBA{24, 18, 36, 255}}), X: 80, Size: 32, Next: title, Back: title}
	for i, l := range []string{verdict, fmt.Sprintf("Score: %d", r.score), fmt.Sprintf("Time: %.1f s", r.played.Seconds()),
		fmt.Sprintf("Health left: %.0f", r.health), "Enter: back to the title"} {
		m.Lines = append(m.Lines, menu.Line{Text: l, Y: 80 + float64(i)*60}) //detcheck:ok a drawing's position, not game state
	}
	if r.opts.Autopilot { // three seconds on the results, then the Title
		m.Autopilot = engine.KeyFrom(input.KeyEnter, 90)
	}
	return m.Run(loop)
}
