package inputlog

import (
	"slices"

	"github.com/fixedstep/fixedstep/engine/input"
)

// Run is what a log keeps of the run as a whole: the seed and the settings
// it was started with (a game's flags).
type Run struct {
	Seed     uint64
	Settings map[string]string
	Players  int // the players whose input every tick holds: 0 or 1 for one (see Log.Players)
	// Determinism is the engine's arithmetic the run was recorded with
	// (engine.Determinism): 0 for a recording that says none.
	Determinism int
	// Version is the file format's version: the one read (Parse), or the
	// one to write (Encode, Create), Version when 0. Before DeclaredNames,
	// the run's state checksums name component types by package path.
	Version int
}

// PathNames reports whether the run's state checksums name component types
// by Go package path, as recordings before version DeclaredNames did.
func (r Run) PathNames() bool { return r.Version != 0 && r.Version < DeclaredNames }

// Log is the record of a run's scene timelines. Recording appends to its
// slices (allocating now and then, amortised) and, with a File, writes
// each record to the file's buffer as it is made; replaying reads it and
// allocates nothing.
type Log struct {
	Scenes []Scene
	// Players is how many players' input every tick of the run holds (0
	// means 1): a timeline keeps one input stream per group and player,
	// stream g*Players+p for player p of group g (see Scene.Stream).
	Players  int
	Complete bool  // the recorded run ended (for a log read from a file: the file was closed)
	Detailed bool  // it holds the bisector's detail (a log read from a file)
	File     *File // the file being written while recording, nil in memory

	chain chain // the run checksum of the checksums in Scenes (chain.go)
	// Unchained leaves the run checksum out: the recording as it was
	// without it, for the benchmark that measures what it costs.
	Unchained bool
}

// Group is a rate group as a log holds it (engine.Group's fields).
type Group struct {
	Name string
	Hz   float64
}

// End says how a scene timeline ended (engine.SceneEnd's values).
type End uint8

// The ends, as engine.SceneEnd names them.
const (
	EndNone End = iota
	EndReturned
	EndRestarted
	EndStopped
	EndFailed
	EndSession
)

// Scene is one timeline of a log.
type Scene struct {
	Name   string
	Groups []Group
	Every  int64    // ticks of the first group between two checksums
	Input  [][]byte // per input stream (see Stream): its entries (see AppendEntry), in tick order
	InputN []int    // per stream: how many entries
	Last   []int64  // per stream: the tick of its last entry
	Checks []Check  // the state checksums, by tick
	Ticks  []int64  // per group: ticks run, as far as recorded
	End    End
	Err    string // with EndFailed and EndSession: the error the loop failed with

	Sys   []SysDetail // per group: the state after each system
	Parts PartDetail  // the parts of the state after checked ticks
}

// Check is the state checksum taken after tick Tick of the first group.
type Check struct {
	Tick int64
	Sum  uint64
}

func newScene(name string, groups []Group, every int64, players int) Scene {
	n, streams := len(groups), len(groups)*max(players, 1)
	return Scene{Name: name, Groups: groups, Every: every,
		Input: make([][]byte, streams), InputN: make([]int, streams), Last: make([]int64, streams), Ticks: make([]int64, n),
		Sys: make([]SysDetail, n)}
}

// Players returns how many players' input the timeline holds per tick.
func (s *Scene) Players() int { return len(s.Input) / max(len(s.Groups), 1) }

// Stream returns the index of player p's input stream of group g: g*players+p.
func (s *Scene) Stream(g, p int) int { return g*s.Players() + p }

// group returns the group of input stream i.
func (s *Scene) group(i int) int { return i / s.Players() }

// Recording.

// BeginScene records that a scene timeline begins, with these groups and a
// checksum every `every` ticks of its first group.
func (l *Log) BeginScene(name string, groups []Group, every int64) {
	l.Scenes = append(l.Scenes, newScene(name, slices.Clone(groups), every, l.Players))
	if l.File != nil {
		l.File.buf = appendSceneRecord(l.File.buf, &l.Scenes[len(l.Scenes)-1])
	}
}

// current is the timeline being recorded.
func (l *Log) current() *Scene { return &l.Scenes[len(l.Scenes)-1] }

// AddInput records that tick `tick` of input stream i (see Scene.Stream)
// saw cur, where the log predicts prev's held state with no edges and no
// wheel motion.
func (l *Log) AddInput(i int, tick int64, prev, cur *input.State) {
	s := l.current()
	start := len(s.Input[i])
	s.Input[i] = AppendEntry(s.Input[i], tick-s.Last[i], prev, cur)
	s.Last[i] = tick
	s.InputN[i]++
	if l.File != nil {
		l.File.buf = appendInputRecord(l.File.buf, i, s.Input[i][start:])
	}
}

// AddSystems records the state after each system of tick `tick` of group g.
func (l *Log) AddSystems(g int, tick int64, names []string, sums []uint32) {
	d := &l.current().Sys[g]
	prev := int64(0)
	if n := len(d.ticks); n > 0 {
		prev = d.ticks[n-1]
	}
	if n := len(d.names); n == 0 || !slices.Equal(d.names[n-1].names, names) {
		d.names = append(d.names, nameSet{from: tick, names: slices.Clone(names)})
		if l.File != nil {
			l.File.buf = appendNamesRecord(l.File.buf, g, tick, names)
		}
	}
	d.add(tick, sums)
	if l.File != nil {
		l.File.buf = appendSystemsRecord(l.File.buf, g, tick-prev, sums)
	}
}

// AddParts records the parts of the state after tick `tick`.
func (l *Log) AddParts(tick int64, parts []Part) {
	p := &l.current().Parts
	prev := int64(0)
	if n := len(p.ticks); n > 0 {
		prev = p.ticks[n-1]
	}
	newNames := p.add(tick, parts)
	if l.File != nil {
		l.File.buf = appendPartsRecord(l.File.buf, tick-prev, newNames, p, len(p.ticks)-1)
	}
}

// AddCheck records the state checksum after tick `tick`.
func (l *Log) AddCheck(tick int64, sum uint64) {
	s := l.current()
	prev := int64(0)
	if n := len(s.Checks); n > 0 {
		prev = s.Checks[n-1].Tick
	}
	l.addCheck(s, tick, sum)
	if l.File != nil {
		l.File.buf = appendCheckRecord(l.File.buf, tick-prev, sum)
	}
}

// SetTicks records how far the current timeline has run: ticks[g] ticks of
// group g. It does nothing before the first timeline.
func (l *Log) SetTicks(ticks []int64) {
	if len(l.Scenes) > 0 {
		copy(l.current().Ticks, ticks)
	}
}

// EndScene records how the current timeline ended, at the ticks SetTicks
// recorded last; err is the error of a failed one.
func (l *Log) EndScene(end End, err string) {
	s := l.current()
	s.End, s.Err = end, err
	if l.File != nil {
		l.File.buf = appendEndRecord(l.File.buf, s)
	}
}

// Flush records how far the current timeline has run (see SetTicks) and
// writes the records gathered so far to the file, when it is time (see
// File). Without a file or a timeline it does nothing.
func (l *Log) Flush(ticks []int64) error {
	if l.File == nil || len(l.Scenes) == 0 {
		return nil
	}
	l.SetTicks(ticks)
	return l.File.flush(l.current(), len(l.Scenes), false)
}

// Finish marks the run complete and writes what the file still lacks.
func (l *Log) Finish() error {
	l.Complete = true
	if l.File == nil {
		return nil
	}
	l.File.buf = append(l.File.buf, recRunEnd)
	return l.File.flush(nil, 0, true)
}

// Restart forgets the recorded timelines, for them to be recorded again
// (a rewind's re-run); a log recorded to a file replaces the file at its
// next write (File.restart).
func (l *Log) Restart() {
	l.Scenes, l.Complete, l.chain = nil, false, chain{}
	if l.File != nil {
		l.File.restart()
	}
}

// Prefix returns the log's first n timelines, the last cut after the
// ticks counts (per group): what a rewind replays. It shares the log's
// records.
func (l *Log) Prefix(n int, counts []int64) *Log {
	p := &Log{Scenes: slices.Clone(l.Scenes[:n]), Detailed: l.Detailed, Players: l.Players}
	s := &p.Scenes[n-1]
	s.End, s.Err, s.Ticks = EndNone, "", slices.Clone(counts)
	s.Input, s.InputN, s.Last = slices.Clone(s.Input), slices.Clone(s.InputN), slices.Clone(s.Last)
	for i, data := range s.Input {
		var tick int64
		kept, count, last := 0, 0, int64(0)
		for off := 0; off < len(data); {
			step, k := uvarint(data[off:])
			if tick += int64(step); tick > counts[s.group(i)] {
				break
			}
			off, _ = ReadEntry(data, off+k, nil, nil)
			kept, count, last = off, count+1, tick
		}
		s.Input[i], s.InputN[i], s.Last[i] = data[:kept], count, last
	}
	k := 0
	for k < len(s.Checks) && s.Checks[k].Tick <= counts[0] {
		k++
	}
	s.Checks = s.Checks[:k]
	s.Sys = slices.Clone(s.Sys)
	for g := range s.Sys {
		s.Sys[g].cut(counts[g])
	}
	s.Parts.cut(counts[0])
	p.rechain()
	return p
}

// Replaying.

// A Cursor is one input stream's position in a timeline while replaying.
type Cursor struct {
	data []byte      // the group's entries in the timeline
	off  int         // the next entry
	next int64       // its tick, 0 when none is left
	held input.State // the held state after the last entry applied
}

// Start puts the cursor at the first of a group's entries.
func (c *Cursor) Start(entries []byte) {
	*c = Cursor{data: entries}
	c.peek(0)
}

// Next returns the tick of the cursor's next entry, 0 when none is left.
func (c *Cursor) Next() int64 { return c.next }

// peek reads the tick of the entry at the cursor, after tick `after`.
func (c *Cursor) peek(after int64) {
	if c.off >= len(c.data) {
		c.next = 0
		return
	}
	step, n := uvarint(c.data[c.off:])
	c.off += n
	c.next = after + int64(step)
}

// Apply sets in to what tick `tick` of the cursor's group saw when
// recorded, ticks asked for in order. Entries exist only where the input
// changed: between them the held state stays, with no edges and no wheel
// motion. It allocates nothing.
func (c *Cursor) Apply(tick int64, in *input.State) {
	if c.next == 0 || c.next != tick {
		*in = c.held
		return
	}
	c.off, _ = ReadEntry(c.data, c.off, &c.held, in) // the parser checked it
	c.held = *in
	c.held.ClearEdges()
	c.peek(tick)
}

// CheckAt returns the checksum recorded after tick `tick` of the first
// group; false when there is none for that tick. next is the caller's
// cursor into Checks, moved forward: ticks are asked for in order.
func (s *Scene) CheckAt(next *int, tick int64) (uint64, bool) {
	for *next < len(s.Checks) && s.Checks[*next].Tick < tick {
		*next++
	}
	if *next == len(s.Checks) || s.Checks[*next].Tick != tick {
		return 0, false
	}
	return s.Checks[*next].Sum, true
}
