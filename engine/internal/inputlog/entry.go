package inputlog

import (
	"encoding/binary"
	"errors"
	"fmt"
	"math"
	"math/bits"

	"github.com/fixedstep/fixedstep/engine/input"
)

// Entry ops.
const (
	opEnd         byte = iota
	opKey              // uvarint key: the key's held state flips
	opKeyPressed       // uvarint key: its pressed edge is not the derived one
	opKeyReleased      // uvarint key: its released edge is not the derived one
	opCursor           // zigzag varints dx, dy: the cursor moved by whole pixels
	opCursorAt         // f64 x, y: the cursor is there
	opMouse            // u8: the mouse buttons held
	opMouseEdges       // u8, u8: pressed and released edges XOR the derived ones
	opWheel            // f64 x, y: this tick's wheel motion
	opPad              // u8 pad: the pad's Connected flips
	opPadButtons       // u8 pad, uvarint: held buttons XOR the previous ones
	opPadEdges         // u8 pad, uvarint, uvarint: pressed and released XOR the derived ones
	opPadAxis          // u8 pad, u8 axis, f64: the axis's value
	opCount
)

// AppendEntry appends the entry of a tick `step` ticks after the group's
// previous entry, whose input cur differs from prev's held state: the
// step, then AppendEntryOps'.
func AppendEntry(b []byte, step int64, prev, cur *input.State) []byte {
	return AppendEntryOps(binary.AppendUvarint(b, uint64(step)), prev, cur)
}

// AppendEntryOps appends the ops of an entry, which change prev's held
// state into cur, and the end op: what ReadEntry reads.
func AppendEntryOps(b []byte, prev, cur *input.State) []byte {
	for w := range cur.Keys {
		b = appendKeyOps(b, opKey, w, prev.Keys[w]^cur.Keys[w])
		b = appendKeyOps(b, opKeyPressed, w, cur.KeysPressed[w]^(cur.Keys[w]&^prev.Keys[w]))
		b = appendKeyOps(b, opKeyReleased, w, cur.KeysReleased[w]^(prev.Keys[w]&^cur.Keys[w]))
	}
	if !sameFloat(cur.CursorX, prev.CursorX) || !sameFloat(cur.CursorY, prev.CursorY) {
		if whole(cur.CursorX) && whole(cur.CursorY) && whole(prev.CursorX) && whole(prev.CursorY) {
			b = append(b, opCursor)
			b = binary.AppendVarint(b, int64(cur.CursorX)-int64(prev.CursorX))
			b = binary.AppendVarint(b, int64(cur.CursorY)-int64(prev.CursorY))
		} else {
			b = append(b, opCursorAt)
			b = appendF64(b, cur.CursorX)
			b = appendF64(b, cur.CursorY)
		}
	}
	if cur.Mouse != prev.Mouse {
		b = append(b, opMouse, cur.Mouse)
	}
	mp, mr := cur.MousePressed^(cur.Mouse&^prev.Mouse), cur.MouseReleased^(prev.Mouse&^cur.Mouse)
	if mp != 0 || mr != 0 {
		b = append(b, opMouseEdges, mp, mr)
	}
	if math.Float64bits(cur.WheelX) != 0 || math.Float64bits(cur.WheelY) != 0 {
		b = append(b, opWheel)
		b = appendF64(b, cur.WheelX)
		b = appendF64(b, cur.WheelY)
	}
	for i := range cur.Gamepads {
		c, p := &cur.Gamepads[i], &prev.Gamepads[i]
		if c.Connected != p.Connected {
			b = append(b, opPad, byte(i))
		}
		if c.Down != p.Down {
			b = append(b, opPadButtons, byte(i))
			b = binary.AppendUvarint(b, uint64(c.Down^p.Down))
		}
		pp, pr := c.Pressed^(c.Down&^p.Down), c.Released^(p.Down&^c.Down)
		if pp != 0 || pr != 0 {
			b = append(b, opPadEdges, byte(i))
			b = binary.AppendUvarint(b, uint64(pp))
			b = binary.AppendUvarint(b, uint64(pr))
		}
		for a, v := range c.Axes {
			if !sameFloat(v, p.Axes[a]) {
				b = append(b, opPadAxis, byte(i), byte(a))
				b = appendF64(b, v)
			}
		}
	}
	return append(b, opEnd)
}

// appendKeyOps appends one op per key whose bit is set in word w of x.
func appendKeyOps(b []byte, op byte, w int, x uint64) []byte {
	for ; x != 0; x &= x - 1 {
		b = append(b, op)
		b = binary.AppendUvarint(b, uint64(w*64+bits.TrailingZeros64(x)))
	}
	return b
}

// ReadEntry walks the entry at data[off:] (after its tick step) and
// returns the offset after it, or an error saying what is wrong and the
// offset where it is. With out set it also decodes the input the entry's
// tick saw into out, given held, the group's held state before it (out is
// meaningless after an error); with out nil it only checks the entry. With
// held nil it walks an entry checked before: a cursor move is not checked
// against the cursor it moves from. The parser checks every entry, with
// its stream's cursor, as it reads a file; a replay decodes entries that
// passed. It allocates nothing but an error.
func ReadEntry(data []byte, off int, held, out *input.State) (int, error) {
	var scratch, zero input.State
	if out == nil {
		out = &scratch
	}
	walk := held == nil
	if walk {
		held = &zero
	}
	*out = *held
	var kp, kr input.KeySet
	var mp, mr uint8
	var pp, pr [input.MaxGamepads]uint32
	need := func(n int) error {
		if len(data)-off < n {
			return errors.New("entry runs past its record")
		}
		return nil
	}
	for {
		if err := need(1); err != nil {
			return off, err
		}
		op := data[off]
		off++
		switch op {
		case opEnd:
			out.DeriveEdges(held)
			for w := range out.Keys {
				out.KeysPressed[w] ^= kp[w]
				out.KeysReleased[w] ^= kr[w]
			}
			out.MousePressed ^= mp
			out.MouseReleased ^= mr
			for i := range out.Gamepads {
				out.Gamepads[i].Pressed ^= pp[i]
				out.Gamepads[i].Released ^= pr[i]
			}
			return off, nil
		case opKey, opKeyPressed, opKeyReleased:
			k, n := binary.Uvarint(data[off:])
			if n <= 0 || k > uint64(input.KeyMax) {
				return off, fmt.Errorf("bad key %d", k)
			}
			off += n
			set := &out.Keys
			if op == opKeyPressed {
				set = &kp
			} else if op == opKeyReleased {
				set = &kr
			}
			set[k/64] ^= 1 << (k % 64)
		case opCursor:
			// A move by whole pixels, which AppendEntry writes only from
			// and to a whole cursor (under 2^52 pixels): from another,
			// converting it to an int64 would give what the CPU gives
			// (amd64 and arm64 differ past int64's range), so it is
			// refused. Walked with no held state, the move is not checked
			// against the cursor it moves from.
			if !walk && (!whole(out.CursorX) || !whole(out.CursorY)) {
				return off, fmt.Errorf("a cursor move from (%v, %v): not a whole number of pixels", out.CursorX, out.CursorY)
			}
			var d [2]int64
			for i := range d {
				v, n := binary.Varint(data[off:])
				if n <= 0 || v <= -1<<53 || v >= 1<<53 {
					return off, errors.New("bad cursor move")
				}
				d[i], off = v, off+n
			}
			x, y := float64(int64(out.CursorX)+d[0]), float64(int64(out.CursorY)+d[1])
			if !walk && (!whole(x) || !whole(y)) {
				return off, fmt.Errorf("a cursor move to (%v, %v): past 2^52 pixels", x, y)
			}
			out.CursorX, out.CursorY = x, y
		case opCursorAt, opWheel:
			if err := need(16); err != nil {
				return off, err
			}
			x, y := f64(data[off:]), f64(data[off+8:])
			if op == opCursorAt {
				out.CursorX, out.CursorY = x, y
			} else {
				out.WheelX, out.WheelY = x, y
			}
			off += 16
		case opMouse:
			if err := need(1); err != nil {
				return off, err
			}
			if data[off] >= 1<<(input.MouseButtonMax+1) {
				return off, fmt.Errorf("bad mouse buttons %#x", data[off])
			}
			out.Mouse = data[off]
			off++
		case opMouseEdges:
			if err := need(2); err != nil {
				return off, err
			}
			mp, mr = data[off], data[off+1]
			if max(mp, mr) >= 1<<(input.MouseButtonMax+1) {
				return off, fmt.Errorf("bad mouse buttons %#x, %#x", mp, mr)
			}
			off += 2
		case opPad, opPadButtons, opPadEdges, opPadAxis:
			if err := need(1); err != nil {
				return off, err
			}
			pad := data[off]
			if pad >= input.MaxGamepads {
				return off, fmt.Errorf("bad gamepad %d", pad)
			}
			off++
			var masks [2]uint32
			n := 0
			switch op {
			case opPadButtons:
				n = 1
			case opPadEdges:
				n = 2
			}
			for i := range n {
				x, k := binary.Uvarint(data[off:])
				if k <= 0 || x >= 1<<(input.GamepadButtonMax+1) {
					return off, fmt.Errorf("bad gamepad buttons %#x", x)
				}
				masks[i], off = uint32(x), off+k
			}
			p := &out.Gamepads[pad]
			switch op {
			case opPad:
				p.Connected = !p.Connected
			case opPadButtons:
				p.Down ^= masks[0]
			case opPadEdges:
				pp[pad], pr[pad] = masks[0], masks[1]
			case opPadAxis:
				if err := need(9); err != nil {
					return off, err
				}
				if int(data[off]) >= input.GamepadAxes {
					return off, fmt.Errorf("bad gamepad axis %d", data[off])
				}
				p.Axes[data[off]] = f64(data[off+1:])
				off += 9
			}
		default:
			return off, fmt.Errorf("unknown input op %d", op)
		}
	}
}
