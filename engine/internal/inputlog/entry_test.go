package inputlog

import (
	"math"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/fixedstep/fixedstep/engine/input"
)

// randomInput returns an input state that differs from prev at random:
// keys held and let go, edges that are not the derived ones (a key pressed
// and released between two ticks), the cursor moved by whole pixels or to
// a fraction, the wheel, mouse buttons, gamepads and their axes (-0 too).
func randomInput(r *rand.Rand, prev *input.State) input.State {
	s := *prev
	s.ClearEdges()
	for range r.IntN(4) {
		k := input.Key(r.IntN(int(input.KeyMax) + 1))
		s.SetKey(k, !s.KeyDown(k))
	}
	s.DeriveEdges(prev)
	if r.IntN(3) == 0 {
		k := input.Key(r.IntN(int(input.KeyMax) + 1))
		s.KeysPressed.Set(k, true)
		s.KeysReleased.Set(k, true)
	}
	switch r.IntN(3) {
	case 0:
		s.CursorX, s.CursorY = float64(r.IntN(2000)-1000), float64(r.IntN(2000)-1000)
	case 1:
		s.CursorX, s.CursorY = r.Float64()*100, -r.Float64()*100
	}
	if r.IntN(3) == 0 {
		s.WheelX, s.WheelY = r.Float64()-0.5, math.Copysign(0, -1)
	}
	s.Mouse = uint8(r.IntN(32))
	s.MousePressed, s.MouseReleased = s.Mouse&^prev.Mouse, prev.Mouse&^s.Mouse
	if r.IntN(4) == 0 {
		s.MousePressed |= 1 << r.IntN(5)
	}
	pad := r.IntN(input.MaxGamepads)
	s.SetGamepadButton(pad, input.GamepadButton(r.IntN(int(input.GamepadButtonMax)+1)), r.IntN(2) == 0)
	s.SetGamepadAxis(pad, input.GamepadAxis(r.IntN(input.GamepadAxes)), r.Float64()*2-1)
	if r.IntN(5) == 0 {
		s.Gamepads[pad].Connected = false
	}
	p, q := &s.Gamepads[pad], &prev.Gamepads[pad]
	p.Pressed, p.Released = p.Down&^q.Down, q.Down&^p.Down
	if r.IntN(4) == 0 {
		p.Released |= 1 << r.IntN(int(input.GamepadButtonMax)+1)
	}
	return s
}

// An entry decodes to exactly the input it encodes, from the held state
// before it; checking it walks to the same end as decoding; any cut of it
// is refused, never decoded past its end.
func TestEntryRoundTrip(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	var held input.State
	for i := range 2000 {
		cur := randomInput(r, &held)
		b := AppendEntry(nil, 1, &held, &cur)
		step, n := uvarint(b)
		if step != 1 {
			t.Fatalf("entry %d: step %d", i, step)
		}
		var got input.State
		end, err := ReadEntry(b, n, &held, &got)
		if err != nil || end != len(b) {
			t.Fatalf("entry %d: decoded to byte %d of %d: %v", i, end, len(b), err)
		}
		if !got.Same(&cur) {
			t.Fatalf("entry %d: decoded\n%+v\nwant\n%+v", i, got, cur)
		}
		if end, err := ReadEntry(b, n, nil, nil); err != nil || end != len(b) {
			t.Fatalf("entry %d: checked to byte %d of %d: %v", i, end, len(b), err)
		}
		for cut := n; cut < len(b); cut++ {
			if _, err := ReadEntry(b[:cut], n, nil, nil); err == nil {
				t.Fatalf("entry %d cut to %d of %d bytes: no error", i, cut, len(b))
			}
		}
		held = cur
		held.ClearEdges()
	}
}

// An entry naming what no device has is refused, saying what: a key past
// KeyMax, mouse buttons past MouseButtonMax, a gamepad, its button or axis
// past the last, an unknown op, an entry cut short.
func TestEntryOfNoDeviceRefused(t *testing.T) {
	cases := map[string][]byte{
		"bad key":            {opKey, byte(input.KeyMax) + 1, opEnd},
		"bad mouse buttons":  {opMouse, 1 << (input.MouseButtonMax + 1), opEnd},
		"bad mouse buttons ": {opMouseEdges, 1, 1 << (input.MouseButtonMax + 1), opEnd},
		"bad gamepad":        {opPad, input.MaxGamepads, opEnd},
		"bad gamepad axis":   {opPadAxis, 0, byte(input.GamepadAxes), 0, 0, 0, 0, 0, 0, 0, 0, opEnd},
		"unknown input op":   {opCount, opEnd},
		"runs past":          {opMouse},
	}
	for want, entry := range cases {
		var held, out input.State
		if _, err := ReadEntry(entry, 0, &held, &out); err == nil || !strings.Contains(err.Error(), strings.TrimSpace(want)) {
			t.Errorf("% x: %v, want an error saying %q", entry, err, want)
		}
	}
}
