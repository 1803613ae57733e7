package main

import (
	"fmt"
	"image/color"

	"github.com/hajimehoshi/ebiten/v2"
	"github.com/yohamta/donburi"

	"github.com/fixedstep/fixedstep/engine"
	"github.com/fixedstep/fixedstep/systems"
)

var (
	background = color.RGBA{18, 20, 32, 255}
	white      = color.RGBA{240, 240, 240, 255}
	grey       = color.RGBA{150, 156, 170, 255}
)

// Title waits for Enter or Space (or the pad's A) to start a game; Esc quits.
type Title struct {
	Settings
	Session
}

// Session is what one run of the program carries from game to game.
type Session struct {
	Best  int // the best score
	Games int // games started
}

// Run shows the title until a key starts a game (or Esc quits).
func (t *Title) Run(loop *engine.Loop) (engine.Scene, error) {
	st, err := systems.NewStage(loop, systems.StageOptions{Background: background})
	if err != nil {
		return nil, err
	}
	defer st.Release()
	if t.Autopilot {
		loop.SetTickInput(0, pressAfter(ebiten.KeySpace, 60)) // a second on the title, then start
	}
	for i, c := range rowColours { // a strip of bricks, for the look of it
		for col := range 10 {
			rect(st.World, st.Bundle, 77+float64(col)*54, 190+float64(i)*10, 50, 7, c, 0)
		}
	}
	st.Sched.AddUpdate(0, "menu", func(_ donburi.World, ev engine.Event) {
		switch {
		case started(ev.Input):
			st.End(&Play{Settings: t.Settings, Session: Session{Best: t.Best, Games: t.Games + 1}})
		case ev.Input.KeyPressed(ebiten.KeyEscape):
			st.End(nil)
		}
	})
	face, small := st.Bundle.Face(48), st.Bundle.Face(16)
	best := fmt.Sprintf("best %d", t.Best)
	st.Sched.AddRender(0, "sprites", systems.NewRender(st.World).Draw)
	st.Sched.AddRender(1, "text", func(_ donburi.World, ev engine.Event) {
		if ev.Screen == nil {
			return
		}
		drawText(ev.Screen, face, "BREAKOUT", width/2, 100, white, true)
		drawText(ev.Screen, small, "Enter or Space to play   Esc to quit", width/2, 290, white, true)
		drawText(ev.Screen, small, "arrows or A/D move   Space serves   F3 P . [ ] F11 F12", width/2, 320, grey, true)
		if t.Best > 0 {
			drawText(ev.Screen, small, best, width/2, 360, grey, true)
		}
	})
	return st.Run()
}

// Over shows the score of the game that ended, and why; Enter, Space or Esc
// go back to the Title.
type Over struct {
	Settings
	Session
	Score, Level int
	Why          string
}

// Run shows the result until a key goes back to the Title.
func (o *Over) Run(loop *engine.Loop) (engine.Scene, error) {
	o.Best = max(o.Best, o.Score)
	st, err := systems.NewStage(loop, systems.StageOptions{Background: background})
	if err != nil {
		return nil, err
	}
	defer st.Release()
	if o.Autopilot {
		loop.SetTickInput(0, pressAfter(ebiten.KeyEnter, 180))
	}
	st.Sched.AddUpdate(0, "menu", func(_ donburi.World, ev engine.Event) {
		if started(ev.Input) || ev.Input.KeyPressed(ebiten.KeyEscape) {
			st.End(&Title{Settings: o.Settings, Session: o.Session})
		}
	})
	face, small := st.Bundle.Face(40), st.Bundle.Face(18)
	lines := [...]string{o.Why, fmt.Sprintf("score %d   level %d   best %d", o.Score, o.Level, o.Best)}
	st.Sched.AddRender(0, "text", func(_ donburi.World, ev engine.Event) {
		if ev.Screen == nil {
			return
		}
		drawText(ev.Screen, face, "GAME OVER", width/2, 140, white, true)
		drawText(ev.Screen, small, lines[0], width/2, 220, grey, true)
		drawText(ev.Screen, small, lines[1], width/2, 260, white, true)
		drawText(ev.Screen, small, "Enter to continue", width/2, 330, grey, true)
	})
	return st.Run()
}
