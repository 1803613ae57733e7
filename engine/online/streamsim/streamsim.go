// Package streamsim is a link conditioner for stream connections (TCP,
// and so a websocket or an HTTP call over it), as engine/netplay/netsim
// is for datagrams: the bytes each side sends arrive late, by a latency
// and a jitter, and now and then the stream stalls, by a seeded random
// source. It is for tests of online play over real sockets, and for a
// person trying a game against a game server over a bad link on one
// machine (the online mode's -server-netsim).
//
//	link, _ := streamsim.ParseLink("50ms,10ms,1%,200ms") // each way: latency, jitter, loss, stall
//	p, _ := streamsim.Listen("127.0.0.1:0", "127.0.0.1:7350", link)
//	defer p.Close()
//	// dial p.Addr() instead of 127.0.0.1:7350: both directions are conditioned
//
// or, around a connection made already, bad, _ := streamsim.Wrap(conn,
// link): what is written to bad and what is read from it are conditioned.
//
// A stream keeps its order: each chunk of bytes (what one read of the
// sender's side returned) is delivered after its delay, Latency ± Jitter,
// but never before an earlier chunk: its delay is the larger of its own
// and the one before's. A stream loses nothing either: TCP resends a lost
// segment, and everything behind it waits for the resend. So loss is
// modelled as that: a lost chunk (a share of them, Loss) holds the stream
// for Stall more, the retransmission timeout, and the chunks after it
// wait behind it. The latency is each way's: the round trip is twice it.
package streamsim

import (
	"errors"
	"fmt"
	"math/rand/v2"
	"time"

	"github.com/fixedstep/fixedstep/engine/internal/linkspec"
)

// MaxLatency bounds a link's latency (and so its jitter) and its stall: a
// minute, far past any real link's.
const MaxLatency = time.Minute

// DefaultStall is how long a lost chunk holds the stream when the link
// does not say (Link.Stall 0): 200 ms, Linux's least retransmission
// timeout.
const DefaultStall = 200 * time.Millisecond

// Link is how a stream's link misbehaves, each way.
type Link struct {
	Latency time.Duration // added to every chunk's trip: 0 to MaxLatency
	Jitter  time.Duration // up to this much more or less, at random: 0 to Latency
	Loss    float64       // the share of chunks lost and resent, each holding the stream for Stall: 0 to 1
	Stall   time.Duration // how long a lost chunk holds the stream: 0 to MaxLatency; 0: DefaultStall
	Seed    uint64        // the random source's seed: the same seed, the same decisions
}

// Validate refuses a link that cannot be, naming the range a value must
// be in: a latency or a stall outside 0 to MaxLatency, a jitter outside 0
// to the latency (bytes would arrive before they left), a loss outside
// [0, 1] or not a number, or -0.
func (l Link) Validate() error {
	switch {
	case l.Latency < 0 || l.Latency > MaxLatency:
		return fmt.Errorf("streamsim: latency %v: must be 0 to %v", l.Latency, MaxLatency)
	case l.Jitter < 0 || l.Jitter > l.Latency:
		return fmt.Errorf("streamsim: jitter %v: must be 0 to the latency, %v (bytes would arrive before they left)", l.Jitter, l.Latency)
	case !linkspec.ValidShare(l.Loss):
		return fmt.Errorf("streamsim: loss %v: must be a share from 0 to 1 (0%% to 100%%)", l.Loss)
	case l.Stall < 0 || l.Stall > MaxLatency:
		return fmt.Errorf("streamsim: stall %v: must be 0 to %v", l.Stall, MaxLatency)
	}
	return nil
}

// ParseLink reads a link as a command line gives it: the latency each
// way, then optionally the jitter, the loss and the stall, comma-separated:
// "50ms", "50ms,10ms", "50ms,10ms,1%,300ms". The loss is a percentage
// (1%) or a fraction (0.01); the stall defaults to DefaultStall. A value
// that cannot be (see Validate), a negative one (-0 too) or one that is no
// number is an error naming the part and the range it must be in.
func ParseLink(s string) (Link, error) {
	var l Link
	limit := MaxLatency
	if err := linkspec.Parse("streamsim", s, "latency[,jitter[,loss[,stall]]], each way, e.g. 50ms,10ms,1%,200ms",
		linkspec.Duration(&l.Latency, "latency", &limit, ""),
		linkspec.Duration(&l.Jitter, "jitter", &l.Latency, ", the latency: more and bytes would arrive before they left"),
		linkspec.Share(&l.Loss), linkspec.Duration(&l.Stall, "stall", &limit, "")); err != nil {
		return Link{}, err
	}
	return l, l.Validate()
}

// String is the link as ParseLink reads it (the seed left out).
func (l Link) String() string {
	s := l.Latency.String()
	if l.Jitter > 0 || l.Loss > 0 {
		s += "," + l.Jitter.String()
	}
	if l.Loss > 0 {
		s += fmt.Sprintf(",%g%%,%v", l.Loss*100, l.stall())
	}
	return s
}

// stall is how long a lost chunk holds the stream.
func (l Link) stall() time.Duration {
	if l.Stall == 0 {
		return DefaultStall
	}
	return l.Stall
}

// The salts of a connection's two directions' random sources: the bytes
// its dialer sends, and those it receives.
const (
	saltSent     = 0x73747265616d7570 // "streamup"
	saltReceived = 0x73747265616d646e // "streamdn"
)

// schedule decides when a direction's chunks arrive: the link's decisions
// drawn from its seeded source, each chunk's due time no sooner than the
// one before's.
type schedule struct {
	link Link
	rng  *rand.Rand
	last time.Time // the last chunk's due time
}

func newSchedule(l Link, salt uint64) *schedule {
	return &schedule{link: l, rng: rand.New(rand.NewPCG(l.Seed, salt))}
}

// decide draws the next chunk's delay, and whether it was lost (its
// delay then has the stall in it). Every call draws the same numbers,
// whatever the link, so that a seed's decisions are the same.
func (s *schedule) decide() (delay time.Duration, lost bool) {
	l := s.link
	jitter := s.rng.Int64N(int64(2*l.Jitter) + 1)
	lost = s.rng.Float64() < l.Loss
	delay = l.Latency + time.Duration(jitter) - l.Jitter
	if lost {
		delay += l.stall()
	}
	return delay, lost
}

// due returns when a chunk sent at now arrives: its delay later, or with
// the chunk before it if that is later.
func (s *schedule) due(now time.Time) time.Time {
	d, _ := s.decide()
	at := now.Add(d)
	if at.Before(s.last) {
		at = s.last
	}
	s.last = at
	return at
}

// ErrClosed is the error of a Proxy's Close after the first.
var ErrClosed = errors.New("streamsim: the proxy is closed")
