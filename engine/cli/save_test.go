package cli_test

import (
	"bytes"
	"errors"
	"os"
	"strings"
	"testing"

	"github.com/fixedstep/fixedstep/engine"
	"github.com/fixedstep/fixedstep/engine/cli"
)

// A load goes on from its save's tick: -save-at before it is a flag error
// (the save's tick is known before the run), and nothing is written; at
// the save's tick or after, the file holds the tick the message names.
func TestAppSaveAtBeforeTheLoadedSave(t *testing.T) {
	t.Chdir(t.TempDir())
	if out, err := newAppGame().run("-headless", "-seconds", "1", "-save", "a.sav", "-save-at", "1:30"); err != nil {
		t.Fatalf("%v\n%s", err, out)
	}
	g := newAppGame()
	g.seen = -1
	_, err := g.run("-headless", "-load", "a.sav", "-save", "b.sav", "-save-at", "1:5")
	var fe *cli.FlagError
	if !errors.As(err, &fe) || fe.Flag != "save-at" || !strings.Contains(err.Error(), "is before tick 30 of scene 1 (Play)") || g.seen != -1 {
		t.Fatalf("-save-at 1:5 after a save at 1:30: %v (first scene made: %v), want a -save-at error", err, g.seen != -1)
	}
	if _, err := os.Stat("b.sav"); !errors.Is(err, os.ErrNotExist) {
		t.Fatalf("a refused -save-at wrote b.sav: %v", err)
	}

	for _, c := range []struct {
		at   string
		tick int64
	}{{"1:30", 30}, {"30", 30}, {"1:45", 45}} {
		os.Remove("b.sav")
		out, err := newAppGame().run("-headless", "-load", "a.sav", "-save", "b.sav", "-save-at", c.at)
		if err != nil || !strings.Contains(out, "saved the game after tick "+strings.TrimPrefix(c.at, "1:")+" of scene 1 to b.sav") {
			t.Fatalf("-save-at %s: %v\n%s", c.at, err, out)
		}
		s, err := engine.LoadSave("b.sav")
		if err != nil || s.Scene != 1 || s.Tick != c.tick {
			t.Fatalf("-save-at %s wrote a save of tick %d of scene %d (%v)", c.at, s.Tick, s.Scene, err)
		}
		if a, _ := os.ReadFile("a.sav"); c.tick == 30 {
			if b, _ := os.ReadFile("b.sav"); !bytes.Equal(a, b) {
				t.Fatalf("-save-at %s: the save differs from the one loaded, of the same tick", c.at)
			}
		}
	}
}

// A load that fails on the way to its save says so, not that it loaded:
// with -drift, unrecorded, the run simulated again to the save diverges
// from it, and the error says how to see the save's own run at that tick
// (a load, not a replay) and does not blame an older engine.
func TestAppLoadThatDiverges(t *testing.T) {
	t.Chdir(t.TempDir())
	if out, err := newAppGame().run("-headless", "-seconds", "4", "-save", "a.sav", "-save-at", "1:150"); err != nil {
		t.Fatalf("%v\n%s", err, out)
	}
	out, err := newAppGame().run("-headless", "-load", "a.sav", "-drift", "0.5")
	var de *engine.DivergenceError
	if !errors.As(err, &de) || strings.Contains(out, "loaded the game saved") ||
		!strings.Contains(out, "the game saved after tick 150 of scene 1 (Play) in a.sav was not loaded: the run failed on the way") {
		t.Fatalf("a load that diverges: %v\n%s", err, out)
	}
	if msg := err.Error(); !strings.Contains(msg, "-load FILE -dump-at 1:") || strings.Contains(msg, "older engine") {
		t.Fatalf("a load that diverges: %v", err)
	}
}
