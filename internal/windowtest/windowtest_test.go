package windowtest_test

import (
	"os"
	"testing"
	"time"

	"github.com/jezek/xgb/xproto"

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
