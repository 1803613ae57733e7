// Package input is what the player does, as plain values: the keys, mouse
// buttons, gamepad buttons and axes the engine knows (numbered as ebiten
// numbers them, so that recordings read the same on either side), and
// [State], the input a frame samples or a tick sees. It imports no
// graphics library: a game's simulation, a server or a bot reads input
// without one, and the window driver (package engine/window) fills it in
// from ebiten's devices.
package input

// MaxPlayers is the most players a run has, each with an input State of
// its own in every tick (a networked session's players: package
// engine/netplay).
const MaxPlayers = 4

// Sizes of the input state: the gamepads it holds (more are ignored), the
// axes of a gamepad in the standard layout, and the 64-bit words of a
// KeySet (one bit per Key).
const (
	MaxGamepads    = 4
	GamepadAxes    = int(GamepadAxisMax) + 1
	KeySetWords    = (int(KeyMax) + 64) / 64
	gamepadButtons = int(GamepadButtonMax) + 1
	mouseButtons   = int(MouseButtonMax) + 1
)

// KeySet is a set of keys, one bit per [Key]. Its zero value is empty.
type KeySet [KeySetWords]uint64

// Has reports whether k is in the set.
func (s *KeySet) Has(k Key) bool {
	return uint(k) <= uint(KeyMax) && s[k/64]&(1<<(k%64)) != 0
}

// Set puts k in the set (on) or takes it out; a value that is no key does
// nothing.
func (s *KeySet) Set(k Key, on bool) {
	if uint(k) > uint(KeyMax) {
		return
	}
	if on {
		s[k/64] |= 1 << (k % 64)
	} else {
		s[k/64] &^= 1 << (k % 64)
	}
}

// Gamepad is one gamepad in the standard layout, in [State].
type Gamepad struct {
	Connected               bool
	Down, Pressed, Released uint32 // one bit per GamepadButton
	Axes                    [GamepadAxes]float64
}

// State is what the player does, as a plain value: keys, mouse and
// gamepads held down, and the edges (pressed, released) since the previous
// sample. It has no pointers, so copying, comparing (==) and recording it are
// cheap and allocation-free.
//
// In an engine Input event it is the frame's sample, with edges since the
// previous frame. In an Update event it is what that tick of that group
// sees: the latest held state, and every press and release since that
// group's previous tick. A press is therefore seen by exactly one tick of
// each group, even when a frame runs no tick or several.
type State struct {
	Keys, KeysPressed, KeysReleased KeySet

	CursorX, CursorY                   float64
	Mouse, MousePressed, MouseReleased uint8 // one bit per MouseButton
	WheelX, WheelY                     float64

	Gamepads [MaxGamepads]Gamepad
}

// KeyDown reports whether k is held.
func (s *State) KeyDown(k Key) bool { return s.Keys.Has(k) }

// KeyPressed reports whether k went down since the previous sample (Input) or
// the group's previous tick (Update).
func (s *State) KeyPressed(k Key) bool { return s.KeysPressed.Has(k) }

// KeyReleased reports whether k went up, with the same window as KeyPressed.
func (s *State) KeyReleased(k Key) bool { return s.KeysReleased.Has(k) }

// MouseDown reports whether mouse button b is held.
func (s *State) MouseDown(b MouseButton) bool { return bit8(s.Mouse, int(b)) }

// MouseJustPressed reports whether b went down, with the same window as KeyPressed.
func (s *State) MouseJustPressed(b MouseButton) bool {
	return bit8(s.MousePressed, int(b))
}

// GamepadDown reports whether button b of gamepad slot pad (0..MaxGamepads-1) is held.
func (s *State) GamepadDown(pad int, b GamepadButton) bool {
	return uint(pad) < MaxGamepads && bit32(s.Gamepads[pad].Down, int(b))
}

// GamepadPressed reports whether button b of pad went down, with the same
// window as KeyPressed.
func (s *State) GamepadPressed(pad int, b GamepadButton) bool {
	return uint(pad) < MaxGamepads && bit32(s.Gamepads[pad].Pressed, int(b))
}

// GamepadAxis returns axis a of pad in [-1, 1], 0 for a pad that is not there.
func (s *State) GamepadAxis(pad int, a GamepadAxis) float64 {
	if uint(pad) >= MaxGamepads || uint(a) >= uint(GamepadAxes) {
		return 0
	}
	return s.Gamepads[pad].Axes[a]
}

// SetKey sets whether k is held. Input sources call it; edges are derived
// (see DeriveEdges).
func (s *State) SetKey(k Key, down bool) { s.Keys.Set(k, down) }

// SetMouseButton sets whether mouse button b is held.
func (s *State) SetMouseButton(b MouseButton, down bool) {
	if uint(b) < uint(mouseButtons) {
		s.Mouse = setBit8(s.Mouse, int(b), down)
	}
}

// SetGamepadButton sets whether button b of pad is held, and marks the pad connected.
func (s *State) SetGamepadButton(pad int, b GamepadButton, down bool) {
	if uint(pad) >= MaxGamepads || uint(b) >= uint(gamepadButtons) {
		return
	}
	p := &s.Gamepads[pad]
	p.Connected = true
	if down {
		p.Down |= 1 << b
	} else {
		p.Down &^= 1 << b
	}
}

// SetGamepadAxis sets axis a of pad, and marks the pad connected.
func (s *State) SetGamepadAxis(pad int, a GamepadAxis, v float64) {
	if uint(pad) >= MaxGamepads || uint(a) >= uint(GamepadAxes) {
		return
	}
	s.Gamepads[pad].Connected = true
	s.Gamepads[pad].Axes[a] = v
}
