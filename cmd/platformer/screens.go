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
	sky = color.RGBA{36, 48, 84, 255}
	// Text's colours are color.Color variables, boxed once: a color.RGBA
	// would be boxed, an allocation, in every Stage.Text call.
	white color.Color = color.RGBA{240, 240, 240, 255}
	grey  color.Color = color.RGBA{170, 176, 196, 255}
)

// Title waits for Enter or Space (or the pad's A) to start a game; Esc quits.
type Title struct {
	Settings
	Best int // the most stars of a game this run
}

// Run shows the title until a key starts a game (or Esc quits).
func (t *Title) Run(loop *engine.Loop) (engine.Scene, error) {
	st, err := stage.New(loop, stage.Options{Background: sky})
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
			st.End(&Play{Settings: t.Settings, Game: Game{Level: 1, Lives: t.StartLives, Best: t.Best}})
		case ev.Input.KeyPressed(input.KeyEscape):
			st.End(nil)
		}
	})
	best := fmt.Sprintf("best: %d stars", t.Best)
	st.Sched.AddRender(1, "text", func(_ donburi.World, ev engine.Event) {
		screen := window.Screen(ev) // nil headless: Text draws nothing
		st.Text(screen, "PLATFORMER", width/2, 90, 48, white, text.AlignCenter)
		st.Text(screen, "Enter or Space to play   Esc to quit", width/2, 200, 16, white, text.AlignCenter)
		st.Text(screen, "arrows or A/D run   Space or Up jumps   Down+Jump drops through a plank", width/2, 230, 14, grey, text.AlignCenter)
		if t.Best > 0 {
			st.Text(screen, best, width/2, 270, 16, grey, text.AlignCenter)
		}
	})
	return st.Run()
}

// Results shows how the game ended; Enter, Space or Esc go back to the
// Title.
type Results struct {
	Settings
	Game
	Won bool
}

// Run shows the results until a key goes back to the Title.
func (r *Results) Run(loop *engine.Loop) (engine.Scene, error) {
	st, err := stage.New(loop, stage.Options{Background: sky})
	if err != nil {
		return nil, err
	}
	defer st.Release()
	if r.Autopilot {
		loop.SetTickInput(0, engine.KeyFrom(input.KeyEnter, 120))
	}
	best := max(r.Best, r.Stars)
	st.Sched.AddUpdate(0, "menu", func(_ donburi.World, ev engine.Event) {
		if started(ev.Input) || ev.Input.KeyPressed(input.KeyEscape) {
			st.End(&Title{Settings: r.Settings, Best: best})
		}
	})
	head := "GAME OVER"
	if r.Won {
		head = "YOU MADE IT"
	}
	line := fmt.Sprintf("%d stars   %d enemies stomped   level %d", r.Stars, r.Stomped, r.Level)
	st.Sched.AddRender(0, "text", func(_ donburi.World, ev engine.Event) {
		screen := window.Screen(ev)
		st.Text(screen, head, width/2, 110, 40, white, text.AlignCenter)
		st.Text(screen, line, width/2, 190, 18, white, text.AlignCenter)
		st.Text(screen, "Enter to continue", width/2, 250, 16, grey, text.AlignCenter)
	})
	return st.Run()
}
