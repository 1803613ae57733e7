package netplay

import (
	"encoding/binary"

	"github.com/fixedstep/fixedstep/engine/input"
	"github.com/fixedstep/fixedstep/engine/internal/inputlog"
)

// history is every player's confirmed input from the session's first
// tick, kept by the host for the spectators that join a session under
// way: they simulate the game from its start, as fast as they can, and
// the queue's ring holds only the last ringTicks. Each player's inputs
// are input-log entries (a tick that changes nothing costs two bytes),
// with a mark every markEvery ticks, the held state before it and where
// its entry begins, so that reading from any tick decodes at most
// markEvery entries first.
type history struct {
	b     [input.MaxPlayers][]byte
	last  [input.MaxPlayers]int64       // the last tick kept
	held  [input.MaxPlayers]input.State // its input, its presses and releases cleared
	marks [input.MaxPlayers][]historyMark
}

// historyMark is where tick k*markEvery+1 of a player's history begins.
type historyMark struct {
	off  int
	held input.State
}

const markEvery = 256

// keep appends the inputs the queue confirmed since the last call: every
// player's, up to its confirmed tick, read from the ring before it is
// overwritten (a confirmed tick stays in it for ringTicks/2 ticks more).
func (h *history) keep(q *queue) {
	for p := range q.players {
		for t := h.last[p] + 1; t <= q.conf[p]; t++ {
			if (t-1)%markEvery == 0 {
				h.marks[p] = append(h.marks[p], historyMark{off: len(h.b[p]), held: h.held[p]})
			}
			in := q.input(p, t)
			h.b[p] = inputlog.AppendEntry(h.b[p], 1, &h.held[p], &in)
			h.held[p] = in
			h.held[p].ClearEdges()
			h.last[p] = t
		}
	}
}

// read calls each with player p's input of every tick from `from` on, in
// order, until each returns false or the kept ticks run out. It reports
// false when `from` is not kept.
func (h *history) read(p int, from int64, each func(t int64, in *input.State) bool) bool {
	if from < 1 || from > h.last[p] {
		return false
	}
	m := &h.marks[p][(from-1)/markEvery]
	held, off := m.held, m.off
	var in input.State
	for t := (from-1)/markEvery*markEvery + 1; t <= h.last[p]; t++ {
		_, n := binary.Uvarint(h.b[p][off:]) // the step: 1
		end, err := inputlog.ReadEntry(h.b[p], off+n, &held, &in)
		if n <= 0 || err != nil {
			return false // it reads what keep wrote: not to happen
		}
		off = end
		held = in
		held.ClearEdges()
		if t >= from && !each(t, &in) {
			return true
		}
	}
	return true
}
