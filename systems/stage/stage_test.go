package stage_test

import (
	"bytes"
	"errors"
	"image"
	"image/color"
	"image/png"
	"os"
	"strings"
	"testing"

	"github.com/hajimehoshi/ebiten/v2"
	"github.com/hajimehoshi/ebiten/v2/text/v2"

	"github.com/fixedstep/fixedstep/assets"
	"github.com/fixedstep/fixedstep/components"
	"github.com/fixedstep/fixedstep/components/gfx"
	"github.com/fixedstep/fixedstep/engine"
	"github.com/fixedstep/fixedstep/engine/input"
	"github.com/fixedstep/fixedstep/engine/window"
	"github.com/fixedstep/fixedstep/internal/ebitentest"
	"github.com/fixedstep/fixedstep/systems/physics"
	"github.com/fixedstep/fixedstep/systems/render"
	"github.com/fixedstep/fixedstep/systems/stage"
	"github.com/fixedstep/fixedstep/third_party/cp"
	"github.com/fixedstep/fixedstep/third_party/donburi"
)

// A scene on a Stage: bodies fall; a rule ends the scene at tick 90 with the
// next scene; Release leaves nothing (no entity, no body, the bundle freed);
// the recording holds the stage's state checksums, the last tick's too.
func TestStageRunsEndsAndReleases(t *testing.T) {
	var left []stage.Leftovers
	var endTick int64
	next := engine.NewScene("Next", func(*engine.Loop) (engine.Scene, error) { return nil, nil })
	play := engine.NewScene("Play", func(loop *engine.Loop) (engine.Scene, error) {
		st, err := stage.New(loop, stage.Options{
			Groups:    []engine.Group{{Name: "physics", Hz: 60}, {Name: "slow", Hz: 7}},
			Physics:   &physics.Config{Gravity: cp.Vector{Y: 100}},
			OnRelease: func(l stage.Leftovers) { left = append(left, l) },
		})
		if err != nil {
			return nil, err
		}
		defer st.Release()
		for i := range 5 {
			st.Physics.SpawnCircle(5, &physics.BodyOptions{Position: cp.Vector{X: float64(20 * i)}})
		}
		st.Physics.SpawnWalls([]cp.Vector{{X: -100, Y: 200}, {X: 200, Y: 200}}, 2, nil)
		st.Sched.AddUpdate(0, "physics", st.Physics.Update).
			AddUpdate(0, "rules", func(w donburi.World, ev engine.Event) {
				if ev.Tick == 90 {
					endTick = ev.Tick
					st.End(next)
				}
			})
		return st.Run()
	})
	rec := &engine.InputLog{}
	if err := engine.Run(play, &engine.Options{Headless: &engine.Headless{FPS: 24}, Record: rec}); err != nil {
		t.Fatal(err)
	}
	if endTick != 90 || len(left) != 1 || left[0] != (stage.Leftovers{BundleReleased: true}) {
		t.Fatalf("ended at tick %d; left %+v", endTick, left)
	}
	s := rec.Scene(0)
	if rec.Scenes() != 1 || s.Name != "Play" || s.Ticks[0] != 90 || s.Checks != 90 || s.ChecksumTick != 90 {
		t.Fatalf("recording: %v, %d checks up to tick %d", rec, s.Checks, s.ChecksumTick)
	}
}

// End is for update systems: called in a render system it panics, and the
// run ends with that error, naming the scene.
func TestStageEndOutsideAnUpdatePanics(t *testing.T) {
	play := engine.NewScene("Play", func(loop *engine.Loop) (engine.Scene, error) {
		st, err := stage.New(loop, stage.Options{})
		if err != nil {
			return nil, err
		}
		defer st.Release()
		st.Sched.AddRender(0, "bad", func(donburi.World, engine.Event) { st.End(nil) })
		return st.Run()
	})
	err := engine.Run(play, &engine.Options{Headless: &engine.Headless{}})
	var se *engine.SceneError
	if !errors.As(err, &se) || se.Scene != "Play" || !strings.Contains(err.Error(), "Stage.End on a Render event") {
		t.Fatalf("got %v", err)
	}
}

// The dev keys, driven by scripted key presses in headless frames: F3 shows
// the overlay, P pauses, period steps one tick while paused (in the frame
// after the press), [ and ] halve
// and double the time scale, F12 asks for a screenshot (headless, there is
// no screen: the log says so).
func TestDevKeys(t *testing.T) {
	keys := map[int64]input.Key{3: input.KeyF3, 5: input.KeyP, 8: input.KeyPeriod, 11: input.KeyBracketLeft,
		13: input.KeyBracketLeft, 15: input.KeyBracketRight, 17: input.KeyF12, 20: input.KeyP}
	input := engine.InputFunc(func(frame int64, in *input.State) {
		if k, ok := keys[frame]; ok {
			in.SetKey(k, true)
		}
	})
	type seen struct {
		overlay, paused bool
		scale           float64
		ticks           int64
	}
	var log bytes.Buffer
	var frames []seen
	play := engine.NewScene("Play", func(loop *engine.Loop) (engine.Scene, error) {
		st, err := stage.New(loop, stage.Options{})
		if err != nil {
			return nil, err
		}
		defer st.Release()
		st.Keys.Log = &log
		st.Sched.AddRender(0, "watch", func(_ donburi.World, ev engine.Event) {
			frames = append(frames, seen{st.Overlay.Visible(), loop.Paused(), loop.TimeScale(), loop.Ticks(0)})
		})
		return st.Run()
	})
	if err := engine.Run(play, &engine.Options{Headless: &engine.Headless{FPS: 60, Frames: 24}, Input: input}); err != nil {
		t.Fatal(err)
	}
	f := func(n int) seen { return frames[n-1] }
	switch {
	case f(2).overlay || !f(3).overlay:
		t.Errorf("F3: overlay %v then %v", f(2).overlay, f(3).overlay)
	case !f(5).paused || f(6).ticks != f(5).ticks:
		t.Errorf("P: paused %v, ticks %d then %d", f(5).paused, f(5).ticks, f(6).ticks)
	case f(8).ticks != f(7).ticks || f(9).ticks != f(8).ticks+1 || f(10).ticks != f(9).ticks: // the step runs in the next frame
		t.Errorf("period: ticks %d, %d, %d, %d", f(7).ticks, f(8).ticks, f(9).ticks, f(10).ticks)
	case f(11).scale != 0.5 || f(13).scale != 0.25 || f(15).scale != 0.5:
		t.Errorf("[ and ]: time scale %v, %v, %v", f(11).scale, f(13).scale, f(15).scale)
	case f(20).paused || f(24).ticks == f(20).ticks: // at half speed, a tick every other frame
		t.Errorf("P again: paused %v, ticks %d then %d", f(20).paused, f(20).ticks, f(24).ticks)
	}
	if !strings.Contains(log.String(), "screenshot: engine: screenshot: no screen") {
		t.Errorf("F12 headless: log %q", log.String())
	}
}

// The default state checksum covers what the simulation holds: two runs
// with the same seed agree at any frame rate, and a moved body shows.
func TestStageChecksum(t *testing.T) {
	run := func(fps float64, nudge bool) uint64 {
		var sum uint64
		play := engine.NewScene("Play", func(loop *engine.Loop) (engine.Scene, error) {
			st, err := stage.New(loop, stage.Options{Physics: &physics.Config{Gravity: cp.Vector{Y: 50}}})
			if err != nil {
				return nil, err
			}
			defer st.Release()
			e := st.Physics.SpawnCircle(3, nil, components.PlayerC)
			st.Sched.AddUpdate(0, "physics", st.Physics.Update).AddUpdate(0, "end", func(w donburi.World, ev engine.Event) {
				if nudge && ev.Tick == 30 {
					st.Physics.Body(e).SetVelocity(0, 1e-9)
				}
				if ev.Tick == 60 {
					st.End(nil)
				}
			})
			return st.Run()
		})
		rec := &engine.InputLog{}
		if err := engine.Run(play, &engine.Options{Headless: &engine.Headless{FPS: fps}, Record: rec}); err != nil {
			t.Fatal(err)
		}
		sum = rec.Scene(0).Checksum
		return sum
	}
	want := run(60, false)
	for _, fps := range []float64{24, 144} {
		if got := run(fps, false); got != want {
			t.Errorf("%v fps: %x, want %x", fps, got, want)
		}
	}
	if run(60, true) == want {
		t.Error("a body moved by 1e-9 units per second did not change the checksum")
	}
}

// The first End of a tick decides; a Background fills the screen first.
func TestStageEndFirstWinsAndBackground(t *testing.T) {
	first := engine.NewScene("First", func(*engine.Loop) (engine.Scene, error) { return nil, nil })
	second := engine.NewScene("Second", func(*engine.Loop) (engine.Scene, error) { return nil, errors.New("the second End won") })
	var renders []string
	var layers []int
	play := engine.NewScene("Play", func(loop *engine.Loop) (engine.Scene, error) {
		st, err := stage.New(loop, stage.Options{Background: color.Black})
		if err != nil {
			return nil, err
		}
		defer st.Release()
		st.Sched.AddRender(-5, "low", func(donburi.World, engine.Event) {})
		st.Sched.AddUpdate(0, "a", func(donburi.World, engine.Event) { st.End(first) }).
			AddUpdate(0, "b", func(donburi.World, engine.Event) { st.End(second) })
		for _, s := range st.Sched.Stats() {
			if s.Group == engine.RenderPhase {
				renders, layers = append(renders, s.Name), append(layers, s.Layer)
			}
		}
		return st.Run()
	})
	if err := engine.Run(play, &engine.Options{Headless: &engine.Headless{}}); err != nil {
		t.Fatal(err)
	}
	// overlay, background, inspector (the Stage's), low (the scene's)
	if len(renders) != 4 || renders[1] != "background" || renders[3] != "low" ||
		!(layers[1] < layers[3] && layers[3] < layers[2] && layers[2] < layers[0]) {
		t.Fatalf("render systems, in the order added: %v, layers %v", renders, layers)
	}
}

// A Stage's Sprite, Rect, SpawnSprite and Text draw what they say: the named
// sprite centred on its entity, a rectangle of the size and colour asked
// for, placed by SpawnSprite with the components asked for, and
// text aligned left, centre or right of x; Text on a nil image (headless)
// draws nothing and allocates nothing.
func TestStageSpritesAndText(t *testing.T) {
	var rects, sprite ebitentest.Frame
	var texts [3]ebitentest.Frame
	var twoLines ebitentest.Frame
	var nilAllocs, drawAllocs float64
	scene := engine.NewScene("Draw", func(loop *engine.Loop) (engine.Scene, error) {
		st, err := stage.New(loop, stage.Options{})
		if err != nil {
			return nil, err
		}
		defer st.Release()
		at := func(x, y float64) components.Transform { return components.NewTransform(components.Pose{X: x, Y: y}) }
		ebitentest.OnGame(t, func() {
			st.SpawnSprite(40, 30, st.Rect(20, 10, color.RGBA{255, 0, 0, 255}))
			blue := st.Rect(4, 4, color.RGBA{0, 0, 255, 255})
			blue.Layer = 1
			e := st.SpawnSprite(40, 30, blue, components.PlayerC, gfx.SpriteC)
			if entry := st.World.Entry(e); !entry.HasComponent(components.PlayerC) || *gfx.SpriteC.Get(entry) != *blue {
				t.Errorf("SpawnSprite's entity: the Player component %v, its sprite %+v", entry.HasComponent(components.PlayerC), gfx.SpriteC.Get(entry))
			}
			rects = drawFrame(st.World)
			w := donburi.NewWorld()
			e = w.Create(components.TransformC, gfx.SpriteC)
			components.TransformC.SetValue(w.Entry(e), at(50, 50))
			gfx.SpriteC.SetValue(w.Entry(e), *st.Sprite(assets.SpriteGoal))
			sprite = drawFrame(w)
			for i, align := range []text.Align{text.AlignStart, text.AlignCenter, text.AlignEnd} {
				img := ebiten.NewImage(screenW, screenH)
				st.Text(img, "MM", 60, 10, 20, color.RGBA{0, 255, 0, 255}, align)
				texts[i] = ebitentest.ReadFrame(img)
			}
			img := ebiten.NewImage(screenW, screenH)
			st.Text(img, "M\nM", 10, 10, 20, color.RGBA{0, 255, 0, 255}, text.AlignStart)
			twoLines = ebitentest.ReadFrame(img)
			var white color.Color = color.White
			nilAllocs = testing.AllocsPerRun(10, func() { st.Text(nil, "MM", 60, 10, 20, white, text.AlignStart) })
			img = ebiten.NewImage(screenW, screenH)
			drawAllocs = testing.AllocsPerRun(100, func() { st.Text(img, "score 12345", 60, 10, 20, white, text.AlignStart) })
		})
		return nil, nil
	})
	if err := engine.Run(scene, &engine.Options{Headless: &engine.Headless{}}); err != nil {
		t.Fatal(err)
	}
	if x0, x1 := span(rects.Columns(color.RGBA{255, 0, 0, 255})); x0 != 30 || x1 != 49 {
		t.Errorf("the 20-wide red rectangle at x 40 covers columns %d to %d, want 30 to 49", x0, x1)
	}
	if c := rects.At(40, 30); c != (color.RGBA{0, 0, 255, 255}) {
		t.Errorf("the blue rectangle of layer 1 is not over the red one: %v at its centre", c)
	}
	if c := rects.At(40, 25); c != (color.RGBA{255, 0, 0, 255}) || rects.At(40, 24) == c || rects.At(40, 35) == c {
		t.Errorf("the red rectangle is not 10 high about y 30: %v at y 25, %v at 24, %v at 35", c, rects.At(40, 24), rects.At(40, 35))
	}
	lit := func(f ebitentest.Frame, pred func(color.RGBA) bool) (x0, x1, y0, y1 int) {
		x0, y0 = f.W, f.H
		x1, y1 = -1, -1
		for y := range f.H {
			for x := range f.W {
				if pred(f.At(x, y)) {
					x0, x1, y0, y1 = min(x0, x), max(x1, x), min(y0, y), max(y1, y)
				}
			}
		}
		return
	}
	sx0, sx1, sy0, sy1 := lit(sprite, func(c color.RGBA) bool { return c.A > 0 })
	if sx0 < 34 || sx1 > 65 || sy0 < 34 || sy1 > 65 || (sx0+sx1)/2 < 48 || (sx0+sx1)/2 > 51 || (sy0+sy1)/2 < 48 || (sy0+sy1)/2 > 51 {
		t.Errorf("the 32x32 goal sprite at (50, 50) covers x %d-%d, y %d-%d: not centred there", sx0, sx1, sy0, sy1)
	}
	green := func(c color.RGBA) bool { return c.G > 128 && c.R < 64 && c.B < 64 }
	var starts [3]int
	for i, f := range texts {
		x0, x1, y0, y1 := lit(f, green)
		if x1 < 0 || y0 < 10 || y1 > 10+30 || x1-x0 < 20 {
			t.Fatalf("text %d: green at x %d-%d, y %d-%d", i, x0, x1, y0, y1)
		}
		starts[i] = x0
		switch i {
		case 0:
			if x0 < 60 || x0 > 63 {
				t.Errorf("left-aligned text starts at x %d, want 60", x0)
			}
		case 1:
			if mid := (x0 + x1) / 2; mid < 58 || mid > 62 {
				t.Errorf("centred text spans x %d-%d, centre %d, want 60", x0, x1, mid)
			}
		case 2:
			if x1 < 56 || x1 > 60 {
				t.Errorf("right-aligned text ends at x %d, want 60", x1)
			}
		}
	}
	if _, _, y0, y1 := lit(twoLines, green); y0 < 10 || y1-y0 < 20+10 || y1 > 10+2*30 {
		t.Errorf("two lines of 20 px text span y %d-%d, want two lines below y 10", y0, y1)
	}
	if nilAllocs != 0 {
		t.Errorf("Text on a nil image: %v allocations", nilAllocs)
	}
	t.Logf("text left edges by alignment: %v; %v allocations a call on an image", starts, drawAllocs)
}

// window.SaveScreenshot writes what the window shows: a scene's drawn
// pixels as they are, and what it left transparent (or half so) over black,
// opaque; read back from the PNG file.
func TestSaveScreenshotIsOpaque(t *testing.T) {
	path := t.TempDir() + "/shot.png"
	var err error
	ebitentest.OnGame(t, func() {
		img := ebiten.NewImage(4, 2)
		img.Fill(color.RGBA{0, 0, 255, 255})
		img.SubImage(image.Rect(0, 0, 2, 2)).(*ebiten.Image).Clear()
		img.Set(1, 1, color.RGBA{100, 0, 0, 128}) // premultiplied: half-transparent red
		err = window.SaveScreenshot(path, img)
	})
	if err != nil {
		t.Fatal(err)
	}
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	got, err := png.Decode(f)
	if err != nil {
		t.Fatal(err)
	}
	want := map[image.Point]color.NRGBA{{0, 0}: {0, 0, 0, 255}, {1, 1}: {100, 0, 0, 255}, {3, 1}: {0, 0, 255, 255}}
	for p, w := range want {
		if c := color.NRGBAModel.Convert(got.At(p.X, p.Y)).(color.NRGBA); c != w {
			t.Errorf("pixel %v is %v in the screenshot, want %v", p, c, w)
		}
	}
}

// The size of the screens the stage's tests draw on.
const screenW, screenH = 200, 100

// drawFrame draws w's sprites on a new screen and reads it back. It must
// run on the game (ebitentest.OnGame).
func drawFrame(w donburi.World) ebitentest.Frame {
	dst := ebiten.NewImage(screenW, screenH)
	render.New(w).Draw(w, engine.Event{Kind: engine.Render, Screen: dst})
	return ebitentest.ReadFrame(dst)
}

// span returns the first and last of xs, or -1, -1.
func span(xs []int) (int, int) {
	if len(xs) == 0 {
		return -1, -1
	}
	return xs[0], xs[len(xs)-1]
}
