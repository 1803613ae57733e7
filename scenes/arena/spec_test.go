package arena_test

import (
	"strings"
	"testing"

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
