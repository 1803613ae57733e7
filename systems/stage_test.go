package systems_test

import (
	"bytes"
	"errors"
	"image/color"
	"strings"
	"testing"

	"github.com/hajimehoshi/ebiten/v2"
	"github.com/jakecoffman/cp/v2"
	"github.com/yohamta/donburi"

	"github.com/fixedstep/fixedstep/components"
	"github.com/fixedstep/fixedstep/engine"
	"github.com/fixedstep/fixedstep/systems"
)

// A scene on a Stage: bodies fall; a rule ends the scene at tick 90 with the
// next scene; Release leaves nothing (no entity, no body, the bundle freed);
// the recording holds the stage's state checksums, the last tick's too.
func TestStageRunsEndsAndReleases(t *testing.T) {
	var left []systems.Leftovers
	var endTick int64
	next := engine.NewScene("Next", func(*engine.Loop) (engine.Scene, error) { return nil, nil })
	play := engine.NewScene("Play", func(loop *engine.Loop) (engine.Scene, error) {
		st, err := systems.NewStage(loop, systems.StageOptions{
			Groups:    []engine.Group{{Name: "physics", Hz: 60}, {Name: "slow", Hz: 7}},
			Physics:   &systems.PhysicsConfig{Gravity: cp.Vector{Y: 100}},
			OnRelease: func(l systems.Leftovers) { left = append(left, l) },
		})
		if err != nil {
			return nil, err
		}
		defer st.Release()
		for i := range 5 {
			st.Physics.SpawnCircle(5, &systems.BodyOptions{Position: cp.Vector{X: float64(20 * i)}})
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
	if endTick != 90 || len(left) != 1 || left[0] != (systems.Leftovers{BundleReleased: true}) {
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
		st, err := systems.NewStage(loop, systems.StageOptions{})
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
	keys := map[int64]ebiten.Key{3: ebiten.KeyF3, 5: ebiten.KeyP, 8: ebiten.KeyPeriod, 11: ebiten.KeyBracketLeft,
		13: ebiten.KeyBracketLeft, 15: ebiten.KeyBracketRight, 17: ebiten.KeyF12, 20: ebiten.KeyP}
	input := engine.InputFunc(func(frame int64, in *engine.InputState) {
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
		st, err := systems.NewStage(loop, systems.StageOptions{})
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
			st, err := systems.NewStage(loop, systems.StageOptions{Physics: &systems.PhysicsConfig{Gravity: cp.Vector{Y: 50}}})
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
		st, err := systems.NewStage(loop, systems.StageOptions{Background: color.Black})
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
