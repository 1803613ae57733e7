// Package wire is the match protocol between a game server's authoritative
// match and its clients: the messages each side sends as Nakama match data
// (an op code and bytes), and the encoding of a player's input in them.
//
// Over Nakama's socket each message is one match data message (a websocket
// frame, over TCP): it arrives whole and in order, so the encoding carries
// no sequence numbers or checksums. Integers are little-endian; a uvarint
// is encoding/binary's.
//
//	OpInput   client → server   tick:uvarint state              the client's held input, for tick
//	OpTick    server → clients  tick:uvarint sum:u64 changed:u8 state*
//	OpStart   server → a player JSON Start
//	OpEnd     server → clients  JSON End
//	OpHistory server → a player (len:uvarint tick-message)*   ticks already run, in order
//
// A client stamps its input with the tick it is for, and sends its held
// state only (keys, buttons and sticks held, cursor; the wheel's motion
// since its last input): the server derives the presses and releases from
// the held state of the tick before. After every tick the server sends the
// tick's number, the state checksum after it, and the input of every
// player whose input differs from the tick before's (bit p of changed:
// player p), presses and releases included: exactly what the tick ran
// with. A client that applies them in order to its own simulation has
// every player's input of every tick, and checks its checksum against the
// server's. A player who comes back to a match under way, or a newcomer
// who takes over a seat its player left, is sent, after its start, the tick messages of every tick run so far, in OpHistory
// messages of at most MaxHistory bytes: it simulates them to catch up,
// checking each checksum, and goes on with the live ticks.
package wire

import (
	"encoding/binary"
	"encoding/json"
	"errors"
	"fmt"
	"math"

	"github.com/fixedstep/fixedstep/engine/input"
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
)

// Sizes.
const (
	// MaxInput is the longest input message a server takes: the longest
	// held state (every key, mouse button, pad button and axis held, the
	// cursor and the wheel) with the largest tick is under it.
	MaxInput = 256

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

// Fields of an encoded state, one bit each in its mask.
const (
	fKeys = 1 << iota
	fKeysPressed
	fKeysReleased
	fCursor
	fMouse
	fMousePressed
	fMouseReleased
	fWheel
	fPads
	fAll = 1<<iota - 1
)

// Fields of a pad, one bit each in its flags.
const (
	pConnected = 1 << iota
	pDown
	pPressed
	pReleased
	pAll = 1<<iota - 1
)

// Masks of the bits a key set, the mouse and a pad's buttons may hold.
var (
	keyMask   = keySetMask()
	mouseMask = uint8(1<<(input.MouseButtonMax+1) - 1)
	padMask   = uint32(1<<(input.GamepadButtonMax+1) - 1)
)

func keySetMask() (m input.KeySet) {
	for k := input.Key(0); k <= input.KeyMax; k++ {
		m.Set(k, true)
	}
	return m
}

// AppendState appends s's encoding to b: a field mask, then each field
// that is not zero (floats by their bits: -0 is kept). It is lossless:
// DecodeState gives back a State that is Same as s.
//
//	state = mask:u16 [keys:u64×KeySetWords]×(held, pressed, released)
//	        [cursorX:f64 cursorY:f64] [mouse:u8]×(held, pressed, released)
//	        [wheelX:f64 wheelY:f64] [pads:u8 (flags:u8 [buttons:u32]×(down, pressed, released) axes:u8 axis:f64*)*]
func AppendState(b []byte, s *input.State) []byte {
	var mask uint16
	at := len(b)
	b = append(b, 0, 0)
	keys := func(bit uint16, k *input.KeySet) {
		if *k != (input.KeySet{}) {
			mask |= bit
			for _, w := range k {
				b = binary.LittleEndian.AppendUint64(b, w)
			}
		}
	}
	keys(fKeys, &s.Keys)
	keys(fKeysPressed, &s.KeysPressed)
	keys(fKeysReleased, &s.KeysReleased)
	if bits(s.CursorX)|bits(s.CursorY) != 0 {
		mask |= fCursor
		b = binary.LittleEndian.AppendUint64(b, bits(s.CursorX))
		b = binary.LittleEndian.AppendUint64(b, bits(s.CursorY))
	}
	for i, m := range [3]uint8{s.Mouse, s.MousePressed, s.MouseReleased} {
		if m != 0 {
			mask |= fMouse << i
			b = append(b, m)
		}
	}
	if bits(s.WheelX)|bits(s.WheelY) != 0 {
		mask |= fWheel
		b = binary.LittleEndian.AppendUint64(b, bits(s.WheelX))
		b = binary.LittleEndian.AppendUint64(b, bits(s.WheelY))
	}
	var pads uint8
	for i := range s.Gamepads {
		if !emptyPad(&s.Gamepads[i]) {
			pads |= 1 << i
		}
	}
	if pads != 0 {
		mask |= fPads
		b = append(b, pads)
		for i := range s.Gamepads {
			if pads&(1<<i) != 0 {
				b = appendPad(b, &s.Gamepads[i])
			}
		}
	}
	binary.LittleEndian.PutUint16(b[at:], mask)
	return b
}

func appendPad(b []byte, p *input.Gamepad) []byte {
	var flags uint8
	if p.Connected {
		flags |= pConnected
	}
	at := len(b)
	b = append(b, 0)
	for i, v := range [3]uint32{p.Down, p.Pressed, p.Released} {
		if v != 0 {
			flags |= pDown << i
			b = binary.LittleEndian.AppendUint32(b, v)
		}
	}
	b[at] = flags
	var axes uint8
	for i, a := range p.Axes {
		if bits(a) != 0 {
			axes |= 1 << i
		}
	}
	b = append(b, axes)
	for i, a := range p.Axes {
		if axes&(1<<i) != 0 {
			b = binary.LittleEndian.AppendUint64(b, bits(a))
		}
	}
	return b
}

func emptyPad(p *input.Gamepad) bool {
	if p.Connected || p.Down|p.Pressed|p.Released != 0 {
		return false
	}
	for _, a := range p.Axes {
		if bits(a) != 0 {
			return false
		}
	}
	return true
}

func bits(f float64) uint64 { return math.Float64bits(f) }

// ErrMalformed is the error of a message or state that does not decode:
// cut short, with bytes left over, with a bit no key, button or field has,
// or with a value no device gives (a non-finite number, an axis outside
// [-1, 1]).
var ErrMalformed = errors.New("wire: malformed")

// reader reads an encoding; past its end or on a bad value it reads zeros
// and remembers that the encoding was bad.
type reader struct{ wirebytes.Reader }

// f64 reads a float that must be finite.
func (r *reader) f64() float64 {
	f := math.Float64frombits(r.U64())
	if f-f != 0 {
		r.Bad = true
		return 0
	}
	return f
}

// tick reads a tick: a uvarint from 1 that fits an int64 with room to add
// to it.
func (r *reader) tick() int64 {
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

// state reads an encoded state into s.
func (r *reader) state(s *input.State) {
	*s = input.State{}
	mask := r.U16()
	if mask&^fAll != 0 {
		r.Bad = true
		return
	}
	for i, k := range [3]*input.KeySet{&s.Keys, &s.KeysPressed, &s.KeysReleased} {
		if mask&(fKeys<<i) == 0 {
			continue
		}
		for w := range k {
			k[w] = r.U64()
			if k[w]&^keyMask[w] != 0 {
				r.Bad = true
			}
		}
	}
	if mask&fCursor != 0 {
		s.CursorX, s.CursorY = r.f64(), r.f64()
	}
	for i, m := range [3]*uint8{&s.Mouse, &s.MousePressed, &s.MouseReleased} {
		if mask&(fMouse<<i) != 0 {
			if *m = r.U8(); *m&^mouseMask != 0 {
				r.Bad = true
			}
		}
	}
	if mask&fWheel != 0 {
		s.WheelX, s.WheelY = r.f64(), r.f64()
	}
	if mask&fPads == 0 {
		return
	}
	pads := r.U8()
	if pads >= 1<<input.MaxGamepads {
		r.Bad = true
	}
	for i := range s.Gamepads {
		if pads&(1<<i) == 0 {
			continue
		}
		p := &s.Gamepads[i]
		flags := r.U8()
		if flags&^pAll != 0 {
			r.Bad = true
		}
		p.Connected = flags&pConnected != 0
		for j, v := range [3]*uint32{&p.Down, &p.Pressed, &p.Released} {
			if flags&(pDown<<j) != 0 {
				if *v = r.U32(); *v&^padMask != 0 {
					r.Bad = true
				}
			}
		}
		axes := r.U8()
		if axes >= 1<<input.GamepadAxes {
			r.Bad = true
		}
		for j := range p.Axes {
			if axes&(1<<j) != 0 {
				if p.Axes[j] = r.f64(); !(p.Axes[j] >= -1 && p.Axes[j] <= 1) {
					r.Bad = true
				}
			}
		}
	}
}

// DecodeState decodes a state AppendState encoded, refusing (ErrMalformed)
// anything AppendState does not write or no device gives.
func DecodeState(b []byte, s *input.State) error {
	r := reader{wirebytes.Reader{B: b}}
	r.state(s)
	if !r.Done() {
		*s = input.State{}
		return ErrMalformed
	}
	return nil
}

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

// AppendInput appends an input message: the held part of s (its presses
// and releases left out), for tick.
func AppendInput(b []byte, tick int64, s *input.State) []byte {
	held := *s
	held.KeysPressed, held.KeysReleased = input.KeySet{}, input.KeySet{}
	held.MousePressed, held.MouseReleased = 0, 0
	for i := range held.Gamepads {
		held.Gamepads[i].Pressed, held.Gamepads[i].Released = 0, 0
	}
	b = binary.AppendUvarint(b, uint64(tick))
	return AppendState(b, &held)
}

// Why an input message is refused.
var (
	ErrOversized = fmt.Errorf("wire: an input message is at most %d bytes", MaxInput)
	ErrNotHeld   = errors.New("wire: an input message carries presses or releases (the server derives them)")
)

// DecodeInput decodes an input message: its tick and its held state. It
// refuses one longer than MaxInput (ErrOversized), one that does not
// decode or whose cursor or wheel is beyond MaxCursor or MaxWheel
// (ErrMalformed), and one with presses or releases (ErrNotHeld).
func DecodeInput(b []byte, s *input.State) (tick int64, err error) {
	if len(b) > MaxInput {
		return 0, ErrOversized
	}
	r := reader{wirebytes.Reader{B: b}}
	tick = r.tick()
	r.state(s)
	if !r.Done() {
		*s = input.State{}
		return 0, ErrMalformed
	}
	if !Held(s) {
		*s = input.State{}
		return 0, ErrNotHeld
	}
	if math.Abs(s.CursorX) > MaxCursor || math.Abs(s.CursorY) > MaxCursor ||
		math.Abs(s.WheelX) > MaxWheel || math.Abs(s.WheelY) > MaxWheel {
		*s = input.State{}
		return 0, ErrMalformed
	}
	return tick, nil
}

// AppendTick appends a tick message: the tick, the state checksum after
// it, and each player's input that differs from prev's (the tick before's,
// all zero before the first tick).
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
			b = AppendState(b, &in[p])
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
	r := reader{wirebytes.Reader{B: b}}
	tick = r.tick()
	sum = r.U64()
	changed := r.U8()
	if int(changed) >= 1<<len(players) {
		return 0, 0, ErrMalformed
	}
	var next [input.MaxPlayers]input.State
	copy(next[:], players)
	for p := range players {
		if changed&(1<<p) != 0 {
			r.state(&next[p])
		}
	}
	if !r.Done() {
		return 0, 0, ErrMalformed
	}
	copy(players, next[:len(players)])
	return tick, sum, nil
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
}

// End is what the players are told when the match is over.
type End struct {
	Reason string `json:"reason"`
	Tick   int64  `json:"tick"` // the last tick run

	// Stats are the server's figures for the match, as its game server
	// counts them (package match: Stats), when it gives them.
	Stats json.RawMessage `json:"stats,omitempty"`
}
