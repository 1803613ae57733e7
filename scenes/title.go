package scenes

import (
	"image/color"

	"github.com/hajimehoshi/ebiten/v2/text/v2"

	"github.com/fixedstep/fixedstep/engine"
	"github.com/fixedstep/fixedstep/engine/input"
	"github.com/fixedstep/fixedstep/engine/window"
	"github.com/fixedstep/fixedstep/systems/stage"
	"github.com/fixedstep/fixedstep/third_party/donburi"
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

var (
	menu       = []string{"Play", "Local players", "Stress test", "Quit"}
	menuChosen = []string{"> Play", "> Local players", "> Stress test", "> Quit"}
)

// Title is the menu: Play, Local players (the Lobby), Stress test or
// Quit, by keyboard or gamepad.
type Title struct {
	opts   *Options
	st     *stage.Stage
	choice int
}

// Name names the scene.
func (t *Title) Name() string { return "Title" }

// Run shows the menu and returns the chosen scene.
func (t *Title) Run(loop *engine.Loop) (engine.Scene, error) {
	st, err := newStage(loop, t.Name(), t.opts, stage.Options{Groups: []engine.Group{{Name: "menu", Hz: 30}}})
	if err != nil {
		return nil, err
	}
	defer st.Release()
	t.st = st
	if t.opts.Autopilot { // a second on the menu, then Play
		loop.SetTickInput(0, engine.KeyFrom(input.KeyEnter, 30))
	}
	st.Sched.AddUpdate(0, "choose", t.choose).AddRender(0, "menu", t.draw)
	return st.Run()
}

// choose moves through the menu on a tick's input, and ends the scene with
// the choice (Esc quits).
func (t *Title) choose(_ donburi.World, ev engine.Event) {
	in := ev.Input
	up := in.KeyPressed(input.KeyArrowUp) || in.KeyPressed(input.KeyW) || in.GamepadPressed(0, input.GamepadLeftTop)
	down := in.KeyPressed(input.KeyArrowDown) || in.KeyPressed(input.KeyS) || in.GamepadPressed(0, input.GamepadLeftBottom)
	if up {
		t.choice = (t.choice + len(menu) - 1) % len(menu)
	}
	if down {
		t.choice = (t.choice + 1) % len(menu)
	}
	if in.KeyPressed(input.KeyEscape) {
		t.st.End(nil)
		return
	}
	if !in.KeyPressed(input.KeyEnter) && !in.KeyPressed(input.KeySpace) && !in.GamepadPressed(0, input.GamepadRightBottom) {
		return
	}
	switch t.choice {
	case 0:
		t.st.End(&Arena{opts: t.opts})
	case 1:
		t.st.End(&Lobby{opts: t.opts})
	case 2:
		t.st.End(&Stress{opts: t.opts})
	default:
		t.st.End(nil)
	}
}

func (t *Title) draw(_ donburi.World, ev engine.Event) {
	screen := window.Screen(ev)
	if screen == nil {
		return
	}
	screen.Fill(color.RGBA{18, 22, 36, 255})
	t.st.Text(screen, "fixedstep", 60, 50, 40, color.RGBA{120, 220, 255, 255}, text.AlignStart)
	for i, item := range menu {
		c := color.RGBA{160, 160, 170, 255}
		if i == t.choice {
			c = color.RGBA{255, 220, 80, 255}
			item = menuChosen[i]
		}
		t.st.Text(screen, item, 80, 130+float64(i)*46, 36, c, text.AlignStart) //detcheck:ok a drawing's position, not game state
	}
	for i, row := range Controls {
		y := 320 + float64(i)*20 //detcheck:ok a drawing's position, not game state
		t.st.Text(screen, row[0], 80, y, 16, color.RGBA{200, 200, 210, 255}, text.AlignStart)
		t.st.Text(screen, row[1], 360, y, 16, color.RGBA{140, 140, 150, 255}, text.AlignStart)
	}
}
