package engine

import (
	"errors"
	"fmt"
	"io"
	"slices"
	"strings"

	"github.com/fixedstep/fixedstep/engine/internal/inputlog"
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

	names []string // recording: the systems probed in the current tick
	sums  []uint32 // and the state after each

	ran   []string // replaying: the systems run so far in the current tick
	extra string   // a system run since the last one compared that the recording did not run

	cursor  []int           // replaying: per group, the next recorded tick with detail
	partCur int             // replaying: the next recorded tick with parts
	partBuf []StatePart     // the scene's parts, reused
	parts2  []inputlog.Part // and as the log keeps them
	found   *systemDiff     // replaying: the first system after which the state differed
	checked bool            // replaying: a system's state has been compared with the recording's
}

// begin readies the bisector for a timeline of n groups.
func (b *bisector) begin(n int) {
	b.beginTick()
	b.names, b.sums, b.partCur, b.found, b.checked = b.names[:0], b.sums[:0], 0, nil, false
	b.cursor = slices.Grow(b.cursor[:0], n)[:n]
	clear(b.cursor)
}

// beginTick readies the bisector for the systems of a tick.
func (b *bisector) beginTick() {
	b.ran, b.extra = b.ran[:0], ""
}

// systemDiff is where a replay's state first differed after a system.
type systemDiff struct {
	group              int
	tick               int64
	system, note       string // the system, and what else the two runs ran differently
	recorded, replayed uint32
}

// Detailed reports whether the run records or replays the detail of the
// desync bisector (see InputLog.Detail): then a scene's scheduler should
// have the loop as its probe (Scheduler.SetProbe) and the loop should have
// the scene's state parts (SetStateParts). stage.Stage does both.
func (r Recording) Detailed() bool { return r.l.rec.detailed() }

func (r *recorder) detailed() bool {
	return r.record != nil && r.record.Detail || r.replay != nil && (r.replay.Detail || r.replay.log.Detailed)
}

// SetStateParts gives the loop the parts of the scene's state (a hash per
// component type), for the desync bisector: after every checked tick the
// loop calls checksum (SetChecksum), then parts, which appends to dst the
// parts of the state just hashed, in a stable order. Run clears it before
// each scene.
func (r Recording) SetStateParts(parts func(dst []StatePart) []StatePart) {
	r.l.rec.bisect.parts = parts
}

// SetStateDump gives the loop a writer of the scene's state as text (a
// world dump), for DumpState. Run clears it before each scene.
func (r Recording) SetStateDump(dump func(w io.Writer) error) { r.l.rec.bisect.dump = dump }

// ErrNoStateDump is DumpState's error when the scene gave the loop no dump.
var ErrNoStateDump = errors.New("engine: the scene has no state dump (Recording.SetStateDump)")

// DumpState writes the scene's state as text with the scene's dump
// (SetStateDump), or returns ErrNoStateDump.
func (r Recording) DumpState(w io.Writer) error { return r.l.rec.dumpState(w) }

func (r *recorder) dumpState(w io.Writer) error {
	if r.bisect.dump == nil {
		return ErrNoStateDump
	}
	return r.bisect.dump(w)
}

// Scene returns the number of the current scene timeline in the run, from
// 1 (0 before the first), and its scene's name.
func (l *Loop) Scene() (int, string) { return l.scenes, l.sceneName }

// AfterSystem is the loop's SystemProbe (see Scheduler.SetProbe): in a run
// that records detail it notes the state checksum after the system; in a
// replay of such a recording it compares it with the recorded one, and
// keeps the first system after which they differ; in a networked run
// making a desync report, it keeps it for the report. Otherwise, or
// without a state checksum, it does nothing.
func (r Recording) AfterSystem(ev Event, name string) {
	l := r.l
	if l.net.report != nil {
		l.net.probe(l, ev, name)
	}
	l.rec.afterSystem(ev, name)
}

func (r *recorder) afterSystem(ev Event, name string) {
	b := &r.bisect
	if r.checksum == nil || ev.Kind != Update || !r.detailed() {
		return
	}
	sum := uint32(r.checksum())
	if r.record != nil && r.record.Detail {
		b.names = append(b.names, name)
		b.sums = append(b.sums, sum)
	}
	if r.replayed == nil || b.found != nil || ev.Group >= len(r.replayed.Sys) {
		return
	}
	b.ran = append(b.ran, name)
	sums, names, ok := r.replayed.Sys[ev.Group].At(&b.cursor[ev.Group], ev.Tick)
	if !ok {
		return // the recording has no detail of this tick
	}
	// Systems are matched by name (the k-th run of a name with the
	// recording's k-th), so that a build that adds, removes or renames a
	// system compares the others still, and names what it ran otherwise.
	j := nth(names, name, count(b.ran[:len(b.ran)-1], name))
	if j < 0 || j >= len(sums) {
		if b.extra == "" {
			b.extra = name
		}
		return // the recording did not run this system
	}
	b.checked = true
	if sums[j] != sum {
		f := &systemDiff{group: ev.Group, tick: ev.Tick, system: name, recorded: sums[j], replayed: sum}
		var notes []string
		if b.extra != "" {
			notes = append(notes, fmt.Sprintf("after %q, which the recording did not run", b.extra))
		}
		for _, m := range names[:j] { // the recording ran it before this system; this run had not
			if count(b.ran, m) < count(names[:j], m) {
				notes = append(notes, fmt.Sprintf("the recording ran %q before it, this run had not", m))
				break
			}
		}
		for _, m := range b.ran[:len(b.ran)-1] { // this run ran it before this system; the recording after
			if count(b.ran[:len(b.ran)-1], m) > count(names[:j], m) && count(names[j:], m) > 0 {
				notes = append(notes, fmt.Sprintf("this run ran %q before it, the recording after", m))
				break
			}
		}
		if len(b.ran) == 1 && len(notes) == 0 && ev.Group == 0 && r.checkSince != ev.Tick-1 {
			// No checksum of the tick before matched: the state may
			// have differed before the tick's first system ran.
			notes = append(notes, "the tick's first system, and no tick before it checked: the state may have differed as the tick began "+
				"(the scene made otherwise, or a component type's fields changed since the recording)")
		}
		f.note = strings.Join(notes, "; ")
		b.found = f
	}
	b.extra = ""
}

// count returns how many of names are name.
func count(names []string, name string) int {
	n := 0
	for _, s := range names {
		if s == name {
			n++
		}
	}
	return n
}

// nth returns the index of the k-th (from 0) of names that is name, or -1.
func nth(names []string, name string, k int) int {
	for i, s := range names {
		if s == name {
			if k == 0 {
				return i
			}
			k--
		}
	}
	return -1
}

// recordParts keeps the parts of the state after tick `tick`.
func (r *recorder) recordParts(tick int64) {
	b := &r.bisect
	if b.parts == nil || !r.record.Detail {
		return
	}
	r.record.log.AddParts(tick, b.logParts())
}

// logParts returns the scene's state parts as the log keeps them.
func (b *bisector) logParts() []inputlog.Part {
	b.partBuf = b.parts(b.partBuf[:0])
	b.parts2 = b.parts2[:0]
	for _, p := range b.partBuf {
		b.parts2 = append(b.parts2, inputlog.Part(p))
	}
	return b.parts2
}

// explain adds to a replay's divergence what the detail says: the first
// system after which the state differed, the parts that differ after tick
// `tick`; then it hands the error to Options.OnDivergence.
func (r *recorder) explain(de *DivergenceError, tick int64) {
	de.Unversioned = r.replay != nil && r.replay.determinism == 0
	b := &r.bisect
	if f := b.found; f != nil {
		de.System, de.SystemGroup, de.SystemTick, de.SystemNote = f.system, r.loop.groups[f.group].Name, f.tick, f.note
	}
	de.SystemsChecked = b.checked
	if rs := r.replayed; rs != nil && b.parts != nil && tick >= 0 {
		if rs.Parts.Has(&b.partCur, tick) {
			de.Components = rs.Parts.Differ(b.partCur, b.logParts())
			de.ComponentsChecked = true
		}
	}
	if r.onDivergence != nil {
		r.onDivergence(r.loop, de)
	}
}
