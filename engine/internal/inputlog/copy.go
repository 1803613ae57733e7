package inputlog

import (
	"errors"

	"github.com/fixedstep/fixedstep/engine/input"
)

// CopyTimeline gives the log's current timeline, begun and empty, the
// input and checksums of s (a replayed timeline of the same streams, whose
// end a load jumps to), as if they had been recorded tick by tick: the
// same entries, the checksums at the ticks `every` falls on (a multiple
// of s's), chained into the run checksum, and with a file, the same
// records, each stream's entries then the checksums. It costs a copy of
// the entries (and, with a file, a walk over them to split them), not a
// tick's work per tick.
func (l *Log) CopyTimeline(s *Scene) error {
	c := l.current()
	if len(c.Input) != len(s.Input) || len(c.Checks) != 0 || c.Every%s.Every != 0 {
		return errors.New("inputlog: CopyTimeline: not a begun timeline of the same streams")
	}
	for i := range s.Input {
		if c.InputN[i] != 0 {
			return errors.New("inputlog: CopyTimeline: not a begun timeline of the same streams")
		}
		c.Input[i] = append(c.Input[i][:0], s.Input[i]...)
		c.InputN[i], c.Last[i] = s.InputN[i], s.Last[i]
		if l.File != nil {
			for off := 0; off < len(s.Input[i]); {
				_, k := uvarint(s.Input[i][off:])
				next, err := ReadEntry(s.Input[i], off+k, nil, nil)
				if k <= 0 || err != nil {
					return errors.New("inputlog: CopyTimeline: a damaged entry")
				}
				l.File.buf = appendInputRecord(l.File.buf, i, s.Input[i][off:next])
				off = next
			}
		}
	}
	prev := int64(0)
	for _, ch := range s.Checks {
		if ch.Tick%c.Every == 0 {
			l.addCheck(c, ch.Tick, ch.Sum)
			if l.File != nil {
				l.File.buf = appendCheckRecord(l.File.buf, ch.Tick-prev, ch.Sum)
			}
			prev = ch.Tick
		}
	}
	return nil
}

// End puts the cursor past the last of a group's entries, with held the
// state they leave held: where a replay that ran them all stands.
func (c *Cursor) End(entries []byte, held input.State) {
	*c = Cursor{data: entries, off: len(entries), held: held}
}
