package window_test

import (
	"fmt"
	"image/color"
	"os"
	"os/exec"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/hajimehoshi/ebiten/v2"
	"github.com/jezek/xgb/xproto"

	"github.com/fixedstep/fixedstep/engine"
	"github.com/fixedstep/fixedstep/engine/window"
	"github.com/fixedstep/fixedstep/internal/windowtest"
	"github.com/fixedstep/fixedstep/third_party/donburi"
)

// The window's lifecycle under a real X server (Xvfb, no window manager): each
// scenario runs in a child process, because ebiten.RunGame runs once per
// process, and the child's own X client (windowtest.Client) does to the window what a
// window manager would. The parent checks that the child passed, what it
// printed, and that it exited after Run returned (the child's watchdog ends a
// child that does not).

// windowScenario names the scenario a child process runs.
const windowScenario = "ENGINE_TEST_WINDOW_SCENARIO"

// runReturned opens the line a child prints when engine.Run has returned.
const runReturned = "RUN RETURNED"

// runWindowChild runs test in a child process with the scenario selected and
// returns what it printed. It fails t if the child fails, or if it stops
// making progress (windowtest.RunChild: the child's watchdog, started by
// childWatch, ends it when its frames stop or, once Run has returned, when
// the process has not exited).
func runWindowChild(t *testing.T, test, scenario string) string {
	t.Helper()
	cmd := exec.Command(os.Args[0], "-test.run=^"+test+"$", "-test.v", "-test.count=1")
	d, err := windowtest.NewDisplay() // its own: no other test's window takes the focus
	if err != nil {
		t.Fatal(err)
	}
	defer d.Close()
	cmd.Env = append(d.Env(nil), windowScenario+"="+scenario)
	out, err := windowtest.RunChild(cmd)
	if err != nil {
		t.Fatalf("child %s: %v\n%s", scenario, err, out)
	}
	return out
}

// childWindow connects to the X server as a second client and finds the
// child's window by its title (waiting while the process starts up: its CPU
// time grows), or fails the child.
func childWindow(title string) (*windowtest.Client, xproto.Window) {
	x, err := windowtest.Dial()
	if err != nil {
		childFail("%v", err)
	}
	win, err := x.FindWindow(title, windowtest.NewWatch(windowtest.CPUProgress(os.Getpid())))
	if err != nil {
		x.Close()
		childFail("%v", err)
	}
	return x, win
}

// childFail ends a child process with a message for the parent.
func childFail(format string, args ...any) {
	fmt.Printf("CHILD FAIL: "+format+"\n", args...)
	os.Exit(2)
}

// childReturned is set in a child once window.Run has returned.
var childReturned atomic.Bool

// childWatch starts the child's watchdog (windowtest.ChildWatchdog) on
// where, which says how far the child has got (its frames among it), and
// once Run has returned on that alone: the watchdog ends a child that stops
// drawing before Run returns, or that does not exit after it.
func childWatch(where func() string) {
	windowtest.ChildWatchdog(func() string {
		if childReturned.Load() {
			return "Run returned; the process has yet to exit"
		}
		return where()
	})
}

// maxWaitFrames is how many frames a child's wait for the window or the
// scene to do something goes on: what it waits for takes a few frames, and
// 600 frames are 10 s at 60 Hz, longer on a busy machine, as long as
// needed. Counted in frames, the wait is as long whatever the machine's
// load; a child whose frames stop is ended by its watchdog.
const maxWaitFrames = 600

// waitFrames polls cond every 10 ms until it holds, or fails the child once
// frames has gone maxWaitFrames past what it was when the wait began.
func waitFrames(frames *atomic.Int64, what string, cond func() bool) {
	start := frames.Load()
	for !cond() {
		if n := frames.Load() - start; n > maxWaitFrames {
			childFail("waited %d frames for %s", n, what)
		}
		time.Sleep(10 * time.Millisecond)
	}
}

// childTitle is a window title no other test process on the display uses.
func childTitle(scenario string) string {
	return fmt.Sprintf("fixedstep %s %d", scenario, os.Getpid())
}

// Closing the window as a window manager does (a WM_DELETE_WINDOW message),
// in the middle of a scene that would run forever, ends its event stream: the
// scene's deferred release runs, Run returns nil, and the process exits 0
// within 20 s of it.
func TestWindowCloseMidScene(t *testing.T) {
	if os.Getenv(windowScenario) == "close" {
		closeChild(t)
		return
	}
	needDisplay(t)
	out := runWindowChild(t, "TestWindowCloseMidScene", "close")
	if !strings.Contains(out, runReturned+" err=<nil> released=true sent=true") || !strings.Contains(out, "--- PASS") {
		t.Fatalf("child output:\n%s", out)
	}
	t.Log(lines(out, runReturned, "X:"))
}

func closeChild(t *testing.T) {
	title := childTitle("close")
	var frames atomic.Int64
	var released, sent atomic.Bool
	childWatch(func() string { return fmt.Sprintf("%d frames, sent %v", frames.Load(), sent.Load()) })
	go func() {
		x, win := childWindow(title)
		defer x.Close()
		waitFrames(&frames, "30 frames", func() bool { return frames.Load() >= 30 })
		sent.Store(true)
		if err := x.RequestClose(win); err != nil {
			childFail("%v", err)
		}
		fmt.Printf("X: sent WM_DELETE_WINDOW to 0x%x after %d frames\n", win, frames.Load())
		waitFrames(&frames, "Run to return after WM_DELETE_WINDOW", childReturned.Load)
	}()
	forever := engine.NewScene("Forever", func(loop *engine.Loop) (engine.Scene, error) {
		defer released.Store(true)
		for ev := range loop.Events() {
			if ev.Kind == engine.Render {
				frames.Add(1)
			}
		}
		return nil, loop.Err()
	})
	err := window.Run(forever, nil, &window.Options{Title: title, Width: 320, Height: 240})
	childReturned.Store(true)
	fmt.Printf("%s err=%v released=%v sent=%v frames=%d\n", runReturned, err, released.Load(), sent.Load(), frames.Load())
	if err != nil || !released.Load() || !sent.Load() {
		t.Fatal("want Run to return nil after the close request, with the scene's release run")
	}
}

// Resizing the window through the X server (ConfigureWindow; with no window
// manager the server applies it and sends GLFW a ConfigureNotify) reaches
// Layout as the new outside size. With Window.ScreenWidth/Height 0 the render
// systems' screens take the new size; with them set it stays fixed.
func TestWindowResize(t *testing.T) {
	if sc := os.Getenv(windowScenario); strings.HasPrefix(sc, "resize") {
		resizeChild(t, sc)
		return
	}
	needDisplay(t)
	for _, c := range []struct{ scenario, want string }{
		{"resize-fit", "before outside=320x240 screen=320x240 after outside=480x360 screen=480x360"},
		{"resize-fixed", "before outside=320x240 screen=320x240 after outside=480x360 screen=320x240"},
	} {
		t.Run(c.scenario, func(t *testing.T) {
			out := runWindowChild(t, "TestWindowResize", c.scenario)
			if !strings.Contains(out, "RESIZE "+c.want) || !strings.Contains(out, runReturned+" err=<nil>") ||
				!strings.Contains(out, "--- PASS") {
				t.Fatalf("want RESIZE %s; child output:\n%s", c.want, out)
			}
			t.Log(lines(out, "RESIZE", "X:"))
		})
	}
}

func resizeChild(t *testing.T, scenario string) {
	const w0, h0, w1, h1 = 320, 240, 480, 360
	title := childTitle(scenario)
	win := window.Options{Title: title, Width: w0, Height: h0, Resizable: true}
	if scenario == "resize-fixed" {
		win.ScreenWidth, win.ScreenHeight = w0, h0
	}
	var outW, outH atomic.Int64    // the outside size of the last Layout call
	var scrW, scrH atomic.Int64    // the screen the render system last drew on
	var frames, after atomic.Int64 // frames rendered; frames since Layout saw the new size
	var resized atomic.Bool
	window.SetLayoutObserver(func(ow, oh, _, _ int) {
		outW.Store(int64(ow))
		outH.Store(int64(oh))
	})
	childWatch(func() string {
		return fmt.Sprintf("%d frames, resized %v, outside %dx%d", frames.Load(), resized.Load(), outW.Load(), outH.Load())
	})
	var before atomic.Value // what the scene had drawn on before the resize
	go func() {
		x, xwin := childWindow(title)
		defer x.Close()
		waitFrames(&frames, "10 frames", func() bool { return frames.Load() >= 10 })
		before.Store(fmt.Sprintf("outside=%dx%d screen=%dx%d", outW.Load(), outH.Load(), scrW.Load(), scrH.Load()))
		if err := x.Resize(xwin, w1, h1); err != nil {
			childFail("%v", err)
		}
		resized.Store(true)
		w, h, err := x.Size(xwin)
		if err != nil {
			childFail("%v", err)
		}
		fmt.Printf("X: resized 0x%x to %dx%d; the server says %dx%d\n", xwin, w1, h1, w, h)
		waitFrames(&frames, "Run to return after the resize", childReturned.Load)
	}()
	scene := engine.NewScene("Resized", func(loop *engine.Loop) (engine.Scene, error) {
		sched := engine.NewScheduler(donburi.NewWorld(), engine.Group{Name: "update", Hz: 60})
		sched.AddRender(0, "draw", func(_ donburi.World, ev engine.Event) {
			b := window.Screen(ev).Bounds()
			scrW.Store(int64(b.Dx()))
			scrH.Store(int64(b.Dy()))
			window.Screen(ev).Fill(color.RGBA{0, 128, 0, 255})
		})
		for ev := range loop.Events(sched.Groups()...) {
			if ev.Kind == engine.Render && window.Screen(ev) == nil {
				continue // ebiten skipped a Draw: nothing to draw on
			}
			sched.Handle(ev)
			if ev.Kind != engine.Render {
				continue
			}
			frames.Add(1)
			if resized.Load() && outW.Load() == w1 && outH.Load() == h1 && after.Add(1) >= 10 {
				return nil, nil
			}
		}
		return nil, loop.Err()
	})
	err := window.Run(scene, nil, &win)
	childReturned.Store(true)
	fmt.Printf("%s err=%v\n", runReturned, err)
	got := fmt.Sprintf("before %v after outside=%dx%d screen=%dx%d", before.Load(), outW.Load(), outH.Load(), scrW.Load(), scrH.Load())
	fmt.Printf("RESIZE %s (%d frames)\n", got, frames.Load())
	wantW, wantH := w1, h1
	if win.ScreenWidth > 0 {
		wantW, wantH = w0, h0
	}
	want := fmt.Sprintf("before outside=%dx%d screen=%dx%d after outside=%dx%d screen=%dx%d", w0, h0, w0, h0, w1, h1, wantW, wantH)
	if err != nil || got != want {
		t.Fatalf("want %s", want)
	}
}

// Focus moved away from the window and back through the X server
// (SetInputFocus to another client's window, then back; GLFW reads the focus
// with XGetInputFocus and gets FocusOut/FocusIn). By default the game runs on
// while unfocused: ticks keep coming. With Window.PauseOnFocusLoss, frames
// held for lost focus get no Update event, keep rendering with the same Time
// and Alpha, and the first frame after focus returns moves game time by that
// frame's real time only (no catch-up of the time spent unfocused).
func TestWindowFocus(t *testing.T) {
	if sc := os.Getenv(windowScenario); strings.HasPrefix(sc, "focus") {
		focusChild(t, sc)
		return
	}
	needDisplay(t)
	for _, scenario := range []string{"focus-run", "focus-pause"} {
		t.Run(scenario, func(t *testing.T) {
			out := runWindowChild(t, "TestWindowFocus", scenario)
			if !strings.Contains(out, "FOCUS "+scenario+" ok") || !strings.Contains(out, runReturned+" err=<nil>") ||
				!strings.Contains(out, "--- PASS") {
				t.Fatalf("child output:\n%s", out)
			}
			t.Log(lines(out, "FOCUS", "X:", "ALLOCS"))
		})
	}
}

// The stages of the focus scenario; the scene and the X goroutine take turns.
const (
	focusFind     = iota // X: find the window, give it the focus
	focusGiven           // scene: wait for 10 ticks with focus
	focusTakeOut         // X: move the focus to another window
	focusOut             // scene: wait for 30 rendered frames without focus
	focusGiveBack        // X: give the focus back
	focusBack            // scene: wait for 10 ticks with focus again
	focusDone
)

func focusChild(t *testing.T, scenario string) {
	pause := scenario == "focus-pause"
	title := childTitle(scenario)
	var stage atomic.Int32
	var frames atomic.Int64
	childWatch(func() string { return fmt.Sprintf("stage %d, %d frames", stage.Load(), frames.Load()) })
	go func() {
		x, win := childWindow(title)
		defer x.Close()
		other, err := x.NewWindow()
		if err != nil {
			childFail("%v", err)
		}
		f, err := x.Focused()
		if err != nil {
			childFail("%v", err)
		}
		fmt.Printf("X: window 0x%x found; the focus was on 0x%x when it appeared\n", win, f)
		// give focus to win until the scene reaches stage `until`, taking it
		// back if another test's window on this display takes it.
		give := func(w xproto.Window, until int32) {
			start := frames.Load()
			for stage.Load() < until {
				if f, err := x.Focused(); err != nil {
					childFail("%v", err)
				} else if f != w {
					if err := x.Focus(w); err != nil {
						childFail("%v", err)
					}
				}
				if n := frames.Load() - start; n > maxWaitFrames {
					childFail("stage %d: the scene did not get to stage %d within %d frames", stage.Load(), until, n)
				}
				time.Sleep(10 * time.Millisecond)
			}
		}
		stage.Store(focusGiven)
		give(win, focusTakeOut)
		if err := x.Focus(other); err != nil {
			childFail("%v", err)
		}
		if f, err := x.Focused(); err != nil || f != other {
			childFail("focus is on 0x%x (%v), want 0x%x", f, err, other)
		}
		fmt.Printf("X: focus moved to 0x%x\n", other)
		stage.Store(focusOut)
		waitFrames(&frames, "30 frames without focus", func() bool { return stage.Load() >= focusGiveBack })
		if err := x.Focus(win); err != nil {
			childFail("%v", err)
		}
		fmt.Printf("X: focus given back to 0x%x\n", win)
		stage.Store(focusBack)
		give(win, focusDone)
	}()

	var (
		ticks           int64         // all ticks
		unfocusedFrames int64         // frames rendered without focus (held, in pause mode)
		unfocusedTicks  int64         // ticks in those frames
		unfocusedScreen int64         // those frames' renders with a screen
		holds, resumes  int           // focus lost, regained
		maxJump         time.Duration // pause: the most game time a first frame back added
		jumpReal        time.Duration // the real time of that frame
		unfocusedTime   time.Duration // run: game time that passed in unfocused frames
		failure         string
	)
	fail := func(format string, args ...any) {
		if failure == "" {
			failure = fmt.Sprintf(format, args...)
		}
	}
	scene := engine.NewScene("Focus", func(loop *engine.Loop) (engine.Scene, error) {
		sched := engine.NewScheduler(donburi.NewWorld(), engine.Group{Name: "physics", Hz: 60})
		frameTicks := 0
		sched.AddUpdate(0, "count", func(donburi.World, engine.Event) { ticks++; frameTicks++ })
		sched.AddRender(0, "draw", func(_ donburi.World, ev engine.Event) {
			if window.Screen(ev) != nil {
				window.Screen(ev).Fill(color.RGBA{0, 0, 128, 255})
			}
		})
		var (
			unfocused, wasUnfocused bool
			inputAt, lastInputAt    time.Time // when this frame's and the previous frame's Input arrived
			heldTime, prevTime      time.Duration
			heldAlpha, prevAlpha    float64
			focusedTicks, backTicks int
		)
		for ev := range loop.Events(sched.Groups()...) {
			sched.Handle(ev)
			switch ev.Kind {
			case engine.Input:
				lastInputAt, inputAt = inputAt, time.Now()
				frameTicks = 0
				wasUnfocused = unfocused
				if pause {
					unfocused = loop.FocusPaused()
				} else {
					unfocused = !ebiten.IsFocused()
					if loop.FocusPaused() {
						fail("frame %d held for focus without PauseOnFocusLoss", ev.Frame)
					}
				}
				if unfocused && !wasUnfocused {
					holds++
					heldTime, heldAlpha = prevTime, prevAlpha
				}
			case engine.Render:
				frames.Add(1)
				if unfocused {
					if !pause {
						unfocusedTime += ev.Time - prevTime
					}
					unfocusedFrames++
					unfocusedTicks += int64(frameTicks)
					if window.Screen(ev) != nil {
						unfocusedScreen++
					}
					if pause && (frameTicks != 0 || ev.Time != heldTime || ev.Alpha != heldAlpha) {
						fail("held frame %d: %d ticks, time %v alpha %v, held at time %v alpha %v",
							ev.Frame, frameTicks, ev.Time, ev.Alpha, heldTime, heldAlpha)
					}
				} else if wasUnfocused && holds > 0 {
					resumes++
					jump, real := ev.Time-heldTime, inputAt.Sub(lastInputAt)
					// Game time goes on from where it stopped, by at most this
					// frame's real time (20 ms for measuring it here, and the
					// pacing tolerance), never by the time spent unfocused.
					if pause && jump > maxJump {
						maxJump, jumpReal = jump, real
					}
					if pause && (jump < 0 || jump > real+20*time.Millisecond) {
						fail("the first frame back (%d) moved game time by %v in %v of real time", ev.Frame, jump, real)
					}
				}
				prevTime, prevAlpha = ev.Time, ev.Alpha
				switch stage.Load() {
				case focusGiven:
					if !unfocused {
						if focusedTicks += frameTicks; focusedTicks >= 10 {
							stage.Store(focusTakeOut)
						}
					}
				case focusOut:
					if unfocusedFrames >= 30 {
						stage.Store(focusGiveBack)
					}
				case focusBack:
					if !unfocused && resumes > 0 {
						if backTicks += frameTicks; backTicks >= 10 {
							stage.Store(focusDone)
							return nil, nil
						}
					}
				}
			}
		}
		return nil, loop.Err()
	})
	if pause {
		// Checking focus costs the driver one ebiten.IsFocused call per frame.
		var allocs float64
		focus := scene
		check := engine.NewScene("Allocs", func(loop *engine.Loop) (engine.Scene, error) {
			allocs = testing.AllocsPerRun(20, func() { ebiten.IsFocused() })
			return focus, nil
		})
		defer func() { fmt.Printf("ALLOCS ebiten.IsFocused allocates %.0f times a call\n", allocs) }()
		scene = check
	}
	err := window.Run(scene, nil, &window.Options{Title: title, Width: 320, Height: 240,
		PauseOnFocusLoss: pause})
	childReturned.Store(true)
	fmt.Printf("%s err=%v\n", runReturned, err)
	fmt.Printf("FOCUS %s: %d ticks; unfocused: %d frames (%d with a screen), %d ticks, %v of game time; "+
		"focus lost %d times, regained %d times", scenario, ticks, unfocusedFrames, unfocusedScreen,
		unfocusedTicks, unfocusedTime, holds, resumes)
	if pause {
		fmt.Printf("; the first frames back moved game time by at most %v (in %v of real time)", maxJump, jumpReal)
	}
	fmt.Println()
	switch {
	case err != nil:
		t.Fatal(err)
	case failure != "":
		t.Fatal(failure)
	case unfocusedFrames < 30 || resumes < 1:
		t.Fatal("want at least 30 frames without focus and focus back")
	case pause && unfocusedTicks != 0:
		t.Fatal("ticks ran while held")
	case pause && unfocusedScreen == 0:
		t.Fatal("no frame was drawn while held")
	case !pause && unfocusedTicks < 10:
		t.Fatal("the game did not run on while unfocused")
	}
	fmt.Printf("FOCUS %s ok\n", scenario)
}

// lines returns the lines of out that start with one of the prefixes.
func lines(out string, prefixes ...string) string {
	var b strings.Builder
	for _, l := range strings.Split(out, "\n") {
		for _, p := range prefixes {
			if strings.HasPrefix(l, p) {
				b.WriteString(l + "\n")
				break
			}
		}
	}
	return b.String()
}
