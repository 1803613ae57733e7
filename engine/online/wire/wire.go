// Package wire is the match protocol between a game server's authoritative
// match and its clients: the messages each side sends as Nakama match data
// (an op code and bytes), and the encoding of a player's input in them.
//
// Over Nakama's socket each message is one match data message (a websocket
// frame, over TCP): it arrives whole and in order, so the encoding carries
// no sequence numbers or checksums. Integers are little-endian; a uvarint
// is encoding/binary's. A state is an input as the input log writes it:
// the ops of an entry (package engine/internal/inputlog's, the one codec of
// input in the engine: recordings, saves, netplay's packets and these
// messages), which change the input before into this one, and the end op.
//
//	OpInput   client → server   tick:uvarint state              the client's held input for tick, from no input
//	OpTick    server → clients  tick:uvarint sum:u64 changed:u8 state*
//	OpStart   server → a player JSON Start
//	OpEnd     server → clients  JSON End
//	OpHistory server → a player (len:uvarint tick-message)*   ticks already run, in order
//	OpState   server → a player bytes                            a piece of the state a player begins from
//
// A match that ended is kept by its server as a Kept (JSON: its start, its
// end, and its ticks as a history compressed with zstd), which a client
// fetches and plays again.
//
// A client stamps its input with the tick it is for, and sends its held
// state only (keys, buttons and sticks held, cursor; the wheel's motion
// since its last input): the server derives the presses and releases from
// the held state of the tick before. After every tick the server sends the
// tick's number, the state checksum after it, and the input of every
// player whose input differs from the tick before's (bit p of changed:
// player p), each from that player's held input of the tick before,
// presses and releases included: exactly what the tick ran
// with. A client that applies them in order to its own simulation has
// every player's input of every tick, and checks its checksum against the
// server's. A player who comes back to a match under way, or a newcomer
// who takes over a seat its player left, is sent, after its start, the
// tick messages of every tick run so far, in OpHistory messages of at most
// MaxHistory bytes: it simulates them to catch up, checking each checksum,
// and goes on with the live ticks. When the server has the game's state at
// a recent tick (Start.From), it sends that instead of the ticks before:
// the state file (engine.Recording.AppendState's) in OpState messages of
// at most MaxHistory bytes, Start.StateBytes in all, then the history from
// tick From, whose first tick message holds every player's input of tick
// From from no input at all (as tick 1's does): the player begins its run
// from the state (engine.Options.FromState) and simulates the ticks after
// it.
package wire

import (
	"encoding/binary"
	"encoding/json"
	"errors"
	"fmt"
	"math"

	"github.com/fixedstep/fixedstep/engine/input"
	"github.com/fixedstep/fixedstep/engine/internal/inputlog"
	"github.com/fixedstep/fixedstep/internal/wirebytes"
)

// Op codes of the match's messages.
const (
	OpInput = 1 // client → server: a player's input for a tick
	OpTick  = 2 // server → clients: a tick's inputs and checksum
	OpStart = 3 // server → a player: the match begins; its seat and the game's settings
	OpEnd   = 4 // server → clients: the match is over, and why
	// OpHistory: server → a player who joins a match under way: ticks already run
	OpHistory = 5
	// OpState: server → a player who joins a match under way: a piece of
	// the state it begins from (Start.From)
	OpState = 6
)

// Sizes.
const (
	// MaxInput is the longest input message a server takes: the longest
	// held state (every key, mouse button, pad button and axis held, the
	// cursor and the wheel) with the largest tick is under it.
	MaxInput = 512

	// MaxCursor and MaxWheel bound an input message's cursor position and
	// wheel motion (no device gives more): a server sums the wheel of the
	// inputs a tick takes, and the sum must stay finite.
	MaxCursor = 1e7
	MaxWheel  = 1e6

	// MaxHistory is the most bytes of tick messages an OpHistory message
	// holds (one tick message more than that is sent alone). It is large:
	// each message takes a place in the server's queue for the player.
	MaxHistory = 1 << 20
)

// AppendState appends s as a state from no input at all: every field of s
// that is not zero, and its presses and releases where they are not those
// derived from no input. It is lossless (floats by their bits, -0 kept):
// DecodeState gives back a State that is Same as s.
func AppendState(b []byte, s *input.State) []byte {
	return inputlog.AppendEntryOps(b, &input.State{}, s)
}

// DecodeState decodes a state AppendState encoded, refusing (ErrMalformed)
// anything AppendState does not write or no device gives.
func DecodeState(b []byte, s *input.State) error {
	var none input.State
	if end, err := inputlog.ReadEntry(b, 0, &none, s); err != nil || end != len(b) || !s.Possible() {
		*s = input.State{}
		return ErrMalformed
	}
	return nil
}

// ErrMalformed is the error of a message or state that does not decode:
// cut short, with bytes left over, with a key, button or op no device or
// encoder has, or with a value no device gives (a non-finite number, an
// axis outside [-1, 1]).
var ErrMalformed = errors.New("wire: malformed")

// Held reports whether s is a held state only: no presses or releases,
// which the server derives. An input message's state must be.
func Held(s *input.State) bool {
	if s.KeysPressed != (input.KeySet{}) || s.KeysReleased != (input.KeySet{}) || s.MousePressed|s.MouseReleased != 0 {
		return false
	}
	for i := range s.Gamepads {
		if s.Gamepads[i].Pressed|s.Gamepads[i].Released != 0 {
			return false
		}
	}
	return true
}

// clearEdges clears s's presses and releases, keeping its wheel's motion
// (which an input message carries).
func clearEdges(s *input.State) {
	wx, wy := s.WheelX, s.WheelY
	s.ClearEdges()
	s.WheelX, s.WheelY = wx, wy
}

// AppendInput appends an input message: the held part of s (its presses
// and releases left out), for tick. Its state has no press or release of
// its own: those of a held state from no input are derived, and written
// as nothing.
func AppendInput(b []byte, tick int64, s *input.State) []byte {
	var none input.State
	held := *s
	held.DeriveEdges(&none)
	return inputlog.AppendEntry(b, tick, &none, &held)
}

// Why an input message is refused.
var (
	ErrOversized = fmt.Errorf("wire: an input message is at most %d bytes", MaxInput)
	ErrNotHeld   = errors.New("wire: an input message carries presses or releases (the server derives them)")
)

// DecodeInput decodes an input message: its tick and its held state. It
// refuses one longer than MaxInput (ErrOversized), one that does not
// decode or whose cursor or wheel is beyond MaxCursor or MaxWheel
// (ErrMalformed), and one whose state has presses or releases other than
// those derived from no input (ErrNotHeld).
func DecodeInput(b []byte, s *input.State) (tick int64, err error) {
	if len(b) > MaxInput {
		return 0, ErrOversized
	}
	var none input.State
	step, n := binary.Uvarint(b)
	if n <= 0 || step == 0 || step > math.MaxInt64/2 {
		*s = input.State{}
		return 0, ErrMalformed
	}
	end, err := inputlog.ReadEntry(b, n, &none, s)
	if err != nil || end != len(b) || !s.Possible() {
		*s = input.State{}
		return 0, ErrMalformed
	}
	derived := *s
	derived.DeriveEdges(&none)
	if !derived.Same(s) {
		*s = input.State{}
		return 0, ErrNotHeld
	}
	if math.Abs(s.CursorX) > MaxCursor || math.Abs(s.CursorY) > MaxCursor ||
		math.Abs(s.WheelX) > MaxWheel || math.Abs(s.WheelY) > MaxWheel {
		*s = input.State{}
		return 0, ErrMalformed
	}
	clearEdges(s)
	return int64(step), nil
}

// AppendTick appends a tick message: the tick, the state checksum after
// it, and each player's input that differs from prev's (the tick before's,
// all zero before the first tick), as a state from that player's held
// input in prev.
func AppendTick(b []byte, tick int64, sum uint64, in, prev []input.State) []byte {
	b = binary.AppendUvarint(b, uint64(tick))
	b = binary.LittleEndian.AppendUint64(b, sum)
	var changed uint8
	for p := range in {
		if !in[p].Same(&prev[p]) {
			changed |= 1 << p
		}
	}
	b = append(b, changed)
	for p := range in {
		if changed&(1<<p) != 0 {
			held := prev[p]
			held.ClearEdges()
			b = inputlog.AppendEntryOps(b, &held, &in[p])
		}
	}
	return b
}

// DecodeTick decodes a tick message into players, which holds every
// player's input of the tick before and receives this tick's: the players
// it names are replaced, the others keep their input (edges and all: a
// player who held a key and pressed nothing new has the same input). It
// returns the tick and the checksum; a message naming a player beyond
// len(players) is malformed, and so is every message decoded onto more
// than input.MaxPlayers players.
func DecodeTick(b []byte, players []input.State) (tick int64, sum uint64, err error) {
	if len(players) > input.MaxPlayers {
		return 0, 0, ErrMalformed
	}
	r := wirebytes.Reader{B: b}
	tick = readTick(&r)
	sum = r.U64()
	changed := r.U8()
	if r.Bad || int(changed) >= 1<<len(players) {
		return 0, 0, ErrMalformed
	}
	var next [input.MaxPlayers]input.State
	copy(next[:], players)
	for p := range players {
		if changed&(1<<p) == 0 {
			continue
		}
		held := players[p]
		held.ClearEdges()
		end, err := inputlog.ReadEntry(r.B, r.Off, &held, &next[p])
		if err != nil || !next[p].Possible() {
			return 0, 0, ErrMalformed
		}
		r.Off = end
	}
	if !r.Done() {
		return 0, 0, ErrMalformed
	}
	copy(players, next[:len(players)])
	return tick, sum, nil
}

// readTick reads a tick: a uvarint from 1 that fits an int64 with room to
// add to it.
func readTick(r *wirebytes.Reader) int64 {
	if r.Bad {
		return 0
	}
	v, n := binary.Uvarint(r.B[r.Off:])
	if n <= 0 || v == 0 || v > math.MaxInt64/2 {
		r.Bad = true
		return 0
	}
	r.Off += n
	return int64(v)
}

// AppendHistory appends a tick message (AppendTick's) to a history.
func AppendHistory(b, tick []byte) []byte {
	b = binary.AppendUvarint(b, uint64(len(tick)))
	return append(b, tick...)
}

// SplitHistory returns the first tick message of a history and the rest,
// or ErrMalformed when b does not begin with one.
func SplitHistory(b []byte) (tick, rest []byte, err error) {
	n, k := binary.Uvarint(b)
	if k <= 0 || n > uint64(len(b)-k) {
		return nil, nil, ErrMalformed
	}
	return b[k : k+int(n)], b[k+int(n):], nil
}

// Start is what a player is told when the match begins: its seat and what
// every run of the match must share.
type Start struct {
	Game    string `json:"game"`
	Version string `json:"version"`
	// Determinism is the server's engine's (engine.Determinism): a client
	// of another computes another game, and is refused.
	Determinism int               `json:"determinism"`
	Match       string            `json:"match"`
	Players     int               `json:"players"`
	Seat        int               `json:"seat"` // the player's number, from 0
	Seed        uint64            `json:"seed"`
	Settings    map[string]string `json:"settings,omitempty"` // the game's own (the Arena: "undying", "churn")
	Ticks       int64             `json:"ticks"`              // the match's length in ticks; 0: until the game ends
	Hz          int               `json:"hz"`                 // the match's tick rate
	MaxLead     int               `json:"max_lead"`           // how far past the server's next tick an input may be stamped

	// Resumed is the last tick run before the player came back to a match
	// under way, or took a seat over (0 at the match's start): OpHistory
	// messages holding ticks 1 to Resumed follow the start.
	Resumed int64 `json:"resumed,omitempty"`

	// From, when not 0, is the tick of the state the player begins from:
	// OpState messages of StateBytes in all follow the start, then
	// OpHistory messages of ticks From to Resumed (see the package doc).
	From       int64 `json:"from,omitempty"`
	StateBytes int   `json:"state_bytes,omitempty"`
}

// A join's metadata with MetaTicks: AllTicks asks a match under way for
// every tick from the first rather than its state and the ticks since: a
// client whose run cannot begin from the server's state (its scene holds
// more than the server's) simulates them all.
const (
	MetaTicks = "ticks"
	AllTicks  = "all"
)

// MaxState bounds the state a player is sent (Start.StateBytes).
const MaxState = 64 << 20

// End is what the players are told when the match is over.
type End struct {
	Reason string `json:"reason"`
	Tick   int64  `json:"tick"` // the last tick run

	// Stats are the server's figures for the match, as its game server
	// counts them (package match: Stats), when it gives them.
	Stats json.RawMessage `json:"stats,omitempty"`
}
