package window_test

import (
	"errors"
	"fmt"
	"image/color"
	"os"
	"os/exec"
	"strings"
	"testing"

	"github.com/hajimehoshi/ebiten/v2"

	"github.com/fixedstep/fixedstep/engine"
	"github.com/fixedstep/fixedstep/engine/window"
	"github.com/fixedstep/fixedstep/third_party/donburi"
)

// needDisplay skips a test that opens a window when there is no display,
// except in CI (make test runs everything under xvfb-run), where it fails.
func needDisplay(t *testing.T) {
	if os.Getenv("DISPLAY") == "" {
		if os.Getenv("CI") != "" {
			t.Fatal("no DISPLAY in CI: run the tests through make test (xvfb-run)")
		}
		t.Skip("no DISPLAY: run under xvfb-run -a, or make test")
	}
}

// windowRan is set once the window test has called RunGame.
var windowRan bool

// pixel returns the colour at (x, y) of RGBA pixels of width w.
func pixel(pix []byte, w, x, y int) color.RGBA {
	i := 4 * (y*w + x)
	return color.RGBA{pix[i], pix[i+1], pix[i+2], pix[i+3]}
}

// Under Xvfb, the ebiten driver runs a two-scene chain: a square moved by a
// 60 Hz group and drawn at the interpolated position by a render system, then
// a second scene; reading the screen's pixels finds what each drew, and the
// chain ends cleanly. This is the only test in this package that calls
// ebiten.RunGame (once per process).
func TestWindowDriverRunsSceneChain(t *testing.T) {
	needDisplay(t)
	if windowRan {
		t.Skip("ebiten.RunGame runs once per process: this test ran already (-count > 1)")
	}
	windowRan = true
	const w, h = 320, 240
	var (
		moving, second     bool
		squareX, redAt     float64
		redFound, blueSeen bool
		ticks, frames      int
		nilScreens         int
	)
	white := ebiten.NewImage(1, 1)
	white.Fill(color.White)
	square := func(screen *ebiten.Image, x, y float64, c color.Color) {
		op := &ebiten.DrawImageOptions{}
		op.GeoM.Scale(20, 20)
		op.GeoM.Translate(x, y)
		op.ColorScale.ScaleWithColor(c)
		screen.DrawImage(white, op)
	}
	pix := make([]byte, 4*w*h)

	secondScene := engine.NewScene("Second", func(loop *engine.Loop) (engine.Scene, error) {
		second = true
		for ev := range loop.Events() {
			if ev.Kind != engine.Render {
				continue
			}
			if window.Screen(ev) == nil {
				nilScreens++
				continue
			}
			window.Screen(ev).Fill(color.RGBA{0, 0, 255, 255})
			window.Screen(ev).ReadPixels(pix)
			if pixel(pix, w, 5, 5) == (color.RGBA{0, 0, 255, 255}) {
				blueSeen = true
				return nil, nil
			}
		}
		return nil, loop.Err()
	})
	first := engine.NewScene("Moving", func(loop *engine.Loop) (engine.Scene, error) {
		moving = true
		world := donburi.NewWorld()
		s := engine.NewScheduler(world, engine.Group{Name: "physics", Hz: 60})
		prevX, curX := 0.0, 0.0
		s.AddUpdate(0, "move", func(_ donburi.World, ev engine.Event) {
			ticks++
			prevX, curX = curX, curX+120*ev.DT // 120 px/s
		})
		s.AddRender(0, "draw", func(_ donburi.World, ev engine.Event) {
			squareX = prevX + (curX-prevX)*ev.Alpha
			window.Screen(ev).Fill(color.Black)
			square(window.Screen(ev), squareX, 100, color.RGBA{255, 0, 0, 255})
		})
		for ev := range loop.Events(s.Groups()...) {
			if ev.Kind == engine.Render && window.Screen(ev) == nil {
				nilScreens++
				continue
			}
			s.Handle(ev)
			if ev.Kind != engine.Render {
				continue
			}
			if frames++; frames < 30 || ticks < 10 {
				continue
			}
			window.Screen(ev).ReadPixels(pix)
			for x := range w {
				if c := pixel(pix, w, x, 110); c.R > 200 && c.G < 50 && c.B < 50 {
					redFound, redAt = true, float64(x)
					break
				}
			}
			return secondScene, nil
		}
		return nil, loop.Err()
	})
	err := window.Run(first, nil, &window.Options{Title: "engine test", Width: w, Height: h,
		ScreenWidth: w, ScreenHeight: h})
	if err != nil {
		t.Fatal(err)
	}
	if !moving || !second || !blueSeen {
		t.Fatalf("scenes ran: moving %v, second %v (blue seen %v)", moving, second, blueSeen)
	}
	// The square's left edge is drawn at the interpolated x; pixel columns round.
	if !redFound || redAt < squareX-1 || redAt > squareX+1 || squareX <= 0 {
		t.Fatalf("red square found %v at x=%v, drawn at %.2f after %d ticks", redFound, redAt, squareX, ticks)
	}
	t.Logf("%d frames, %d ticks, square at %.2f found at %v, %d frames without a screen", frames, ticks, squareX, redAt, nilScreens)
}

// Without a display, Run in a window returns an error that says how to run
// headless or under xvfb-run. Checked in a child process, as RunGame can run
// once per process and this one may have a display.
func TestWindowWithoutDisplayFails(t *testing.T) {
	if os.Getenv("ENGINE_TEST_NO_DISPLAY") == "1" {
		scene := engine.NewScene("Never", func(loop *engine.Loop) (engine.Scene, error) {
			return nil, errors.New("the scene ran without a display")
		})
		err := window.Run(scene, nil, nil)
		fmt.Printf("RUN ERROR: %v\n", err)
		if !errors.Is(err, window.ErrNoDisplay) {
			os.Exit(3)
		}
		return
	}
	cmd := exec.Command(os.Args[0], "-test.run=^TestWindowWithoutDisplayFails$", "-test.v")
	var env []string
	for _, kv := range os.Environ() {
		if !strings.HasPrefix(kv, "DISPLAY=") && !strings.HasPrefix(kv, "WAYLAND_DISPLAY=") {
			env = append(env, kv)
		}
	}
	cmd.Env = append(env, "ENGINE_TEST_NO_DISPLAY=1")
	out, err := cmd.CombinedOutput()
	if err != nil || !strings.Contains(string(out), "RUN ERROR: engine: no display") ||
		!strings.Contains(string(out), "xvfb-run -a") || !strings.Contains(string(out), "-headless") {
		t.Fatalf("child: %v\n%s", err, out)
	}
}
