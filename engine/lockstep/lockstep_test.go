package lockstep_test

import (
	"testing"

	"github.com/fixedstep/fixedstep/engine"
	"github.com/fixedstep/fixedstep/engine/input"
	"github.com/fixedstep/fixedstep/engine/lockstep"
)

// counter is a scene whose state is a count of its players' presses: it
// gives the loop its checksum and its state, and counts the states the
// loop keeps for a rollback.
type counter struct {
	presses int
	saves   int // in a session's slots (past engine.KeyframeSlots)
}

func (c *counter) SaveState(slot int) error {
	if slot >= engine.KeyframeSlots {
		c.saves++
	}
	return nil
}

func (c *counter) RestoreState(int) error { return nil }

func (c *counter) Run(loop *engine.Loop) (engine.Scene, error) {
	loop.Recording().SetChecksum(func() uint64 { return uint64(c.presses) })
	loop.Recording().SetSceneState(c)
	for ev := range loop.Events(engine.Group{Name: "tick", Hz: 60}) {
		if ev.Kind == engine.Update {
			for p := range ev.Players {
				if ev.Player(p).KeyPressed(input.KeySpace) {
					c.presses++
				}
			}
		}
	}
	return nil, loop.Err()
}

func (c *counter) Name() string { return "counter" }

// Every input a Runner runs is final, so no tick is ever rolled back to:
// the loop keeps no state for a rollback (a server's match would pay a
// snapshot of its world every tick for nothing).
func TestStepKeepsNoState(t *testing.T) {
	c := &counter{}
	r, err := lockstep.New(c, lockstep.Options{Players: 2})
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	in := make([]input.State, 2)
	for tick := int64(1); tick <= 120; tick++ {
		for p := range in {
			prev := in[p]
			in[p] = input.State{}
			in[p].SetKey(input.KeySpace, (tick+int64(p))%4 == 0)
			in[p].DeriveEdges(&prev)
		}
		ran, sum, err := r.Step(in)
		if err != nil || ran != tick {
			t.Fatalf("step %d: ran tick %d, %v", tick, ran, err)
		}
		if want := uint64(tick/4 + (tick+1)/4); sum != want {
			t.Fatalf("after tick %d: %d presses, want %d", tick, sum, want)
		}
	}
	if c.saves != 0 {
		t.Errorf("the loop kept the state before %d of 120 ticks", c.saves)
	}
}
