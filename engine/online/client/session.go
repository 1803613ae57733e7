package client

import (
	"context"
	"encoding/json"
	"fmt"

	"github.com/fixedstep/fixedstep/engine"
	"github.com/fixedstep/fixedstep/engine/input"
	"github.com/fixedstep/fixedstep/engine/online/wire"
)

// sessionTicks is how many ticks the server sent a Session keeps before
// the loop simulates them: a minute at 60 Hz, as many as the match's queue.
const sessionTicks = queued

// A Session's loop keeps up with the server's ticks: when more than
// catchUpAfter of them wait to be simulated, it runs them faster than real
// time until jitterTicks wait (a few ticks in hand, so that the server's
// messages arriving unevenly do not leave a frame without its tick).
const (
	catchUpAfter = 6
	jitterTicks  = 2
)

// A Session plays a match in the engine's own loop (engine.Options.Session)
// rather than in Play's simulation: the loop's first group runs the
// server's ticks, each as it arrives (Ready), with the inputs the server
// ran it with (Inputs), and its state checksum is checked against the
// server's (Checksum); the local player's input, as the loop samples it,
// goes to the server stamped Lead ticks past the last tick received. It
// never predicts, so it never rolls back: the local player's input is felt
// a round trip late. A window shows a server's match this way (the demo's
// -server). When the server's ticks get ahead of the loop's (a player who
// came back to a match under way, or took a seat over, is sent the ticks
// so far; a machine stalled), the loop runs them faster than real time
// until it has caught up (engine.Follower). Its methods other than Start,
// Players and Err are the loop's, called on the loop's goroutine.
type Session struct {
	m     *Match
	start wire.Start
	lead  int64

	ticks     []serverTick // by tick % sessionTicks
	cur       []input.State
	received  int64 // the last tick the server sent
	simulated int64 // the last tick the loop asked the inputs of
	end       *wire.End
	err       error

	kept  []byte // a kept match's tick messages the loop has yet to be given (Replay)
	state []byte // the state the run begins from (State)

	// the local player's input as sampled, by tick, and as the loop last
	// ran it: each change that runs is timed from the tick that sampled
	// it (InputDelay)
	samples             [predictSlots]sample
	ran                 input.State
	ranAt               int64
	delayTicks, delayed int64

	held, sent input.State
	haveHeld   bool
	haveSent   bool
	msg        []byte
	checked    int64
}

// serverTick is a tick the server sent: every player's input and the
// state checksum after it.
type serverTick struct {
	tick int64
	sum  uint64
	in   [input.MaxPlayers]input.State
}

// An EndedError ends a Session's run once the loop has run every tick of a
// match the server ended: End says why. It is engine.ErrSessionOver
// (errors.Is): the loop stops there, its run without an error and its
// recording ended as a stopped run's.
type EndedError struct{ End wire.End }

// Is reports whether target is engine.ErrSessionOver.
func (e *EndedError) Is(target error) bool { return target == engine.ErrSessionOver }

func (e *EndedError) Error() string {
	return fmt.Sprintf("the match ended after tick %d: %s", e.End.Tick, e.End.Reason)
}

// Session waits for the match's start and returns the session that plays
// it in the engine's loop, stamping the local input lead ticks ahead (0:
// 2, as Play). The start (Session.Start) gives the seat, the seed and the
// settings the first scene is to be made with.
func (m *Match) Session(ctx context.Context, lead int64) (*Session, error) {
	if lead <= 0 {
		lead = 2
	}
	start, err := m.start(ctx)
	if err != nil {
		return nil, err
	}
	m.release(m.held) // the start's: Poll takes the messages from here on
	m.held = nil
	switch {
	case start.Game != m.game.Name || start.Version != m.game.Version:
		return nil, fmt.Errorf("client: the match plays %s %s; this client %s %s", start.Game, start.Version, m.game.Name, m.game.Version)
	case checkDeterminism(start) != nil:
		return nil, checkDeterminism(start)
	case start.Players < 1 || start.Players > input.MaxPlayers || start.Seat < 0 || start.Seat >= start.Players:
		return nil, fmt.Errorf("client: the match's start says seat %d of %d players", start.Seat, start.Players)
	case lead > int64(start.MaxLead)+1:
		return nil, fmt.Errorf("client: lead %d: the match takes an input at most %d ticks ahead", lead, start.MaxLead+1)
	}
	state, err := m.state(ctx, start)
	if err != nil {
		return nil, err
	}
	if state != nil {
		info, err := engine.ParseStateInfo(state)
		if err != nil {
			return nil, fmt.Errorf("client: the match's state: %w", err)
		}
		if info.Game.Name != start.Game || info.Game.Version != start.Version || info.Tick != start.From {
			return nil, fmt.Errorf("client: the match's state is of %s %s at tick %d; the match plays %s %s, its state of tick %d",
				info.Game.Name, info.Game.Version, info.Tick, start.Game, start.Version, start.From)
		}
	}
	s := &Session{m: m, start: start, lead: lead, ticks: make([]serverTick, sessionTicks),
		cur: make([]input.State, start.Players), state: state}
	if start.From > 0 { // the history begins with tick From, which the state ran
		s.received, s.simulated = start.From-1, start.From
	}
	return s, nil
}

// State returns the match's state the run is to begin from
// (engine.Options.FromState) when the player joined the match under way
// and the server sent one (wire.Start.From), nil otherwise: the run then
// begins at the match's first tick.
func (s *Session) State() []byte { return s.state }

// Start returns what the server sent as the match began.
func (s *Session) Start() wire.Start { return s.start }

// Checked returns how many ticks the loop ran with their checksum equal to
// the server's.
func (s *Session) Checked() int64 { return s.checked }

// Players returns the match's number of players.
func (s *Session) Players() int { return s.start.Players }

// Poll takes in the server's messages that have arrived (a kept match's:
// the next ticks).
func (s *Session) Poll() error {
	if s.m == nil {
		return s.pollKept()
	}
	for s.err == nil {
		select {
		case d, ok := <-s.m.data:
			if !ok {
				_, err := s.m.next(context.Background()) // says why: the socket, or an overflow
				s.err = err
				break
			}
			s.take(d.op, d.data)
			s.m.release(d)
		default:
			if s.end != nil && s.simulated >= s.end.Tick && s.err == nil {
				s.err = &EndedError{End: *s.end}
			}
			return s.err
		}
	}
	return s.err
}

// take handles one message of the match.
func (s *Session) take(op int64, data []byte) {
	switch op {
	case wire.OpTick:
		s.apply(data)
	case wire.OpHistory: // came back to a match under way: the ticks so far
		for rest := data; len(rest) > 0 && s.err == nil; {
			msg, after, err := wire.SplitHistory(rest)
			if err != nil {
				s.err = fmt.Errorf("client: the ticks so far after tick %d: %w", s.received, err)
				return
			}
			s.apply(msg)
			rest = after
		}
	case wire.OpEnd:
		var e wire.End
		if err := json.Unmarshal(data, &e); err != nil {
			s.err = fmt.Errorf("client: the match's end does not decode: %w", err)
			return
		}
		s.end = &e
	}
}

// apply keeps a tick message's inputs and checksum for the loop.
func (s *Session) apply(msg []byte) {
	tick, sum, err := wire.DecodeTick(msg, s.cur)
	switch {
	case err != nil:
		s.err = fmt.Errorf("client: tick message %d: %w", s.received+1, err)
		return
	case tick != s.received+1:
		s.err = fmt.Errorf("client: the server sent tick %d after tick %d", tick, s.received)
		return
	case tick-s.simulated > sessionTicks:
		s.err = fmt.Errorf("client: match %s: this window fell more than %d ticks behind the server", s.start.Match, sessionTicks)
		return
	}
	st := &s.ticks[tick%sessionTicks]
	st.tick, st.sum = tick, sum
	copy(st.in[:], s.cur)
	s.received = tick
}

// Hold never holds: the loop waits for the server's ticks (Ready) instead.
func (s *Session) Hold() bool { return false }

// Behind reports how many ticks the loop is to run faster than real time
// to catch up with the server's (engine.Follower): 0 unless more than
// catchUpAfter wait, then all but jitterTicks of them.
func (s *Session) Behind() int64 {
	if n := s.received - s.simulated; n > catchUpAfter {
		return n - jitterTicks
	}
	return 0
}

// Ready reports whether the server's tick t has arrived.
func (s *Session) Ready(t int64) bool { return t <= s.received }

// Local keeps the local player's input, sent at the frame's end.
func (s *Session) Local(t int64, in *input.State) {
	s.held = *in
	s.held.ClearEdges()
	s.haveHeld = true
	s.noteLocal(t, &s.held)
}

// sample is the local player's held input sampled at a tick.
type sample struct {
	tick int64
	held input.State
}

// noteLocal notes the local player's held input sampled at tick t.
func (s *Session) noteLocal(t int64, held *input.State) {
	s.samples[t%predictSlots] = sample{tick: t, held: *held}
}

// noteRan notes that tick t runs, the first time, with own as the local
// player's input: when it changed since the tick before, the change is
// timed from the latest tick that sampled it (none found in the last
// predictSlots ticks: not timed).
func (s *Session) noteRan(t int64, own *input.State) {
	if t <= s.ranAt {
		return // simulated again, or the tick the run began from
	}
	held := *own
	held.ClearEdges()
	changed := !held.Same(&s.ran)
	s.ran, s.ranAt = held, t
	if !changed {
		return
	}
	for at := t; at > max(t-predictSlots, 0); at-- {
		if sm := &s.samples[at%predictSlots]; sm.tick == at && sm.held.Same(&held) {
			s.delayTicks += t - at
			s.delayed++
			return
		}
	}
}

// InputDelay returns the mean number of ticks from the tick that sampled
// a change of the local player's input to the first tick the loop ran
// with it (what a player feels: for a Session, the round trip and the
// lead; for a Predicting one, its delay), and how many changes it is the
// mean of (those whose sampling was found among the last predictSlots
// ticks').
func (s *Session) InputDelay() (mean float64, changes int64) {
	if s.delayed == 0 {
		return 0, 0
	}
	return float64(s.delayTicks) / float64(s.delayed), s.delayed
}

// Inputs sets every player's input of tick t to the server's.
func (s *Session) Inputs(t int64, players []input.State) {
	st := &s.ticks[t%sessionTicks]
	if st.tick != t {
		if s.err == nil {
			s.err = fmt.Errorf("client: the loop asked for tick %d, which the server has not sent", t)
		}
		return
	}
	copy(players, st.in[:len(players)])
	s.simulated = max(s.simulated, t)
	if s.start.Seat < len(players) {
		s.noteRan(t, &players[s.start.Seat])
	}
}

// Rollback never rolls back: every input is the server's.
func (s *Session) Rollback() (int64, bool) { return 0, false }

// Discard does nothing: the server's ticks are never rolled back
// (engine.Session).
func (s *Session) Discard(int64) {}

// Confirmed is the last tick the server sent.
func (s *Session) Confirmed() int64 { return s.received }

// Checksum checks the state after tick t against the server's.
func (s *Session) Checksum(t int64, sum uint64) {
	st := &s.ticks[t%sessionTicks]
	if st.tick != t || s.err != nil {
		return
	}
	if sum != st.sum {
		s.err = &DesyncError{Tick: t, Server: st.sum, Client: sum}
		return
	}
	s.checked++
}

// EndFrame sends the local player's input, when it changed, stamped lead
// ticks past the last tick received.
func (s *Session) EndFrame() error {
	if s.err != nil || s.m == nil {
		return s.err
	}
	if !s.haveHeld || s.haveSent && s.held.Same(&s.sent) {
		return nil
	}
	at := s.received + s.lead
	if s.start.Ticks > 0 && at > s.start.Ticks || s.end != nil {
		return nil // past the match's end
	}
	s.msg = wire.AppendInput(s.msg[:0], at, &s.held)
	if err := s.m.Send(wire.OpInput, s.msg); err != nil {
		return err
	}
	s.sent, s.haveSent = s.held, true
	return nil
}

// Err returns what ended the session, if anything has.
func (s *Session) Err() error { return s.err }
