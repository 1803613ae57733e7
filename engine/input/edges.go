package input

import "math"

// The edges of a State (pressed, released) are derived from the held state
// of two samples; these are the operations the loop and the recording
// codec build on, for input sources and tests as well. None allocates.

// DeriveEdges sets s's edges from its held state and prev's: pressed is
// held now and not before, released the other way round.
func (s *State) DeriveEdges(prev *State) {
	for i := range s.Keys {
		s.KeysPressed[i] = s.Keys[i] &^ prev.Keys[i]
		s.KeysReleased[i] = prev.Keys[i] &^ s.Keys[i]
	}
	s.MousePressed = s.Mouse &^ prev.Mouse
	s.MouseReleased = prev.Mouse &^ s.Mouse
	for i := range s.Gamepads {
		c, p := &s.Gamepads[i], &prev.Gamepads[i]
		c.Pressed = c.Down &^ p.Down
		c.Released = p.Down &^ c.Down
	}
}

// Accumulate adds the edges and wheel motion of sample to s, which
// collects them until they are delivered (a group's next tick), and copies
// sample's held state.
func (s *State) Accumulate(sample *State) {
	for i := range s.Keys {
		s.Keys[i] = sample.Keys[i]
		s.KeysPressed[i] |= sample.KeysPressed[i]
		s.KeysReleased[i] |= sample.KeysReleased[i]
	}
	s.CursorX, s.CursorY = sample.CursorX, sample.CursorY
	s.Mouse = sample.Mouse
	s.MousePressed |= sample.MousePressed
	s.MouseReleased |= sample.MouseReleased
	s.WheelX += sample.WheelX
	s.WheelY += sample.WheelY
	for i := range s.Gamepads {
		p, q := &s.Gamepads[i], &sample.Gamepads[i]
		p.Connected = q.Connected
		p.Down = q.Down
		p.Pressed |= q.Pressed
		p.Released |= q.Released
		p.Axes = q.Axes
	}
}

// AddEdges adds the edges of from to s.
func (s *State) AddEdges(from *State) {
	for i := range s.Keys {
		s.KeysPressed[i] |= from.KeysPressed[i]
		s.KeysReleased[i] |= from.KeysReleased[i]
	}
	s.MousePressed |= from.MousePressed
	s.MouseReleased |= from.MouseReleased
	for i := range s.Gamepads {
		s.Gamepads[i].Pressed |= from.Gamepads[i].Pressed
		s.Gamepads[i].Released |= from.Gamepads[i].Released
	}
}

// ClearEdges forgets s's edges and wheel motion, keeping what is held.
func (s *State) ClearEdges() {
	s.KeysPressed, s.KeysReleased = KeySet{}, KeySet{}
	s.MousePressed, s.MouseReleased = 0, 0
	s.WheelX, s.WheelY = 0, 0
	for i := range s.Gamepads {
		s.Gamepads[i].Pressed, s.Gamepads[i].Released = 0, 0
	}
}

// Same reports whether s and o are the same input, floats compared by
// their bits (so that a -0 axis is told from a +0 one, and a NaN from
// itself is not a change), where == would call two NaNs different.
func (s *State) Same(o *State) bool {
	if s.Keys != o.Keys || s.KeysPressed != o.KeysPressed || s.KeysReleased != o.KeysReleased ||
		!sameFloat(s.CursorX, o.CursorX) || !sameFloat(s.CursorY, o.CursorY) ||
		s.Mouse != o.Mouse || s.MousePressed != o.MousePressed || s.MouseReleased != o.MouseReleased ||
		!sameFloat(s.WheelX, o.WheelX) || !sameFloat(s.WheelY, o.WheelY) {
		return false
	}
	for i := range s.Gamepads {
		p, q := &s.Gamepads[i], &o.Gamepads[i]
		if p.Connected != q.Connected || p.Down != q.Down || p.Pressed != q.Pressed || p.Released != q.Released {
			return false
		}
		for j := range p.Axes {
			if !sameFloat(p.Axes[j], q.Axes[j]) {
				return false
			}
		}
	}
	return true
}

func sameFloat(a, b float64) bool { return math.Float64bits(a) == math.Float64bits(b) }

func bit8(v uint8, i int) bool   { return uint(i) < 8 && v&(1<<i) != 0 }
func bit32(v uint32, i int) bool { return uint(i) < 32 && v&(1<<i) != 0 }

func setBit8(v uint8, i int, on bool) uint8 {
	if on {
		return v | 1<<i
	}
	return v &^ (1 << i)
}

// Possible reports whether a device could give s: its cursor and wheel
// finite, each gamepad axis within [-1, 1]. Input from outside (a peer's
// packet, a server's message) that is not is refused, since a simulation
// fed a NaN or an axis of 1e300 computes what no player could make it.
func (s *State) Possible() bool {
	finite := func(v float64) bool { return v-v == 0 }
	if !finite(s.CursorX) || !finite(s.CursorY) || !finite(s.WheelX) || !finite(s.WheelY) {
		return false
	}
	for i := range s.Gamepads {
		for _, a := range s.Gamepads[i].Axes {
			if !(a >= -1 && a <= 1) {
				return false
			}
		}
	}
	return true
}
