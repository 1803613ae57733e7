package match

import (
	"errors"

	"github.com/fixedstep/fixedstep/engine/input"
	"github.com/fixedstep/fixedstep/engine/online/wire"
)

// Limits of the inputs a match takes from a player.
const (
	// MaxLead is how far ahead of the tick the server runs next a player
	// may stamp an input: 2 s at 60 Hz. An input stamped further ahead is
	// refused (Future).
	MaxLead = 120
	// MaxPerTick is how many input messages of one player a tick takes
	// (half a second of a client's inputs, arriving at once after a
	// stall); more are refused (Flood).
	MaxPerTick = 30
	// KickAt is how many messages of one player in one tick, taken or
	// refused, make the match remove the player (a flood: Nakama queues a
	// match's messages in one queue, and a full one drops the others').
	KickAt = 4 * MaxPerTick
)

// A Reason is why a message from a client was refused. Stats counts each.
type Reason uint8

// Why a message is refused.
const (
	Oversized Reason = iota // an input message longer than wire.MaxInput
	Malformed               // it does not decode, or holds what no device gives (wire.ErrMalformed)
	NotHeld                 // an input with presses or releases: the server derives them
	Future                  // stamped more than MaxLead ticks past the tick the server runs next
	Stale                   // stamped at or before an input the player sent before
	Flood                   // more than MaxPerTick input messages of one player in one tick
	Early                   // sent before the match began
	UnknownOp               // an op code a client does not send
	Stranger                // from no player of the match (one who left)
	reasons
)

var reasonNames = [reasons]string{"oversized", "malformed", "not held", "future", "stale", "flood", "early",
	"unknown op", "stranger"}

func (r Reason) String() string { return reasonNames[r] }

// Reasons names the reasons a message is refused, in order.
func Reasons() []string { return reasonNames[:] }

// SeatStats counts what one player's client sent.
type SeatStats struct {
	Taken   int64          // input messages taken
	Late    int64          // of them, stamped for a tick already run: applied at the next tick run
	Last    int64          // the stamp of the last one taken (0: none)
	Refused [reasons]int64 // refused, by reason
}

// stamped is an input taken, waiting for its tick.
type stamped struct {
	tick int64
	held input.State
}

// seat is one player's inputs.
type seat struct {
	pending []stamped   // stamps strictly increasing, all after the last tick run
	last    int64       // the last stamp taken
	held    input.State // what the last tick run saw held (its edges cleared)
	arrived int         // input messages taken since the last tick ran
	left    bool
	stats   SeatStats
}

// Inputs decides every player's input of every tick from the input
// messages the players' clients send, by these rules:
//
//   - An input message holds the player's held input (keys, buttons and
//     sticks held, the cursor, the wheel's motion since its last input)
//     stamped with the tick it is for. The presses and releases a tick sees
//     are derived from the held input of the tick before.
//   - An input stamped for a tick the server has not run waits for it. A
//     late one, stamped for a tick already run, is applied at the next tick
//     run (counted as Late): the ticks before ran without it, with the
//     player's input held as it was.
//   - Several inputs applied at one tick (late ones, arriving together) are
//     applied in stamp order: the tick sees every press and release among
//     them and the last one's held input.
//   - A tick for which a player sent nothing sees the player's input held
//     as it was, with no presses or releases: sending only changes is
//     enough. A player who left holds nothing from the next tick on.
//   - Refused and counted, changing nothing: an input stamped at or before
//     one the player sent before (Stale), more than MaxLead ticks ahead of
//     the next tick to run (Future), more than MaxPerTick messages in one
//     tick (Flood), longer than wire.MaxInput (Oversized), one that does not
//     decode or holds what no device gives (Malformed), one with presses or
//     releases (NotHeld).
//
// A player's messages can change that player's input and nothing else:
// the seat is the sender's, never named in the message.
type Inputs struct {
	seats []seat
	next  int64 // the tick run next
}

// NewInputs returns the inputs of a match of players players, before its
// first tick.
func NewInputs(players int) *Inputs {
	return &Inputs{seats: make([]seat, players), next: 1}
}

// Next returns the tick the server runs next.
func (in *Inputs) Next() int64 { return in.next }

// Take takes an input message of the player at seat, arrived before the
// next tick runs. It returns whether it was taken, and if not why.
func (in *Inputs) Take(seat int, msg []byte) (Reason, bool) {
	s := &in.seats[seat]
	var held input.State
	tick, err := wire.DecodeInput(msg, &held)
	why, ok := Reason(0), true
	switch {
	case s.left:
		why, ok = Stranger, false
	case errors.Is(err, wire.ErrOversized):
		why, ok = Oversized, false
	case errors.Is(err, wire.ErrNotHeld):
		why, ok = NotHeld, false
	case err != nil:
		why, ok = Malformed, false
	case tick > in.next+MaxLead:
		why, ok = Future, false
	case tick <= s.last:
		why, ok = Stale, false
	case s.arrived >= MaxPerTick:
		why, ok = Flood, false
	}
	if !ok {
		s.stats.Refused[why]++
		return why, false
	}
	s.arrived++
	s.last, s.stats.Last = tick, tick
	s.stats.Taken++
	if tick < in.next {
		s.stats.Late++
	}
	s.pending = append(s.pending, stamped{tick: tick, held: held})
	return 0, true
}

// Refuse counts a message of the player at seat refused for a reason
// Take does not see (UnknownOp).
func (in *Inputs) Refuse(seat int, why Reason) { in.seats[seat].stats.Refused[why]++ }

// Leave notes that the player at seat left: from the next tick on it
// holds nothing, and its messages are refused (Stranger).
func (in *Inputs) Leave(seat int) {
	s := &in.seats[seat]
	s.left = true
	s.pending = s.pending[:0]
}

// Return notes that the player at seat, who left, came back: its input
// messages are taken again (stamped after the last it sent before).
func (in *Inputs) Return(seat int) { in.seats[seat].left = false }

// Seat notes that a newcomer took over the seat of a player who left: its
// input messages are taken again, stamped for the next tick run or after
// (whatever the player before it sent).
func (in *Inputs) Seat(seat int) {
	s := &in.seats[seat]
	s.left, s.last = false, in.next-1
}

// Left reports whether the player at seat left.
func (in *Inputs) Left(seat int) bool { return in.seats[seat].left }

// Tick decides every player's input of the next tick into out (one per
// player), and returns the tick; the next call decides the one after.
func (in *Inputs) Tick(out []input.State) int64 {
	t := in.next
	for p := range in.seats {
		s := &in.seats[p]
		acc := s.held // held as it was; no presses or releases, no wheel
		prev := s.held
		if s.left {
			next := input.State{}
			next.DeriveEdges(&prev)
			acc.Accumulate(&next)
		}
		n := 0
		for n < len(s.pending) && s.pending[n].tick <= t {
			next := s.pending[n].held
			next.DeriveEdges(&prev)
			acc.Accumulate(&next)
			prev = s.pending[n].held
			n++
		}
		s.pending = s.pending[:copy(s.pending, s.pending[n:])]
		out[p] = acc
		s.held = acc
		s.held.ClearEdges()
		s.arrived = 0
	}
	in.next++
	return t
}

// Stats returns what the player at seat's client sent.
func (in *Inputs) Stats(seat int) SeatStats { return in.seats[seat].stats }
