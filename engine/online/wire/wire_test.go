package wire_test

import (
	"bytes"
	"encoding/binary"
	"errors"
	"math"
	"math/rand/v2"
	"testing"

	"github.com/fixedstep/fixedstep/engine/input"
	"github.com/fixedstep/fixedstep/engine/online/wire"
)

// randomState returns a state with a random few of every field set, edges
// included.
func randomState(r *rand.Rand) input.State {
	var s input.State
	for range r.IntN(4) {
		s.SetKey(input.Key(r.IntN(int(input.KeyMax)+1)), true)
		s.KeysPressed.Set(input.Key(r.IntN(int(input.KeyMax)+1)), true)
		s.KeysReleased.Set(input.Key(r.IntN(int(input.KeyMax)+1)), true)
	}
	if r.IntN(2) == 0 {
		s.CursorX, s.CursorY = r.Float64()*800, math.Copysign(0, -1)
	}
	if r.IntN(2) == 0 {
		s.SetMouseButton(input.MouseButton(r.IntN(int(input.MouseButtonMax)+1)), true)
		s.MousePressed = 1 << r.IntN(int(input.MouseButtonMax)+1)
	}
	if r.IntN(3) == 0 {
		s.WheelY = r.Float64()*4 - 2
	}
	for range r.IntN(3) {
		pad := r.IntN(input.MaxGamepads)
		s.SetGamepadButton(pad, input.GamepadButton(r.IntN(int(input.GamepadButtonMax)+1)), true)
		s.SetGamepadAxis(pad, input.GamepadAxis(r.IntN(input.GamepadAxes)), r.Float64()*2-1)
		s.Gamepads[pad].Released = 1 << r.IntN(int(input.GamepadButtonMax)+1)
	}
	return s
}

// A state encodes and decodes to the same state (floats by their bits),
// edges and all; an input message keeps the held part and the tick.
func TestStateRoundTrips(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	for i := range 2000 {
		s := randomState(r)
		b := wire.AppendState(nil, &s)
		var got input.State
		if err := wire.DecodeState(b, &got); err != nil || !got.Same(&s) {
			t.Fatalf("state %d: %v\n got %+v\nwant %+v", i, err, got, s)
		}
		tick := int64(r.IntN(1e6) + 1)
		msg := wire.AppendInput(nil, tick, &s)
		held := s
		held.ClearEdges()
		held.WheelX, held.WheelY = s.WheelX, s.WheelY // the wheel's motion is part of a held input
		gotTick, err := wire.DecodeInput(msg, &got)
		if err != nil || gotTick != tick || !got.Same(&held) {
			t.Fatalf("input %d: tick %d, %v\n got %+v\nwant %+v", i, gotTick, err, got, held)
		}
		if len(msg) > wire.MaxInput {
			t.Fatalf("input %d: %d bytes, over MaxInput", i, len(msg))
		}
	}
}

// The longest held state there is, with the largest tick, fits in
// MaxInput.
func TestLongestInputFits(t *testing.T) {
	var s input.State
	for k := input.Key(0); k <= input.KeyMax; k++ {
		s.SetKey(k, true)
	}
	s.CursorX, s.CursorY, s.WheelX, s.WheelY = 1, 1, 1, 1
	s.Mouse = 0xff >> (7 - input.MouseButtonMax)
	for p := range s.Gamepads {
		for b := input.GamepadButton(0); b <= input.GamepadButtonMax; b++ {
			s.SetGamepadButton(p, b, true)
		}
		for a := range input.GamepadAxes {
			s.SetGamepadAxis(p, input.GamepadAxis(a), -1)
		}
	}
	msg := wire.AppendInput(nil, math.MaxInt64/2, &s)
	if len(msg) > wire.MaxInput {
		t.Fatalf("the longest input is %d bytes, over MaxInput %d", len(msg), wire.MaxInput)
	}
	var got input.State
	if _, err := wire.DecodeInput(msg, &got); err != nil || !got.Same(&s) {
		t.Fatalf("the longest input: %v", err)
	}
	t.Logf("the longest input message: %d bytes", len(msg))
}

// What no client of ours sends and no device gives is refused, by name.
func TestBadInputsRefused(t *testing.T) {
	var stick input.State
	stick.SetGamepadAxis(0, input.AxisLeftStickHorizontal, 0.5)
	good := wire.AppendInput(nil, 9, &stick)
	axisAt := len(good) - 9 // the axis's float is last, before the end op
	withAxis := func(v float64) []byte {
		b := bytes.Clone(good)
		for i := range 8 {
			b[axisAt+i] = byte(math.Float64bits(v) >> (8 * i))
		}
		return b
	}
	var pressed input.State // a press of a key not held: no device's
	pressed.KeysPressed.Set(input.KeySpace, true)
	pressedMsg := []byte{9}
	pressedMsg = wire.AppendState(pressedMsg, &pressed)
	var released input.State // a key held and not pressed: from no input, its press is derived
	released.SetKey(input.KeySpace, true)
	releasedMsg := wire.AppendState([]byte{9}, &released)
	var wheel, cursor input.State
	wheel.WheelX = 1.7e308 // finite, but two of them summed are not
	cursor.CursorX, cursor.CursorY = 10, -2e7
	cases := []struct {
		name string
		msg  []byte
		want error
	}{
		{"a wheel past MaxWheel", wire.AppendInput(nil, 9, &wheel), wire.ErrMalformed},
		{"a cursor past MaxCursor", wire.AppendInput(nil, 9, &cursor), wire.ErrMalformed},
		{"empty", nil, wire.ErrMalformed},
		{"tick 0", wire.AppendInput(nil, 0, &stick), wire.ErrMalformed},
		{"cut short", good[:len(good)-1], wire.ErrMalformed},
		{"a byte left over", append(bytes.Clone(good), 0), wire.ErrMalformed},
		{"NaN axis", withAxis(math.NaN()), wire.ErrMalformed},
		{"infinite axis", withAxis(math.Inf(1)), wire.ErrMalformed},
		{"axis past 1", withAxis(1.5), wire.ErrMalformed},
		{"unknown op", []byte{9, 0x80, 0}, wire.ErrMalformed},
		{"no end op", []byte{9}, wire.ErrMalformed},
		{"key past KeyMax", append(binary.AppendUvarint([]byte{9, 1}, uint64(input.KeyMax)+1), 0), wire.ErrMalformed},
		{"mouse button past MouseButtonMax", []byte{9, 6, 1 << (input.MouseButtonMax + 1), 0}, wire.ErrMalformed},
		{"a press (the server derives them)", pressedMsg, wire.ErrNotHeld},
		{"a held key's press cancelled", releasedMsg, wire.ErrNotHeld},
		{"oversized", append(bytes.Clone(good), make([]byte, wire.MaxInput)...), wire.ErrOversized},
	}
	for _, c := range cases {
		var s input.State
		if _, err := wire.DecodeInput(c.msg, &s); !errors.Is(err, c.want) {
			t.Errorf("%s: %v, want %v", c.name, err, c.want)
		}
		if s != (input.State{}) {
			t.Errorf("%s: the refused message left %+v", c.name, s)
		}
	}
	if _, err := wire.DecodeInput(good, new(input.State)); err != nil {
		t.Fatalf("the good message: %v", err)
	}
}

// A tick message carries the inputs that changed; decoding it onto the
// tick before's inputs gives the tick's.
func TestTickCarriesChanges(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 4))
	prev := make([]input.State, 3)
	have := make([]input.State, 3)
	for tick := int64(1); tick <= 500; tick++ {
		in := make([]input.State, 3)
		copy(in, prev)
		in[r.IntN(3)] = randomState(r)
		msg := wire.AppendTick(nil, tick, uint64(tick)*77, in, prev)
		gotTick, sum, err := wire.DecodeTick(msg, have)
		if err != nil || gotTick != tick || sum != uint64(tick)*77 {
			t.Fatalf("tick %d: %d %x %v", tick, gotTick, sum, err)
		}
		for p := range in {
			if !have[p].Same(&in[p]) {
				t.Fatalf("tick %d, player %d: %+v, want %+v", tick, p, have[p], in[p])
			}
		}
		prev = in
	}
	unchanged := wire.AppendTick(nil, 1, 0, prev, prev)
	if len(unchanged) != 1+8+1 {
		t.Errorf("a tick with no change is %d bytes, want 10", len(unchanged))
	}
	if _, _, err := wire.DecodeTick([]byte{1, 0, 0, 0, 0, 0, 0, 0, 0, 0x08}, have); !errors.Is(err, wire.ErrMalformed) {
		t.Errorf("a tick naming player 4 of 3: %v", err)
	}
}

// FuzzDecodeInput: no input message crashes the decoder; what it takes
// encodes back to a message that decodes to the same. It starts from the
// input messages of a scripted match (match) and random states'.
func FuzzDecodeInput(f *testing.F) {
	inputs, _, _ := match(f) // a scripted match's input messages
	for _, m := range inputs[:90] {
		f.Add(m)
	}
	r := rand.New(rand.NewPCG(5, 6))
	for range 8 {
		s := randomState(r)
		f.Add(wire.AppendInput(nil, int64(r.IntN(1000)+1), &s))
	}
	f.Add([]byte{1, 0xff, 0xff})
	f.Fuzz(func(t *testing.T, b []byte) {
		var s input.State
		tick, err := wire.DecodeInput(b, &s)
		if err != nil {
			return
		}
		var again input.State
		tick2, err := wire.DecodeInput(wire.AppendInput(nil, tick, &s), &again)
		if err != nil || tick2 != tick || !again.Same(&s) {
			t.Fatalf("re-encoded: %d %v", tick2, err)
		}
	})
}

// A history gives back its tick messages in order, and refuses one cut
// short.
func TestHistory(t *testing.T) {
	in, prev := make([]input.State, 2), make([]input.State, 2)
	var h []byte
	var msgs [][]byte
	for tick := int64(1); tick <= 100; tick++ {
		in[tick%2].SetKey(input.KeyArrowLeft, tick%3 == 0)
		msg := wire.AppendTick(nil, tick, uint64(tick)*7, in, prev)
		copy(prev, in)
		msgs = append(msgs, msg)
		h = wire.AppendHistory(h, msg)
	}
	rest := h
	for i, want := range msgs {
		got, after, err := wire.SplitHistory(rest)
		if err != nil || !bytes.Equal(got, want) {
			t.Fatalf("tick message %d: %x, %v; want %x", i+1, got, err, want)
		}
		rest = after
	}
	if len(rest) != 0 {
		t.Fatalf("%d bytes left over", len(rest))
	}
	last := h[len(h)-len(msgs[99])-1:] // its length, a byte, and the message
	if _, _, err := wire.SplitHistory(last[:len(last)-1]); !errors.Is(err, wire.ErrMalformed) {
		t.Errorf("a history cut short: %v, want ErrMalformed", err)
	}
}

// A tick message decoded onto more players than a match has (input.
// MaxPlayers) is refused: bit 4 of changed named a fifth player, past the
// decoder's four.
func TestTickOfTooManyPlayers(t *testing.T) {
	var s input.State
	s.SetKey(input.KeySpace, true)
	in, prev := make([]input.State, 5), make([]input.State, 5)
	in[4] = s
	msg := wire.AppendTick(nil, 1, 7, in, prev)
	if _, _, err := wire.DecodeTick(msg, make([]input.State, 5)); !errors.Is(err, wire.ErrMalformed) {
		t.Errorf("five players: %v, want ErrMalformed", err)
	}
	four := wire.AppendTick(nil, 1, 7, in[1:], prev[1:])
	players := make([]input.State, 4)
	if _, _, err := wire.DecodeTick(four, players); err != nil || !players[3].Same(&s) {
		t.Errorf("four players: %v, %+v", err, players[3])
	}
}

// match returns the messages of a scripted match of three players over
// 300 ticks, made as a client and a server make them: each client's held
// input (sticks swept, keys held and let go, the mouse clicked about the
// screen, the wheel turned) as input messages (AppendInput); the server's
// tick messages (AppendTick) of what it took from them (DecodeInput) with
// the presses and releases since the tick before (DeriveEdges); and the
// history a player who came back at tick 200 is sent (AppendHistory).
func match(tb testing.TB) (inputs, ticks [][]byte, history []byte) {
	const players = 3
	in, prev := make([]input.State, players), make([]input.State, players)
	for tick := int64(1); tick <= 300; tick++ {
		for p := range players {
			var held input.State
			held.SetGamepadAxis(0, input.AxisLeftStickHorizontal, math.Sin(float64(tick*int64(p+1))/30))
			held.SetGamepadAxis(0, input.AxisLeftStickVertical, math.Cos(float64(tick)/45))
			held.Gamepads[0].Connected = p != 2
			held.SetGamepadButton(0, input.GamepadButton(p), (tick/20)%2 == 0)
			held.SetKey(input.KeyArrowLeft+input.Key(p), (tick/(15+int64(p)))%3 == 0)
			held.SetKey(input.KeySpace, tick%37 == int64(p))
			if p == 1 {
				held.CursorX, held.CursorY = float64(tick*3%640), float64(tick*7%360)
				held.SetMouseButton(input.MouseButtonLeft, tick%50 < 4)
				if tick%25 == 0 {
					held.WheelY = -1
				}
			}
			msg := wire.AppendInput(nil, tick+2, &held)
			var took input.State
			if _, err := wire.DecodeInput(msg, &took); err != nil {
				tb.Fatal(err)
			}
			inputs = append(inputs, msg)
			in[p] = took
			in[p].DeriveEdges(&prev[p])
		}
		msg := wire.AppendTick(nil, tick, uint64(tick)*0x9e3779b97f4a7c15, in, prev)
		ticks = append(ticks, msg)
		if tick <= 200 {
			history = wire.AppendHistory(history, msg)
		}
		copy(prev, in)
	}
	return inputs, ticks, history
}

// FuzzDecodeTick feeds a client arbitrary tick messages and histories, of
// a match of three players: no message crashes the decoder; one it takes
// encodes back, onto the inputs before it, to a message that decodes to
// the same inputs. It starts from the messages of a scripted match
// (match): its tick messages, its history, pieces of the history.
func FuzzDecodeTick(f *testing.F) {
	_, ticks, history := match(f)
	for _, m := range ticks[:60] {
		f.Add(m)
	}
	f.Add(history)
	f.Add(history[:len(history)/3])
	f.Fuzz(func(t *testing.T, b []byte) {
		check := func(msg []byte, players []input.State) bool {
			before := append([]input.State(nil), players...)
			tick, sum, err := wire.DecodeTick(msg, players)
			if err != nil {
				return false
			}
			again := append([]input.State(nil), before...)
			tick2, sum2, err := wire.DecodeTick(wire.AppendTick(nil, tick, sum, players, before), again)
			if err != nil || tick2 != tick || sum2 != sum {
				t.Fatalf("re-encoded: tick %d, %x, %v", tick2, sum2, err)
			}
			for p := range players {
				if !again[p].Same(&players[p]) {
					t.Fatalf("re-encoded: player %d differs", p)
				}
			}
			return true
		}
		check(b, make([]input.State, 3))
		players := make([]input.State, 3)
		for rest, n := b, 0; len(rest) > 0 && n < 1000; n++ {
			msg, after, err := wire.SplitHistory(rest)
			if err != nil || !check(msg, players) {
				break
			}
			rest = after
		}
	})
}
