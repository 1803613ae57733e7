package window_test

import (
	"fmt"
	"image/color"
	"os"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/hajimehoshi/ebiten/v2"

	"github.com/fixedstep/fixedstep/engine"
	"github.com/fixedstep/fixedstep/engine/window"
)

// The browser's drawing path (the scene drawn straight on ebiten's final
// screen), turned on natively: with a screen of the window's size the scene
// draws on the final screen (ebiten has filled it opaque black), and
// ScreenPixels reads it the right way up; with a smaller screen, scaled up
// to the window, it draws on ebiten's offscreen as natively. Either way a
// frame that draws nothing shows nothing of the frame before.
func TestFinalScreenPath(t *testing.T) {
	if sc := os.Getenv(windowScenario); strings.HasPrefix(sc, "final") {
		finalChild(t, sc)
		return
	}
	needDisplay(t)
	for _, scenario := range []string{"final-direct", "final-scaled"} {
		t.Run(scenario, func(t *testing.T) {
			out := runWindowChild(t, "TestFinalScreenPath", scenario)
			if !strings.Contains(out, "FINAL "+scenario+" ok") || !strings.Contains(out, "--- PASS") {
				t.Fatalf("child output:\n%s", out)
			}
			t.Log(lines(out, "FINAL"))
		})
	}
}

func finalChild(t *testing.T, scenario string) {
	const w, h = 320, 240
	sw, sh := w, h
	if scenario == "final-scaled" {
		sw, sh = w/2, h/2
	}
	window.DrawOnFinalScreen(true)
	var frames atomic.Int64
	childWatch(func() string { return fmt.Sprintf("%d frames", frames.Load()) })
	white := ebiten.NewImage(1, 1)
	white.Fill(color.White)
	var final, offscreen int
	var report string
	scene := engine.NewScene("Square", func(loop *engine.Loop) (engine.Scene, error) {
		for ev := range loop.Events() {
			screen := window.Screen(ev)
			if ev.Kind != engine.Render || screen == nil {
				continue
			}
			if window.OnFinalScreen() {
				final++
			} else {
				offscreen++
			}
			n := frames.Add(1)
			if n%2 == 1 { // every other frame draws nothing: the screen is cleared
				op := &ebiten.DrawImageOptions{}
				op.GeoM.Scale(20, 10)
				op.GeoM.Translate(10, 30)
				op.ColorScale.ScaleWithColor(color.RGBA{255, 0, 0, 255})
				screen.DrawImage(white, op)
			}
			if n < 20 {
				continue
			}
			pix := window.ScreenPixels(screen)
			var red, other int
			minX, minY := sw, sh
			for y := range sh {
				for x := range sw {
					c := pix.RGBAAt(x, y)
					switch {
					case c.R > 200 && c.G < 50 && c.B < 50:
						red++
						minX, minY = min(minX, x), min(minY, y)
					case c.R != 0 || c.G != 0 || c.B != 0: // black, opaque on the final screen
						other++
					}
				}
			}
			if n%2 == 1 {
				report = fmt.Sprintf("red %d pixels from (%d, %d), other %d", red, minX, minY, other)
				if red != 200 || minX != 10 || minY != 30 || other != 0 {
					return nil, fmt.Errorf("frame %d: %s; want 200 red from (10, 30) on black", n, report)
				}
				return nil, nil
			}
			if red != 0 || other != 0 {
				return nil, fmt.Errorf("frame %d drew nothing: red %d, other %d pixels", n, red, other)
			}
		}
		return nil, loop.Err()
	})
	err := window.Run(scene, nil, &window.Options{Title: childTitle(scenario), Width: w, Height: h,
		ScreenWidth: sw, ScreenHeight: sh})
	childReturned.Store(true)
	if err != nil {
		childFail("%v", err)
	}
	want := scenario == "final-direct"
	if (final > 0) != want || (offscreen > 0) == want {
		childFail("frames on the final screen %d, on the offscreen %d", final, offscreen)
	}
	fmt.Printf("FINAL %s ok: %s; frames on the final screen %d, on the offscreen %d\n", scenario, report, final, offscreen)
}
