package engine

import "github.com/hajimehoshi/ebiten/v2"

// Sizes of the input state: the gamepads it holds (more are ignored), the
// axes of a gamepad in the standard layout, and the 64-bit words of a
// KeySet (one bit per ebiten.Key).
const (
	MaxGamepads     = 4
	GamepadAxes     = int(ebiten.StandardGamepadAxisMax) + 1
	KeySetWords     = (int(ebiten.KeyMax) + 64) / 64
	gamepadButtons  = int(ebiten.StandardGamepadButtonMax) + 1
	maxKey          = int(ebiten.KeyMax)
	mouseButtonsMax = int(ebiten.MouseButtonMax) + 1
)

// KeySet is a set of keys, one bit per [ebiten.Key]. Its zero value is empty.
type KeySet [KeySetWords]uint64

func (s *KeySet) has(k ebiten.Key) bool {
	return uint(k) <= uint(ebiten.KeyMax) && s[k/64]&(1<<(k%64)) != 0
}

func (s *KeySet) set(k ebiten.Key, on bool) {
	if uint(k) > uint(ebiten.KeyMax) {
		return
	}
	if on {
		s[k/64] |= 1 << (k % 64)
	} else {
		s[k/64] &^= 1 << (k % 64)
	}
}

// Gamepad is one gamepad in the standard layout, in [InputState].
type Gamepad struct {
	Connected               bool
	Down, Pressed, Released uint32 // one bit per ebiten.StandardGamepadButton
	Axes                    [GamepadAxes]float64
}

// InputState is what the player does, as a plain value: keys, mouse and
// gamepads held down, and the edges (pressed, released) since the previous
// sample. It has no pointers, so copying, comparing (==) and recording it are
// cheap and allocation-free.
//
// In an [Input] event it is the frame's sample, with edges since the previous
// frame. In an [Update] event it is what that tick of that group sees: the
// latest held state, and every press and release since that group's previous
// tick. A press is therefore seen by exactly one tick of each group, even when
// a frame runs no tick or several.
type InputState struct {
	Keys, KeysPressed, KeysReleased KeySet

	CursorX, CursorY                   float64
	Mouse, MousePressed, MouseReleased uint8 // one bit per ebiten.MouseButton
	WheelX, WheelY                     float64

	Gamepads [MaxGamepads]Gamepad
}

// KeyDown reports whether k is held.
func (in *InputState) KeyDown(k ebiten.Key) bool { return in.Keys.has(k) }

// KeyPressed reports whether k went down since the previous sample (Input) or
// the group's previous tick (Update).
func (in *InputState) KeyPressed(k ebiten.Key) bool { return in.KeysPressed.has(k) }

// KeyReleased reports whether k went up, with the same window as KeyPressed.
func (in *InputState) KeyReleased(k ebiten.Key) bool { return in.KeysReleased.has(k) }

// MouseDown reports whether mouse button b is held.
func (in *InputState) MouseDown(b ebiten.MouseButton) bool { return bit8(in.Mouse, int(b)) }

// MouseJustPressed reports whether b went down, with the same window as KeyPressed.
func (in *InputState) MouseJustPressed(b ebiten.MouseButton) bool {
	return bit8(in.MousePressed, int(b))
}

// GamepadDown reports whether button b of gamepad slot pad (0..MaxGamepads-1) is held.
func (in *InputState) GamepadDown(pad int, b ebiten.StandardGamepadButton) bool {
	return uint(pad) < MaxGamepads && bit32(in.Gamepads[pad].Down, int(b))
}

// GamepadPressed reports whether button b of pad went down, with the same
// window as KeyPressed.
func (in *InputState) GamepadPressed(pad int, b ebiten.StandardGamepadButton) bool {
	return uint(pad) < MaxGamepads && bit32(in.Gamepads[pad].Pressed, int(b))
}

// GamepadAxis returns axis a of pad in [-1, 1], 0 for a pad that is not there.
func (in *InputState) GamepadAxis(pad int, a ebiten.StandardGamepadAxis) float64 {
	if uint(pad) >= MaxGamepads || uint(a) >= uint(GamepadAxes) {
		return 0
	}
	return in.Gamepads[pad].Axes[a]
}

// SetKey sets whether k is held. Input sources call it; edges are derived by the loop.
func (in *InputState) SetKey(k ebiten.Key, down bool) { in.Keys.set(k, down) }

// SetMouseButton sets whether mouse button b is held.
func (in *InputState) SetMouseButton(b ebiten.MouseButton, down bool) {
	if uint(b) < uint(mouseButtonsMax) {
		in.Mouse = setBit8(in.Mouse, int(b), down)
	}
}

// SetGamepadButton sets whether button b of pad is held, and marks the pad connected.
func (in *InputState) SetGamepadButton(pad int, b ebiten.StandardGamepadButton, down bool) {
	if uint(pad) >= MaxGamepads || uint(b) >= uint(gamepadButtons) {
		return
	}
	p := &in.Gamepads[pad]
	p.Connected = true
	if down {
		p.Down |= 1 << b
	} else {
		p.Down &^= 1 << b
	}
}

// SetGamepadAxis sets axis a of pad, and marks the pad connected.
func (in *InputState) SetGamepadAxis(pad int, a ebiten.StandardGamepadAxis, v float64) {
	if uint(pad) >= MaxGamepads || uint(a) >= uint(GamepadAxes) {
		return
	}
	in.Gamepads[pad].Connected = true
	in.Gamepads[pad].Axes[a] = v
}

// An InputSource fills in what is held down at the start of each frame: the
// devices in a window, a seeded autopilot or a script in headless runs. It sets
// held state only (SetKey, SetMouseButton, cursor, wheel, gamepads); the loop
// derives the edges. in arrives cleared. Sample must not allocate if the
// frame is to stay allocation-free.
type InputSource interface {
	Sample(frame int64, in *InputState)
}

// InputFunc adapts a function to an [InputSource].
type InputFunc func(frame int64, in *InputState)

// Sample calls f.
func (f InputFunc) Sample(frame int64, in *InputState) { f(frame, in) }

// deriveEdges sets the edges of cur from the held state of prev.
func deriveEdges(cur, prev *InputState) {
	for i := range cur.Keys {
		cur.KeysPressed[i] = cur.Keys[i] &^ prev.Keys[i]
		cur.KeysReleased[i] = prev.Keys[i] &^ cur.Keys[i]
	}
	cur.MousePressed = cur.Mouse &^ prev.Mouse
	cur.MouseReleased = prev.Mouse &^ cur.Mouse
	for i := range cur.Gamepads {
		c, p := &cur.Gamepads[i], &prev.Gamepads[i]
		c.Pressed = c.Down &^ p.Down
		c.Released = p.Down &^ c.Down
	}
}

// accumulate adds the edges and wheel motion of sample to pending, which
// collects them for one group until its next tick, and copies the held state.
func accumulate(pending, sample *InputState) {
	for i := range pending.Keys {
		pending.Keys[i] = sample.Keys[i]
		pending.KeysPressed[i] |= sample.KeysPressed[i]
		pending.KeysReleased[i] |= sample.KeysReleased[i]
	}
	pending.CursorX, pending.CursorY = sample.CursorX, sample.CursorY
	pending.Mouse = sample.Mouse
	pending.MousePressed |= sample.MousePressed
	pending.MouseReleased |= sample.MouseReleased
	pending.WheelX += sample.WheelX
	pending.WheelY += sample.WheelY
	for i := range pending.Gamepads {
		p, s := &pending.Gamepads[i], &sample.Gamepads[i]
		p.Connected = s.Connected
		p.Down = s.Down
		p.Pressed |= s.Pressed
		p.Released |= s.Released
		p.Axes = s.Axes
	}
}

// addEdges adds the edges of from to in.
func addEdges(in, from *InputState) {
	for i := range in.Keys {
		in.KeysPressed[i] |= from.KeysPressed[i]
		in.KeysReleased[i] |= from.KeysReleased[i]
	}
	in.MousePressed |= from.MousePressed
	in.MouseReleased |= from.MouseReleased
	for i := range in.Gamepads {
		in.Gamepads[i].Pressed |= from.Gamepads[i].Pressed
		in.Gamepads[i].Released |= from.Gamepads[i].Released
	}
}

// clearEdges forgets the edges and wheel motion of in, keeping what is held.
func clearEdges(in *InputState) {
	in.KeysPressed, in.KeysReleased = KeySet{}, KeySet{}
	in.MousePressed, in.MouseReleased = 0, 0
	in.WheelX, in.WheelY = 0, 0
	for i := range in.Gamepads {
		in.Gamepads[i].Pressed, in.Gamepads[i].Released = 0, 0
	}
}

func bit8(v uint8, i int) bool   { return uint(i) < 8 && v&(1<<i) != 0 }
func bit32(v uint32, i int) bool { return uint(i) < 32 && v&(1<<i) != 0 }

func setBit8(v uint8, i int, on bool) uint8 {
	if on {
		return v | 1<<i
	}
	return v &^ (1 << i)
}
