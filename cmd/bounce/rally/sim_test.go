package rally_test

import (
	"errors"
	"os/exec"
	"strings"
	"testing"

	"github.com/fixedstep/fixedstep/cmd/bounce/rally"
	"github.com/fixedstep/fixedstep/engine"
	"github.com/fixedstep/fixedstep/engine/input"
	"github.com/fixedstep/fixedstep/engine/lockstep"
)

// botInputs sets in to every seat's bot input for the next tick, from g's
// world, with the presses and releases since prev (the held input of the
// tick before, updated).
func botInputs(g *rally.Game, in, prev []input.State) {
	for p := range in {
		var held input.State
		rally.Bot(g.World(), p, &held)
		held.DeriveEdges(&prev[p])
		in[p], prev[p] = held, held
	}
}

// Two runners given the same inputs give the same checksums, tick for
// tick, across rounds (scenes); the run ends after Options.Ticks and then reports
// ErrDone; a recording of it replays headless at another frame rate to the
// same checksums.
func TestRunnersAgree(t *testing.T) {
	const players, seconds, seed = 3, 40, 7
	rec := &engine.InputLog{Seed: seed}
	games := [2]*rally.Game{{Seed: seed}, {Seed: seed}}
	var runners [2]*lockstep.Runner
	for i := range runners {
		opts := lockstep.Options{Players: players, Ticks: seconds * rally.Hz}
		if i == 0 {
			opts.Record = rec
		}
		r, err := lockstep.New(games[i].First(), opts)
		if err != nil {
			t.Fatal(err)
		}
		defer r.Close()
		runners[i] = r
	}
	in, prev := make([]input.State, players), make([]input.State, players)
	for tick := int64(1); tick <= seconds*rally.Hz; tick++ {
		botInputs(games[0], in, prev)
		var sums [2]uint64
		for i, r := range runners {
			got, sum, err := r.Step(in)
			if err != nil || got != tick {
				t.Fatalf("runner %d, step %d: tick %d, %v", i, tick, got, err)
			}
			sums[i] = sum
		}
		if sums[0] != sums[1] {
			t.Fatalf("tick %d: checksums %016x and %016x", tick, sums[0], sums[1])
		}
	}
	if rounds := rec.Scenes(); rounds < 2 {
		t.Errorf("%d rounds played in %d s: the game should have gone on to another", rounds, seconds)
	}
	if _, _, err := runners[0].Step(in); !errors.Is(err, lockstep.ErrDone) || !runners[0].Done() {
		t.Fatalf("a step past the run's ticks: %v, want ErrDone", err)
	}
	if err := runners[0].Close(); err != nil {
		t.Fatal(err)
	}
	if rec.Ticks() != seconds*rally.Hz {
		t.Fatalf("recorded %d ticks, want %d", rec.Ticks(), seconds*rally.Hz)
	}
	g := &rally.Game{Seed: seed}
	if err := engine.Run(g.First(), &engine.Options{Replay: rec, Headless: &engine.Headless{FPS: 37}}); err != nil {
		t.Fatalf("replaying the run: %v", err)
	}
	if got := rec.Replayed(); got.Checked != seconds*rally.Hz || !got.Finished {
		t.Fatalf("replayed %+v, want %d ticks checked and finished", got, seconds*rally.Hz)
	}
}

// A game of a few rounds ends by itself: Step returns ErrDone after its
// last tick, and Close returns nil.
func TestChainEnds(t *testing.T) {
	g := &rally.Game{Seed: 3, Rounds: 1}
	r, err := lockstep.New(g.First(), lockstep.Options{Players: 1})
	if err != nil {
		t.Fatal(err)
	}
	in, prev := make([]input.State, 1), make([]input.State, 1)
	var last int64
	for range 100 * rally.Hz {
		in[0] = input.State{} // no one plays: the balls fall
		_ = prev
		tick, _, err := r.Step(in)
		if errors.Is(err, lockstep.ErrDone) {
			break
		}
		if err != nil {
			t.Fatal(err)
		}
		last = tick
	}
	if !r.Done() || last == 0 {
		t.Fatalf("the round did not end in 100 s (last tick %d)", last)
	}
	if err := r.Close(); err != nil {
		t.Fatal(err)
	}
	t.Logf("one round of one idle player: %d ticks", last)
}

// Closing a runner in the middle of its run ends it, with no error.
func TestCloseMidRun(t *testing.T) {
	g := &rally.Game{Seed: 3}
	r, err := lockstep.New(g.First(), lockstep.Options{Players: 2})
	if err != nil {
		t.Fatal(err)
	}
	in := make([]input.State, 2)
	for range 10 {
		if _, _, err := r.Step(in); err != nil {
			t.Fatal(err)
		}
	}
	if err := r.Close(); err != nil {
		t.Fatalf("Close: %v", err)
	}
	if _, _, err := r.Step(in); !errors.Is(err, lockstep.ErrDone) {
		t.Fatalf("a step after Close: %v, want ErrDone", err)
	}
}

// The runner and the game link the simulation core alone: no graphics, no
// cgo.
func TestLinksTheCoreAlone(t *testing.T) {
	out, err := exec.Command("go", "list", "-deps", ".", "github.com/fixedstep/fixedstep/engine/lockstep").CombinedOutput()
	if err != nil {
		t.Fatalf("go list -deps: %v\n%s", err, out)
	}
	for _, dep := range strings.Fields(string(out)) {
		if strings.Contains(dep, "hajimehoshi") || strings.Contains(dep, "ebitengine") || dep == "runtime/cgo" {
			t.Errorf("depends on %s", dep)
		}
	}
}
