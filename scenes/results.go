package scenes

import (
	"fmt"
	"image/color"
	"time"

	"github.com/hajimehoshi/ebiten/v2"
	"github.com/hajimehoshi/ebiten/v2/text/v2"
	"github.com/yohamta/donburi"

	"github.com/fixedstep/fixedstep/engine"
)

// Results shows the score and the time played, then goes back to the Title
// (Enter, Space, Esc or the gamepad's A).
type Results struct {
	stage
	opts   *Options
	score  int
	played time.Duration
	health float64
	lines  []string
	op     text.DrawOptions
}

// Name names the scene.
func (r *Results) Name() string { return "Results" }

// Run shows the results until the player moves on.
func (r *Results) Run(loop *engine.Loop) (engine.Scene, error) {
	if err := r.load(loop, r.Name(), r.opts, engine.Group{Name: "menu", Hz: 30}); err != nil {
		return nil, err
	}
	defer r.release()
	verdict := "Time is up"
	if r.health <= 0 {
		verdict = "Worn out"
	}
	r.lines = []string{verdict, fmt.Sprintf("Score: %d", r.score), fmt.Sprintf("Time: %.1f s", r.played.Seconds()),
		fmt.Sprintf("Health left: %.0f", r.health), "Enter: back to the title"}
	face := r.bundle.Face(32)
	r.sched.AddRender(0, "results", func(_ donburi.World, ev engine.Event) {
		if ev.Screen == nil {
			return
		}
		ev.Screen.Fill(color.RGBA{24, 18, 36, 255})
		for i, l := range r.lines {
			r.op = text.DrawOptions{}
			r.op.GeoM.Translate(80, 80+float64(i)*60)
			r.op.ColorScale.ScaleWithColor(color.White)
			text.Draw(ev.Screen, l, face, &r.op)
		}
	})
	r.sched.AddRender(9, "overlay", r.overlay.Draw)
	for ev := range loop.Events(r.sched.Groups()...) {
		switch ev.Kind {
		case engine.Input:
			if r.controls(loop, ev.Input) {
				return &Title{opts: r.opts}, nil
			}
		case engine.Update:
			in := ev.Input
			if in.KeyPressed(ebiten.KeyEnter) || in.KeyPressed(ebiten.KeySpace) || in.GamepadPressed(0, ebiten.StandardGamepadButtonRightBottom) {
				return &Title{opts: r.opts}, nil
			}
		case engine.Render:
			r.sched.Render(ev)
			r.rendered(loop, ev)
		}
	}
	return nil, loop.Err()
}
