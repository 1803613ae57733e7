package scenes

import (
	"fmt"
	"image/color"

	"github.com/fixedstep/fixedstep/engine"
	"github.com/fixedstep/fixedstep/engine/input"
	"github.com/fixedstep/fixedstep/systems/menu"
	"github.com/fixedstep/fixedstep/systems/stage"
)

// Controls is the table of keys, shown on the Title screen and in docs/demo.md.
var Controls = [][2]string{
	{"Arrows / WASD / left stick", "move"},
	{"Up, Down, Enter / D-pad, A", "menu"},
	{"F3", "overlay: FPS, ticks, per-system timings"},
	{"P", "pause"},
	{". (period) and , (comma)", "a step forward, or back, while paused"},
	{"[ and ]", "time scale down and up"},
	{"+ and -", "bodies in the stress test"},
	{"F11", "fullscreen"},
	{"F12", "screenshot to a PNG"},
	{"Esc", "back, or quit"},
}

// Title is the menu: Play, Local players (the Lobby), Stress test or
// Quit, by keyboard or gamepad.
type Title struct {
	opts *Options
}

// Name names the scene.
func (t *Title) Name() string { return "Title" }

// Run shows the menu and returns the chosen scene (Esc quits).
func (t *Title) Run(loop *engine.Loop) (engine.Scene, error) {
	m := &menu.Screen{Stage: stageOptions(t.Name(), t.opts, stage.Options{Groups: []engine.Group{{Name: "menu", Hz: 30}},
		Background: color.RGBA{18, 22, 36, 255}}), X: 80,
		Lines: []menu.Line{{Text: "fixedstep", X: 60, Y: 50, Size: 40, Color: color.RGBA{120, 220, 255, 255}}},
		Choice: menu.Choice{Items: []menu.Item{{Text: "Play", Next: &Arena{opts: t.opts}},
			{Text: "Local players", Next: &Lobby{opts: t.opts}}, {Text: "Stress test", Next: &Stress{opts: t.opts}}, {Text: "Quit"}},
			Y: 130, Step: 46, Size: 36, Color: color.RGBA{160, 160, 170, 255}, Chosen: color.RGBA{255, 220, 80, 255}, Mark: "> "}}
	for i, row := range Controls {
		y := 320 + float64(i)*20 //detcheck:ok a drawing's position, not game state
		m.Lines = append(m.Lines, menu.Line{Text: row[0], Y: y, Color: color.RGBA{200, 200, 210, 255}},
			menu.Line{Text: row[1], X: 360, Y: y, Color: color.RGBA{140, 140, 150, 255}})
	}
	if t.opts.Autopilot { // a second on the menu, then Play
		m.Autopilot = engine.KeyFrom(input.KeyEnter, 30)
	}
	return m.Run(loop)
}

// SceneFor makes the scene named afresh, as the Title's menu hands it on,
// with the Title's options (engine.SceneMaker): the Arena, the Stress test,
// or the Title itself (after Results), so that a run begins from a state
// of one of them: a player who joins a netplay game under way, past the
// Title, begins from the host's state of its Arena. The Lobby and Results
// are handed values of their own: for them, and any other name, it is an
// error. An Arena the Lobby seated is made as the Title's would be: the
// state's checksum, checked once read, refuses it where they differ.
func (t *Title) SceneFor(name string) (engine.Scene, error) {
	switch name {
	case "Arena":
		return &Arena{opts: t.opts}, nil
	case "Stress":
		return &Stress{opts: t.opts}, nil
	case "Title":
		return &Title{opts: t.opts}, nil
	}
	return nil, fmt.Errorf("the Title makes no scene %q afresh: Arena, Stress or Title", name)
}
