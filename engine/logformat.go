package engine

import (
	"encoding/binary"
	"errors"
	"fmt"
	"hash/crc32"
	"io"
	"math"
	"math/bits"
	"slices"

	"github.com/fixedstep/fixedstep/engine/input"
	"github.com/fixedstep/fixedstep/engine/internal/rate"
)

// The input log's file format (version 3), little-endian throughout:
//
//	file    = "FSTEPINP" version:u16 chunk*
//	chunk   = n:uvarint payload:n bytes crc:u32
//
// crc is the CRC-32C of the chunk's n and payload, so a damaged byte is
// found and named, never replayed. A recording is written chunk by chunk
// as the game runs; a file whose last chunk is incomplete (a crash, a kill)
// holds the run up to its last whole chunk.
//
// A payload is a sequence of records, each a tag byte and its fields
// (str is a uvarint length and the bytes; ticks are uvarints):
//
//	'R' seed:u64 settings:uvarint (key:str value:str)*   the run (first record)
//	'S' name:str every:uvarint groups:uvarint (name:str hz:f64)*
//	                                            a scene timeline begins
//	'I' group:uvarint entry                    a tick's input changed
//	'C' step:uvarint sum:u64                   a state checksum, step ticks after the last
//	'P' groups:uvarint ticks*                  the timeline ran this far (each chunk ends with one)
//	'E' end:u8 groups:uvarint ticks* err:str   the timeline ended
//	'Z'                                        the run ended: the file is whole
//
// An entry is the uvarint distance in ticks from the group's previous entry,
// then the changes from the previous tick's held state as ops, then 0. A
// tick without an entry holds the same keys, buttons, cursor and axes as
// the tick before, with no edges and no wheel motion. Edges are derived
// from the held state (pressed: held now, not before); only edges that
// differ from the derived ones (a key pressed and released between two
// ticks) are stored. A typical key change costs 6 bytes in all.
const (
	logMagic   = "FSTEPINP"
	logVersion = 3
)

// MaxInputLogSize is the largest input log file read: a larger file is
// refused before it is read whole (a recording of an hour at 60 Hz with a
// checksum every tick is about 2 MB).
const MaxInputLogSize = 256 << 20

// maxSetting bounds a setting's key or value, and a failed scene's error.
const maxSetting = 1 << 16

// Record tags.
const (
	recRun      = 'R'
	recScene    = 'S'
	recInput    = 'I'
	recCheck    = 'C'
	recProgress = 'P'
	recEnd      = 'E'
	recRunEnd   = 'Z'
	recNames    = 'Y' // a group's system names
	recSystems  = 'D' // the state after each system of a tick
	recParts    = 'K' // the parts of the state after a tick
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

var castagnoli = crc32.MakeTable(crc32.Castagnoli)

// appendEntry appends the entry of a tick `step` ticks after the group's
// previous entry, whose input cur differs from prev's held state.
func appendEntry(b []byte, step int64, prev, cur *input.State) []byte {
	b = binary.AppendUvarint(b, uint64(step))
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

// decodeEntry decodes the entry at data[off:] (after its tick step) into
// out, given held, the group's held state before it, and returns the offset
// after it. The entry must have passed checkEntry.
func decodeEntry(data []byte, off int, held, out *input.State) int {
	*out = *held
	var kp, kr input.KeySet
	var mp, mr uint8
	var pp, pr [input.MaxGamepads]uint32
	for {
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
			return off
		case opKey, opKeyPressed, opKeyReleased:
			k, n := uvarint(data[off:])
			off += n
			set := &out.Keys
			if op == opKeyPressed {
				set = &kp
			} else if op == opKeyReleased {
				set = &kr
			}
			set[k/64] ^= 1 << (k % 64)
		case opCursor:
			dx, n := binary.Varint(data[off:])
			off += n
			dy, m := binary.Varint(data[off:])
			off += m
			out.CursorX, out.CursorY = float64(int64(out.CursorX)+dx), float64(int64(out.CursorY)+dy)
		case opCursorAt:
			out.CursorX, out.CursorY = f64(data[off:]), f64(data[off+8:])
			off += 16
		case opMouse:
			out.Mouse = data[off]
			off++
		case opMouseEdges:
			mp, mr = data[off], data[off+1]
			off += 2
		case opWheel:
			out.WheelX, out.WheelY = f64(data[off:]), f64(data[off+8:])
			off += 16
		case opPad:
			out.Gamepads[data[off]].Connected = !out.Gamepads[data[off]].Connected
			off++
		case opPadButtons:
			pad := data[off]
			x, n := uvarint(data[off+1:])
			out.Gamepads[pad].Down ^= uint32(x)
			off += 1 + n
		case opPadEdges:
			pad := data[off]
			x, n := uvarint(data[off+1:])
			y, m := uvarint(data[off+1+n:])
			pp[pad], pr[pad] = uint32(x), uint32(y)
			off += 1 + n + m
		case opPadAxis:
			out.Gamepads[data[off]].Axes[data[off+1]] = f64(data[off+2:])
			off += 10
		}
	}
}

// checkEntry checks the entry at data[off:] (after its tick step) and
// returns the offset after it, or an error saying what is wrong.
func checkEntry(data []byte, off int) (int, error) {
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
		if op >= opCount {
			return off, fmt.Errorf("unknown input op %d", op)
		}
		switch op {
		case opEnd:
			return off, nil
		case opKey, opKeyPressed, opKeyReleased:
			k, n := binary.Uvarint(data[off:])
			if n <= 0 || k > uint64(input.KeyMax) {
				return off, fmt.Errorf("bad key %d", k)
			}
			off += n
		case opCursor:
			for range 2 {
				_, n := binary.Varint(data[off:])
				if n <= 0 {
					return off, errors.New("bad cursor move")
				}
				off += n
			}
		case opCursorAt, opWheel:
			if err := need(16); err != nil {
				return off, err
			}
			off += 16
		case opMouse:
			if err := need(1); err != nil {
				return off, err
			}
			off++
		case opMouseEdges:
			if err := need(2); err != nil {
				return off, err
			}
			off += 2
		case opPad, opPadButtons, opPadEdges, opPadAxis:
			if err := need(1); err != nil {
				return off, err
			}
			if data[off] >= input.MaxGamepads {
				return off, fmt.Errorf("bad gamepad %d", data[off])
			}
			off++
			masks := 0
			switch op {
			case opPadButtons:
				masks = 1
			case opPadEdges:
				masks = 2
			}
			for range masks {
				x, n := binary.Uvarint(data[off:])
				if n <= 0 || x >= 1<<(input.GamepadButtonMax+1) {
					return off, fmt.Errorf("bad gamepad buttons %#x", x)
				}
				off += n
			}
			if op == opPadAxis {
				if err := need(9); err != nil {
					return off, err
				}
				if int(data[off]) >= input.GamepadAxes {
					return off, fmt.Errorf("bad gamepad axis %d", data[off])
				}
				off += 9
			}
		}
	}
}

func sameFloat(a, b float64) bool { return math.Float64bits(a) == math.Float64bits(b) }

// whole reports whether v is a whole number that an int64 holds exactly,
// and not -0.
func whole(v float64) bool {
	return v == math.Trunc(v) && math.Abs(v) < 1<<52 && !(v == 0 && math.Signbit(v))
}

func appendF64(b []byte, v float64) []byte {
	return binary.LittleEndian.AppendUint64(b, math.Float64bits(v))
}

func f64(b []byte) float64 { return math.Float64frombits(binary.LittleEndian.Uint64(b)) }

func uvarint(b []byte) (uint64, int) { return binary.Uvarint(b) }

func appendStr(b []byte, s string) []byte {
	b = binary.AppendUvarint(b, uint64(len(s)))
	return append(b, s...)
}

// Records.

func appendRunRecord(b []byte, lg *InputLog) []byte {
	b = append(b, recRun)
	b = binary.LittleEndian.AppendUint64(b, lg.Seed)
	keys := make([]string, 0, len(lg.Settings))
	for k := range lg.Settings {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	b = binary.AppendUvarint(b, uint64(len(keys)))
	for _, k := range keys {
		b = appendStr(b, k)
		b = appendStr(b, lg.Settings[k])
	}
	return b
}

func appendSceneRecord(b []byte, s *logScene) []byte {
	b = append(b, recScene)
	b = appendStr(b, s.name)
	b = binary.AppendUvarint(b, uint64(s.every))
	b = binary.AppendUvarint(b, uint64(len(s.groups)))
	for _, g := range s.groups {
		b = appendStr(b, g.Name)
		b = appendF64(b, g.Hz)
	}
	return b
}

func appendInputRecord(b []byte, group int, entry []byte) []byte {
	b = append(b, recInput)
	b = binary.AppendUvarint(b, uint64(group))
	return append(b, entry...)
}

func appendCheckRecord(b []byte, step int64, sum uint64) []byte {
	b = append(b, recCheck)
	b = binary.AppendUvarint(b, uint64(step))
	return binary.LittleEndian.AppendUint64(b, sum)
}

func appendTicks(b []byte, ticks []int64) []byte {
	b = binary.AppendUvarint(b, uint64(len(ticks)))
	for _, t := range ticks {
		b = binary.AppendUvarint(b, uint64(t))
	}
	return b
}

func appendProgressRecord(b []byte, ticks []int64) []byte {
	return appendTicks(append(b, recProgress), ticks)
}

func appendEndRecord(b []byte, s *logScene) []byte {
	b = appendTicks(append(b, recEnd, byte(s.end)), s.ticks)
	msg := s.err
	if len(msg) > maxSetting {
		msg = msg[:maxSetting]
	}
	return appendStr(b, msg)
}

func appendNamesRecord(b []byte, group int, from int64, names []string) []byte {
	b = append(b, recNames)
	b = binary.AppendUvarint(b, uint64(group))
	b = binary.AppendUvarint(b, uint64(from))
	b = binary.AppendUvarint(b, uint64(len(names)))
	for _, n := range names {
		b = appendStr(b, n)
	}
	return b
}

func appendSystemsRecord(b []byte, group int, step int64, sums []uint32) []byte {
	b = append(b, recSystems)
	b = binary.AppendUvarint(b, uint64(group))
	b = binary.AppendUvarint(b, uint64(step))
	b = binary.AppendUvarint(b, uint64(len(sums)))
	for _, v := range sums {
		b = binary.LittleEndian.AppendUint32(b, v)
	}
	return b
}

// appendPartsRecord appends tick k of p: its new names, its parts.
func appendPartsRecord(b []byte, step int64, newNames []string, p *partDetail, k int) []byte {
	b = append(b, recParts)
	b = binary.AppendUvarint(b, uint64(step))
	b = binary.AppendUvarint(b, uint64(len(newNames)))
	for _, n := range newNames {
		b = appendStr(b, n)
	}
	b = binary.AppendUvarint(b, uint64(p.start[k+1]-p.start[k]))
	for j := p.start[k]; j < p.start[k+1]; j++ {
		b = binary.AppendUvarint(b, uint64(p.idx[j]))
		b = binary.LittleEndian.AppendUint32(b, p.sums[j])
	}
	return b
}

// appendChunk appends payload framed as a chunk.
func appendChunk(b, payload []byte) []byte {
	start := len(b)
	b = binary.AppendUvarint(b, uint64(len(payload)))
	b = append(b, payload...)
	return binary.LittleEndian.AppendUint32(b, crc32.Checksum(b[start:], castagnoli))
}

// WriteTo writes the whole log in its file format, as one chunk: a log
// recorded to a file by [InputLog.Create] holds the same records in many.
// A setting longer than 64 KiB is an error.
func (lg *InputLog) WriteTo(w io.Writer) (int64, error) {
	b, err := lg.encode()
	if err != nil {
		return 0, err
	}
	n, err := w.Write(b)
	return int64(n), err
}

// encode returns the whole log in its file format.
func (lg *InputLog) encode() ([]byte, error) {
	if err := lg.checkSettings(); err != nil {
		return nil, err
	}
	p := appendRunRecord(nil, lg)
	for i := range lg.scenes {
		s := &lg.scenes[i]
		p = appendSceneRecord(p, s)
		for g, data := range s.input {
			for off := 0; off < len(data); {
				start := off
				_, n := uvarint(data[off:])
				off, _ = checkEntry(data, off+n)
				p = appendInputRecord(p, g, data[start:off])
			}
		}
		var prev int64
		for _, c := range s.checks {
			p = appendCheckRecord(p, c.tick-prev, c.sum)
			prev = c.tick
		}
		for g := range s.sys {
			d := &s.sys[g]
			for _, ns := range d.names {
				p = appendNamesRecord(p, g, ns.from, ns.names)
			}
			prev = 0
			for k, t := range d.ticks {
				p = appendSystemsRecord(p, g, t-prev, d.sums[d.start[k]:d.start[k+1]])
				prev = t
			}
		}
		prev = 0
		named := 0
		for k, t := range s.parts.ticks {
			maxIdx := named
			for j := s.parts.start[k]; j < s.parts.start[k+1]; j++ {
				maxIdx = max(maxIdx, s.parts.idx[j]+1)
			}
			p = appendPartsRecord(p, t-prev, s.parts.names[named:maxIdx], &s.parts, k)
			named, prev = maxIdx, t
		}
		if s.end != EndNone {
			p = appendEndRecord(p, s)
		} else {
			p = appendProgressRecord(p, s.ticks)
		}
	}
	if lg.complete {
		p = append(p, recRunEnd)
	}
	b := binary.LittleEndian.AppendUint16([]byte(logMagic), logVersion)
	return appendChunk(b, p), nil
}

func (lg *InputLog) checkSettings() error {
	for k, v := range lg.Settings {
		if len(k) > maxSetting || len(v) > maxSetting {
			return fmt.Errorf("engine: input log: setting %.40q of %d bytes, more than %d", k, len(k)+len(v), maxSetting)
		}
	}
	return nil
}

// headerSize is the size of the magic and the version.
const headerSize = len(logMagic) + 2

// checkHeader checks the magic and the version at the start of data.
func checkHeader(data []byte) error {
	if len(data) < headerSize || string(data[:len(logMagic)]) != logMagic {
		return fmt.Errorf("%w: not an input log (bad magic)", ErrBadInputLog)
	}
	if v := binary.LittleEndian.Uint16(data[len(logMagic):]); v != logVersion {
		hint := "an older build of the engine wrote it: record it again"
		if v > logVersion {
			hint = "a newer build of the engine wrote it"
		}
		return fmt.Errorf("%w: version %d, this engine reads version %d (%s)", ErrBadInputLog, v, logVersion, hint)
	}
	return nil
}

// ErrBadInputLog is wrapped by every error about a malformed input log.
var ErrBadInputLog = errors.New("malformed input log")

// ParseInputLog decodes a log from its file format. A damaged file
// (a chunk whose checksum does not match, a record that makes no sense) is
// an error wrapping [ErrBadInputLog] that says at which byte, never a panic
// and never a replay of damaged input; a file of another version is refused
// by name. A file whose last chunk is incomplete is a recording cut short
// (a crash, a kill): it is read up to its last whole chunk, and the log's
// [InputLog.Complete] is false.
func ParseInputLog(data []byte) (*InputLog, error) {
	if len(data) > MaxInputLogSize {
		return nil, fmt.Errorf("%w: %d bytes, more than the %d read", ErrBadInputLog, len(data), MaxInputLogSize)
	}
	if err := checkHeader(data); err != nil {
		return nil, err
	}
	p := &logParser{lg: &InputLog{}}
	off := headerSize
	for off < len(data) {
		n, k := binary.Uvarint(data[off:])
		if k < 0 {
			return nil, fmt.Errorf("%w: at byte %d: bad chunk length", ErrBadInputLog, off)
		}
		if k == 0 || n > uint64(len(data)-off-k) || len(data)-off-k-int(n) < 4 {
			break // the last chunk is incomplete: cut short
		}
		end := off + k + int(n)
		if crc32.Checksum(data[off:end], castagnoli) != binary.LittleEndian.Uint32(data[end:]) {
			return nil, fmt.Errorf("%w: corrupt file at byte %d: the chunk there fails its checksum", ErrBadInputLog, off)
		}
		if err := p.records(data[:end], off+k); err != nil {
			return nil, err
		}
		off = end + 4
		if p.lg.complete && off != len(data) {
			return nil, fmt.Errorf("%w: at byte %d: %d bytes after the end of the run", ErrBadInputLog, off, len(data)-off)
		}
	}
	if !p.run {
		return nil, fmt.Errorf("%w: the file holds no run (cut short before its first record)", ErrBadInputLog)
	}
	if p.open { // cut short: the timeline ran as far as its last progress record says
		s := &p.lg.scenes[len(p.lg.scenes)-1]
		for i := range s.ticks {
			if s.recordedTo(i, p.check) > s.ticks[i] {
				return nil, fmt.Errorf("%w: at byte %d: records of ticks after the last progress record", ErrBadInputLog, off)
			}
		}
	}
	return p.lg, nil
}

// logParser reads records into a log.
type logParser struct {
	lg    *InputLog
	run   bool // the run record was read
	open  bool // the last timeline has not ended
	data  []byte
	off   int
	err   error
	check int64 // tick of the last checksum in the open timeline
}

// records parses the records of the payload data[off:].
func (p *logParser) records(data []byte, off int) error {
	p.data, p.off = data, off
	for p.off < len(data) && p.err == nil {
		at := p.off
		tag := p.byte()
		if !p.run && tag != recRun {
			p.fail(at, "the file does not begin with its run record")
		}
		if p.lg.complete {
			p.fail(at, "a record after the end of the run")
		}
		switch tag {
		case recRun:
			p.runRecord(at)
		case recScene:
			p.sceneRecord(at)
		case recInput:
			p.inputRecord(at)
		case recCheck:
			p.checkRecord(at)
		case recProgress, recEnd:
			p.ticksRecord(at, tag)
		case recNames:
			p.namesRecord(at)
		case recSystems:
			p.systemsRecord(at)
		case recParts:
			p.partsRecord(at)
		case recRunEnd:
			if p.open {
				p.fail(at, "the run ends inside a scene")
			}
			p.lg.complete = true
		default:
			p.fail(at, fmt.Sprintf("unknown record %q", tag))
		}
	}
	return p.err
}

func (p *logParser) fail(at int, msg string) {
	if p.err == nil {
		p.err = fmt.Errorf("%w: at byte %d: %s", ErrBadInputLog, at, msg)
	}
}

func (p *logParser) byte() byte {
	if p.err != nil || p.off >= len(p.data) {
		p.fail(p.off, "record runs past its chunk")
		return 0
	}
	p.off++
	return p.data[p.off-1]
}

func (p *logParser) bytes(n int) []byte {
	if p.err != nil || n > len(p.data)-p.off {
		p.fail(p.off, "record runs past its chunk")
		return nil
	}
	p.off += n
	return p.data[p.off-n : p.off]
}

func (p *logParser) uvarint() uint64 {
	if p.err != nil {
		return 0
	}
	v, n := binary.Uvarint(p.data[p.off:])
	if n <= 0 {
		p.fail(p.off, "truncated or overlong number")
		return 0
	}
	p.off += n
	return v
}

// count reads a count of items of at least minSize bytes each, refusing one
// the rest of the chunk cannot hold (so a bad count never allocates much).
func (p *logParser) count(minSize int) int {
	at := p.off
	n := p.uvarint()
	if p.err == nil && n > uint64((len(p.data)-p.off)/minSize) {
		p.fail(at, fmt.Sprintf("count %d exceeds the data left", n))
		return 0
	}
	return int(n)
}

func (p *logParser) str(limit int) string {
	at := p.off
	n := p.count(1)
	if n > limit {
		p.fail(at, fmt.Sprintf("a string of %d bytes, more than %d", n, limit))
	}
	return string(p.bytes(n))
}

func (p *logParser) u64() uint64 {
	if b := p.bytes(8); b != nil {
		return binary.LittleEndian.Uint64(b)
	}
	return 0
}

func (p *logParser) runRecord(at int) {
	if p.run {
		p.fail(at, "a second run record")
	}
	p.run = true
	p.lg.Seed = p.u64()
	n := p.count(2)
	if n > 0 {
		p.lg.Settings = make(map[string]string, n)
	}
	for range n {
		k := p.str(maxSetting)
		p.lg.Settings[k] = p.str(maxSetting)
	}
}

func (p *logParser) sceneRecord(at int) {
	if p.open {
		p.fail(at, "a scene begins before the last one ended")
	}
	name := p.str(maxSetting)
	every := p.uvarint()
	if p.err == nil && (every == 0 || every > math.MaxInt32) {
		p.fail(at, fmt.Sprintf("bad checksum interval %d", every))
	}
	n := p.count(9)
	if p.err == nil && n == 0 {
		p.fail(at, "a scene with no groups") // Start always runs at least one
	}
	groups := make([]Group, n)
	for i := range groups {
		groups[i].Name = p.str(maxSetting)
		groups[i].Hz = math.Float64frombits(p.u64())
		if _, ok := rate.New(groups[i].Hz); !ok && p.err == nil {
			p.fail(at, fmt.Sprintf("bad rate %v", groups[i].Hz))
		}
	}
	if p.err != nil {
		return
	}
	p.lg.scenes = append(p.lg.scenes, logScene{name: name, groups: groups, every: int64(every),
		input: make([][]byte, n), inputN: make([]int, n), last: make([]int64, n), ticks: make([]int64, n),
		sys: make([]sysDetail, n)})
	p.open, p.check = true, 0
}

// scene returns the open timeline, or fails.
func (p *logParser) scene(at int) *logScene {
	if !p.open {
		p.fail(at, "a record outside any scene")
		return nil
	}
	return &p.lg.scenes[len(p.lg.scenes)-1]
}

func (p *logParser) inputRecord(at int) {
	s := p.scene(at)
	g := p.uvarint()
	if s == nil || p.err != nil {
		return
	}
	if g >= uint64(len(s.groups)) {
		p.fail(at, fmt.Sprintf("input of group %d in a scene of %d groups", g, len(s.groups)))
		return
	}
	start := p.off
	step := p.uvarint()
	if p.err == nil && (step == 0 || step > uint64(math.MaxInt64-s.last[g])) {
		p.fail(at, fmt.Sprintf("bad tick step %d", step))
	}
	if p.err != nil {
		return
	}
	end, err := checkEntry(p.data, p.off)
	if err != nil {
		p.fail(end, err.Error())
		return
	}
	p.off = end
	s.input[g] = append(s.input[g], p.data[start:end]...)
	s.last[g] += int64(step)
	s.inputN[g]++
}

func (p *logParser) checkRecord(at int) {
	s := p.scene(at)
	step := p.uvarint()
	sum := p.u64()
	if s == nil || p.err != nil {
		return
	}
	if step == 0 || step > uint64(math.MaxInt64-p.check) {
		p.fail(at, fmt.Sprintf("bad checksum tick step %d", step))
		return
	}
	p.check += int64(step)
	s.checks = append(s.checks, logCheck{tick: p.check, sum: sum})
}

// ticksRecord reads a progress or end record: how far the timeline ran.
func (p *logParser) ticksRecord(at int, tag byte) {
	s := p.scene(at)
	end := EndNone
	if tag == recEnd {
		end = SceneEnd(p.byte())
		if p.err == nil && (end == EndNone || end > EndFailed) {
			p.fail(at, fmt.Sprintf("bad scene end %d", end))
		}
	}
	n := p.count(1)
	if s == nil || p.err != nil {
		return
	}
	if n != len(s.groups) {
		p.fail(at, fmt.Sprintf("ticks of %d groups in a scene of %d", n, len(s.groups)))
		return
	}
	for i := range s.ticks {
		t := p.uvarint()
		if p.err == nil && (t > math.MaxInt64 || int64(t) < s.ticks[i] || int64(t) < s.recordedTo(i, p.check)) {
			p.fail(at, fmt.Sprintf("group %d ran %d ticks, fewer than recorded before", i, t))
		}
		s.ticks[i] = int64(t)
	}
	if tag == recEnd {
		s.err = p.str(maxSetting)
		s.end = end
		p.open = false
	}
}

// recordedTo returns the last tick of group g that a record of the
// timeline names (check: the last checksum's tick).
func (s *logScene) recordedTo(g int, check int64) int64 {
	t := s.last[g]
	if d := &s.sys[g]; len(d.ticks) > 0 {
		t = max(t, d.ticks[len(d.ticks)-1])
	}
	if ns := s.sys[g].names; len(ns) > 0 {
		t = max(t, ns[len(ns)-1].from)
	}
	if g == 0 {
		t = max(t, check)
		if n := len(s.parts.ticks); n > 0 {
			t = max(t, s.parts.ticks[n-1])
		}
	}
	return t
}

// namesRecord reads the names of a group's systems from a tick on.
func (p *logParser) namesRecord(at int) {
	s := p.scene(at)
	g := p.uvarint()
	from := p.uvarint()
	n := p.count(1)
	names := make([]string, 0, n)
	for range n {
		names = append(names, p.str(maxSetting))
	}
	if s == nil || p.err != nil {
		return
	}
	if g >= uint64(len(s.groups)) {
		p.fail(at, fmt.Sprintf("system names of group %d in a scene of %d groups", g, len(s.groups)))
		return
	}
	d := &s.sys[g]
	if from == 0 || from > math.MaxInt64 || len(d.names) > 0 && int64(from) <= d.names[len(d.names)-1].from {
		p.fail(at, fmt.Sprintf("system names from tick %d", from))
		return
	}
	d.names = append(d.names, nameSet{from: int64(from), names: names})
}

// systemsRecord reads the state after each system of a tick.
func (p *logParser) systemsRecord(at int) {
	s := p.scene(at)
	g := p.uvarint()
	step := p.uvarint()
	n := p.count(4)
	if s == nil || p.err != nil {
		return
	}
	if g >= uint64(len(s.groups)) {
		p.fail(at, fmt.Sprintf("system states of group %d in a scene of %d groups", g, len(s.groups)))
		return
	}
	d := &s.sys[g]
	prev := int64(0)
	if len(d.ticks) > 0 {
		prev = d.ticks[len(d.ticks)-1]
	}
	if step == 0 || step > uint64(math.MaxInt64-prev) {
		p.fail(at, fmt.Sprintf("bad tick step %d", step))
		return
	}
	sums := make([]uint32, n)
	for i := range sums {
		if b := p.bytes(4); b != nil {
			sums[i] = binary.LittleEndian.Uint32(b)
		}
	}
	d.add(prev+int64(step), sums)
	p.lg.detailed = true
}

// partsRecord reads the parts of the state after a tick.
func (p *logParser) partsRecord(at int) {
	s := p.scene(at)
	step := p.uvarint()
	nNew := p.count(1)
	var newNames []string
	for range nNew {
		newNames = append(newNames, p.str(maxSetting))
	}
	n := p.count(5)
	if s == nil || p.err != nil {
		return
	}
	pd := &s.parts
	prev := int64(0)
	if len(pd.ticks) > 0 {
		prev = pd.ticks[len(pd.ticks)-1]
	}
	if step == 0 || step > uint64(math.MaxInt64-prev) {
		p.fail(at, fmt.Sprintf("bad tick step %d", step))
		return
	}
	for _, name := range newNames {
		if slices.Contains(pd.names, name) {
			p.fail(at, fmt.Sprintf("part %q named twice", name))
			return
		}
	}
	pd.names = append(pd.names, newNames...)
	if len(pd.start) == 0 {
		pd.start = append(pd.start, 0)
	}
	for range n {
		i := p.uvarint()
		var sum uint32
		if b := p.bytes(4); b != nil {
			sum = binary.LittleEndian.Uint32(b)
		}
		if p.err == nil && i >= uint64(len(pd.names)) {
			p.fail(at, fmt.Sprintf("part %d of %d named", i, len(pd.names)))
		}
		if p.err != nil {
			return
		}
		pd.idx = append(pd.idx, int(i))
		pd.sums = append(pd.sums, sum)
	}
	pd.ticks = append(pd.ticks, prev+int64(step))
	pd.start = append(pd.start, len(pd.idx))
	p.lg.detailed = true
}
