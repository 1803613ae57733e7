package engine

import (
	"errors"
	"fmt"
	"io"
	"slices"
)

// The desync bisector. A recording with InputLog.Detail keeps, for every
// tick of every group, a 32-bit hash of the game state after each update
// system (the scene's state checksum, taken by the scheduler's probe: see
// Scheduler.SetProbe), and after every checked tick of the first group a
// hash of each part of the state (each component type: SetStateParts). A
// replay of it compares them as it goes: the first system after which the
// state differs is the one whose effect changed, and the parts that differ
// after that tick say which component types it changed. The
// DivergenceError names both, and the replay can write the state at that
// tick as text (SetStateDump, Options.OnDivergence) to diff against the
// same dump of a run of the recording's build.

// StatePart is the hash of one part of a scene's state (a component
// type), for the desync bisector.
type StatePart struct {
	Name string
	Sum  uint64
}

// bisector is the loop's state for recording and replaying detail.
type bisector struct {
	parts func(dst []StatePart) []StatePart // the scene's, see SetStateParts
	dump  func(w io.Writer) error           // the scene's, see SetStateDump

	pos   int      // systems probed in the current Update event
	names []string // recording: the systems probed in the current tick
	sums  []uint32 // and the state after each

	cursor  []int       // replaying: per group, the next recorded tick with detail
	partCur int         // replaying: the next recorded tick with parts
	partBuf []StatePart // the scene's parts, reused
	found   *systemDiff // replaying: the first system after which the state differed
}

// systemDiff is where a replay's state first differed after a system.
type systemDiff struct {
	group              int
	tick               int64
	system, recordedAs string
	recorded, replayed uint32
}

// Detailed reports whether the run records or replays the detail of the
// desync bisector (see InputLog.Detail): then a scene's scheduler should
// have the loop as its probe (Scheduler.SetProbe) and the loop should have
// the scene's state parts (SetStateParts). systems.Stage does both.
func (l *Loop) Detailed() bool {
	return l.record != nil && l.record.Detail || l.replay != nil && (l.replay.Detail || l.replay.detailed)
}

// SetStateParts gives the loop the parts of the scene's state (a hash per
// component type), for the desync bisector: after every checked tick the
// loop calls checksum (SetChecksum), then parts, which appends to dst the
// parts of the state just hashed, in a stable order. Run clears it before
// each scene.
func (l *Loop) SetStateParts(parts func(dst []StatePart) []StatePart) { l.bisect.parts = parts }

// SetStateDump gives the loop a writer of the scene's state as text (a
// world dump), for DumpState. Run clears it before each scene.
func (l *Loop) SetStateDump(dump func(w io.Writer) error) { l.bisect.dump = dump }

// ErrNoStateDump is DumpState's error when the scene gave the loop no dump.
var ErrNoStateDump = errors.New("engine: the scene has no state dump (Loop.SetStateDump)")

// DumpState writes the scene's state as text with the scene's dump
// (SetStateDump), or returns ErrNoStateDump.
func (l *Loop) DumpState(w io.Writer) error {
	if l.bisect.dump == nil {
		return ErrNoStateDump
	}
	return l.bisect.dump(w)
}

// Scene returns the number of the current scene timeline in the run, from
// 1 (0 before the first), and its scene's name.
func (l *Loop) Scene() (int, string) { return l.scenes, l.sceneName }

// AfterSystem is the loop's SystemProbe (see Scheduler.SetProbe): in a run
// that records detail it notes the state checksum after the system; in a
// replay of such a recording it compares it with the recorded one, and
// keeps the first system after which they differ. Outside a detailed run,
// or without a state checksum, it does nothing.
func (l *Loop) AfterSystem(ev Event, name string) {
	b := &l.bisect
	if l.checksum == nil || ev.Kind != Update || !l.Detailed() {
		return
	}
	sum := uint32(l.checksum())
	pos := b.pos
	b.pos++
	if l.record != nil && l.record.Detail {
		b.names = append(b.names, name)
		b.sums = append(b.sums, sum)
	}
	if l.replayEnd == nil || b.found != nil || ev.Group >= len(l.replayEnd.sys) {
		return
	}
	d := &l.replayEnd.sys[ev.Group]
	c := &b.cursor[ev.Group]
	for *c < len(d.ticks) && d.ticks[*c] < ev.Tick {
		*c++
	}
	if *c == len(d.ticks) || d.ticks[*c] != ev.Tick {
		return // the recording has no detail of this tick
	}
	sums := d.sums[d.start[*c]:d.start[*c+1]]
	names := d.namesAt(ev.Tick)
	recordedAs := ""
	if pos < len(names) {
		recordedAs = names[pos]
	}
	switch {
	case pos >= len(sums):
		b.found = &systemDiff{group: ev.Group, tick: ev.Tick, system: name, replayed: sum}
	case sums[pos] != sum || recordedAs != name:
		b.found = &systemDiff{group: ev.Group, tick: ev.Tick, system: name, recordedAs: recordedAs,
			recorded: sums[pos], replayed: sum}
	}
}

// tickDone is called once the scene has handled an Update event: a
// recording keeps the tick's system states.
func (l *Loop) tickDone(ev *Event) {
	b := &l.bisect
	if len(b.sums) > 0 {
		l.record.addSystems(ev.Group, ev.Tick, b.names, b.sums)
		b.names, b.sums = b.names[:0], b.sums[:0]
	}
	b.pos = 0
}

// recordParts keeps the parts of the state after tick `tick`.
func (l *Loop) recordParts(tick int64) {
	b := &l.bisect
	if b.parts == nil || !l.record.Detail {
		return
	}
	b.partBuf = b.parts(b.partBuf[:0])
	l.record.addParts(tick, b.partBuf)
}

// explain adds to a replay's divergence what the detail says: the first
// system after which the state differed, the parts that differ after tick
// `tick`; then it hands the error to Options.OnDivergence.
func (l *Loop) explain(de *DivergenceError, tick int64) {
	b := &l.bisect
	if f := b.found; f != nil {
		de.System, de.SystemGroup, de.SystemTick = f.system, l.groups[f.group].Name, f.tick
		if f.recordedAs != "" && f.recordedAs != f.system {
			de.System = fmt.Sprintf("%s (the recording ran %s there)", f.system, f.recordedAs)
		}
	}
	if rs := l.replayEnd; rs != nil && b.parts != nil {
		p := &rs.parts
		for b.partCur < len(p.ticks) && p.ticks[b.partCur] < tick {
			b.partCur++
		}
		if b.partCur < len(p.ticks) && p.ticks[b.partCur] == tick {
			b.partBuf = b.parts(b.partBuf[:0])
			de.Components = p.differ(b.partCur, b.partBuf)
		}
	}
	if l.onDivergence != nil {
		l.onDivergence(l, de)
	}
}

// sysDetail is one group's recorded system states in a scene timeline.
type sysDetail struct {
	ticks []int64   // ticks with detail, ascending
	start []int     // each tick's first state in sums; one more, the end
	sums  []uint32  // the state after each system
	names []nameSet // the systems' names, from the tick they apply to
}

// nameSet is the names of a group's systems from tick `from` on.
type nameSet struct {
	from  int64
	names []string
}

// namesAt returns the names of the systems of tick t.
func (d *sysDetail) namesAt(t int64) []string {
	var names []string
	for _, ns := range d.names {
		if ns.from > t {
			break
		}
		names = ns.names
	}
	return names
}

// add appends the states of tick t.
func (d *sysDetail) add(t int64, sums []uint32) {
	if len(d.start) == 0 {
		d.start = append(d.start, 0)
	}
	d.ticks = append(d.ticks, t)
	d.sums = append(d.sums, sums...)
	d.start = append(d.start, len(d.sums))
}

// partDetail is a scene timeline's recorded parts.
type partDetail struct {
	names []string // the parts' names, by index
	ticks []int64  // ticks with parts, ascending
	start []int    // each tick's first part in idx and sums; one more, the end
	idx   []int    // a part's name
	sums  []uint32
}

// add appends the parts of tick t, naming new parts.
func (p *partDetail) add(t int64, parts []StatePart) (newNames []string) {
	if len(p.start) == 0 {
		p.start = append(p.start, 0)
	}
	p.ticks = append(p.ticks, t)
	for _, part := range parts {
		i := slices.Index(p.names, part.Name)
		if i < 0 {
			i = len(p.names)
			p.names = append(p.names, part.Name)
			newNames = append(newNames, part.Name)
		}
		p.idx = append(p.idx, i)
		p.sums = append(p.sums, uint32(part.Sum))
	}
	p.start = append(p.start, len(p.idx))
	return newNames
}

// differ returns the names of the parts of recorded tick k that differ
// from parts: a different hash, or a part only one side has.
func (p *partDetail) differ(k int, parts []StatePart) []string {
	var out []string
	rec := map[string]uint32{}
	for j := p.start[k]; j < p.start[k+1]; j++ {
		rec[p.names[p.idx[j]]] = p.sums[j]
	}
	for _, part := range parts {
		sum, ok := rec[part.Name]
		if !ok || sum != uint32(part.Sum) {
			out = append(out, part.Name)
		}
		delete(rec, part.Name)
	}
	for name := range rec {
		out = append(out, name)
	}
	slices.Sort(out)
	return slices.Compact(out)
}
