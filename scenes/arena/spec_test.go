package arena_test

import (
	"bytes"
	"strings"
	"testing"

	"github.com/fixedstep/fixedstep/engine"
	"github.com/fixedstep/fixedstep/engine/input"
	"github.com/fixedstep/fixedstep/engine/lockstep"
	"github.com/fixedstep/fixedstep/scenes/arena"
)

// The Arena's settings: good ones taken, bad ones refused with a message
// that names them.
func TestArenaSettings(t *testing.T) {
	o, err := arena.OptionsFrom(5, map[string]string{"undying": "true", "churn": "3"})
	if err != nil || !o.Undying || o.Churn != 3 || o.Seed != 5 {
		t.Errorf("undying true, churn 3: %+v, %v", o, err)
	}
	for _, bad := range []map[string]string{{"undying": "maybe"}, {"churn": "-1"}, {"churn": "101"}, {"gravity": "1"}} {
		for k := range bad {
			if _, err := arena.OptionsFrom(1, bad); err == nil || !strings.Contains(err.Error(), k) {
				t.Errorf("%v: %v, want an error naming %s", bad, err, k)
			}
		}
	}
}

// A match's simulation of the Arena runs with its bot at every seat, and
// the bot moves the stick.
func TestArenaRunsWithItsBot(t *testing.T) {
	scene, bot, err := arena.Spec.New(9, map[string]string{"undying": "true"})
	if err != nil {
		t.Fatal(err)
	}
	r, err := lockstep.New(scene, lockstep.Options{Players: 3, Ticks: int64(5 * arena.Spec.Hz)})
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	in := make([]input.State, 3)
	moved := false
	for !r.Done() {
		for p := range in {
			prev := in[p]
			in[p] = input.State{}
			bot(p, &in[p])
			in[p].DeriveEdges(&prev)
			moved = moved || in[p].GamepadAxis(0, input.AxisLeftStickHorizontal) != 0
		}
		if _, _, err := r.Step(in); err != nil && !r.Done() {
			t.Fatal(err)
		}
	}
	if !moved {
		t.Error("the bot never moved a stick")
	}
}

// A match's run begins from another run's state (lockstep.Options.From):
// from the state after tick 300, the ticks after it with the same inputs
// give the same checksums as the run that wrote it, and its state at tick
// 600 is the same bytes. A state of another game, or with a damaged byte,
// is refused by name.
func TestArenaRunsFromState(t *testing.T) {
	const players, at, to = 2, 300, 600
	game := engine.GameInfo{Name: arena.Spec.Name, Version: arena.Spec.Version}
	settings := map[string]string{"undying": "true", "churn": "2"}
	scene, bot, err := arena.Spec.New(11, settings)
	if err != nil {
		t.Fatal(err)
	}
	r, err := lockstep.New(scene, lockstep.Options{Players: players, Game: game})
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	in := make([]input.State, players)
	var inputs [][]input.State
	sums := map[int64]uint64{}
	var state, want []byte
	for tick := int64(1); tick <= to; tick++ {
		for p := range in {
			prev := in[p]
			in[p] = input.State{}
			bot(p, &in[p])
			in[p].DeriveEdges(&prev)
		}
		got, sum, err := r.Step(in)
		if err != nil || got != tick {
			t.Fatalf("tick %d: %d, %v", tick, got, err)
		}
		sums[tick] = sum
		if tick > at {
			inputs = append(inputs, append([]input.State(nil), in...))
		}
		switch tick {
		case at:
			state, err = r.AppendState(nil)
		case to:
			want, err = r.AppendState(nil)
		}
		if err != nil {
			t.Fatal(err)
		}
	}

	again, _, _ := arena.Spec.New(11, settings)
	r2, err := lockstep.New(again, lockstep.Options{Players: players, Game: game, From: state})
	if err != nil {
		t.Fatal(err)
	}
	defer r2.Close()
	for i, in := range inputs {
		tick, sum, err := r2.Step(in)
		if err != nil || tick != at+1+int64(i) || sum != sums[tick] {
			t.Fatalf("from the state: tick %d (want %d): checksum %x, want %x (%v)", tick, at+1+i, sum, sums[tick], err)
		}
	}
	got, err := r2.AppendState(nil)
	if err != nil || !bytes.Equal(got, want) {
		t.Fatalf("the state at tick %d from the state: %d bytes (%v), not the run's %d", to, len(got), err, len(want))
	}
	t.Logf("the state after tick %d: %d bytes", at, len(state))

	fresh := func() engine.Scene { s, _, _ := arena.Spec.New(11, settings); return s }
	other := engine.GameInfo{Name: "other", Version: game.Version}
	if _, err := stepFrom(fresh(), state, other); err == nil || !strings.Contains(err.Error(), "other") {
		t.Errorf("a state of another game: %v", err)
	}
	damaged := bytes.Clone(state)
	damaged[len(damaged)/2] ^= 1
	if _, err := stepFrom(fresh(), damaged, game); err == nil {
		t.Error("a damaged state: no error")
	}
}

// stepFrom runs the first tick of a run of the Arena from state.
func stepFrom(scene engine.Scene, state []byte, game engine.GameInfo) (int64, error) {
	r, err := lockstep.New(scene, lockstep.Options{Players: 2, Game: game, From: state})
	if err != nil {
		return 0, err
	}
	defer r.Close()
	tick, _, err := r.Step(make([]input.State, 2))
	return tick, err
}
