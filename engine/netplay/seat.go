package netplay

import (
	"encoding/binary"
	"fmt"
	"time"

	"github.com/fixedstep/fixedstep/engine"
	"github.com/fixedstep/fixedstep/engine/input"
	"github.com/fixedstep/fixedstep/engine/internal/inputlog"
	"github.com/fixedstep/fixedstep/internal/wirebytes"
)

// Seats taken back, and joiners under way. When a player leaves a session
// under way (it quit, fell silent, or its run failed on its own) and the
// host's Config.SeatWait is set, its seat waits for it: the others play on,
// the host giving the seat an empty input every tick (its buttons
// released), and a player who joins the session again (Join, from any
// address) takes the seat back. A spectator may join under way too.
//
// Such a joiner begins from the host's state: the host's loop writes the
// state after its last final tick (engine.StateAsker), the host sends it
// in pieces, each checked by its packet's CRC, paced and sent again until
// acknowledged, and the joiner's run begins there (engine.Options.FromState
// with Session.State), in the host's scene: a scene after the first is
// made afresh by the joiner's first scene (engine.SceneMaker), the state
// saying the session's ticks before it (engine.StateInfo.Before). Where
// the host's run has no state to give (a scene after its first whose first
// scene is no SceneMaker, a scene with no state as bytes), or the joiner
// asked for every tick (Config.FromFirstTick: a recording holds the
// session from its start), the joiner simulates the session from its first tick
// instead, as fast as its loop may, with every input from the host's
// history; its checksums and the host's are compared as far back as each
// keeps them (the last ringTicks ticks, some 8 s), not from the first.
//
// A seat taken back is filled by the host up to a tick it chooses as it
// sends the state (the last tick of its own input it has given); the
// joiner's own input plays from the tick after. The others wait for it
// meanwhile, for as long as the joiner takes to catch up: a rejoin costs
// them a pause of about the state's transfer and a few ticks simulated.
//
//	state    tick:uvarint own:uvarint size:uvarint (index:u16 data | why:str)
//	stateack tick:uvarint have:u16
//
// tick is the state's (0: none; then why says why, and the joiner
// simulates from the first tick), own the first tick of the joiner's own
// input (0 for a spectator), size the state's bytes: each player's input
// of tick (input-log entries from no input) and the state file; index the
// piece carried, of statePiece bytes but the last. have counts the pieces
// the joiner holds, from the first.

const (
	statePiece     = MaxPacket - 64 // a state's bytes in one packet
	maxStateBytes  = 32 << 20       // the largest state sent or taken
	stateWindow    = 16             // pieces in flight, unacknowledged, at first and at least
	maxStateWindow = 512            // and at most (some 570 KB: the receive buffer a socket asks for holds it, readBuffer)
	stateResend    = 100 * time.Millisecond
)

// The pace of a state's pieces. They go as the joiner's acknowledgements
// come back (as the host reads them), not only as the host's frames end,
// so that a state crosses a link in a few round trips rather than at
// stateWindow pieces a frame. As
// TCP's slow start, the pieces in flight grow by one for each piece
// acknowledged (doubling each round trip) from stateWindow up to
// maxStateWindow, and halve when the host goes back to the first piece
// the joiner lacks: after stateResend or twice the round trip last
// measured (of a piece sent once), whichever is longer, without progress.
// BenchmarkStateTransfer measures it against a window of stateWindow
// pieces sent as frames end (fixedStatePace).

// statePace is how fast a joiner's pieces go.
type statePace struct {
	window   int           // the pieces in flight at most; 0: stateWindow
	sent     int           // the pieces sent once: those after are new
	mark     int           // a new piece whose acknowledgement measures the round trip; -1: none
	markedAt time.Time     // when it was sent
	rtt      time.Duration // the round trip last measured; 0: none yet
}

// fixedStatePace, set by the package's tests alone, sends stateWindow
// pieces in flight at most, as frames end: the baseline of
// BenchmarkStateTransfer.
var fixedStatePace bool

// stateOffer is a state the host's loop gave (or why it gave none): what
// a joiner under way begins from.
type stateOffer struct {
	tick int64
	blob []byte // each player's input of tick, then the state file
	why  string // with no state: why not
}

// pieces is how many pieces the offer's bytes take.
func (o *stateOffer) pieces() int { return (len(o.blob) + statePiece - 1) / statePiece }

// WantsState reports whether the host waits for its loop's state, for a
// joiner under way (engine.StateAsker).
func (s *Session) WantsState() bool {
	for _, p := range s.peers {
		if p.underWay && p.offer == nil && p.gone == "" {
			return true
		}
	}
	return false
}

// GiveState takes the loop's state after tick t, or why it has none, and
// offers it to every joiner waiting for one (engine.StateAsker).
func (s *Session) GiveState(t int64, state []byte, err error) {
	o := &stateOffer{tick: t}
	if err != nil {
		o.tick, o.why = 0, err.Error()
	} else {
		o.blob = s.stateBlob(t, state)
		if len(o.blob) > maxStateBytes {
			o.tick, o.blob, o.why = 0, nil, fmt.Sprintf("its state is %d bytes, more than %d", len(o.blob), maxStateBytes)
		}
	}
	for _, p := range s.peers {
		if p.underWay && p.offer == nil && p.gone == "" {
			s.offer(p, o)
		}
	}
}

// stateBlob returns what a state's pieces carry: each player's input of
// tick t, then the state file.
func (s *Session) stateBlob(t int64, state []byte) []byte {
	var b []byte
	var none input.State
	for q := range s.players {
		in := s.q.input(q, t)
		b = inputlog.AppendEntry(b, 0, &none, &in)
	}
	return append(b, state...)
}

// offer gives joiner p the offer it begins from: from its tick on, p holds
// every input and checksum up to it, and a player's seat is its own from
// the tick after the last the host filled.
func (s *Session) offer(p *peer, o *stateOffer) {
	p.offer, p.statePace = o, statePace{}
	from := o.tick
	if o.blob == nil {
		from = s.delay // from the first tick: the joiner holds the inputs of the ticks before the first plays (queue.reset)
	}
	for q := range s.players {
		p.ack[q], p.sentTo[q] = from, from
	}
	p.sumAck, p.sumTo, p.compared, p.tick = o.tick, o.tick, o.tick, o.tick
	if p.player >= 0 {
		p.ownFrom = s.q.conf[p.player] + 1
		p.ack[p.player] = min(p.ack[p.player], p.ownFrom-1)
		s.fill[p.player] = false
	}
	if o.blob == nil {
		s.logf("%s begins from the first tick (%s)", who(p.player), o.why)
	} else {
		s.logf("%s begins from the state of tick %d (%d bytes)", who(p.player), o.tick, len(o.blob))
	}
}

// who names a player, or a spectator.
func who(player int) string {
	if player < 0 {
		return "a spectator"
	}
	return fmt.Sprintf("player %d", player+1)
}

// sendState sends joiner p the pieces of its offer it lacks, at most its
// window unacknowledged, again from the first it lacks after a time
// without progress (see statePace).
func (s *Session) sendState(p *peer, now time.Time) {
	o := p.offer
	if o == nil {
		return
	}
	pc := &p.statePace
	if pc.window == 0 {
		pc.window, pc.mark = stateWindow, -1
	}
	if now.Sub(p.stateAt) >= max(stateResend, 2*pc.rtt) {
		if p.stateNext > p.stateHave && !fixedStatePace { // what was sent is lost, or its acks are: slower
			pc.window = max(pc.window/2, stateWindow)
		}
		p.stateNext, pc.mark = p.stateHave, -1 // go back
	}
	p.stateNext = max(p.stateNext, p.stateHave)
	if o.blob == nil {
		if now.Sub(p.stateAt) >= stateResend {
			s.statePacket(p, o, 0)
			p.stateAt = now
		}
		return
	}
	for ; p.stateNext < min(p.stateHave+pc.window, o.pieces()); p.stateNext++ {
		if pc.mark < 0 && p.stateNext >= pc.sent { // a piece sent once measures the round trip
			pc.mark, pc.markedAt = p.stateNext, now
		}
		s.statePacket(p, o, p.stateNext)
		pc.sent = max(pc.sent, p.stateNext+1)
		p.stateAt = now
	}
}

// statePacket sends p piece i of offer o (with no state: why).
func (s *Session) statePacket(p *peer, o *stateOffer, i int) {
	p.sent++
	w := &s.w
	w.begin(kindState, s.id, p.sent)
	w.uvarint(uint64(o.tick))
	w.uvarint(uint64(max(p.ownFrom, 0)))
	w.uvarint(uint64(len(o.blob)))
	if o.blob == nil {
		w.text(o.why, maxMessage)
	} else {
		w.u16(uint16(i))
		w.b = append(w.b, o.blob[i*statePiece:min((i+1)*statePiece, len(o.blob))]...)
	}
	s.write(p.udpAddr, w.end())
}

// stateDone reports whether joiner p holds the whole of its offer.
func (p *peer) stateDone() bool {
	return p.offer != nil && p.stateAcked && p.stateHave == p.offer.pieces()
}

// takeStateAck takes a joiner's acknowledgement of its state's pieces,
// and sends the pieces it lets go.
func (s *Session) takeStateAck(p *peer, payload []byte, now time.Time) bool {
	r := reader{wirebytes.Reader{B: payload}}
	tick, have := r.tick(), int(r.U16())
	o := p.offer
	if !r.Done() || o == nil || tick != o.tick || have > o.pieces() || have > p.statePace.sent && o.blob != nil {
		return false // more than it was sent: not an acknowledgement
	}
	if have < p.stateHave {
		return true // an older one, passed by a later
	}
	pc := &p.statePace
	if have > p.stateHave && !fixedStatePace {
		if pc.mark >= 0 && have > pc.mark {
			pc.rtt, pc.mark = now.Sub(pc.markedAt), -1
		}
		pc.window = min(max(pc.window, stateWindow)+have-p.stateHave, maxStateWindow)
		p.stateAt = now // progress: the time without it begins again
	}
	p.stateHave, p.stateAcked = have, true
	if !fixedStatePace && !p.stateDone() {
		s.sendState(p, now)
	}
	return true
}

// incoming is the state a joiner under way receives, piece by piece.
type incoming struct {
	tick, own int64
	size      int
	b         []byte
	got       []bool
	have      int // pieces held from the first
	why       string
	done      bool
}

// takeState takes a piece of the state the host sends; false when it is
// malformed or says another thing than the pieces before.
func (s *Session) takeState(in *incoming, payload []byte) bool {
	r := reader{wirebytes.Reader{B: payload}}
	tick, own, size := r.tick(), r.tick(), r.Uvarint()
	switch {
	case r.Bad || size > maxStateBytes || tick == 0 && size != 0 || tick > 0 && size == 0:
		return false
	case s.local < 0 && own != 0 || s.local >= 0 && own <= tick:
		return false // a spectator has no input of its own; a player's plays after the state
	case in.tick != 0 || in.done:
		if tick != in.tick || own != in.own || int(size) != in.size {
			return false
		}
	}
	in.tick, in.own, in.size = tick, own, int(size)
	if size == 0 {
		in.why = r.text(maxMessage)
		in.done = r.Done()
		return in.done
	}
	pieces := (in.size + statePiece - 1) / statePiece
	i := int(r.U16())
	data := r.Take(r.Left())
	want := min(statePiece, in.size-i*statePiece)
	if r.Bad || i >= pieces || len(data) != want {
		return false
	}
	if in.b == nil {
		in.b, in.got = make([]byte, in.size), make([]bool, pieces)
	}
	if !in.got[i] {
		copy(in.b[i*statePiece:], data)
		in.got[i] = true
	}
	for in.have < pieces && in.got[in.have] {
		in.have++
	}
	in.done = in.have == pieces
	return true
}

// ackState acknowledges what the joiner holds of its state.
func (s *Session) ackState(host *peer, in *incoming) {
	s.w.begin(kindStateAck, s.id, 0)
	s.w.uvarint(uint64(in.tick))
	s.w.u16(uint16(in.have))
	s.write(host.udpAddr, s.w.end())
}

// beginFrom readies a joiner's queue for the state it received: every
// player's input of its tick, read from the state's first bytes; the
// state file, checked to be of the session's game at that tick (its
// scene's ticks after the session's before it), is kept for the run
// (State).
func (s *Session) beginFrom(host *peer, in *incoming) error {
	s.ownFrom = in.own
	if s.local >= 0 {
		host.ack[s.local] = s.ownFrom - 1 // the host holds the seat's input up to there: it gave it
	}
	if in.tick == 0 {
		s.logf("the host gives no state (%s): simulating the session from its first tick", printable(in.why))
		return nil
	}
	var inputs [input.MaxPlayers]input.State
	off := 0
	var none input.State
	for q := range s.players {
		step, k := binary.Uvarint(in.b[off:])
		if k <= 0 || step != 0 {
			return fmt.Errorf("netplay: %s sent a state whose inputs make no sense", s.cfg.Addr)
		}
		end, err := inputlog.ReadEntry(in.b, off+k, &none, &inputs[q])
		if err != nil || !inputs[q].Possible() {
			return fmt.Errorf("netplay: %s sent a state whose inputs make no sense", s.cfg.Addr)
		}
		off = end
	}
	state := in.b[off:]
	info, err := engine.ParseStateInfo(state)
	switch {
	case err != nil:
		return fmt.Errorf("netplay: %s sent a state that is not one: %w", s.cfg.Addr, err)
	case info.Game.Name != s.cfg.Game || info.Game.Version != s.cfg.Version || info.Before < 0 || info.Tick != in.tick-info.Before:
		return fmt.Errorf("netplay: %s sent a state of %s version %q, scene %d, tick %d after %d; the session is of %s version %q at tick %d",
			s.cfg.Addr, printable(info.Game.Name), printable(info.Game.Version), info.Scene, info.Tick, info.Before, s.cfg.Game,
			s.cfg.Version, in.tick)
	}
	s.state, s.from = state, in.tick
	s.q.resetAt(s.players, in.tick, inputs[:s.players])
	host.sumTo, host.compared, host.sumAck = in.tick, in.tick, in.tick
	for q := range s.players {
		host.sentTo[q] = in.tick
		if q != s.local {
			host.ack[q] = in.tick
		}
	}
	s.logf("beginning from the host's state of tick %d (%d bytes)", in.tick, len(in.b)) // as the host counts it: the players' inputs and the state
	return nil
}

// State returns the state file a joiner under way begins from: run with it
// as engine.Options.FromState. It is nil for a session joined before its
// start, or simulated from its first tick.
func (s *Session) State() []byte { return s.state }

// fillSeats gives each empty seat (the host's) an empty input up to the
// host's own last input: its player's buttons released on the first.
func (s *Session) fillSeats() {
	filled := false
	for q := range s.players {
		if !s.fill[q] {
			continue
		}
		for t := s.q.conf[q] + 1; t <= s.q.conf[s.local] && s.q.inWindow(q, t); t++ {
			var in input.State
			if t > 1 {
				prev := s.q.input(q, t-1)
				in.DeriveEdges(&prev)
			}
			s.q.add(q, t, &in)
			filled = true
		}
	}
	if filled && s.hist != nil {
		s.hist.keep(&s.q)
	}
}

// holdSeat keeps player p's seat for it to take back, when the host's
// Config.SeatWait lets it: the others play on.
func (s *Session) holdSeat(p *peer) {
	if !s.host || p.player <= 0 || p.finished || s.cfg.SeatWait <= 0 || s.finishing {
		return
	}
	since := time.Now()
	if p.underWay && !p.started && !p.seatSince.IsZero() {
		since = p.seatSince // it left before it played: the seat waited all along
	}
	s.fill[p.player], s.emptySince[p.player] = true, since
	s.logf("player %d's seat waits %v for it to join again; the others play on, its input empty", p.player+1, s.cfg.SeatWait)
}

// seatFor returns the empty seat a player joining under way takes, or -1.
func (s *Session) seatFor() int {
	for q := 1; q < s.players; q++ {
		if s.fill[q] && !s.emptySince[q].IsZero() {
			return q
		}
	}
	return -1
}

// seatsWaited returns the error of a seat that waited Config.SeatWait in
// vain.
func (s *Session) seatsWaited(now time.Time) error {
	for q := 1; q < s.players; q++ {
		if s.fill[q] && !s.emptySince[q].IsZero() && now.Sub(s.emptySince[q]) > s.cfg.SeatWait {
			p := s.sourceOf(q)
			why := p.gone
			if p.player != q || why == "" {
				why = "it left"
			}
			return &PeerError{Player: q, Addr: p.addr.String(),
				Reason: fmt.Sprintf("%s; its seat waited %v for it to join again", why, s.cfg.SeatWait)}
		}
	}
	return nil
}
