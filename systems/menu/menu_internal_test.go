package menu

import (
	"testing"

	"github.com/fixedstep/fixedstep/engine"
	"github.com/fixedstep/fixedstep/engine/input"
)

// A tick that moves the choice allocates nothing.
func TestUpdateAllocatesNothing(t *testing.T) {
	m := newMenu(&Screen{Choice: Choice{Items: []Item{{Text: "A"}, {Text: "B"}, {Text: "C"}}, Mark: "> "}}, nil)
	var in input.State
	in.KeysPressed.Set(input.KeyArrowDown, true)
	ev := engine.Event{Kind: engine.Update, Input: &in}
	if n := testing.AllocsPerRun(100, func() { m.update(nil, ev) }); n != 0 {
		t.Errorf("%v allocations a tick", n)
	}
	if m.marked[1] != "> B" || m.items[2].Y != 40 || m.items[0].Size != DefaultSize {
		t.Errorf("items %+v, marked %q", m.items, m.marked)
	}
}
