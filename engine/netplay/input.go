package netplay

import (
	"math"
	"time"

	"github.com/fixedstep/fixedstep/engine/input"
	"github.com/fixedstep/fixedstep/engine/internal/inputlog"
	"github.com/fixedstep/fixedstep/internal/wirebytes"
)

// An input packet as it arrives: read whole and checked before anything
// of it is kept, and the checksums it carries compared with this run's.

// scratch is where a packet's inputs are decoded before any is kept.
type scratch struct {
	player [MaxPacket / 2]int
	tick   [MaxPacket / 2]int64
	in     [MaxPacket / 2]input.State
}

// takeInput reads an input packet from p, and keeps what it says when the
// whole of it is good; it reports false (having counted the drop) when
// it is not.
func (s *Session) takeInput(p *peer, payload []byte, now time.Time) bool {
	r := reader{wirebytes.Reader{B: payload}}
	from := r.U8()
	tick, adv := r.tick(), r.Varint()
	sentAt, echo, echoAge := r.U32(), r.U32(), r.U16()
	acks := int(r.U8())
	// Every count is checked against its limit and the bytes left before
	// anything is read or kept by it: an ack takes 2 bytes at least, a
	// checksum 8, a block 3 and an entry of it 2. The advantage is a
	// difference of two ticks (Hold subtracts it from another).
	if r.Bad || acks > s.players || acks*2 > r.Left() || adv < -math.MaxInt64/2 || adv > math.MaxInt64/2 ||
		from != uint8(p.player) && !(p.player < 0 && from == spectator) {
		s.stats.Dropped[dropMalformed]++
		return false
	}
	var ack [input.MaxPlayers]int64
	for range acks {
		q, t := int(r.U8()), r.tick()
		if q >= s.players {
			r.Bad = true
			break
		}
		ack[q] = t
	}
	sumTo := r.tick()
	first, n := r.tick(), int(r.U8())
	if n > maxSums || n*8 > r.Left() || first < 1 && n > 0 {
		r.Bad, n = true, 0
	}
	var sums [maxSums]uint64
	for i := range n {
		sums[i] = r.U64()
	}
	blocks := int(r.U8())
	if blocks*3 > r.Left() {
		r.Bad, blocks = true, 0
	}
	if s.decoded == nil {
		s.decoded = &scratch{}
	}
	k, early := 0, false
	for range blocks {
		q, start, n := int(r.U8()), r.tick(), r.Uvarint()
		if r.Bad || q >= s.players || q == s.local && start+int64(n) > s.ownFrom || s.host && q != p.player ||
			start < 1 || n > uint64(len(s.decoded.in)-k) || n > uint64(r.Left()/2) {
			r.Bad = true
			break
		}
		count := int(n)
		if !s.q.known(q, start-1) && start > 1 {
			// It sends from what we acked, or (a joiner under way catching
			// up) from what it sent before: one of those packets was lost.
			early, r.Bad = true, true
			break
		}
		var held input.State
		if start > 1 {
			held = s.q.in[q][(start-1)%ringTicks]
			held.ClearEdges()
		}
		for i := range count {
			if step := r.Uvarint(); step != 1 || r.Bad {
				r.Bad = true
				break
			}
			end, err := inputlog.ReadEntry(r.B, r.Off, &held, &s.decoded.in[k])
			if err != nil || !s.decoded.in[k].Possible() {
				r.Bad = true
				break
			}
			r.Off = end
			s.decoded.player[k], s.decoded.tick[k] = q, start+int64(i)
			held = s.decoded.in[k]
			held.ClearEdges()
			k++
		}
	}
	if early {
		s.stats.Dropped[dropOutOfWindow]++
		return false
	}
	if !r.Done() {
		s.stats.Dropped[dropMalformed]++
		return false
	}
	for i := range k {
		q, t := s.decoded.player[i], s.decoded.tick[i]
		if !s.q.inWindow(q, t) {
			s.stats.Dropped[dropOutOfWindow]++
			return false
		}
		if s.q.known(q, t) && !s.q.in[q][t%ringTicks].Same(&s.decoded.in[i]) {
			s.stats.Dropped[dropConflicting]++
			return false
		}
	}
	for i := range k {
		q, t := s.decoded.player[i], s.decoded.tick[i]
		s.q.add(q, t, &s.decoded.in[i])
	}
	if s.hist != nil {
		s.hist.keep(&s.q)
	}
	for q := range s.players {
		p.ack[q] = max(p.ack[q], min(ack[q], s.q.conf[q]))
	}
	p.sumAck = max(p.sumAck, min(sumTo, s.q.final()))
	if (s.local < 0 || s.underWay || p.underWay) && first > p.sumTo+1 && n > 0 {
		// A peer that joined under way, simulating from the first tick:
		// the other no longer keeps the checksums before first, which
		// cannot be compared.
		p.sumTo = first - 1
	}
	for i := range n {
		t := first + int64(i)
		if t == p.sumTo+1 {
			p.sums[t%ringTicks], p.sumAt[t%ringTicks] = sums[i], t
			p.sumTo = t
		}
	}
	p.tick, p.adv = tick, adv
	p.echo, p.echoAt = sentAt, now
	if echo != 0 {
		if rtt := time.Duration(int64(s.clock(now))-int64(echo)-int64(echoAge)) * time.Millisecond; rtt >= 0 {
			p.rtt = rtt
		}
	}
	return true
}

// compare compares p's final checksums with ours, as far as both are
// final: the first that differs ends the session with a DesyncError. A
// spectator's run is its own: the host compares players only.
func (s *Session) compare(p *peer) {
	if s.host && p.player < 0 || s.err != nil || s.desync != nil {
		return
	}
	final := min(s.q.final(), p.sumTo)
	for p.compared < final {
		t := p.compared + 1
		ours, ok := s.q.sum(t)
		if ok && p.sumAt[t%ringTicks] == t && p.sums[t%ringTicks] != ours {
			s.desync = &DesyncError{Tick: t, Found: s.q.simulated, Other: max(p.player, 0), Ours: ours, Their: p.sums[t%ringTicks]}
			s.exchange.peer, s.exchange.found = p, time.Now()
			s.logf("desync after tick %d with player %d: making the report", t, p.player+1)
			return
		}
		p.compared = t
	}
}
