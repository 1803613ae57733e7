package core

import (
	"testing"

	"github.com/fixedstep/fixedstep/engine"
	"github.com/fixedstep/fixedstep/engine/input"
)

// Splitting a tick's input by the seats, on every Update event, allocates
// nothing.
func TestSplitAllocatesNothing(t *testing.T) {
	s := &Stage{seated: true}
	s.seats, _ = input.ParseSeats("kb1,kb2,pad0,pad3")
	machines := make([]input.State, 1)
	machines[0].SetKey(input.KeyW, true)
	ev := engine.Event{Kind: engine.Update, Input: &machines[0], Players: machines}
	if n := testing.AllocsPerRun(100, func() {
		if got := s.split(ev); len(got.Players) != 4 {
			t.Fatalf("%d players", len(got.Players))
		}
	}); n != 0 {
		t.Errorf("split: %v allocations", n)
	}
}
