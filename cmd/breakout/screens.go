package main

import (
	"fmt"
	"image/color"

	"github.com/hajimehoshi/ebiten/v2/text/v2"

	"github.com/fixedstep/fixedstep/engine"
	"github.com/fixedstep/fixedstep/engine/input"
	"github.com/fixedstep/fixedstep/engine/window"
	"github.com/fixedstep/fixedstep/systems/render"
	"github.com/fixedstep/fixedstep/systems/stage"
	"github.com/fixedstep/fixedstep/third_party/donburi"
)

var (
	background = color.RGBA{18, 20, 32, 255}
	// Text's colours are color.Color variables, boxed once: a color.RGBA
	// would be boxed, an allocation, in every Stage.Text call.
	white color.Color = color.RGBA{240, 240, 240, 255}
	grey  color.Color = color.RGBA{150, 156, 170, 255}
)

// Title waits for Enter or Space (or the pad's A) to start a game; Esc quits.
type Title struct {
	Settings
	Progress
}

// Progress is what one run of the program carries from game to game.
type Progress struct {
	Best  int // the best score
	Games int // games started
}

// Run shows the title until a key starts a game (or Esc quits).
func (t *Title) Run(loop *engine.Loop) (engine.Scene, error) {
	st, err := stage.New(loop, stage.Options{Background: background})
	if err != nil {
		return nil, err
	}
	defer st.Release()
	if t.Autopilot {
		loop.SetTickInput(0, engine.KeyFrom(input.KeySpace, 60)) // a second on the title, then start
	}
	for i, c := range rowColours { // a strip of bricks, for the look of it
		for col := range 10 {
			st.SpawnSprite(77+float64(col)*54, 190+float64(i)*10, st.Rect(50, 7, c)) //detcheck:ok a drawing's position, not game state
		}
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
	st.Sched.AddRender(0, "sprites", render.New(st.World).Draw)
	st.Sched.AddRender(1, "text", func(_ donburi.World, ev engine.Event) {
		screen := window.Screen(ev) // nil headless: Text draws nothing
		st.Text(screen, "BREAKOUT", width/2, 100, 48, white, text.AlignCenter)
		st.Text(screen, "Enter or Space to play   Esc to quit", width/2, 290, 16, white, text.AlignCenter)
		st.Text(screen, "arrows or A/D move   Space serves   F3 P . [ ] F11 F12", width/2, 320, 16, grey, text.AlignCenter)
		if t.Best > 0 {
			st.Text(screen, best, width/2, 360, 16, grey, text.AlignCenter)
		}
	})
	return st.Run()
}

// Over shows the score of the game that ended, and why; Enter, Space or Esc
// go back to the Title.
type Over struct {
	Settings
	Progress
	Score, Level int
	Why          string
}

// Run shows the result until a key goes back to the Title.
func (o *Over) Run(loop *engine.Loop) (engine.Scene, error) {
	o.Best = max(o.Best, o.Score)
	st, err := stage.New(loop, stage.Options{Background: background})
	if err != nil {
		return nil, err
	}
	defer st.Release()
	if o.Autopilot {
		loop.SetTickInput(0, engine.KeyFrom(input.KeyEnter, 180))
	}
	st.Sched.AddUpdate(0, "menu", func(_ donburi.World, ev engine.Event) {
		if started(ev.Input) || ev.Input.KeyPressed(input.KeyEscape) {
			st.End(&Title{Settings: o.Settings, Progress: o.Progress})
		}
	})
	lines := [...]string{o.Why, fmt.Sprintf("score %d   level %d   best %d", o.Score, o.Level, o.Best)}
	st.Sched.AddRender(0, "text", func(_ donburi.World, ev engine.Event) {
		screen := window.Screen(ev)
		st.Text(screen, "GAME OVER", width/2, 140, 40, white, text.AlignCenter)
		st.Text(screen, lines[0], width/2, 220, 18, grey, text.AlignCenter)
		st.Text(screen, lines[1], width/2, 260, 18, white, text.AlignCenter)
		st.Text(screen, "Enter to continue", width/2, 330, 18, grey, text.AlignCenter)
	})
	return st.Run()
}
