package main

import (
	"fmt"
	"image/color"

	"github.com/hajimehoshi/ebiten/v2/text/v2"

	"github.com/fixedstep/fixedstep/engine"
	"github.com/fixedstep/fixedstep/engine/input"
	"github.com/fixedstep/fixedstep/systems/menu"
	"github.com/fixedstep/fixedstep/systems/render"
	"github.com/fixedstep/fixedstep/systems/stage"
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
	m := &menu.Screen{Stage: stage.Options{Background: background}, X: width / 2, Align: text.AlignCenter, Color: white,
		Lines: []menu.Line{{Text: "BREAKOUT", Y: 100, Size: 48},
			{Text: "Enter or Space to play   Esc to quit", Y: 290},
			{Text: "arrows or A/D move   Space serves   F3 P . [ ] F11 F12", Y: 320, Color: grey}},
		Next: &Play{Settings: t.Settings, Progress: Progress{Best: t.Best, Games: t.Games + 1}},
		Setup: func(st *stage.Stage) {
			for i, c := range rowColours { // a strip of bricks, for the look of it
				for col := range 10 {
					st.SpawnSprite(77+float64(col)*54, 190+float64(i)*10, st.Rect(50, 7, c)) //detcheck:ok a drawing's position, not game state
				}
			}
			st.Sched.AddRender(0, "sprites", render.New(st.World).Draw)
		}}
	if t.Best > 0 {
		m.Lines = append(m.Lines, menu.Line{Text: fmt.Sprintf("best %d", t.Best), Y: 360, Color: grey})
	}
	if t.Autopilot {
		m.Autopilot = engine.KeyFrom(input.KeySpace, 60) // a second on the title, then start
	}
	return m.Run(loop)
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
	title := &Title{Settings: o.Settings, Progress: o.Progress}
	m := &menu.Screen{Stage: stage.Options{Background: background}, X: width / 2, Align: text.AlignCenter, Size: 18, Color: white,
		Lines: []menu.Line{{Text: "GAME OVER", Y: 140, Size: 40}, {Text: o.Why, Y: 220, Color: grey},
			{Text: fmt.Sprintf("score %d   level %d   best %d", o.Score, o.Level, o.Best), Y: 260},
			{Text: "Enter to continue", Y: 330, Color: grey}},
		Next: title, Back: title}
	if o.Autopilot {
		m.Autopilot = engine.KeyFrom(input.KeyEnter, 180)
	}
	return m.Run(loop)
}
