package scenes

import (
	"image/color"

	"github.com/hajimehoshi/ebiten/v2"
	"github.com/hajimehoshi/ebiten/v2/text/v2"
	"github.com/yohamta/donburi"

	"github.com/fixedstep/fixedstep/engine"
)

// Controls is the table of keys, shown on the Title screen and in the README.
var Controls = [][2]string{
	{"Arrows / WASD / left stick", "move"},
	{"Up, Down, Enter / D-pad, A", "menu"},
	{"F3", "overlay: FPS, ticks, per-system timings"},
	{"P", "pause"},
	{". (period)", "single step while paused"},
	{"[ and ]", "time scale down and up"},
	{"+ and -", "bodies in the stress test"},
	{"F11", "fullscreen"},
	{"F12", "screenshot to a PNG"},
	{"Esc", "back, or quit"},
}

var (
	menu       = []string{"Play", "Stress test", "Quit"}
	menuChosen = []string{"> Play", "> Stress test", "> Quit"}
)

// Title is the menu: Play, Stress test or Quit, by keyboard or gamepad.
type Title struct {
	stage
	opts   *Options
	choice int
	face   *text.GoTextFace
	small  *text.GoTextFace
	op     text.DrawOptions
}

// Name names the scene.
func (t *Title) Name() string { return "Title" }

// Run shows the menu and returns the chosen scene.
func (t *Title) Run(loop *engine.Loop) (engine.Scene, error) {
	if err := t.load(loop, t.Name(), t.opts, engine.Group{Name: "menu", Hz: 30}); err != nil {
		return nil, err
	}
	defer t.release()
	t.face, t.small = t.bundle.Face(40), t.bundle.Face(16)
	t.sched.AddRender(0, "menu", t.draw).AddRender(9, "overlay", t.overlay.Draw)
	for ev := range loop.Events(t.sched.Groups()...) {
		switch ev.Kind {
		case engine.Input:
			if t.controls(loop, ev.Input) {
				loop.Stop()
				return nil, nil
			}
		case engine.Update:
			if next, done := t.choose(loop, ev.Input); done {
				return next, nil
			}
		case engine.Render:
			t.sched.Render(ev)
			t.rendered(loop, ev)
		}
	}
	return nil, loop.Err()
}

// choose moves through the menu on a tick's input, and reports the choice.
func (t *Title) choose(loop *engine.Loop, in *engine.InputState) (engine.Scene, bool) {
	up := in.KeyPressed(ebiten.KeyArrowUp) || in.KeyPressed(ebiten.KeyW) || in.GamepadPressed(0, ebiten.StandardGamepadButtonLeftTop)
	down := in.KeyPressed(ebiten.KeyArrowDown) || in.KeyPressed(ebiten.KeyS) || in.GamepadPressed(0, ebiten.StandardGamepadButtonLeftBottom)
	if up {
		t.choice = (t.choice + len(menu) - 1) % len(menu)
	}
	if down {
		t.choice = (t.choice + 1) % len(menu)
	}
	if !in.KeyPressed(ebiten.KeyEnter) && !in.KeyPressed(ebiten.KeySpace) && !in.GamepadPressed(0, ebiten.StandardGamepadButtonRightBottom) {
		return nil, false
	}
	switch t.choice {
	case 0:
		return &Arena{opts: t.opts}, true
	case 1:
		return &Stress{opts: t.opts}, true
	}
	loop.Stop()
	return nil, true
}

func (t *Title) draw(_ donburi.World, ev engine.Event) {
	if ev.Screen == nil {
		return
	}
	ev.Screen.Fill(color.RGBA{18, 22, 36, 255})
	t.text(ev.Screen, "fixedstep", t.face, 60, 50, color.RGBA{120, 220, 255, 255})
	for i, item := range menu {
		c := color.RGBA{160, 160, 170, 255}
		if i == t.choice {
			c = color.RGBA{255, 220, 80, 255}
			item = menuChosen[i]
		}
		t.text(ev.Screen, item, t.face, 80, 130+float64(i)*56, c)
	}
	for i, row := range Controls {
		y := 320 + float64(i)*20
		t.text(ev.Screen, row[0], t.small, 80, y, color.RGBA{200, 200, 210, 255})
		t.text(ev.Screen, row[1], t.small, 360, y, color.RGBA{140, 140, 150, 255})
	}
}

func (t *Title) text(dst *ebiten.Image, s string, face *text.GoTextFace, x, y float64, c color.Color) {
	t.op = text.DrawOptions{}
	t.op.GeoM.Translate(x, y)
	t.op.ColorScale.ScaleWithColor(c)
	text.Draw(dst, s, face, &t.op)
}
