package windowtest_test

import (
	"os"
	"testing"
	"time"

	"github.com/jezek/xgb/xproto"

	"github.com/fixedstep/fixedstep/engine/windowtest"
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
	x, err := windowtest.Dial()
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
