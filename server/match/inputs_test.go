package match_test

import (
	"testing"

	"github.com/fixedstep/fixedstep/engine/input"
	"github.com/fixedstep/fixedstep/engine/online/wire"
	"github.com/fixedstep/fixedstep/server/match"
)

func keys(ks ...input.Key) input.State {
	var s input.State
	for _, k := range ks {
		s.SetKey(k, true)
	}
	return s
}

func msg(tick int64, s input.State) []byte { return wire.AppendInput(nil, tick, &s) }

func take(t *testing.T, in *match.Inputs, seat int, m []byte) {
	t.Helper()
	if why, ok := in.Take(seat, m); !ok {
		t.Fatalf("seat %d: refused (%v)", seat, why)
	}
}

// An input waits for its tick; a tick with none holds the input as it was;
// presses and releases are derived from the tick before; a late input is
// applied at the next tick run; several at one tick give every press and
// release and the last one's held keys.
func TestInputRules(t *testing.T) {
	in := match.NewInputs(2)
	out := make([]input.State, 2)
	take(t, in, 0, msg(3, keys(input.KeyArrowLeft)))
	for want := int64(1); want <= 2; want++ {
		if tick := in.Tick(out); tick != want || out[0] != (input.State{}) {
			t.Fatalf("tick %d (want %d): %+v before the input's tick", tick, want, out[0])
		}
	}
	in.Tick(out) // tick 3
	if !out[0].KeyDown(input.KeyArrowLeft) || !out[0].KeyPressed(input.KeyArrowLeft) {
		t.Fatalf("tick 3: Left not pressed: %+v", out[0])
	}
	in.Tick(out) // tick 4: nothing sent: held, no press
	if !out[0].KeyDown(input.KeyArrowLeft) || out[0].KeyPressed(input.KeyArrowLeft) {
		t.Fatalf("tick 4: Left should be held, not pressed again: %+v", out[0])
	}
	// Late: stamped 3 and 4, which ran; both come at tick 5, in order: a
	// release of Left and a press of Space, then Space released again.
	take(t, in, 0, msg(4, keys(input.KeySpace)))
	take(t, in, 0, msg(5, keys()))
	if tick := in.Tick(out); tick != 5 {
		t.Fatalf("tick %d, want 5", tick)
	}
	s := out[0]
	if s.KeyDown(input.KeySpace) || !s.KeyPressed(input.KeySpace) || !s.KeyReleased(input.KeySpace) ||
		!s.KeyReleased(input.KeyArrowLeft) || s.KeyDown(input.KeyArrowLeft) {
		t.Fatalf("tick 5: want Space pressed and released, Left released, nothing held: %+v", s)
	}
	if st := in.Stats(0); st.Taken != 3 || st.Late != 1 || st.Last != 5 {
		t.Fatalf("stats %+v, want 3 taken, 1 late (stamped 4, run at 5), the last stamped 5", st)
	}
	if out[1] != (input.State{}) {
		t.Fatalf("player 2 sent nothing and has %+v", out[1])
	}
}

// What the rules refuse is refused and counted by reason, and changes
// nothing: not the sender's input, not another player's.
func TestInputRefusals(t *testing.T) {
	in := match.NewInputs(2)
	out := make([]input.State, 2)
	take(t, in, 1, msg(2, keys(input.KeyArrowRight)))
	take(t, in, 0, msg(10, keys(input.KeyA)))
	var pressed input.State // a press of a key not held: presses are derived, never sent
	pressed.KeysPressed.Set(input.KeyB, true)
	refusals := []struct {
		m    []byte
		want match.Reason
	}{
		{msg(10, keys(input.KeyB)), match.Stale},
		{msg(9, keys(input.KeyB)), match.Stale},
		{msg(1+match.MaxLead+1, keys(input.KeyB)), match.Future},
		{[]byte{0xff, 0xff}, match.Malformed},
		{make([]byte, wire.MaxInput+1), match.Oversized},
		{append([]byte{11}, wire.AppendState(nil, &pressed)...), match.NotHeld},
	}
	for _, r := range refusals {
		if why, ok := in.Take(0, r.m); ok || why != r.want {
			t.Errorf("%x: taken %v, reason %v, want refused as %v", r.m, ok, why, r.want)
		}
	}
	for tick := int64(11); tick < 10+match.MaxPerTick; tick++ { // MaxPerTick messages in this tick, the one stamped 10 included
		take(t, in, 0, msg(tick, keys(input.KeyA)))
	}
	if why, ok := in.Take(0, msg(100, keys(input.KeyB))); ok || why != match.Flood {
		t.Errorf("message %d in a tick: taken %v, %v; want refused as flood", match.MaxPerTick+1, ok, why)
	}
	st := in.Stats(0)
	for _, r := range []match.Reason{match.Stale, match.Future, match.Malformed, match.Oversized, match.NotHeld, match.Flood} {
		want := int64(1)
		if r == match.Stale {
			want = 2
		}
		if st.Refused[r] != want {
			t.Errorf("refused as %v: %d, want %d", r, st.Refused[r], want)
		}
	}
	for range 12 {
		in.Tick(out)
	}
	if out[0].KeyDown(input.KeyB) || !out[0].KeyDown(input.KeyA) || !out[1].KeyDown(input.KeyArrowRight) || out[1].KeyDown(input.KeyA) {
		t.Fatalf("after the refusals: player 1 %+v, player 2 %+v", out[0], out[1])
	}
	if st := in.Stats(1); st.Taken != 1 || st.Refused != (match.SeatStats{}).Refused {
		t.Fatalf("player 2's stats: %+v", st)
	}
}

// A player who leaves releases what it held at the next tick, holds
// nothing after, and its messages are refused.
func TestLeave(t *testing.T) {
	in := match.NewInputs(2)
	out := make([]input.State, 2)
	take(t, in, 0, msg(1, keys(input.KeyArrowLeft)))
	take(t, in, 0, msg(5, keys(input.KeyArrowRight)))
	in.Tick(out)
	in.Leave(0)
	in.Tick(out)
	if out[0].KeyDown(input.KeyArrowLeft) || !out[0].KeyReleased(input.KeyArrowLeft) {
		t.Fatalf("the tick after leaving: %+v", out[0])
	}
	for range 5 {
		in.Tick(out)
		if out[0] != (input.State{}) {
			t.Fatalf("a player who left holds %+v", out[0])
		}
	}
	if why, ok := in.Take(0, msg(20, keys(input.KeyA))); ok || why != match.Stranger {
		t.Fatalf("a message after leaving: %v %v", ok, why)
	}
}

// A player who comes back is held to stamps after the last it sent; a
// newcomer who takes its seat over starts afresh at the next tick.
func TestReturnAndSeat(t *testing.T) {
	in := match.NewInputs(2)
	out := make([]input.State, 2)
	take(t, in, 0, msg(50, keys(input.KeyA)))
	in.Tick(out)
	in.Leave(0)
	in.Tick(out)
	in.Return(0)
	if why, ok := in.Take(0, msg(5, keys(input.KeyB))); ok || why != match.Stale {
		t.Fatalf("the player who came back, stamped before its last stamp: %v %v", ok, why)
	}
	in.Leave(0)
	in.Seat(0)
	take(t, in, 0, msg(3, keys(input.KeyB)))
	if tick := in.Tick(out); tick != 3 || !out[0].KeyDown(input.KeyB) || out[0].KeyDown(input.KeyA) {
		t.Fatalf("tick %d: %+v; want tick 3 with the newcomer's key alone", tick, out[0])
	}
}

// Deciding a tick allocates nothing once warm.
func TestTickAllocatesNothing(t *testing.T) {
	in := match.NewInputs(4)
	out := make([]input.State, 4)
	m := msg(1, keys(input.KeyA))
	tick := int64(1)
	for range 10 {
		in.Take(0, msg(tick, keys(input.KeyA)))
		in.Tick(out)
		tick++
	}
	refused := 0
	n := testing.AllocsPerRun(200, func() {
		m = wire.AppendInput(m[:0], tick, &out[1])
		if _, ok := in.Take(0, m); !ok {
			refused++
		}
		in.Tick(out)
		tick++
	})
	if n != 0 {
		t.Fatalf("a tick allocates %v times", n)
	}
	if refused != 0 {
		t.Fatalf("%d of the inputs were refused", refused)
	}
}

// The wheel of the inputs a tick takes together is summed, and stays what
// a tick message carries: a player cannot make another's tick message
// undecodable (two late inputs of the largest wheel allowed).
func TestWheelSumStaysFinite(t *testing.T) {
	in := match.NewInputs(2)
	out, prev := make([]input.State, 2), make([]input.State, 2)
	for range 2 * match.MaxPerTick {
		in.Tick(out)
	}
	var w input.State
	w.WheelX = wire.MaxWheel
	for tick := int64(1); tick <= match.MaxPerTick; tick++ { // late, all applied at the next tick
		take(t, in, 1, msg(tick, w))
	}
	tick := in.Tick(out)
	if out[1].WheelX != match.MaxPerTick*wire.MaxWheel {
		t.Fatalf("the tick's wheel: %v, want %v", out[1].WheelX, match.MaxPerTick*wire.MaxWheel)
	}
	m := wire.AppendTick(nil, tick, 1, out, prev)
	if _, _, err := wire.DecodeTick(m, prev); err != nil {
		t.Fatalf("the tick's message does not decode: %v", err)
	}
}
