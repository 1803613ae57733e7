package netplay

import (
	"fmt"
	"math"
	"time"

	"github.com/fixedstep/fixedstep/engine/input"
	"github.com/fixedstep/fixedstep/engine/internal/inputlog"
	"github.com/fixedstep/fixedstep/engine/netplay/netsim"
	"github.com/fixedstep/fixedstep/internal/wirebytes"
)

// The play: the engine.Session methods, called on the loop's goroutine,
// and the packets that carry the inputs and checksums.

const (
	sendEvery    = 15 * time.Millisecond  // the longest between two packets to a peer while playing
	sendSoonest  = 4 * time.Millisecond   // the shortest, when there is new input to send
	maxSums      = 24                     // checksums in one packet
	blockSpace   = 48                     // what a packet keeps free for a block's header and the CRC
	seqWindow    = 1 << 16                // how far past the last a sequence number may be: more packets lost than a timeout lets pass
	stall        = 250 * time.Millisecond // a longer wait between two polls: this machine stood still, and heard nothing meanwhile
	catchUp      = 8                      // ticks a spectator may lag the inputs it has before it catches up
	catchUpBurst = 8                      // packets more a flush sends a joiner under way that lacks many ticks
)

// Players is the number of players (engine.Session).
func (s *Session) Players() int { return s.players }

// Poll takes in the packets that arrived, and ends the session when a
// peer fell silent or left, or the players' states differ
// (engine.Session).
func (s *Session) Poll() error {
	if s.err != nil {
		return s.err
	}
	now := time.Now()
	if gap := now.Sub(s.lastPoll); !s.lastPoll.IsZero() && gap > stall {
		// This machine stood still (a busy machine, a debugger, a window
		// dragged): a peer's silence counts only while this run listens.
		for _, p := range s.peers {
			p.heard = p.heard.Add(gap)
		}
	}
	s.lastPoll = now
	s.drain(now)
	if s.host {
		s.fillSeats()
	}
	for _, p := range s.peers {
		if p.gone == "" && now.Sub(p.heard) > s.timeout {
			s.leave(p, silence(s.timeout), s.q.conf[max(p.player, 0)])
		}
		s.compare(p)
	}
	if s.desync != nil && s.err == nil {
		s.desyncDone(now)
	}
	if s.err == nil && s.desync == nil {
		s.err = s.stranded()
	}
	if s.err == nil && s.host {
		s.err = s.seatsWaited(now)
	}
	return s.err
}

// silence is why a peer not heard from for d has left.
func silence(d time.Duration) string {
	return fmt.Sprintf("nothing heard for %v (it froze or crashed, or the network between failed)", d)
}

// stranded returns the error of a session that cannot go on: a player
// whose input can no longer arrive left on its own (it quit, failed or
// fell silent), or left as its run ended before this run has its input
// for the ticks this run has simulated. A player left as its run ended
// when this run's ends too is no error; one whose input a later tick
// needs is found by Ready.
func (s *Session) stranded() error {
	for q := range s.players {
		if q == s.local || s.fill[q] {
			continue
		}
		p := s.sourceOf(q)
		if p.gone == "" || p.finished && s.q.conf[q] >= s.q.simulated {
			continue
		}
		reason := p.gone
		if p.player != q {
			reason = fmt.Sprintf("%s (it relayed player %d's input)", reason, q+1)
		}
		return &PeerError{Player: p.player, Addr: p.addr.String(), Reason: reason}
	}
	return nil
}

// drain takes in every packet waiting.
func (s *Session) drain(now time.Time) {
	for {
		select {
		case d := <-s.in:
			s.take(d, now)
			s.free <- d
		default:
			return
		}
	}
}

// Hold reports whether this run is ahead of a player's by a tick or more,
// as both see it: then its game time stands still for a frame
// (engine.Session).
func (s *Session) Hold() bool {
	if s.local < 0 {
		return false
	}
	for _, p := range s.peers {
		if p.player < 0 || p.gone != "" || p.tick == 0 {
			continue
		}
		ours := s.q.simulated - p.tick // we are this far ahead of what it last said, it that far of what we did
		if (ours-p.adv)/2 >= 1 {
			return true
		}
	}
	return false
}

// Ready reports whether tick t may run: it predicts at most
// Config.MaxPrediction ticks past the confirmed inputs (a spectator
// predicts none). A tick that waits on a player who has left ends the
// session (engine.Session).
func (s *Session) Ready(t int64) bool {
	if s.desync != nil {
		return false // the game went different ways: no tick more
	}
	if t <= s.from && s.err == nil {
		s.err = fmt.Errorf("netplay: tick %d: the session was joined under way and begins after tick %d, from the host's state: "+
			"run with engine.Options.FromState set to Session.State()", t, s.from)
	}
	if s.err != nil {
		return false
	}
	c := s.q.confirmed()
	if t <= c+s.maxPred {
		return true
	}
	for q := range s.players {
		if s.q.conf[q] < t && !s.canArrive(q) {
			if s.err == nil {
				p := s.sourceOf(q) // the player, or the host it came through
				s.err = &PeerError{Player: p.player, Addr: p.addr.String(),
					Reason: fmt.Sprintf("%s (tick %d needed player %d's input)", p.gone, t, q+1)}
			}
			return false
		}
	}
	return false
}

// sourceOf returns the peer player q's input comes from.
func (s *Session) sourceOf(q int) *peer {
	if !s.host {
		return s.peers[0]
	}
	for _, p := range s.peers {
		if p.player == q {
			return p
		}
	}
	return s.peers[0]
}

// canArrive reports whether more of player q's input can still arrive.
func (s *Session) canArrive(q int) bool { return q == s.local || s.fill[q] || s.sourceOf(q).gone == "" }

// Local keeps the local player's input of tick t, to play at tick t plus
// the input delay, and sends it with the next packets (engine.Session). A
// spectator has none.
func (s *Session) Local(t int64, in *input.State) {
	if s.local < 0 {
		return
	}
	at := t + s.delay
	if at < s.ownFrom {
		return // the host gave the seat its input up to there, as it waited
	}
	if s.q.inWindow(s.local, at) {
		s.q.add(s.local, at, in)
	}
	if s.host {
		s.fillSeats()
	}
	if s.hist != nil {
		s.hist.keep(&s.q)
	}
}

// Inputs sets every player's input of tick t, known or predicted
// (engine.Session).
func (s *Session) Inputs(t int64, players []input.State) { s.q.inputs(t, players) }

// Behind reports how far a spectator's run is behind the inputs it has,
// once it is more than catchUp ticks: a spectator that joined a session
// under way simulates it from its start or from the host's state, and its
// loop runs as many ticks a frame as it may until it has caught up
// (engine.Follower). So does a player who took its seat back, until its
// own input plays. A player's run keeps pace with the others' (Hold): 0.
func (s *Session) Behind() int64 {
	if s.local >= 0 && s.q.simulated+s.delay+1 >= s.ownFrom {
		return 0
	}
	if n := s.q.confirmed() - s.q.simulated; n > catchUp {
		return n - catchUp/2
	}
	return 0
}

// Rollback reports the earliest tick that ran with a prediction proved
// wrong (engine.Session).
func (s *Session) Rollback() (int64, bool) { return s.q.rollback() }

// Confirmed is the last tick up to which every player's input is known
// (engine.Session).
func (s *Session) Confirmed() int64 { return s.q.confirmed() }

// Discard forgets what the ticks after t ran with and their checksums:
// the scene ended on tick t, and they are the next scene's
// (engine.Session).
func (s *Session) Discard(t int64) { s.q.discard(t) }

// Checksum keeps the state checksum after tick t, to compare with the
// other players' once final (engine.Session).
func (s *Session) Checksum(t int64, sum uint64) { s.q.setSum(t, sum) }

// EndFrame sends every peer what it lacks (engine.Session).
func (s *Session) EndFrame() error {
	if s.err != nil {
		return s.err
	}
	now := time.Now()
	s.flush(now, false)
	if s.desync != nil {
		s.sendReport(now)
	}
	return nil
}

// flush sends each peer an input packet when one is due (always, with
// force), and the host its start to a joiner that has sent nothing since.
func (s *Session) flush(now time.Time, force bool) {
	for _, p := range s.peers {
		if p.gone != "" {
			continue
		}
		if s.host && !p.started { // until it has started: its state, then the start, again
			if p.underWay && !p.stateDone() {
				s.sendState(p, now)
				continue
			}
			if now.Sub(p.lastSend) >= 100*time.Millisecond {
				s.send(p, kindStart)
				p.lastSend = now
			}
			continue
		}
		since := now.Sub(p.lastSend)
		if force || since >= sendEvery || since >= sendSoonest && s.newFor(p) {
			s.sendInput(p, now, false)
			for range catchUpBurst {
				if !s.feeding(p) {
					break
				}
				s.sendInput(p, now, true)
			}
		}
	}
}

// sendsUpTo returns the last tick of player q's input this machine has
// to send p: the host sends a peer every player's but its own (a player
// who took its seat back, its seat's up to its own); a joiner sends the
// host its own. -1: none.
func (s *Session) sendsUpTo(p *peer, q int) int64 {
	switch {
	case s.host && q != p.player:
		return s.q.conf[q]
	case s.host:
		return min(s.q.conf[q], p.ownFrom-1)
	case q == s.local:
		return s.q.conf[q]
	}
	return -1
}

// newFor reports whether this machine has input for p that it has not
// sent it yet.
func (s *Session) newFor(p *peer) bool {
	for q := range s.players {
		if p.sentTo[q] < s.sendsUpTo(p, q) {
			return true
		}
	}
	return false
}

// lacks reports whether p lacks input this machine has for it.
func (s *Session) lacks(p *peer) bool {
	for q := range s.players {
		if p.ack[q] < s.sendsUpTo(p, q) {
			return true
		}
	}
	return false
}

// feeding reports whether p, a joiner under way that simulates the ticks
// it lacks, lacks more than a packet holds of them, beyond what was sent
// it and within what it can keep: then a flush sends it more packets, each
// going on from the last (catchUpBurst).
func (s *Session) feeding(p *peer) bool {
	if !s.host || !p.underWay {
		return false
	}
	for q := range s.players {
		upTo := min(s.sendsUpTo(p, q), p.tick+ringTicks/2)
		if upTo-p.ack[q] > 127 && p.sentTo[q] < upTo {
			return true
		}
	}
	return false
}

// sendInput sends p an input packet: what p lacks of the inputs this
// machine sends it, oldest first, as many as fit (going on from what was
// sent it, with more), the acks, the final checksums p lacks, and the
// time synchronisation's figures.
func (s *Session) sendInput(p *peer, now time.Time, more bool) {
	p.sent++
	p.lastSend = now
	w := &s.w
	w.begin(kindInput, s.id, p.sent)
	from := uint8(spectator)
	if s.local >= 0 {
		from = uint8(s.local)
	}
	w.u8(from)
	w.uvarint(uint64(s.q.simulated))
	w.varint(s.q.simulated - p.tick)
	w.u32(s.clock(now))
	w.u32(p.echo)
	age := uint16(0)
	if p.echo != 0 {
		age = uint16(min(now.Sub(p.echoAt).Milliseconds(), math.MaxUint16))
	}
	w.u16(age)
	w.u8(uint8(s.players))
	for q := range s.players {
		w.u8(uint8(q))
		w.uvarint(uint64(s.q.conf[q]))
	}
	w.uvarint(uint64(p.sumTo))
	final := s.q.final()
	first := p.sumAck + 1
	for first <= final && first <= s.q.simulated-ringTicks { // no longer kept (a spectator that joined late)
		first = s.q.simulated - ringTicks + 1
	}
	n := int64(0)
	for first+n <= final && n < maxSums {
		if _, ok := s.q.sum(first + n); !ok {
			break
		}
		n++
	}
	w.uvarint(uint64(first))
	w.u8(uint8(n))
	for t := first; t < first+n; t++ {
		sum, _ := s.q.sum(t)
		w.u64(sum)
	}
	blocksAt := len(w.b)
	w.u8(0)
	blocks := uint8(0)
	for q := range s.players {
		upTo := s.sendsUpTo(p, q)
		if p.ack[q] >= upTo || len(w.b) > MaxPacket-blockSpace {
			continue
		}
		if upTo-p.ack[q] >= ringTicks/2 && (s.hist == nil || p.ack[q] >= s.hist.last[q]) {
			continue // it fell too far behind: what it lacks is gone
		}
		first := p.ack[q] + 1
		if more {
			first = max(first, p.sentTo[q]+1)
		}
		if first > min(upTo, p.tick+ringTicks/2) {
			continue
		}
		blocks++
		p.sentTo[q] = s.appendBlock(p, q, first, upTo)
	}
	w.b[blocksAt] = blocks
	s.write(p.udpAddr, w.end())
}

// appendBlock appends the run of player q's inputs p lacks from tick
// first up to tick upTo, as many as fit in the packet and as far as p can keep them (a
// spectator that joined late simulates them first), and returns the last
// tick it holds. The inputs come from the queue's ring or, older, from
// the host's history.
func (s *Session) appendBlock(p *peer, q int, first, upTo int64) int64 {
	w := &s.w
	last := min(upTo, p.tick+ringTicks/2)
	w.u8(uint8(q))
	w.uvarint(uint64(first))
	countAt := len(w.b)
	w.u8(0) // the count, a one-byte uvarint: at most 127 ticks a block
	var prev input.State
	count := 0
	add := func(t int64, in *input.State) bool {
		if t > last || count >= 127 {
			return false
		}
		start := len(w.b)
		w.b = inputlog.AppendEntry(w.b, 1, &prev, in)
		if len(w.b) > MaxPacket-crcSize {
			w.b = w.b[:start]
			return false
		}
		prev = *in
		prev.ClearEdges()
		count++
		return true
	}
	if inRing := s.q.known(q, first-1) || first == 1 && s.q.known(q, 1); !inRing && s.hist != nil {
		s.hist.read(q, max(first-1, 1), func(t int64, in *input.State) bool {
			if t < first {
				prev = *in
				prev.ClearEdges()
				return true
			}
			return add(t, in)
		})
	} else {
		if first > 1 {
			prev = s.q.input(q, first-1)
			prev.ClearEdges()
		}
		for t := first; add(t, &s.q.in[q][t%ringTicks]); t++ {
		}
	}
	w.b[countAt] = uint8(count)
	return first + int64(count) - 1
}

// take handles a datagram that arrived.
func (s *Session) take(d *datagram, now time.Time) {
	s.stats.PacketsReceived++
	s.stats.BytesReceived += int64(d.n)
	p := s.peerAt(d)
	if p == nil && d.n <= MaxPacket {
		// Not a peer: a late joiner's hello is told the session has begun;
		// anything else is a stranger's (a flood is dropped here, cheaply).
		if h, payload, _, ok := parseHeader(d.b[:d.n]); ok && h.kind == kindHello && s.host {
			s.hello(d.from, payload, false)
			return
		}
		s.stats.Dropped[dropStranger]++
		return
	}
	h, payload, why, ok := parseHeader(d.b[:d.n])
	switch {
	case !ok:
		s.stats.Dropped[why]++
		return
	case p == nil:
		s.stats.Dropped[dropStranger]++
		return
	case h.kind == kindHello && s.host:
		s.hello(d.from, payload, false) // its welcome again, if it is a player whose welcome was lost
		return
	case p.gone != "":
		s.stats.Dropped[dropStranger]++ // it left: what it sends now is no one's
		return
	case h.session != s.id:
		s.stats.Dropped[dropOtherSession]++
		return
	case h.kind == kindWelcome || h.kind == kindStart || h.kind == kindState:
		return // the host says again what it said: the session has begun here
	case h.kind == kindInput && (h.seq <= p.seq || h.seq-p.seq > seqWindow):
		// Late, duplicated, replayed, or forged far ahead to make the peer's
		// own look stale: its inputs came again in a later packet. (A piece
		// of a report or a goodbye is the same whenever it comes.)
		s.stats.Dropped[dropStale]++
		return
	}
	switch h.kind {
	case kindInput:
		if !s.takeInput(p, payload, now) {
			return
		}
		p.seq = h.seq
	case kindStateAck:
		if !s.host || !s.takeStateAck(p, payload, now) {
			s.stats.Dropped[dropMalformed]++
			return
		}
	case kindReport:
		if !s.takeReport(p, payload) {
			s.stats.Dropped[dropMalformed]++
			return
		}
	case kindBye:
		r := reader{wirebytes.Reader{B: payload}}
		why, last, msg := r.U8(), r.tick(), r.text(maxMessage)
		if !r.Done() || why < byeFinished || why > byeFailed {
			s.stats.Dropped[dropMalformed]++
			return
		}
		p.heard = now
		p.finished = why == byeFinished
		s.leave(p, byeText(why, last, msg, p.player < 0), last)
		return
	default:
		s.stats.Dropped[dropMalformed]++
		return
	}
	p.heard = now
	if s.host && !p.started && h.kind != kindStateAck { // a joiner under way acknowledges its state's pieces before it starts
		p.started = true
	}
}

// byeText says why a peer left, from its bye: a spectator's has no tick
// of its own input. The peer's message is shown printable (printable).
func byeText(why uint8, last int64, msg string, spectator bool) string {
	switch {
	case why == byeFinished && spectator:
		return "its run ended"
	case why == byeFinished:
		return fmt.Sprintf("its run ended after tick %d", last)
	case why == byeQuit:
		return "it quit"
	}
	return "its run failed: " + printable(msg)
}

// peerAt returns the peer a datagram came from, nil for a stranger.
func (s *Session) peerAt(d *datagram) *peer {
	for _, p := range s.peers {
		if p.addr == d.from {
			return p
		}
	}
	return nil
}

// leave marks p gone, having sent its own input up to tick last; a player
// of the host's leaving ends no run by itself: a tick that waits for its
// input does (Ready).
func (s *Session) leave(p *peer, why string, last int64) {
	if p.gone != "" {
		return
	}
	p.gone, p.goneAfter, p.offer = why, last, nil
	s.logf("%s (%s) left: %s", who(p.player), p.addr, why)
	s.holdSeat(p)
}

// acked sums what the peers still playing acknowledge of every player's
// input: it grows while they take what they lack.
func (s *Session) acked() int64 {
	var n int64
	for _, p := range s.peers {
		if p.gone == "" {
			for q := range s.players {
				n += p.ack[q]
			}
		}
	}
	return n
}

// Quit says that the local player quit (a closed window, Ctrl-C): Close
// tells the others so, at once, rather than that the run ended.
func (s *Session) Quit() { s.quit = true }

// Fail says that the local run failed on its own, with err (a scene's
// error or panic): Close tells the others why, at once.
func (s *Session) Fail(err error) {
	if err != nil {
		s.failed = err
	}
}

// Close ends the session: it goes on sending the peers what they lack of
// this machine's inputs (so that a run that ended first lets the others
// end too) as long as they take it, and Config.Timeout past the last they
// took, then says goodbye and closes the socket. The goodbye says why:
// the run ended, the player quit (Quit), or the run failed (Fail, or the
// session's own error), and then it is sent at once. It returns the
// session's error; a second call returns it again and does nothing.
func (s *Session) Close() error {
	if s.closed {
		return s.closeErr
	}
	s.closed = true
	s.closeErr = s.close()
	return s.closeErr
}

func (s *Session) close() error {
	if s.stop == nil {
		return s.conn.Close()
	}
	s.finishing = true
	deadline, acked := time.Now().Add(s.timeout), int64(-1)
	if s.quit || s.failed != nil || s.err != nil {
		deadline = time.Now() // the others cannot finish without this run: they are told at once
		acked = math.MaxInt64
	}
	for time.Now().Before(deadline) {
		now := time.Now()
		s.drain(now)
		done := true
		if a := s.acked(); a > acked {
			// The others are taking what they lack (a spectator that joined
			// late may lack minutes): the wait follows their progress.
			acked, deadline = a, now.Add(s.timeout)
		}
		for _, p := range s.peers {
			if p.gone == "" && now.Sub(p.heard) > s.timeout {
				s.leave(p, silence(s.timeout), 0)
			}
			if p.gone == "" && (s.lacks(p) || p.sumAck < s.q.final() && p.player >= 0) {
				done = false
			}
		}
		if done {
			break
		}
		s.flush(now, false)
		time.Sleep(2 * time.Millisecond)
	}

	why, msg := uint8(byeFinished), ""
	switch {
	case s.err != nil:
		why, msg = byeFailed, s.err.Error()
	case s.failed != nil:
		why, msg = byeFailed, s.failed.Error()
	case s.quit:
		why = byeQuit
	}
	last := int64(0)
	if s.local >= 0 {
		last = s.q.conf[s.local]
	}
	for range 3 { // a lost goodbye costs the others their timeout
		for _, p := range s.peers {
			if p.gone != "" {
				continue
			}
			p.sent++
			s.w.begin(kindBye, s.id, p.sent)
			s.w.u8(why)
			s.w.uvarint(uint64(last))
			s.w.text(msg, maxMessage)
			s.write(p.udpAddr, s.w.end())
		}
	}
	if c, ok := s.conn.(*netsim.Conn); ok {
		c.Drain() // the goodbyes are on their way through the conditioned link
	}
	err := s.conn.Close()
	<-s.readDone
	if s.err != nil {
		return s.err
	}
	return err
}

// String names the session's side: the host or a joiner, and where.
func (s *Session) String() string {
	role := "the host"
	switch {
	case s.local < 0:
		role = "a spectator"
	case s.local > 0:
		role = fmt.Sprintf("player %d", s.local+1)
	}
	return fmt.Sprintf("%s of a %d-player session of %s on %v", role, s.players, s.cfg.Game, s.udp.LocalAddr())
}
