package engine

import (
	"bufio"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"math"
	"os"
	"slices"
)

// InputLog is the input of a run, tick by tick: for each scene, the rates of
// its groups, and for each group the ticks whose input differs from the tick
// before. A log recorded at one frame rate replays to the same state at any
// other, because a replayed tick gets exactly the input its recording saw.
//
// A log also holds checksums of the game's state: when a scene gives the
// loop a state hash ([Loop.SetChecksum]), recording stores its value every
// ChecksumEvery ticks of the scene's first group, and replaying compares the
// replayed state with it at the same ticks and stops at the first mismatch
// with a [*DivergenceError] naming the tick.
//
// Give a new log to [Options.Record] to fill it, and a loaded one to
// [Options.Replay] to play it back. Recording appends to slices, so it
// allocates now and then (amortised); replaying does not allocate.
type InputLog struct {
	Seed uint64 // free for the game: the seed its run used

	// Note is free for the game: what else a replay needs to know to run as
	// the recording did (its options, say). Stored as is, at most 64 KiB.
	Note string

	// ChecksumEvery is how many ticks of a scene's first group pass between
	// two state checksums when recording; 0 means 1 (every tick, so that a
	// replay names the exact tick where it diverged). A larger value makes
	// the file smaller (9 bytes a checksum) and a divergence is then known to
	// lie between two checksums. Replaying uses the value each scene was
	// recorded with.
	ChecksumEvery int

	scenes []logScene
}

type logScene struct {
	rates  []float64
	groups [][]logEntry
	every  int64      // ticks of the first group between two checksums
	checks []logCheck // the state checksums, by tick
}

// logCheck is the state checksum taken after tick `tick` of the first group.
type logCheck struct {
	tick int64
	sum  uint64
}

// A DivergenceError ends a replay whose state differs from the recording:
// the state checksum the scene computed after tick Tick of its first group
// is not the one recorded there. The state first differed after tick Since
// (the last tick whose checksum matched, 0 if none did) and by tick Tick;
// with a checksum every tick (the default), Tick is the first diverging
// tick.
type DivergenceError struct {
	Scene    int    // the scene's timeline in the log, from 1
	Group    string // the first group's name
	Tick     int64  // the tick whose checksum differs
	Since    int64  // the last tick whose checksum matched, 0 if none
	Recorded uint64 // the checksum in the log
	Replayed uint64 // the checksum of the replayed state
}

func (e *DivergenceError) Error() string {
	where := fmt.Sprintf("at tick %d", e.Tick)
	if e.Tick-e.Since > 1 {
		where = fmt.Sprintf("between ticks %d and %d", e.Since+1, e.Tick)
	}
	return fmt.Sprintf("engine: replay diverged from the recording %s of group %q in scene %d "+
		"(state checksum %016x recorded, %016x replayed)", where, e.Group, e.Scene, e.Recorded, e.Replayed)
}

type logEntry struct {
	tick int64
	in   InputState
}

// replayCursor is one group's position in a log while replaying.
type replayCursor struct {
	next int
	in   InputState
}

// Scenes returns how many scene timelines the log holds.
func (lg *InputLog) Scenes() int { return len(lg.scenes) }

// Entries returns how many input changes the log holds over all scenes.
func (lg *InputLog) Entries() int {
	n := 0
	for _, s := range lg.scenes {
		for _, g := range s.groups {
			n += len(g)
		}
	}
	return n
}

func (lg *InputLog) beginScene(groups []Group) {
	s := logScene{groups: make([][]logEntry, len(groups)), every: int64(max(lg.ChecksumEvery, 1))}
	for _, g := range groups {
		s.rates = append(s.rates, g.Hz)
	}
	lg.scenes = append(lg.scenes, s)
}

func (lg *InputLog) add(group int, tick int64, in *InputState) {
	s := &lg.scenes[len(lg.scenes)-1]
	s.groups[group] = append(s.groups[group], logEntry{tick: tick, in: *in})
}

func (lg *InputLog) addCheck(tick int64, sum uint64) {
	s := &lg.scenes[len(lg.scenes)-1]
	s.checks = append(s.checks, logCheck{tick: tick, sum: sum})
}

// checkEvery returns how many ticks of the first group lie between two
// checksums in scene i (1 for a scene the log does not hold).
func (lg *InputLog) checkEvery(i int) int64 {
	if i < len(lg.scenes) {
		return lg.scenes[i].every
	}
	return 1
}

// verify compares sum, the replayed state's checksum after tick `tick` of
// the first group of scene i, with the recorded one; next is the scene's
// cursor into its checksums and since the last tick that matched. A tick
// the log has no checksum for passes.
func (lg *InputLog) verify(i int, next *int, since *int64, tick int64, sum uint64, group string) error {
	if i >= len(lg.scenes) {
		return nil
	}
	checks := lg.scenes[i].checks
	for *next < len(checks) && checks[*next].tick < tick {
		*next++
	}
	if *next == len(checks) || checks[*next].tick != tick {
		return nil
	}
	if c := checks[*next]; c.sum != sum {
		return &DivergenceError{Scene: i + 1, Group: group, Tick: tick, Since: *since, Recorded: c.sum, Replayed: sum}
	}
	*since = tick
	return nil
}

// checkScene reports whether scene i of the log was recorded with these groups.
// A replay that runs past the recorded scenes gets no input.
func (lg *InputLog) checkScene(i int, groups []Group) error {
	if i >= len(lg.scenes) {
		return nil
	}
	rates := make([]float64, len(groups))
	for j, g := range groups {
		rates[j] = g.Hz
	}
	if !slices.Equal(rates, lg.scenes[i].rates) {
		return fmt.Errorf("engine: replay: scene %d runs groups at %v Hz, the log was recorded at %v Hz",
			i+1, rates, lg.scenes[i].rates)
	}
	return nil
}

// apply sets in to what tick `tick` of group `group` in scene `scene` saw when
// recorded. Entries exist only where the input changed, so between them the
// previous tick's input holds.
func (lg *InputLog) apply(c *replayCursor, scene, group int, tick int64, in *InputState) {
	if scene < len(lg.scenes) {
		entries := lg.scenes[scene].groups[group]
		for c.next < len(entries) && entries[c.next].tick <= tick {
			c.in = entries[c.next].in
			c.next++
		}
	}
	*in = c.in
}

// The file format, little-endian: the magic, a uint16 version, the seed,
// (version 2) the note as a uvarint length and its bytes, a uvarint count of
// scenes; per scene a uvarint count of groups, and per group
// its rate (float64), a uvarint count of entries, and per entry the uvarint
// distance in ticks from the previous entry and the input state; then
// (version 2) the uvarint checksum interval, a uvarint count of checksums,
// and per checksum the uvarint distance in ticks from the previous one and
// the checksum (uint64). Version 1 files (no checksums) still load.
const (
	logMagic   = "FSTEPINP"
	logVersion = 2
)

// maxNote bounds InputLog.Note.
const maxNote = 1 << 16

// WriteTo writes the log in its file format. A Note longer than 64 KiB is
// an error.
func (lg *InputLog) WriteTo(w io.Writer) (int64, error) {
	if len(lg.Note) > maxNote {
		return 0, fmt.Errorf("engine: input log: note of %d bytes, more than %d", len(lg.Note), maxNote)
	}
	b := []byte(logMagic)
	b = binary.LittleEndian.AppendUint16(b, logVersion)
	b = binary.LittleEndian.AppendUint64(b, lg.Seed)
	b = binary.AppendUvarint(b, uint64(len(lg.Note)))
	b = append(b, lg.Note...)
	b = binary.AppendUvarint(b, uint64(len(lg.scenes)))
	for _, s := range lg.scenes {
		b = binary.AppendUvarint(b, uint64(len(s.rates)))
		for g, hz := range s.rates {
			b = binary.LittleEndian.AppendUint64(b, math.Float64bits(hz))
			b = binary.AppendUvarint(b, uint64(len(s.groups[g])))
			prev := int64(0)
			for _, e := range s.groups[g] {
				b = binary.AppendUvarint(b, uint64(e.tick-prev))
				prev = e.tick
				b = appendInput(b, &e.in)
			}
		}
		b = binary.AppendUvarint(b, uint64(s.every))
		b = binary.AppendUvarint(b, uint64(len(s.checks)))
		prev := int64(0)
		for _, c := range s.checks {
			b = binary.AppendUvarint(b, uint64(c.tick-prev))
			prev = c.tick
			b = binary.LittleEndian.AppendUint64(b, c.sum)
		}
	}
	n, err := w.Write(b)
	return int64(n), err
}

// Save writes the log to a file.
func (lg *InputLog) Save(path string) error {
	f, err := os.Create(path)
	if err != nil {
		return fmt.Errorf("engine: save input log: %w", err)
	}
	w := bufio.NewWriter(f)
	_, err = lg.WriteTo(w)
	if err == nil {
		err = w.Flush()
	}
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		return fmt.Errorf("engine: save input log %s: %w", path, err)
	}
	return nil
}

// LoadInputLog reads a log saved by [InputLog.Save].
func LoadInputLog(path string) (*InputLog, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, fmt.Errorf("engine: load input log: %w", err)
	}
	lg, err := ParseInputLog(data)
	if err != nil {
		return nil, fmt.Errorf("engine: load input log %s: %w", path, err)
	}
	return lg, nil
}

// ErrBadInputLog is wrapped by every error about a malformed input log.
var ErrBadInputLog = errors.New("malformed input log")

// ParseInputLog decodes a log from its file format. A truncated, corrupt or
// wrong-version log is an error wrapping [ErrBadInputLog] that says where, and
// never a panic.
func ParseInputLog(data []byte) (*InputLog, error) {
	r := logReader{data: data}
	if string(r.bytes(len(logMagic))) != logMagic {
		return nil, fmt.Errorf("%w: not an input log (bad magic)", ErrBadInputLog)
	}
	version := r.u16()
	if r.err == nil && (version < 1 || version > logVersion) {
		return nil, fmt.Errorf("%w: version %d, this engine reads versions 1 to %d", ErrBadInputLog, version, logVersion)
	}
	lg := &InputLog{Seed: r.u64()}
	if version >= 2 {
		n := r.count(1)
		if n > maxNote {
			r.fail("note of %d bytes, more than %d", n, maxNote)
		}
		lg.Note = string(r.bytes(n))
	}
	nScenes := r.count(1)
	for range nScenes {
		nGroups := r.count(9)
		if nGroups == 0 && r.err == nil {
			r.fail("a scene with no groups") // Start always runs at least one
		}
		s := logScene{rates: make([]float64, nGroups), groups: make([][]logEntry, nGroups), every: 1}
		for g := range nGroups {
			s.rates[g] = math.Float64frombits(r.u64())
			if _, ok := newRate(s.rates[g]); !ok && r.err == nil {
				r.fail("bad rate %v", s.rates[g])
			}
			n := r.count(1 + inputSize)
			s.groups[g] = make([]logEntry, n)
			tick := int64(0)
			for i := range n {
				d := r.uvarint()
				if (d == 0 && i > 0) || d > math.MaxInt64-uint64(tick) {
					r.fail("bad tick step %d", d)
				}
				tick += int64(d)
				s.groups[g][i].tick = tick
				r.input(&s.groups[g][i].in)
			}
		}
		if version >= 2 {
			r.checks(&s)
		}
		lg.scenes = append(lg.scenes, s)
		if r.err != nil {
			break
		}
	}
	if r.err == nil && r.off != len(data) {
		r.fail("%d bytes after the end", len(data)-r.off)
	}
	if r.err != nil {
		return nil, r.err
	}
	return lg, nil
}

// inputSize is the encoded size of an InputState.
const inputSize = 3*keyWords*8 + 2*8 + 3 + 2*8 + MaxGamepads*(1+3*4+gamepadAxes*8)

func appendInput(b []byte, in *InputState) []byte {
	le := binary.LittleEndian
	for _, set := range []*KeySet{&in.Keys, &in.KeysPressed, &in.KeysReleased} {
		for _, w := range set {
			b = le.AppendUint64(b, w)
		}
	}
	b = le.AppendUint64(b, math.Float64bits(in.CursorX))
	b = le.AppendUint64(b, math.Float64bits(in.CursorY))
	b = append(b, in.Mouse, in.MousePressed, in.MouseReleased)
	b = le.AppendUint64(b, math.Float64bits(in.WheelX))
	b = le.AppendUint64(b, math.Float64bits(in.WheelY))
	for i := range in.Gamepads {
		p := &in.Gamepads[i]
		c := byte(0)
		if p.Connected {
			c = 1
		}
		b = append(b, c)
		b = le.AppendUint32(b, p.Down)
		b = le.AppendUint32(b, p.Pressed)
		b = le.AppendUint32(b, p.Released)
		for _, a := range p.Axes {
			b = le.AppendUint64(b, math.Float64bits(a))
		}
	}
	return b
}

// logReader decodes the file format; after the first error every read
// returns zero and the error stays.
type logReader struct {
	data []byte
	off  int
	err  error
}

func (r *logReader) fail(format string, args ...any) {
	if r.err == nil {
		r.err = fmt.Errorf("%w: at byte %d: %s", ErrBadInputLog, r.off, fmt.Sprintf(format, args...))
	}
}

func (r *logReader) bytes(n int) []byte {
	if r.err != nil {
		return nil
	}
	if len(r.data)-r.off < n {
		r.fail("truncated: want %d more bytes, have %d", n, len(r.data)-r.off)
		return nil
	}
	b := r.data[r.off : r.off+n]
	r.off += n
	return b
}

func (r *logReader) u16() uint16 {
	if b := r.bytes(2); b != nil {
		return binary.LittleEndian.Uint16(b)
	}
	return 0
}

func (r *logReader) u32() uint32 {
	if b := r.bytes(4); b != nil {
		return binary.LittleEndian.Uint32(b)
	}
	return 0
}

func (r *logReader) u64() uint64 {
	if b := r.bytes(8); b != nil {
		return binary.LittleEndian.Uint64(b)
	}
	return 0
}

func (r *logReader) f64() float64 { return math.Float64frombits(r.u64()) }

func (r *logReader) uvarint() uint64 {
	if r.err != nil {
		return 0
	}
	v, n := binary.Uvarint(r.data[r.off:])
	if n <= 0 {
		r.fail("truncated or overlong number")
		return 0
	}
	r.off += n
	return v
}

// count reads a count of items of at least minSize bytes each, refusing one
// that the rest of the data cannot hold (so a corrupt count never allocates
// a huge slice).
func (r *logReader) count(minSize int) int {
	n := r.uvarint()
	if r.err == nil && n > uint64((len(r.data)-r.off)/minSize) {
		r.fail("count %d exceeds the data left", n)
		return 0
	}
	return int(n)
}

// checks reads a scene's checksum interval and checksums (version 2).
func (r *logReader) checks(s *logScene) {
	every := r.uvarint()
	if r.err == nil && (every == 0 || every > math.MaxInt32) {
		r.fail("bad checksum interval %d", every)
	}
	s.every = int64(every)
	n := r.count(9)
	s.checks = make([]logCheck, n)
	tick := int64(0)
	for i := range n {
		d := r.uvarint()
		if d == 0 || d > math.MaxInt64-uint64(tick) {
			r.fail("bad checksum tick step %d", d)
		}
		tick += int64(d)
		s.checks[i] = logCheck{tick: tick, sum: r.u64()}
	}
}

func (r *logReader) input(in *InputState) {
	for _, set := range []*KeySet{&in.Keys, &in.KeysPressed, &in.KeysReleased} {
		for i := range set {
			set[i] = r.u64()
		}
	}
	in.CursorX, in.CursorY = r.f64(), r.f64()
	if b := r.bytes(3); b != nil {
		in.Mouse, in.MousePressed, in.MouseReleased = b[0], b[1], b[2]
	}
	in.WheelX, in.WheelY = r.f64(), r.f64()
	for i := range in.Gamepads {
		p := &in.Gamepads[i]
		if b := r.bytes(1); b != nil {
			p.Connected = b[0] != 0
		}
		p.Down, p.Pressed, p.Released = r.u32(), r.u32(), r.u32()
		for a := range p.Axes {
			p.Axes[a] = r.f64()
		}
	}
}
