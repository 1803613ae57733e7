package arena_test

import (
	"os/exec"
	"strings"
	"testing"

	"github.com/fixedstep/fixedstep/engine"
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
		if err := engine.Run(sc, &engine.Options{Headless: &engine.Headless{}, AfterUpdate: after}); err != nil {
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
