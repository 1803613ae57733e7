package windowtest_test

import (
	"fmt"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/jezek/xgb/xproto"

	"github.com/fixedstep/fixedstep/internal/cputime"
	"github.com/fixedstep/fixedstep/internal/windowtest"
)

// A key tapped through XTEST reaches the focused window as a KeyPress and a
// KeyRelease of the key that types it: here a window of the client's own,
// which listens for them.
func TestTapReachesTheFocusedWindow(t *testing.T) {
	if os.Getenv("DISPLAY") == "" {
		if os.Getenv("CI") != "" {
			t.Fatal("no DISPLAY in CI: run the tests through make test (xvfb-run)")
		}
		t.Skip("no DISPLAY: run under xvfb-run -a, or make test")
	}
	d, err := windowtest.NewDisplay() // its own: no other test's window takes the focus
	if err != nil {
		t.Fatal(err)
	}
	defer d.Close()
	x, err := windowtest.DialDisplay(d.Name)
	if err != nil {
		t.Fatal(err)
	}
	defer x.Close()
	win, err := x.NewWindow()
	if err != nil {
		t.Fatal(err)
	}
	if err := x.Listen(win); err != nil {
		t.Fatal(err)
	}
	if err := x.Focus(win); err != nil {
		t.Fatal(err)
	}
	if err := x.Tap("Return", 10*time.Millisecond); err != nil {
		t.Fatal(err)
	}
	var press, release bool
	deadline := time.Now().Add(5 * time.Second)
	for !(press && release) && time.Now().Before(deadline) {
		ev, err := x.PollEvent()
		if err != nil {
			t.Fatal(err)
		}
		switch e := ev.(type) {
		case xproto.KeyPressEvent:
			press = e.Event == win && x.Keysym(e.Detail) == windowtest.Keys["Return"]
		case xproto.KeyReleaseEvent:
			release = e.Event == win && x.Keysym(e.Detail) == windowtest.Keys["Return"]
		case nil:
			time.Sleep(10 * time.Millisecond)
		}
	}
	if !press || !release {
		t.Fatalf("press %v, release %v", press, release)
	}
}

// A click through XTEST reaches the window under the pointer: the pointer
// moves to the point given in the window's coordinates (a MotionNotify
// there), and the button goes down and up at that point. The wheel arrives
// as buttons 4 (up) and 5 (down), as from a real mouse.
func TestClickReachesTheWindowUnderThePointer(t *testing.T) {
	if os.Getenv("DISPLAY") == "" {
		if os.Getenv("CI") != "" {
			t.Fatal("no DISPLAY in CI: run the tests through make test (xvfb-run)")
		}
		t.Skip("no DISPLAY: run under xvfb-run -a, or make test")
	}
	d, err := windowtest.NewDisplay() // its own: no other test's window takes the focus
	if err != nil {
		t.Fatal(err)
	}
	defer d.Close()
	x, err := windowtest.DialDisplay(d.Name)
	if err != nil {
		t.Fatal(err)
	}
	defer x.Close()
	win, err := x.NewWindowAt(40, 30, 200, 100)
	if err != nil {
		t.Fatal(err)
	}
	if err := x.Listen(win); err != nil {
		t.Fatal(err)
	}
	if err := x.Click(win, 120, 70, windowtest.ButtonLeft, 10*time.Millisecond); err != nil {
		t.Fatal(err)
	}
	if px, py, err := x.Pointer(win); err != nil || px != 120 || py != 70 {
		t.Fatalf("pointer at %d,%d (%v), want 120,70", px, py, err)
	}
	if err := x.Wheel(-2, 0); err != nil {
		t.Fatal(err)
	}
	var moved, pressed, released bool
	var wheel []xproto.Button
	deadline := time.Now().Add(5 * time.Second)
	for !(moved && pressed && released && len(wheel) == 4) && time.Now().Before(deadline) {
		ev, err := x.PollEvent()
		if err != nil {
			t.Fatal(err)
		}
		switch e := ev.(type) {
		case xproto.MotionNotifyEvent:
			moved = moved || e.Event == win && e.EventX == 120 && e.EventY == 70
		case xproto.ButtonPressEvent:
			if e.Detail == windowtest.ButtonLeft {
				pressed = e.Event == win && e.EventX == 120 && e.EventY == 70
			} else {
				wheel = append(wheel, e.Detail)
			}
		case xproto.ButtonReleaseEvent:
			if e.Detail == windowtest.ButtonLeft {
				released = e.Event == win && e.EventX == 120 && e.EventY == 70
			} else {
				wheel = append(wheel, e.Detail)
			}
		case nil:
			time.Sleep(10 * time.Millisecond)
		}
	}
	if !moved || !pressed || !released || len(wheel) != 4 || wheel[0] != 5 || wheel[3] != 5 {
		t.Fatalf("moved %v, pressed %v, released %v, wheel buttons %v (want 5 down and up twice)", moved, pressed, released, wheel)
	}
	if err := x.MouseDown(0); err == nil {
		t.Error("MouseDown(0): no error")
	}
}

// A Watch lets a wait go on for as long as its progress changes, however
// long that takes in all, and fails it once the progress has stayed the same
// for its Stall, or at its deadline, saying what the progress was last.
func TestWatchFailsWhenProgressStops(t *testing.T) {
	n := 0
	w := windowtest.NewWatch(func() string { return fmt.Sprintf("%d frames", n) })
	w.Stall = 100 * time.Millisecond
	for range 5 { // 5 changes 60 ms apart (or more on a busy machine): longer than Stall in all
		time.Sleep(60 * time.Millisecond)
		n++
		if err := w.Check(); err != nil {
			t.Fatalf("after %d changes: %v", n, err)
		}
	}
	time.Sleep(150 * time.Millisecond)
	err := w.Check()
	if err == nil || !strings.Contains(err.Error(), "no progress for 100ms") || !strings.Contains(err.Error(), "progress: 5 frames, last changed") {
		t.Fatalf("no progress for 150 ms: %v", err)
	}

	w = windowtest.NewWatch(func() string { n++; return fmt.Sprintf("%d frames", n) })
	w.Deadline = time.Now().Add(50 * time.Millisecond)
	time.Sleep(60 * time.Millisecond)
	if err := w.Check(); err == nil || !strings.Contains(err.Error(), "deadline") {
		t.Fatalf("past the deadline: %v", err)
	}
}

// CPUTime reads a process's CPU time, which work moves forward: as much
// as getrusage says the work took (within /proc's 10 ms ticks), however
// long it took on the wall clock.
func TestCPUTimeGrowsWithWork(t *testing.T) {
	before, err := windowtest.CPUTime(os.Getpid())
	if err != nil {
		t.Fatal(err)
	}
	start, _ := cputime.Process()
	for now := start; now-start < 200*time.Millisecond; now, _ = cputime.Process() {
	}
	after, err := windowtest.CPUTime(os.Getpid())
	if err != nil || after-before < 150*time.Millisecond {
		t.Fatalf("CPU time %v, then %v after 200 ms of work (%v)", before, after, err)
	}
}

// Deadline is the test binary's deadline (go test -timeout), less the time
// a wait needs to say what it saw.
func TestDeadlineIsTheTestBinarys(t *testing.T) {
	want, ok := t.Deadline()
	got := windowtest.Deadline()
	if !ok {
		if !got.IsZero() {
			t.Fatalf("no -timeout, but a deadline %v", got)
		}
		t.Skip("-timeout 0: no deadline")
	}
	if early := want.Sub(got); early < 10*time.Second || early > time.Minute {
		t.Fatalf("deadline %v, %v before the test binary's %v", got, early, want)
	}
}
