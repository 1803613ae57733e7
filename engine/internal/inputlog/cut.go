package inputlog

import (
	"slices"

	"github.com/fixedstep/fixedstep/engine/input"
)

// Cutting a timeline back: a rewind from a keyframe goes back to where the
// recording stood when the keyframe was taken, and records the ticks after
// it anew.

// A Mark is where the timeline being recorded stood after some ticks: the
// length of each group's entries, the number of checksums and the run
// checksum they chain (chain.go). Taking one
// into a Mark that held one before allocates nothing.
type Mark struct {
	ticks  []int64 // per group: ticks run
	off    []int   // per input stream: bytes of its entries
	n      []int   // per stream: its entries
	last   []int64 // per stream: the tick of its last entry
	checks int
	chain  chain

	fileAt    int64 // the file's records up to the mark, counted as File.base counts them
	fileEpoch int   // in the file's epoch-th restart
}

// Mark sets m to where the current timeline stands after ticks[g] ticks of
// each group g.
func (l *Log) Mark(m *Mark, ticks []int64) {
	s := l.current()
	m.ticks = append(m.ticks[:0], ticks...)
	m.off, m.n, m.last = m.off[:0], m.n[:0], m.last[:0]
	for g := range s.Input {
		m.off = append(m.off, len(s.Input[g]))
		m.n = append(m.n, s.InputN[g])
		m.last = append(m.last, s.Last[g])
	}
	m.checks, m.chain = len(s.Checks), l.chain
	if f := l.File; f != nil {
		m.fileAt, m.fileEpoch = f.base+int64(len(f.buf)), f.epoch
	}
}

// Last returns the tick of input stream i's last entry at the mark: where
// a Cursor resumes (see Cursor.Resume).
func (m *Mark) Last(i int) int64 { return m.last[i] }

// inBuffer reports whether the records after m, a mark of the current
// timeline, are all still in the file's buffer: none has been written.
func (f *File) inBuffer(m *Mark) bool {
	return m.fileEpoch == f.epoch && m.fileAt >= f.base && m.fileAt <= f.base+int64(len(f.buf))
}

// CutTo cuts the current timeline back to m, a mark taken in it, and
// returns what was cut as a timeline of its own (its entries and
// checksums, its own copy) for a Cursor to resume on (see Cut).
func (l *Log) CutTo(m *Mark) *Scene {
	s := l.current()
	tail := &Scene{Name: s.Name, Groups: s.Groups, Every: s.Every, Input: make([][]byte, len(s.Input)),
		Ticks: slices.Clone(s.Ticks), Checks: slices.Clone(s.Checks[m.checks:])}
	for i := range s.Input {
		tail.Input[i] = slices.Clone(s.Input[i][m.off[i]:])
	}
	l.Cut(m)
	return tail
}

// Cut cuts the current timeline back to m, a mark taken in it. A log
// recorded to a file drops the records after m from its buffer when none
// of them has been written (see FlushTo), allocating nothing; otherwise the
// file is written again from its first timeline (a recording holds a few
// kilobytes a minute).
func (l *Log) Cut(m *Mark) {
	s := l.current()
	for i := range s.Input {
		s.Input[i], s.InputN[i], s.Last[i] = s.Input[i][:m.off[i]], m.n[i], m.last[i]
	}
	s.Checks, l.chain = s.Checks[:m.checks], m.chain
	for g := range s.Sys {
		s.Sys[g].cut(m.ticks[g])
	}
	s.Parts.cut(m.ticks[0])
	copy(s.Ticks, m.ticks)
	switch f := l.File; {
	case f == nil:
	case f.inBuffer(m):
		f.buf = f.buf[:m.fileAt-f.base]
	default:
		f.restart()
		f.buf = appendScenes(f.buf, l)
	}
}

// FlushTo is Flush for a timeline whose records after m (a mark of it) may
// still be cut (CutTo): it writes only the records up to m, with m's
// ticks as the timeline's progress, and keeps those after it in the
// buffer, so that a cut to m or to a later mark stays in the buffer. A
// mark of records written already writes nothing.
func (l *Log) FlushTo(m *Mark) error {
	f := l.File
	if f == nil || len(l.Scenes) == 0 || !f.inBuffer(m) {
		return nil
	}
	s := l.current()
	return f.flushTo(int(m.fileAt-f.base), m.ticks, s.Groups[0].Hz, len(l.Scenes), false)
}

// Resume puts the cursor on entries that follow tick `after` of its group,
// with held the held state there (what the recording predicts for the next
// tick).
func (c *Cursor) Resume(entries []byte, after int64, held input.State) {
	*c = Cursor{data: entries, held: held}
	c.peek(after)
}
