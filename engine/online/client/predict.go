package client

import (
	"context"
	"fmt"
	"time"

	"github.com/fixedstep/fixedstep/engine"
	"github.com/fixedstep/fixedstep/engine/input"
	"github.com/fixedstep/fixedstep/engine/online/wire"
)

// predictSlots is how many ticks a Predicting session keeps what it ran
// with: the loop keeps states to roll back to for as many
// (engine.RollbackSlots), and the session runs fewer ahead (maxAhead).
const predictSlots = engine.RollbackSlots

// maxAhead bounds how far past the server's last tick a Predicting
// session's loop runs: the round trip it covers is 1 s at 60 Hz.
const maxAhead = predictSlots - 4

// A Predicting session plays a match in the engine's loop, as Session
// does, but ahead of the server: its loop runs up to Ahead ticks past the
// last tick the server sent (a round trip and a margin, measured as the
// session begins, raised when its inputs reach the server late, lowered
// again after calmTicks seconds without), the local player's input
// applied at once (or the delay Predict was given later) and sent stamped
// for the tick it applies at, the others' predicted (held as the server
// last ran them), and the loop rolls back to the first tick whose
// prediction the server's ticks proved wrong (engine.Session's rollback:
// it restores the state before it and simulates again). The server stays
// authoritative: every tick runs at last with the inputs the server ran it
// with, and each checksum the loop gives of a tick the server sent is
// checked against the server's. An input the server took late (applied
// at its next tick) is a wrong prediction of the player's own input, and
// raises Ahead by a tick. Its methods are the loop's but for Start,
// Players, Ahead, Late, InputDelay and Err.
type Predicting struct {
	*Session
	delay int64
	ahead int64
	base  int64 // Ahead as the session began: it comes back down to it
	calm  int64 // the server's last tick when an input last ran late, or Ahead last came down

	local   [predictSlots]input.State // the local player's held input, by the tick it is for
	localAt [predictSlots]int64
	used    [predictSlots][input.MaxPlayers]input.State // what each tick last ran with
	usedAt  [predictSlots]int64
	sums    [predictSlots]uint64 // each tick's checksum, while its inputs are predicted
	sumAt   [predictSlots]int64
	wrong   int64 // the first tick that ran with an input the server's proved wrong; 0: none
	late    int64 // the local player's inputs the server ran at a later tick than stamped

	pending []stamp // the local player's inputs to send at the frame's end
	last    input.State
	sentAny bool
	msg     []byte
}

// stamp is an input to send: the held input for a tick.
type stamp struct {
	tick int64
	held input.State
}

// Predict waits for the match's start, as Session does, and returns a
// session that predicts (see Predicting): the local player's input
// applies delay ticks after it is sampled (0: at once), and the loop runs
// ahead of the server by the join's round trip in ticks, less the delay,
// and 2 more.
func (m *Match) Predict(ctx context.Context, delay int64) (*Predicting, error) {
	if delay < 0 || delay > maxAhead {
		return nil, fmt.Errorf("client: an input delay of %d ticks: want 0 to %d", delay, maxAhead)
	}
	s, err := m.Session(ctx, 0)
	if err != nil {
		return nil, err
	}
	tick := time.Second / time.Duration(max(s.start.Hz, 1))
	trip := int64((m.joinTrip + tick - 1) / tick)
	p := &Predicting{Session: s, delay: delay, ahead: min(max(trip+2-delay, 1), maxAhead)}
	p.base = p.ahead
	return p, nil
}

// Ahead returns how many ticks past the server's last one the loop may
// run.
func (p *Predicting) Ahead() int64 { return p.ahead }

// Late returns how many of the local player's inputs the server ran later
// than stamped.
func (p *Predicting) Late() int64 { return p.late }

// Poll takes in the server's ticks, and finds the first whose inputs the
// loop predicted wrong; a tick it predicted right has its checksum checked
// now.
func (p *Predicting) Poll() error {
	was := p.received
	if err := p.Session.Poll(); err != nil {
		if _, ended := err.(*EndedError); !ended {
			return err
		}
		p.err = nil // not before every tick up to the end ran with the server's inputs (below)
	}
	for t := was + 1; t <= min(p.received, p.simulated); t++ {
		i := t % predictSlots
		if p.usedAt[i] != t {
			continue
		}
		st := &p.ticks[t%sessionTicks]
		players := p.start.Players
		right := true
		for q := range players {
			if !p.used[i][q].Same(&st.in[q]) {
				right = false
				if q == p.start.Seat {
					p.late++
					p.ahead, p.calm = min(p.ahead+1, maxAhead), t
				}
			}
		}
		switch {
		case !right:
			if p.wrong == 0 || t < p.wrong {
				p.wrong = t
			}
		case p.wrong == 0 && p.sumAt[i] == t: // its checksum stands: the state before it was the server's
			if p.sums[i] != st.sum {
				p.err = &DesyncError{Tick: t, Server: st.sum, Client: p.sums[i]}
				return p.err
			}
			p.checked++
		}
	}
	if p.ahead > p.base && p.received-p.calm >= calmTicks*int64(max(p.start.Hz, 1)) {
		p.ahead, p.calm = p.ahead-1, p.received // no input late for a while: a tick nearer the server
	}
	if p.end != nil && p.wrong == 0 && p.simulated >= p.end.Tick && p.received >= p.end.Tick {
		p.err = &EndedError{End: *p.end} // every tick to the end ran with the server's inputs
		return p.err
	}
	return nil
}

// calmTicks is how many seconds without an input run late bring a
// Predicting session's Ahead a tick down, to where it began at least.
const calmTicks = 5

// Behind reports how many ticks the loop is to run faster than real time
// (engine.Follower) to be Ahead of the server's last tick: the loop's
// game time runs at the server's pace, from the moment the match began as
// the client heard of it, so it runs a round trip late without this;
// within a few ticks of it, none.
func (p *Predicting) Behind() int64 {
	if n := p.received + p.ahead - p.simulated; n > jitterTicks {
		return n - jitterTicks
	}
	return 0
}

// Ready reports whether tick t may run: at most Ahead ticks past the
// server's last, and not past the match's end.
func (p *Predicting) Ready(t int64) bool {
	if p.end != nil && t > p.end.Tick || p.start.Ticks > 0 && t > p.start.Ticks {
		return false // past the match's end
	}
	return t <= p.received+p.ahead
}

// Local keeps the local player's input for tick t plus the delay, to run
// with and to send at the frame's end.
func (p *Predicting) Local(t int64, in *input.State) {
	held := *in
	held.ClearEdges()
	at := t + p.delay
	p.local[at%predictSlots], p.localAt[at%predictSlots] = held, at
	p.noteLocal(t, &held)
	if !p.sentAny || !held.Same(&p.last) {
		p.pending = append(p.pending, stamp{tick: at, held: held})
		p.last, p.sentAny = held, true
	}
}

// Inputs sets every player's input of tick t: the server's, once it sent
// the tick; else the local player's own and the others' as the server
// last ran them, held.
func (p *Predicting) Inputs(t int64, players []input.State) {
	i := t % predictSlots
	if t <= p.received {
		p.Session.Inputs(t, players)
	} else {
		last := &p.ticks[p.received%sessionTicks]
		for q := range players {
			if q == p.start.Seat {
				players[q] = p.own(t)
				p.noteRan(t, &players[q])
				continue
			}
			players[q] = input.State{}
			if last.tick == p.received && p.received > 0 {
				players[q] = last.in[q]
				players[q].ClearEdges()
			}
		}
		p.simulated = max(p.simulated, t)
	}
	copy(p.used[i][:len(players)], players)
	p.usedAt[i] = t
	if p.wrong != 0 && t >= p.wrong { // the rollback's ticks run with what the server sent
		p.wrong = 0
	}
}

// own is the local player's input of tick t as the server will run it when
// it arrives in time: its held input for t, its presses and releases from
// its input of the tick before.
func (p *Predicting) own(t int64) input.State {
	var held, prev input.State
	if i := t % predictSlots; p.localAt[i] == t {
		held = p.local[i]
	} else if j := (t - 1) % predictSlots; t > 1 && p.usedAt[j] == t-1 {
		held = p.used[j][p.start.Seat] // no input for t (the delay's first ticks): held as it was
		held.ClearEdges()
	}
	switch j := (t - 1) % predictSlots; {
	case t-1 >= 1 && t-1 <= p.received && p.ticks[(t-1)%sessionTicks].tick == t-1:
		prev = p.ticks[(t-1)%sessionTicks].in[p.start.Seat]
	case t-1 >= 1 && p.usedAt[j] == t-1:
		prev = p.used[j][p.start.Seat]
	}
	prev.ClearEdges()
	held.DeriveEdges(&prev)
	return held
}

// Rollback reports the first tick that ran with an input the server's
// ticks proved wrong.
func (p *Predicting) Rollback() (int64, bool) { return p.wrong, p.wrong != 0 }

// Checksum checks the state after tick t against the server's when the
// server sent the tick; else it keeps it until the server does.
func (p *Predicting) Checksum(t int64, sum uint64) {
	if t <= p.received {
		p.Session.Checksum(t, sum)
		return
	}
	p.sums[t%predictSlots], p.sumAt[t%predictSlots] = sum, t
}

// Discard forgets what the ticks after t ran with: a scene ended at t.
func (p *Predicting) Discard(t int64) {
	for u := t + 1; u <= p.simulated; u++ {
		p.usedAt[u%predictSlots], p.sumAt[u%predictSlots] = 0, 0
	}
	p.simulated = max(t, p.received)
}

// EndFrame sends the local player's inputs the frame sampled, each stamped
// with the tick it is for.
func (p *Predicting) EndFrame() error {
	if p.err != nil {
		return p.err
	}
	for _, s := range p.pending {
		if p.start.Ticks > 0 && s.tick > p.start.Ticks || p.end != nil {
			continue // past the match's end
		}
		p.msg = wire.AppendInput(p.msg[:0], s.tick, &s.held)
		if err := p.m.Send(wire.OpInput, p.msg); err != nil {
			return err
		}
	}
	p.pending = p.pending[:0]
	return nil
}
