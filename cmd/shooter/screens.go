package main

import (
	"fmt"
	"image/color"

	"github.com/hajimehoshi/ebiten/v2/text/v2"

	"github.com/fixedstep/fixedstep/engine"
	"github.com/fixedstep/fixedstep/engine/input"
	"github.com/fixedstep/fixedstep/engine/window"
	"github.com/fixedstep/fixedstep/systems/stage"
	"github.com/fixedstep/fixedstep/third_party/donburi"
)

var (
	background = color.RGBA{16, 18, 28, 255}
	// Text's colours are color.Color variables, boxed once: a color.RGBA
	// would be boxed, an allocation, in every Stage.Text call.
	white color.Color = color.RGBA{240, 240, 240, 255}
	grey  color.Color = color.RGBA{150, 156, 170, 255}
)

// Progress is what one run of the program carries from game to game.
type Progress struct {
	Best  int // the best team score
	Games int // games started
}

// Title waits for Enter (or the pad's A) to start a game; Esc quits.
type Title struct {
	Settings
	Progress
}

// Run shows the title until a key starts a game (or Esc quits).
func (t *Title) Run(loop *engine.Loop) (engine.Scene, error) {
	st, err := stage.New(loop, stage.Options{Background: background})
	if err != nil {
		return nil, err
	}
	defer st.Release()
	if t.Autopilot {
		loop.SetTickInput(0, engine.KeyFrom(input.KeyEnter, 60)) // a second on the title, then start
	}
	st.Sched.AddUpdate(0, "menu", func(_ donburi.World, ev engine.Event) {
		switch {
		case started(ev.Input):
			st.End(&Play{Settings: t.Settings, Progress: Progress{Best: t.Best, Games: t.Games + 1}})
		case ev.Input.KeyPressed(input.KeyEscape):
			st.End(nil)
		}
	})
	best := fmt.Sprintf("best %d", t.Best)
	st.Sched.AddRender(0, "text", func(_ donburi.World, ev engine.Event) {
		screen := window.Screen(ev) // nil headless: Text draws nothing
		st.Text(screen, "SHOOTER", width/2, 100, 48, white, text.AlignCenter)
		st.Text(screen, "Enter to play   Esc to quit", width/2, 250, 16, white, text.AlignCenter)
		st.Text(screen, "WASD or arrows move   IJKL or the mouse aim   Space or the button fires", width/2, 290, 14, grey, text.AlignCenter)
		st.Text(screen, "-seats kb1,kb2 for two at one keyboard   -host, -join to play over the network", width/2, 315, 14, grey, text.AlignCenter)
		if t.Best > 0 {
			st.Text(screen, best, width/2, 360, 16, grey, text.AlignCenter)
		}
	})
	return st.Run()
}

// Results shows the game that ended: the wave reached and each player's
// score; Enter or Esc go back to the Title.
type Results struct {
	Settings
	Progress
	Wave   int
	Scores []int // by player
}

// Run shows the results until a key goes back to the Title.
func (r *Results) Run(loop *engine.Loop) (engine.Scene, error) {
	total := 0
	for _, s := range r.Scores {
		total += s
	}
	r.Best = max(r.Best, total)
	st, err := stage.New(loop, stage.Options{Background: background})
	if err != nil {
		return nil, err
	}
	defer st.Release()
	if r.Autopilot {
		loop.SetTickInput(0, engine.KeyFrom(input.KeyEnter, 180))
	}
	st.Sched.AddUpdate(0, "menu", func(_ donburi.World, ev engine.Event) {
		if started(ev.Input) || ev.Input.KeyPressed(input.KeyEscape) {
			st.End(&Title{Settings: r.Settings, Progress: r.Progress})
		}
	})
	lines := []string{fmt.Sprintf("wave %d   team score %d   best %d", r.Wave, total, r.Best)}
	for p, s := range r.Scores {
		lines = append(lines, fmt.Sprintf("player %d: %d", p+1, s))
	}
	st.Sched.AddRender(0, "text", func(_ donburi.World, ev engine.Event) {
		screen := window.Screen(ev)
		st.Text(screen, "GAME OVER", width/2, 120, 40, white, text.AlignCenter)
		for i, l := range lines {
			st.Text(screen, l, width/2, 200+float64(i*30), 18, white, text.AlignCenter)
		}
		st.Text(screen, "Enter to continue", width/2, 400, 18, grey, text.AlignCenter)
	})
	return st.Run()
}
