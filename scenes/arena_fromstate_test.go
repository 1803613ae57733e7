package scenes

import (
	"testing"

	"github.com/fixedstep/fixedstep/components/gfx"
	"github.com/fixedstep/fixedstep/engine"
	"github.com/fixedstep/fixedstep/engine/input"
	"github.com/fixedstep/fixedstep/engine/lockstep"
	"github.com/fixedstep/fixedstep/engine/state"
	"github.com/fixedstep/fixedstep/scenes/arena"
	"github.com/fixedstep/fixedstep/third_party/donburi"
	"github.com/fixedstep/fixedstep/third_party/donburi/filter"
)

// The window's Arena begins from a state of a server's (which has no
// sprites): it reads the state, dresses the entities as it would have
// dressed them playing from the first tick, and plays on with the
// server's checksum at every tick; at the end its world, sprites and all,
// is the world of a window that played every tick.
func TestArenaBeginsFromAServersState(t *testing.T) {
	const players, seed, at, to = 2, 21, 90, 240
	game := engine.GameInfo{Name: arena.Spec.Name, Version: arena.Spec.Version}
	settings := map[string]string{"churn": "3"} // props replaced at tick 60: the first kept one is a ball
	server, bot, err := arena.Spec.New(seed, settings)
	if err != nil {
		t.Fatal(err)
	}
	r := newRunner(t, server, lockstep.Options{Players: players, Game: game})
	in := make([]input.State, players)
	var inputs [][]input.State
	sums := map[int64]uint64{}
	var st []byte
	for tick := int64(1); tick <= to; tick++ {
		for p := range in {
			prev := in[p]
			in[p] = input.State{}
			bot(p, &in[p])
			in[p].DeriveEdges(&prev)
		}
		inputs = append(inputs, append([]input.State(nil), in...))
		_, sum, err := r.Step(in)
		if err != nil {
			t.Fatal(err)
		}
		sums[tick] = sum
		if tick == at {
			if st, err = r.AppendState(nil); err != nil {
				t.Fatal(err)
			}
		}
	}

	window := func() *Arena {
		ao, err := arena.OptionsFrom(seed, settings)
		if err != nil {
			t.Fatal(err)
		}
		return &Arena{opts: &Options{Seed: seed, Online: true, Churn: ao.Churn, Seconds: ao.Seconds}}
	}
	fromState, fromStart := window(), window()
	rs := newRunner(t, fromState, lockstep.Options{Players: players, Game: game, From: st})
	rf := newRunner(t, fromStart, lockstep.Options{Players: players, Game: game})
	for i, in := range inputs {
		tick := int64(i + 1)
		if _, sum, err := rf.Step(in); err != nil || sum != sums[tick] {
			t.Fatalf("the window from the first tick, tick %d: checksum %x, want the server's %x (%v)", tick, sum, sums[tick], err)
		}
		if tick <= at {
			continue
		}
		if got, sum, err := rs.Step(in); err != nil || got != tick || sum != sums[tick] {
			t.Fatalf("the window from the state, tick %d (want %d): checksum %x, want the server's %x (%v)", got, tick, sum, sums[tick], err)
		}
		if tick == at+1 { // the state was read as the tick began
			if n, want := spritedIn(fromState.st.World), spritedIn(fromStart.st.World); n != want || n < 70 {
				t.Fatalf("read from the server's state, %d entities of the window's Arena have a sprite; a window that played every tick has %d", n, want)
			}
		}
	}
	all := state.NewHasher(&state.Options{}) // sprites and all
	if all.Sum(fromState.st.World) != all.Sum(fromStart.st.World) {
		t.Error("at the last tick, the window from the server's state (sprites and all) differs from the window that played every tick")
	}
}

// spritedIn counts the entities of w with a sprite.
func spritedIn(w donburi.World) int {
	return donburi.NewQuery(filter.Contains(gfx.SpriteC)).Count(w)
}

func newRunner(t *testing.T, scene engine.Scene, opts lockstep.Options) *lockstep.Runner {
	t.Helper()
	r, err := lockstep.New(scene, opts)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { r.Close() })
	return r
}
