package main

import (
	"fmt"
	"image/color"

	"github.com/hajimehoshi/ebiten/v2/text/v2"

	"github.com/fixedstep/fixedstep/engine"
	"github.com/fixedstep/fixedstep/engine/input"
	"github.com/fixedstep/fixedstep/systems/menu"
	"github.com/fixedstep/fixedstep/systems/stage"
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
	m := &menu.Screen{Stage: stage.Options{Background: sky}, X: width / 2, Align: text.AlignCenter, Color: white,
		Lines: []menu.Line{{Text: "PLATFORMER", Y: 90, Size: 48},
			{Text: "Enter or Space to play   Esc to quit", Y: 200},
			{Text: "arrows or A/D run   Space or Up jumps   Down+Jump drops through a plank", Y: 230, Size: 14, Color: grey}},
		Next: &Play{Settings: t.Settings, Game: Game{Level: 1, Lives: t.StartLives, Best: t.Best}}}
	if t.Best > 0 {
		m.Lines = append(m.Lines, menu.Line{Text: fmt.Sprintf("best: %d stars", t.Best), Y: 270, Color: grey})
	}
	if t.Autopilot {
		m.Autopilot = engine.KeyFrom(input.KeyEnter, 60) // a second on the title, then start
	}
	return m.Run(loop)
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
	head := "GAME OVER"
	if r.Won {
		head = "YOU MADE IT"
	}
	title := &Title{Settings: r.Settings, Best: max(r.Best, r.Stars)}
	m := &menu.Screen{Stage: stage.Options{Background: sky}, X: width / 2, Align: text.AlignCenter, Color: white,
		Lines: []menu.Line{{Text: head, Y: 110, Size: 40},
			{Text: fmt.Sprintf("%d stars   %d enemies stomped   level %d", r.Stars, r.Stomped, r.Level), Y: 190, Size: 18},
			{Text: "Enter to continue", Y: 250, Color: grey}},
		Next: title, Back: title}
	if r.Autopilot {
		m.Autopilot = engine.KeyFrom(input.KeyEnter, 120)
	}
	return m.Run(loop)
}
