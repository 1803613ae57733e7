package engine_test

import (
	"context"
	"errors"
	"math"
	"strings"
	"testing"
	"time"

	"github.com/fixedstep/fixedstep/engine"
)

// Rule 8 and 9: a chain A -> B -> end. B loads for 2 s of clock time; its
// timeline starts fresh, so no catch-up ticks come of it, and its first frame
// renders its initial state with alpha 0.
func TestSceneChainStartsEachSceneFresh(t *testing.T) {
	clock := engine.NewManualClock(0)
	var order []string
	var bFirst []engine.Event
	b := engine.NewScene("B", func(loop *engine.Loop) (engine.Scene, error) {
		order = append(order, "B")
		clock.Advance(2 * time.Second) // loading
		for ev := range loop.Events(engine.Group{Name: "physics", Hz: 60}) {
			if len(bFirst) < 4 {
				bFirst = append(bFirst, ev)
			}
			if ev.Kind == engine.Render && ev.Frame >= 130 {
				return nil, nil
			}
		}
		return nil, loop.Err()
	})
	a := engine.NewScene("A", func(loop *engine.Loop) (engine.Scene, error) {
		order = append(order, "A")
		for ev := range loop.Events(engine.Group{Name: "physics", Hz: 60}) {
			if ev.Kind == engine.Update && ev.Tick == 60 {
				return b, nil // on a tick boundary, mid-frame
			}
		}
		return nil, loop.Err()
	})
	err := engine.Run(a, &engine.Options{Headless: &engine.Headless{Clock: clock}})
	if err != nil || strings.Join(order, ",") != "A,B" {
		t.Fatalf("Run: %v, scenes %v", err, order)
	}
	// B's first frame: Input, then Render of the initial state (no tick).
	if bFirst[0].Kind != engine.Input || bFirst[1].Kind != engine.Render || bFirst[1].Alpha != 0 || bFirst[1].Time != 0 {
		t.Fatalf("B's first frame: %v %v (alpha %v, time %v)", bFirst[0].Kind, bFirst[1].Kind, bFirst[1].Alpha, bFirst[1].Time)
	}
	// Its second frame, 1/60 s later, runs exactly one tick: the 2 s of loading are not caught up.
	if bFirst[2].Kind != engine.Input || bFirst[3].Kind != engine.Update || bFirst[3].Tick != 1 {
		t.Fatalf("B's second frame: %v %v tick %d", bFirst[2].Kind, bFirst[3].Kind, bFirst[3].Tick)
	}
}

// Rule 9: errors and panics come back wrapped with the scene's name; Stop and a
// cancelled context end the chain.
func TestRunErrorsAndStopping(t *testing.T) {
	headless := func() *engine.Options { return &engine.Options{Headless: &engine.Headless{}} }
	boom := errors.New("boom")
	failing := engine.NewScene("Loader", func(loop *engine.Loop) (engine.Scene, error) {
		return nil, boom
	})
	first := engine.NewScene("Title", func(loop *engine.Loop) (engine.Scene, error) { return failing, nil })
	err := engine.Run(first, headless())
	var se *engine.SceneError
	if !errors.Is(err, boom) || !errors.As(err, &se) || se.Scene != "Loader" || !strings.Contains(err.Error(), "scene Loader: boom") {
		t.Fatalf("error: %v", err)
	}

	panicky := engine.NewScene("Arena", func(loop *engine.Loop) (engine.Scene, error) {
		for ev := range loop.Events() {
			if ev.Kind == engine.Update && ev.Tick == 3 {
				var m map[string]int
				m["x"] = 1 // a real runtime panic: assignment to a nil map
			}
		}
		return nil, nil
	})
	err = engine.Run(panicky, headless())
	if !errors.As(err, &se) || se.Scene != "Arena" || se.Panic == nil || !strings.Contains(string(se.Stack), "scene_test.go") {
		t.Fatalf("panic error: %v", err)
	}

	frames := 0
	stopper := engine.NewScene("Stopper", func(loop *engine.Loop) (engine.Scene, error) {
		for ev := range loop.Events() {
			if ev.Kind == engine.Render {
				if frames++; frames == 5 {
					loop.Stop()
				}
			}
		}
		return first, loop.Err() // the chain must end anyway
	})
	if err := engine.Run(stopper, headless()); err != nil || frames != 5 {
		t.Fatalf("Stop: err %v after %d frames", err, frames)
	}

	ctx, cancel := context.WithCancel(context.Background())
	frames = 0
	canceller := engine.NewScene("Canceller", func(loop *engine.Loop) (engine.Scene, error) {
		for ev := range loop.Events() {
			if ev.Kind == engine.Render {
				if frames++; frames == 5 {
					cancel()
				}
			}
		}
		return nil, loop.Err()
	})
	opts := headless()
	opts.Context = ctx
	err = engine.Run(canceller, opts)
	if !errors.Is(err, context.Canceled) || !errors.As(err, &se) || se.Scene != "Canceller" || frames != 5 {
		t.Fatalf("cancel: err %v after %d frames", err, frames)
	}

	// Cancelling ends the stream after the current event, as Stop does: the
	// event that cancels is the last one, whichever it is.
	for _, kind := range []engine.EventKind{engine.Input, engine.Update, engine.Render} {
		for _, cancels := range []bool{true, false} {
			ctx, cancel := context.WithCancel(context.Background())
			var after int
			seen := false
			s := engine.NewScene("S", func(loop *engine.Loop) (engine.Scene, error) {
				for ev := range loop.Events() {
					if seen {
						after++
					}
					if ev.Kind == kind && ev.Frame == 3 && !seen {
						seen = true
						if cancels {
							cancel()
						} else {
							loop.Stop()
						}
					}
				}
				return nil, loop.Err()
			})
			err := engine.Run(s, &engine.Options{Headless: &engine.Headless{}, Context: ctx})
			if after != 0 || cancels != errors.Is(err, context.Canceled) {
				t.Errorf("%v, cancel %v: %d events after, err %v", kind, cancels, after, err)
			}
			cancel()
		}
	}

	// A cancelled context ends even a chain of scenes that never ask for events.
	ctx, cancel = context.WithCancel(context.Background())
	var hops int
	var hop engine.Scene
	hop = engine.NewScene("Hop", func(loop *engine.Loop) (engine.Scene, error) {
		if hops++; hops == 100 {
			cancel()
		}
		return hop, nil
	})
	err = engine.Run(hop, &engine.Options{Headless: &engine.Headless{}, Context: ctx})
	if !errors.Is(err, context.Canceled) || hops != 100 {
		t.Fatalf("a chain without events: %v after %d scenes", err, hops)
	}

	// A scene that ignores the loop's error still reports it.
	bad := engine.NewScene("Bad", func(loop *engine.Loop) (engine.Scene, error) {
		for range loop.Events(engine.Group{Name: "p", Hz: -1}) {
		}
		return nil, nil
	})
	var ce *engine.ConfigError
	if err := engine.Run(bad, headless()); !errors.As(err, &ce) || !errors.As(err, &se) || se.Scene != "Bad" {
		t.Fatalf("bad groups: %v", err)
	}

	// A nil first scene runs nothing and leaves a recording untouched.
	opts = headless()
	opts.Record = &engine.InputLog{}
	if err := engine.Run(nil, opts); !errors.Is(err, engine.ErrNilScene) {
		t.Fatalf("Run(nil) = %v, want ErrNilScene", err)
	}
	if opts.Record.Complete() || opts.Record.Scenes() != 0 {
		t.Fatalf("Run(nil) changed its recording: complete %v, %d scenes", opts.Record.Complete(), opts.Record.Scenes())
	}
}

type namedScene struct{}

func (*namedScene) Run(*engine.Loop) (engine.Scene, error) { return nil, nil }

func TestSceneName(t *testing.T) {
	if got := engine.SceneName(&namedScene{}); got != "namedScene" {
		t.Fatalf("SceneName = %q", got)
	}
	if got := engine.SceneName(engine.NewScene("Title", nil)); got != "Title" {
		t.Fatalf("SceneName = %q", got)
	}
}

// Headless Frames and Duration stop the loop as Stop does.
func TestHeadlessLimits(t *testing.T) {
	count := func(h engine.Headless) (frames, ticks int64) {
		scene := engine.NewScene("S", func(loop *engine.Loop) (engine.Scene, error) {
			for ev := range loop.Events() {
				switch ev.Kind {
				case engine.Render:
					frames++
				case engine.Update:
					ticks++
				}
			}
			return nil, loop.Err()
		})
		if err := engine.Run(scene, &engine.Options{Headless: &h}); err != nil {
			t.Fatal(err)
		}
		return frames, ticks
	}
	if f, _ := count(engine.Headless{Frames: 42}); f != 42 {
		t.Fatalf("Frames: 42 ran %d frames", f)
	}
	if f, ticks := count(engine.Headless{Duration: time.Second, FPS: 30}); f != 31 || ticks != 60 {
		t.Fatalf("Duration 1s at 30 fps: %d frames, %d ticks, want 31 and 60", f, ticks)
	}
	// A refused frame rate's message gives the range the check holds to.
	for _, fps := range []float64{1e-7, -1, 2e9, math.NaN()} {
		_, err := engine.NewHeadlessLoop(engine.Config{}, &engine.Headless{FPS: fps}, nil)
		var ce *engine.ConfigError
		if !errors.As(err, &ce) || !strings.Contains(err.Error(), "must be a finite rate in [1e-06, 1e+09] Hz") {
			t.Errorf("FPS %v: %v", fps, err)
		}
	}
}

// The real-clock headless driver sleeps until the next frame or tick: 20
// frames at 200 fps take at least 19 frame periods of real time, and every
// 100 Hz tick due in them runs.
func TestHeadlessRealtimeSleeps(t *testing.T) {
	ticks := 0
	scene := engine.NewScene("Server", func(loop *engine.Loop) (engine.Scene, error) {
		for ev := range loop.Events(engine.Group{Name: "net", Hz: 100}) {
			if ev.Kind == engine.Update {
				ticks++
			}
		}
		return nil, loop.Err()
	})
	start := time.Now()
	err := engine.Run(scene, &engine.Options{Headless: &engine.Headless{Realtime: true, FPS: 200, Frames: 20}})
	elapsed := time.Since(start)
	if err != nil || elapsed < 19*5*time.Millisecond {
		t.Fatalf("err %v, 20 frames at 200 fps took %v", err, elapsed)
	}
	if ticks < 9 {
		t.Fatalf("%d ticks in %v of real time", ticks, elapsed)
	}
}

// Fail ends the event stream after the current event with the error, which
// Err returns and Run returns wrapped in a *SceneError, even when the scene
// itself returns nil; the first failure is kept.
func TestFailEndsTheLoopWithItsError(t *testing.T) {
	bad, later := errors.New("bad state"), errors.New("later")
	var lastTick int64
	var loopErr error
	s := engine.NewScene("Failing", func(loop *engine.Loop) (engine.Scene, error) {
		for ev := range loop.Events() {
			if ev.Kind == engine.Update {
				lastTick = ev.Tick
				if ev.Tick == 5 {
					loop.Fail(bad)
					loop.Fail(later)
				}
			}
		}
		loopErr = loop.Err()
		return nil, nil
	})
	err := engine.Run(s, &engine.Options{Headless: &engine.Headless{Frames: 100}})
	var se *engine.SceneError
	if !errors.As(err, &se) || se.Scene != "Failing" || !errors.Is(err, bad) || errors.Is(err, later) {
		t.Fatalf("Run returned %v", err)
	}
	if lastTick != 5 || loopErr != bad {
		t.Fatalf("the last tick seen was %d (want 5), loop.Err() %v", lastTick, loopErr)
	}
}

// Stop, or a cancelled context, reaches a real-time loop that waits for its
// next frame (a virtual frame rate of one frame in 10 s, paused) within a
// sleep slice, not at its next frame.
func TestStopReachesAWaitingRealtimeLoop(t *testing.T) {
	for _, viaContext := range []bool{false, true} {
		ctx, cancel := context.WithCancel(context.Background())
		var took time.Duration
		s := engine.NewScene("Slow", func(loop *engine.Loop) (engine.Scene, error) {
			loop.SetPaused(true)
			for ev := range loop.Events() {
				if ev.Kind == engine.Render && ev.Frame == 1 {
					start := time.Now()
					time.AfterFunc(50*time.Millisecond, func() {
						if viaContext {
							cancel()
						} else {
							loop.Stop()
						}
					})
					defer func() { took = time.Since(start) }()
				}
			}
			return nil, nil
		})
		err := engine.Run(s, &engine.Options{Headless: &engine.Headless{Realtime: true, FPS: 0.1}, Context: ctx})
		cancel()
		if took > 5*time.Second || viaContext != errors.Is(err, context.Canceled) {
			t.Fatalf("context %v: stopped after %v (a frame is 10 s), err %v", viaContext, took, err)
		}
		t.Logf("context %v: stopped %v after the first frame, 50 ms after the stop was asked", viaContext, took)
	}
}

// Options.StopAt counts the game time of every scene: a run of 1 s at 60
// Hz runs 60 ticks, whether one scene ran them or several, when a scene
// ends on a tick whose time is not a whole number of nanoseconds (7/60 s).
func TestStopAtAcrossScenes(t *testing.T) {
	for _, ends := range [][]int64{nil, {7}, {7, 13}, {1, 1, 1}} {
		ticks, i := int64(0), 0
		var scene engine.Scene
		scene = engine.NewScene("S", func(loop *engine.Loop) (engine.Scene, error) {
			n := int64(0)
			for ev := range loop.Events(engine.Group{Name: "physics", Hz: 60}) {
				if ev.Kind != engine.Update {
					continue
				}
				ticks, n = ticks+1, n+1
				if i < len(ends) && n == ends[i] {
					i++
					return scene, nil
				}
			}
			return nil, loop.Err()
		})
		if err := engine.Run(scene, &engine.Options{StopAt: time.Second, Headless: &engine.Headless{}}); err != nil || ticks != 60 {
			t.Errorf("scenes ending at ticks %v, then one to StopAt 1 s: %d ticks (%v), want 60", ends, ticks, err)
		}
	}
}
