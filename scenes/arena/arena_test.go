package arena_test

import (
	"os/exec"
	"strings"
	"testing"

	"github.com/fixedstep/fixedstep/engine"
	"github.com/fixedstep/fixedstep/engine/input"
	"github.com/fixedstep/fixedstep/engine/state"
	"github.com/fixedstep/fixedstep/scenes/arena"
)

// The Arena's simulation, and everything it is built on, links no
// graphics library: a game server's plugin links it.
func TestNoGraphics(t *testing.T) {
	out, err := exec.Command("go", "list", "-deps", ".").CombinedOutput()
	if err != nil {
		t.Fatalf("go list -deps: %v\n%s", err, out)
	}
	for _, pkg := range strings.Fields(string(out)) {
		if strings.HasPrefix(pkg, "github.com/hajimehoshi/") || strings.HasPrefix(pkg, "github.com/ebitengine/") ||
			pkg == "github.com/fixedstep/fixedstep/components/gfx" {
			t.Errorf("scenes/arena links %s", pkg)
		}
	}
}

// Two runs of the Arena on its simulation alone, with the same seed and
// autopilot, have the same state at every tick; and the game ends on its
// time limit.
func TestSceneRepeats(t *testing.T) {
	run := func() []uint64 {
		sc := &arena.Scene{Options: arena.Options{Seed: 7, Seconds: 3, Autopilot: true}}
		var sums []uint64
		after := func(_ *engine.Loop, ev engine.Event) {
			if ev.Group == 0 {
				sums = append(sums, state.Checksum(sc.Arena.World()))
			}
		}
		if err := engine.Run(sc, &engine.Options{Headless: &engine.Headless{}, AfterUpdate: []engine.EventHook{after}}); err != nil {
			t.Fatal(err)
		}
		return sums
	}
	a, b := run(), run()
	if len(a) != 3*arena.Hz {
		t.Fatalf("%d ticks, want %d", len(a), 3*arena.Hz)
	}
	for i := range a {
		if a[i] != b[i] {
			t.Fatalf("tick %d: the two runs differ", i+1)
		}
	}
	if a[0] == a[len(a)-1] {
		t.Error("the state did not change in 3 s of play")
	}
}

// Esc (the first player's, on a tick) ends the game, but not with
// IgnoreEsc, as a server's match has it.
func TestIgnoreEsc(t *testing.T) {
	for _, ignore := range []bool{false, true} {
		sc := &arena.Scene{Options: arena.Options{Seed: 3, Seconds: 2, IgnoreEsc: ignore}}
		var quit bool
		var ticks int64
		after := func(_ *engine.Loop, ev engine.Event) {
			if ev.Group == 0 {
				ticks, quit = ev.Tick, sc.Arena.Quit()
			}
		}
		esc := engine.InputFunc(func(frame int64, in *input.State) { in.SetKey(input.KeyEscape, frame == 30) })
		if err := engine.Run(sc, &engine.Options{Headless: &engine.Headless{}, Input: esc, AfterUpdate: []engine.EventHook{after}}); err != nil {
			t.Fatal(err)
		}
		if ignore && (quit || ticks != 2*arena.Hz) || !ignore && (!quit || ticks >= 2*arena.Hz) {
			t.Errorf("IgnoreEsc %v: quit %v after %d ticks", ignore, quit, ticks)
		}
	}
}
