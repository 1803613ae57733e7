package inputlog

import (
	"encoding/binary"
	"fmt"
	"hash/crc32"
	"math"

	"github.com/fixedstep/fixedstep/engine/input"
	"github.com/fixedstep/fixedstep/engine/internal/rate"
)

// Parse decodes a log from its file format. A damaged file (a chunk whose
// checksum does not match, a record that makes no sense) is an error
// wrapping ErrMalformed that says at which byte, never a panic and never a
// replay of damaged input; a file of another version is refused by name. A
// file whose last chunk is incomplete is a recording cut short (a crash, a
// kill): it is read up to its last whole chunk, and the log's Complete is
// false. Every input entry is checked (ReadEntry), so a replay can decode
// them without checking.
func Parse(data []byte) (Run, *Log, error) {
	if len(data) > MaxSize {
		return Run{}, nil, fmt.Errorf("%w: %d bytes, more than the %d read", ErrMalformed, len(data), MaxSize)
	}
	if err := CheckHeader(data); err != nil {
		return Run{}, nil, err
	}
	p := &logParser{log: &Log{}}
	p.runRec.Version = int(binary.LittleEndian.Uint16(data[len(Magic):]))
	off := HeaderSize
	for off < len(data) {
		n, k := binary.Uvarint(data[off:])
		if k < 0 {
			return Run{}, nil, fmt.Errorf("%w: at byte %d: bad chunk length", ErrMalformed, off)
		}
		if k == 0 || n > uint64(len(data)-off-k) || len(data)-off-k-int(n) < 4 {
			break // the last chunk is incomplete: cut short
		}
		end := off + k + int(n)
		if crc32.Checksum(data[off:end], castagnoli) != binary.LittleEndian.Uint32(data[end:]) {
			return Run{}, nil, fmt.Errorf("%w: corrupt file at byte %d: the chunk there fails its checksum", ErrMalformed, off)
		}
		if err := p.records(data[:end], off+k); err != nil {
			return Run{}, nil, err
		}
		off = end + 4
		if p.log.Complete && off != len(data) {
			return Run{}, nil, fmt.Errorf("%w: at byte %d: %d bytes after the end of the run", ErrMalformed, off, len(data)-off)
		}
	}
	if !p.run {
		return Run{}, nil, fmt.Errorf("%w: the file holds no run (cut short before its first record)", ErrMalformed)
	}
	if p.open { // cut short: the timeline ran as far as its last progress record says
		s := &p.log.Scenes[len(p.log.Scenes)-1]
		for i := range s.Ticks {
			if s.recordedTo(i, p.check) > s.Ticks[i] {
				return Run{}, nil, fmt.Errorf("%w: at byte %d: records of ticks after the last progress record", ErrMalformed, off)
			}
		}
	}
	return p.runRec, p.log, nil
}

// logParser reads records into a log.
type logParser struct {
	runRec Run
	log    *Log
	run    bool // the run record was read
	open   bool // the last timeline has not ended
	data   []byte
	off    int
	err    error
	check  int64 // tick of the last checksum in the open timeline

	cursor [][2]float64    // per input stream of the open timeline: the cursor after its last entry
	parts  map[string]bool // the open timeline's part names
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
		if p.log.Complete {
			p.fail(at, "a record after the end of the run")
		}
		switch tag {
		case recRun:
			p.runRecord(at)
		case recPlayers:
			p.playersRecord(at)
		case recArith:
			p.arithRecord(at)
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
			p.log.Complete = true
		default:
			p.fail(at, fmt.Sprintf("unknown record %q", tag))
		}
	}
	return p.err
}

func (p *logParser) fail(at int, msg string) {
	if p.err == nil {
		p.err = fmt.Errorf("%w: at byte %d: %s", ErrMalformed, at, msg)
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
	p.runRec.Seed = p.u64()
	n := p.count(2)
	if n > 0 {
		p.runRec.Settings = make(map[string]string, min(n, 64)) // a hint by the count would be 25 times its bytes
	}
	for range n {
		k := p.str(MaxSetting)
		if _, twice := p.runRec.Settings[k]; twice && p.err == nil {
			p.fail(at, fmt.Sprintf("setting %.40q given twice", k))
		}
		p.runRec.Settings[k] = p.str(MaxSetting)
	}
}

// playersRecord reads the run's players: right after the run record.
func (p *logParser) playersRecord(at int) {
	n := p.uvarint()
	switch {
	case p.err != nil:
	case p.log.Players != 0 || len(p.log.Scenes) > 0:
		p.fail(at, "a players record after a scene, or a second one")
	case n < 2 || n > MaxPlayers:
		p.fail(at, fmt.Sprintf("%d players: a run has 2 to %d (one: no record)", n, MaxPlayers))
	default:
		p.log.Players = int(n)
		p.runRec.Players = int(n)
	}
}

// arithRecord reads the determinism version the run was recorded with.
func (p *logParser) arithRecord(at int) {
	d := p.uvarint()
	switch {
	case p.err != nil:
	case p.runRec.Determinism != 0 || len(p.log.Scenes) > 0:
		p.fail(at, "a determinism record after a scene, or a second one")
	case d < 1 || d > 255:
		p.fail(at, fmt.Sprintf("determinism version %d: a run has 1 to 255 (none: no record)", d))
	default:
		p.runRec.Determinism = int(d)
	}
}

func (p *logParser) sceneRecord(at int) {
	if p.open {
		p.fail(at, "a scene begins before the last one ended")
	}
	name := p.str(MaxSetting)
	every := p.uvarint()
	if p.err == nil && (every == 0 || every > math.MaxInt32) {
		p.fail(at, fmt.Sprintf("bad checksum interval %d", every))
	}
	n := p.count(9)
	if p.err == nil && n == 0 {
		p.fail(at, "a scene with no groups") // Start always runs at least one
	}
	groups := make([]Group, n)
	names := make(map[string]bool, min(n, 64))
	for i := range groups {
		groups[i].Name = p.str(MaxSetting)
		groups[i].Hz = math.Float64frombits(p.u64())
		if _, ok := rate.New(groups[i].Hz); !ok && p.err == nil {
			p.fail(at, fmt.Sprintf("bad rate %v", groups[i].Hz))
		}
		if names[groups[i].Name] && p.err == nil { // the loop refuses two groups of one name
			p.fail(at, fmt.Sprintf("two groups named %.40q", groups[i].Name))
		}
		names[groups[i].Name] = true
	}
	if p.err != nil {
		return
	}
	s := newScene(name, groups, int64(every), p.log.Players)
	p.log.Scenes = append(p.log.Scenes, s)
	p.open, p.check = true, 0
	p.cursor, p.parts = make([][2]float64, len(s.Input)), map[string]bool{}
}

// scene returns the open timeline, or fails.
func (p *logParser) scene(at int) *Scene {
	if !p.open {
		p.fail(at, "a record outside any scene")
		return nil
	}
	return &p.log.Scenes[len(p.log.Scenes)-1]
}

func (p *logParser) inputRecord(at int) {
	s := p.scene(at)
	g := p.uvarint()
	if s == nil || p.err != nil {
		return
	}
	if g >= uint64(len(s.Input)) {
		p.fail(at, fmt.Sprintf("input stream %d in a scene of %d groups and %d players", g, len(s.Groups), s.Players()))
		return
	}
	start := p.off
	step := p.uvarint()
	if p.err == nil && (step == 0 || step > uint64(math.MaxInt64-s.Last[g])) {
		p.fail(at, fmt.Sprintf("bad tick step %d", step))
	}
	if p.err != nil {
		return
	}
	// Checked with the stream's cursor, which a move by whole pixels
	// moves (ReadEntry).
	held, out := input.State{CursorX: p.cursor[g][0], CursorY: p.cursor[g][1]}, input.State{}
	end, err := ReadEntry(p.data, p.off, &held, &out)
	if err != nil {
		p.fail(end, err.Error())
		return
	}
	p.cursor[g] = [2]float64{out.CursorX, out.CursorY}
	p.off = end
	s.Input[g] = append(s.Input[g], p.data[start:end]...)
	s.Last[g] += int64(step)
	s.InputN[g]++
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
	p.log.addCheck(s, p.check, sum)
}

// ticksRecord reads a progress or end record: how far the timeline ran.
func (p *logParser) ticksRecord(at int, tag byte) {
	s := p.scene(at)
	end := EndNone
	if tag == recEnd {
		end = End(p.byte())
		if p.err == nil && (end == EndNone || end > EndSession) {
			p.fail(at, fmt.Sprintf("bad scene end %d", end))
		}
	}
	n := p.count(1)
	if s == nil || p.err != nil {
		return
	}
	if n != len(s.Groups) {
		p.fail(at, fmt.Sprintf("ticks of %d groups in a scene of %d", n, len(s.Groups)))
		return
	}
	for i := range s.Ticks {
		t := p.uvarint()
		if p.err == nil && (t > math.MaxInt64 || int64(t) < s.Ticks[i] || int64(t) < s.recordedTo(i, p.check)) {
			p.fail(at, fmt.Sprintf("group %d ran %d ticks, fewer than recorded before", i, t))
		}
		s.Ticks[i] = int64(t)
	}
	if tag == recEnd {
		s.Err = p.str(MaxSetting)
		s.End = end
		p.open = false
	}
}

// recordedTo returns the last tick of group g that a record of the
// timeline names (check: the last checksum's tick).
func (s *Scene) recordedTo(g int, check int64) int64 {
	var t int64
	for p := range s.Players() {
		t = max(t, s.Last[s.Stream(g, p)])
	}
	if d := &s.Sys[g]; len(d.ticks) > 0 {
		t = max(t, d.ticks[len(d.ticks)-1])
	}
	if ns := s.Sys[g].names; len(ns) > 0 {
		t = max(t, ns[len(ns)-1].from)
	}
	if g == 0 {
		t = max(t, check)
		if n := len(s.Parts.ticks); n > 0 {
			t = max(t, s.Parts.ticks[n-1])
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
	var names []string // not made by the count: a string is 16 times its least byte
	for range n {
		if name := p.str(MaxSetting); p.err == nil {
			names = append(names, name)
		}
	}
	if s == nil || p.err != nil {
		return
	}
	if g >= uint64(len(s.Groups)) {
		p.fail(at, fmt.Sprintf("system names of group %d in a scene of %d groups", g, len(s.Groups)))
		return
	}
	d := &s.Sys[g]
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
	if g >= uint64(len(s.Groups)) {
		p.fail(at, fmt.Sprintf("system states of group %d in a scene of %d groups", g, len(s.Groups)))
		return
	}
	d := &s.Sys[g]
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
	p.log.Detailed = true
}

// partsRecord reads the parts of the state after a tick.
func (p *logParser) partsRecord(at int) {
	s := p.scene(at)
	step := p.uvarint()
	nNew := p.count(1)
	var newNames []string
	for range nNew {
		if name := p.str(MaxSetting); p.err == nil {
			newNames = append(newNames, name)
		}
	}
	n := p.count(5)
	if s == nil || p.err != nil {
		return
	}
	pd := &s.Parts
	prev := int64(0)
	if len(pd.ticks) > 0 {
		prev = pd.ticks[len(pd.ticks)-1]
	}
	if step == 0 || step > uint64(math.MaxInt64-prev) {
		p.fail(at, fmt.Sprintf("bad tick step %d", step))
		return
	}
	for _, name := range newNames {
		if p.parts[name] {
			p.fail(at, fmt.Sprintf("part %.40q named twice", name))
			return
		}
		p.parts[name] = true
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
	p.log.Detailed = true
}
