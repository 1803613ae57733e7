package input

import (
	"fmt"
	"strconv"
	"strings"
)

// Local multiplayer: two to four players on one machine, each at a seat
// bound to a device of it (a half of the keyboard, a gamepad). A seat's
// input is a State of its own, made from the machine's by [Device.Filter],
// which systems read as that player's (engine.Event.Player(n)): the
// simulation splits the tick's input by the seats (package
// systems/stage/core does it for every Update event), so what a run
// records is every machine's input as its devices gave it, and a replay,
// a rollback or the sync test splits it again the same way. Seats are a
// value: a game keeps them with its state, and a join screen
// ([Seats.Join]) fills them on ticks.

// A Device is what one seat plays with, on one machine.
type Device uint8

// The devices a seat can be bound to, named as -seats names them.
const (
	NoDevice      Device = iota
	Keyboard             // "kb": the whole keyboard, and the mouse
	KeyboardLeft         // "kb1": WASD and the keys left of the middle (see LeftKeys)
	KeyboardRight        // "kb2": the arrows and the keys right of the middle (see RightKeys)
	Gamepad0             // "pad0": gamepad slot 0, which a seat's input holds in slot 0
	Gamepad1             // "pad1"
	Gamepad2             // "pad2"
	Gamepad3             // "pad3"

	devices = Gamepad3 + 1
)

var deviceNames = [devices]string{"", "kb", "kb1", "kb2", "pad0", "pad1", "pad2", "pad3"}

// String returns the device's name as -seats spells it ("kb1", "pad0").
func (d Device) String() string {
	if d == NoDevice || d >= devices {
		return fmt.Sprintf("Device(%d)", uint8(d))
	}
	return deviceNames[d]
}

// ParseDevice returns the device called name ("kb", "kb1", "kb2",
// "pad0" to "pad3"); another name is an error that lists them.
func ParseDevice(name string) (Device, error) {
	for d := Keyboard; d < devices; d++ {
		if deviceNames[d] == name {
			return d, nil
		}
	}
	return NoDevice, fmt.Errorf("unknown device %q: one of kb (the whole keyboard and the mouse), "+
		"kb1 (its left half: WASD), kb2 (its right half: the arrows), pad0, pad1, pad2, pad3", name)
}

// Pad returns the gamepad slot of a gamepad device, -1 for another.
func (d Device) Pad() int {
	if d >= Gamepad0 && d < devices {
		return int(d - Gamepad0)
	}
	return -1
}

// overlaps reports whether d and o share keys or buttons (the whole
// keyboard and either half do).
func (d Device) overlaps(o Device) bool {
	if d == o {
		return true
	}
	kb := func(x Device) bool { return x >= Keyboard && x <= KeyboardRight }
	return (d == Keyboard && kb(o)) || (o == Keyboard && kb(d))
}

// The halves of the keyboard, by place on a US keyboard (see Key): each
// half is a player's hand, and neither holds Escape, the function keys or
// the keys that stand for either of a pair (KeyShift, KeyControl,
// KeyAlt, KeyMeta): Escape and the function keys stay the machine's (a
// menu's, the dev keys').
var (
	// LeftKeys are kb1's: WASD, the digits 1 to 5, Q to T, A to G, Z to B,
	// the backquote, Tab, CapsLock, the left Shift, Control, Alt and Meta,
	// and Space.
	LeftKeys = keySet(KeyBackquote, KeyDigit1, KeyDigit2, KeyDigit3, KeyDigit4, KeyDigit5,
		KeyQ, KeyW, KeyE, KeyR, KeyT, KeyA, KeyS, KeyD, KeyF, KeyG, KeyZ, KeyX, KeyC, KeyV, KeyB,
		KeyTab, KeyCapsLock, KeyShiftLeft, KeyControlLeft, KeyAltLeft, KeyMetaLeft, KeySpace, KeyIntlBackslash)
	// RightKeys are kb2's: the arrows, the digits 6 to 0, Y to P, H to L,
	// N and M, the punctuation right of them, Enter, Backspace, the right
	// Shift, Control, Alt and Meta, the block above the arrows and the
	// numeric keypad.
	RightKeys = keySet(KeyArrowUp, KeyArrowDown, KeyArrowLeft, KeyArrowRight,
		KeyDigit6, KeyDigit7, KeyDigit8, KeyDigit9, KeyDigit0, KeyMinus, KeyEqual, KeyBackspace,
		KeyY, KeyU, KeyI, KeyO, KeyP, KeyBracketLeft, KeyBracketRight, KeyBackslash,
		KeyH, KeyJ, KeyK, KeyL, KeySemicolon, KeyQuote, KeyEnter,
		KeyN, KeyM, KeyComma, KeyPeriod, KeySlash,
		KeyShiftRight, KeyControlRight, KeyAltRight, KeyMetaRight, KeyContextMenu,
		KeyInsert, KeyDelete, KeyHome, KeyEnd, KeyPageUp, KeyPageDown,
		KeyNumLock, KeyNumpad0, KeyNumpad1, KeyNumpad2, KeyNumpad3, KeyNumpad4, KeyNumpad5, KeyNumpad6,
		KeyNumpad7, KeyNumpad8, KeyNumpad9, KeyNumpadAdd, KeyNumpadDecimal, KeyNumpadDivide,
		KeyNumpadEnter, KeyNumpadEqual, KeyNumpadMultiply, KeyNumpadSubtract)
)

func keySet(keys ...Key) KeySet {
	var s KeySet
	for _, k := range keys {
		s.Set(k, true)
	}
	return s
}

// Filter sets *dst to the part of src that device d gives: for a half of
// the keyboard, its keys (held, pressed, released) and nothing else; for
// the whole keyboard, every key, the cursor, the mouse buttons and the
// wheel; for gamepad N, that pad, moved to slot 0 (so that a seat's
// player reads its pad as pad 0, whichever it is), and nothing else. A
// device that is no device gives nothing. It allocates nothing.
func (d Device) Filter(dst, src *State) {
	*dst = State{}
	switch d {
	case Keyboard:
		dst.Keys, dst.KeysPressed, dst.KeysReleased = src.Keys, src.KeysPressed, src.KeysReleased
		dst.CursorX, dst.CursorY = src.CursorX, src.CursorY
		dst.Mouse, dst.MousePressed, dst.MouseReleased = src.Mouse, src.MousePressed, src.MouseReleased
		dst.WheelX, dst.WheelY = src.WheelX, src.WheelY
	case KeyboardLeft, KeyboardRight:
		mask := &LeftKeys
		if d == KeyboardRight {
			mask = &RightKeys
		}
		for i := range mask {
			dst.Keys[i] = src.Keys[i] & mask[i]
			dst.KeysPressed[i] = src.KeysPressed[i] & mask[i]
			dst.KeysReleased[i] = src.KeysReleased[i] & mask[i]
		}
	default:
		if p := d.Pad(); p >= 0 {
			dst.Gamepads[0] = src.Gamepads[p]
		}
	}
}

// Pressed reports whether a key or button of device d went down in in
// (a mouse button too, for the whole keyboard): a press that takes a seat
// on a join screen.
func (d Device) Pressed(in *State) bool {
	var f State
	d.Filter(&f, in)
	for i := range f.KeysPressed {
		if f.KeysPressed[i] != 0 {
			return true
		}
	}
	return f.MousePressed != 0 || f.Gamepads[0].Pressed != 0
}

// A Seat is a player's place: a device on a machine. Peer is the machine,
// by its player number in the tick's input (engine.Event.Players): 0 for
// the machine a run of one machine plays on; in a networked run, the
// session's player whose machine the device is on (0: the host).
type Seat struct {
	Device Device
	Peer   uint8
}

// String returns the seat as -seats spells it: its device, followed by
// @N for a device on networked player N's machine (from 1, as netplay
// names players), "pad0@2".
func (s Seat) String() string {
	if s.Peer == 0 {
		return s.Device.String()
	}
	return fmt.Sprintf("%s@%d", s.Device, int(s.Peer)+1)
}

// Seats are the seats of a run, in player order: player n plays at
// Seat[n], for n below N. The zero value has none. Seats are a plain
// value (no pointers), for a game to keep with its state.
type Seats struct {
	N    uint8
	Seat [MaxPlayers]Seat
}

// ParseSeats reads a list of seats as -seats gives it: devices separated
// by commas, each taking the next player's seat ("kb1,kb2" is two players
// on the keyboard's halves, "kb1,pad0,pad1" three), a device followed by
// @N being on networked player N's machine ("kb1,kb2,pad0@2": two players
// on the host, one on player 2's). "" is no seats. An unknown device, a
// device taken twice (the whole keyboard and a half of it too), a player
// number out of range and more than MaxPlayers seats are errors that
// say which.
func ParseSeats(spec string) (Seats, error) {
	var s Seats
	if spec == "" {
		return s, nil
	}
	for _, item := range strings.Split(spec, ",") {
		item = strings.TrimSpace(item)
		name, peer, hasPeer := strings.Cut(item, "@")
		var st Seat
		if hasPeer {
			n, err := strconv.Atoi(peer)
			if err != nil || n < 1 || n > MaxPlayers {
				return Seats{}, fmt.Errorf("seat %q: @%s is not a player of a networked run (1 to %d)", item, peer, MaxPlayers)
			}
			st.Peer = uint8(n - 1)
		}
		d, err := ParseDevice(name)
		if err != nil {
			return Seats{}, fmt.Errorf("seat %q: %w", item, err)
		}
		st.Device = d
		if err := s.Add(st); err != nil {
			return Seats{}, err
		}
	}
	return s, nil
}

// Add gives the next player seat st, or says why not: its device is
// already taken (or overlaps one taken) on its machine, or every seat is.
func (s *Seats) Add(st Seat) error {
	if st.Device == NoDevice || st.Device >= devices {
		return fmt.Errorf("seat %d: no device", s.N+1)
	}
	if i, taken := s.Taken(st); taken {
		if s.Seat[i] == st {
			return fmt.Errorf("seat %d (%v): player %d plays at %v already: a device plays one seat", s.N+1, st, i+1, st)
		}
		return fmt.Errorf("seat %d (%v): player %d plays at %v, which holds it: a device plays one seat", s.N+1, st, i+1, s.Seat[i])
	}
	if int(s.N) >= MaxPlayers {
		return fmt.Errorf("seat %d (%v): a run has at most %d players", s.N+1, st, MaxPlayers)
	}
	s.Seat[s.N] = st
	s.N++
	return nil
}

// Taken reports whether st's device, or one that overlaps it, is taken
// on st's machine, and by which player.
func (s *Seats) Taken(st Seat) (player int, taken bool) {
	for i := range int(s.N) {
		if o := s.Seat[i]; o.Peer == st.Peer && o.Device.overlaps(st.Device) {
			return i, true
		}
	}
	return -1, false
}

// String returns the seats as ParseSeats reads them: "kb1,pad0".
func (s Seats) String() string {
	var b strings.Builder
	for i := range int(s.N) {
		if i > 0 {
			b.WriteByte(',')
		}
		b.WriteString(s.Seat[i].String())
	}
	return b.String()
}

// Peers returns how many machines the seats need: one more than the
// highest Peer (0 without seats).
func (s *Seats) Peers() int {
	n := 0
	for i := range int(s.N) {
		n = max(n, int(s.Seat[i].Peer)+1)
	}
	return n
}

// Split sets out[n] to player n's input, for every seat: its device's part
// (Device.Filter) of its machine's input, machines[Seat.Peer] (nothing
// when there is no such machine), and returns out[:N]. It allocates
// nothing: the tick's input path calls it for every Update event.
func (s *Seats) Split(machines []State, out *[MaxPlayers]State) []State {
	n := min(int(s.N), MaxPlayers)
	for i := range n {
		st := s.Seat[i]
		if int(st.Peer) < len(machines) {
			st.Device.Filter(&out[i], &machines[st.Peer])
		} else {
			out[i] = State{}
		}
	}
	return out[:n]
}

// joinOrder is the order a join screen offers the devices in, when
// several are pressed on one tick: the keyboard's halves, then the pads.
var joinOrder = [...]Device{KeyboardLeft, KeyboardRight, Gamepad0, Gamepad1, Gamepad2, Gamepad3}

// Join is a join screen's step, called on every Update event with the
// tick's input of every machine (the stage's Machines): each device not
// seated yet that was pressed on this tick (Device.Pressed) takes the
// next seat, until there are most seats (at most MaxPlayers), machine by
// machine, devices in a fixed order (kb1, kb2, pad0 to pad3; the whole
// keyboard does not join: its halves do). It returns how many joined. It
// reads only the tick's input, so a replay joins the same players on the
// same ticks; it allocates nothing.
func (s *Seats) Join(machines []State, most int) int {
	most = min(most, MaxPlayers)
	joined := 0
	for p := range min(len(machines), MaxPlayers) {
		for _, d := range joinOrder {
			if int(s.N) >= most {
				return joined
			}
			st := Seat{Device: d, Peer: uint8(p)}
			if _, taken := s.Taken(st); taken || !d.Pressed(&machines[p]) {
				continue
			}
			s.Seat[s.N] = st
			s.N++
			joined++
		}
	}
	return joined
}
