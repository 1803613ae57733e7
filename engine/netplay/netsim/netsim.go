// Package netsim is a link conditioner: it wraps a net.PacketConn so that
// the packets written through it arrive as over a worse network, late
// (latency and jitter), lost, duplicated or out of order, by a seeded
// random source. It is for tests of networked play over real sockets, and
// for a person trying a game over a bad link on one machine.
//
//	conn, _ := net.ListenPacket("udp", "127.0.0.1:0")
//	link, _ := netsim.ParseLink("80ms,10ms,2%") // latency, jitter, loss
//	bad := netsim.Wrap(conn, link)              // write through bad; read as ever
//
// Only what is written is conditioned: a game wraps both ends' sockets to
// condition both directions.
package netsim

import (
	"container/heap"
	"errors"
	"fmt"
	"math/rand/v2"
	"net"
	"sync"
	"sync/atomic"
	"time"

	"github.com/fixedstep/fixedstep/engine/internal/linkspec"
)

// MaxLatency bounds a link's latency (and so its jitter): a minute, far
// past any real link's, and small enough that a packet's longest delay
// (a reordered one's: twice the latency and jitter, three times the
// latency at most) and Drain's wait stay far inside a time.Duration.
const MaxLatency = time.Minute

// Link is how a link misbehaves.
type Link struct {
	Latency   time.Duration // added to every packet's trip: 0 to MaxLatency
	Jitter    time.Duration // up to this much more or less, at random: 0 to Latency
	Loss      float64       // the share of packets dropped, 0 to 1
	Duplicate float64       // the share sent twice
	Reorder   float64       // the share held back a further Latency+2·Jitter, so that later ones pass them
	Seed      uint64        // the random source's seed: the same seed, the same decisions
}

// Validate refuses a link that cannot be, naming the range a value must
// be in: a latency outside 0 to MaxLatency, a jitter outside 0 to the
// latency (packets would arrive before they left), a share outside [0, 1]
// or not a number, or -0 (a share is never negative).
func (l Link) Validate() error {
	switch {
	case l.Latency < 0 || l.Latency > MaxLatency:
		return fmt.Errorf("netsim: latency %v: must be 0 to %v", l.Latency, MaxLatency)
	case l.Jitter < 0 || l.Jitter > l.Latency:
		return fmt.Errorf("netsim: jitter %v: must be 0 to the latency, %v (packets would arrive before they left)", l.Jitter, l.Latency)
	}
	for _, s := range [...]struct {
		name string
		v    float64
	}{{"loss", l.Loss}, {"duplicate", l.Duplicate}, {"reorder", l.Reorder}} {
		if !linkspec.ValidShare(s.v) {
			return fmt.Errorf("netsim: %s %v: must be a share from 0 to 1 (0%% to 100%%)", s.name, s.v)
		}
	}
	return nil
}

// ParseLink reads a link as a command line gives it: the latency, then
// optionally the jitter, the loss, the duplication and the reordering,
// comma-separated: "80ms", "80ms,10ms,2%", "50ms,5ms,1%,0.5%,1%". Shares
// are percentages (2%) or fractions (0.02). A value that cannot be (see
// Validate), a negative one (-0 too) or one that is no number is an error
// naming the part and the range it must be in.
func ParseLink(s string) (Link, error) {
	var l Link
	limit := MaxLatency
	if err := linkspec.Parse("netsim", s, "latency[,jitter[,loss[,duplicate[,reorder]]]], e.g. 80ms,10ms,2%",
		linkspec.Duration(&l.Latency, "latency", &limit, ""),
		linkspec.Duration(&l.Jitter, "jitter", &l.Latency, ", the latency: more and packets would arrive before they left"),
		linkspec.Share(&l.Loss), linkspec.Share(&l.Duplicate), linkspec.Share(&l.Reorder)); err != nil {
		return Link{}, err
	}
	return l, l.Validate()
}

// Stats counts what a conditioned connection did to the packets written
// through it.
type Stats struct {
	Written, Dropped, Duplicated, Reordered int64
}

// Conn is a net.PacketConn whose writes are conditioned (see Wrap).
type Conn struct {
	net.PacketConn
	link Link

	mu     sync.Mutex
	rng    *rand.Rand
	timers map[*time.Timer]struct{}
	queue  queue  // the packets on their way
	seq    uint64 // the packets queued so far: of two due at once, the first queued goes first
	closed bool
	writes sync.Mutex // held while packets due are written, in their order

	written, dropped, duplicated, reordered atomic.Int64
}

// delayed is a packet on its way.
type delayed struct {
	due  time.Time
	seq  uint64
	data []byte
	addr net.Addr
}

// Wrap returns conn with its writes conditioned by link, which must be
// valid (Validate): each packet is copied and written to conn after its
// delay, from a timer, in the order they fall due (of two due at once,
// the one written first): a link with no jitter nor Reorder keeps the
// order they were written in. Reads are conn's. Close stops the packets
// still on their way, and closes conn.
func Wrap(conn net.PacketConn, link Link) (*Conn, error) {
	if err := link.Validate(); err != nil {
		return nil, err
	}
	return &Conn{PacketConn: conn, link: link, rng: rand.New(rand.NewPCG(link.Seed, 0x6e657473696d)),
		timers: map[*time.Timer]struct{}{}}, nil
}

// ErrClosed is WriteTo's error after Close.
var ErrClosed = errors.New("netsim: the connection is closed")

// WriteTo sends p to addr through the link: it returns at once, having
// taken a copy; the packet is dropped, sent late, or sent twice, as the
// link decides.
func (c *Conn) WriteTo(p []byte, addr net.Addr) (int, error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.closed {
		return 0, ErrClosed
	}
	c.written.Add(1)
	l := c.link
	if c.rng.Float64() < l.Loss {
		c.dropped.Add(1)
		return len(p), nil
	}
	copies := 1
	if c.rng.Float64() < l.Duplicate {
		copies = 2
		c.duplicated.Add(1)
	}
	data := append([]byte(nil), p...)
	for range copies {
		delay := l.Latency
		if l.Jitter > 0 {
			delay += time.Duration(c.rng.Int64N(int64(2*l.Jitter)+1)) - l.Jitter
		}
		if c.rng.Float64() < l.Reorder {
			delay += l.Latency + 2*l.Jitter + time.Millisecond
			c.reordered.Add(1)
		}
		c.send(data, addr, delay)
	}
	return len(p), nil
}

// send writes data to addr after delay (at once when it is zero and no
// packet is on its way). Called with c.mu held.
func (c *Conn) send(data []byte, addr net.Addr, delay time.Duration) {
	if delay <= 0 && len(c.queue) == 0 {
		c.PacketConn.WriteTo(data, addr)
		return
	}
	c.seq++
	heap.Push(&c.queue, delayed{due: time.Now().Add(delay), seq: c.seq, data: data, addr: addr})
	var t *time.Timer
	t = time.AfterFunc(max(delay, 0), func() { c.deliver(&t) }) // t read once c.mu is held: set by then
	c.timers[t] = struct{}{}
}

// deliver writes the packets due, in the order they fall due; t is the
// timer that called it.
func (c *Conn) deliver(t **time.Timer) {
	c.mu.Lock()
	delete(c.timers, *t)
	if c.closed {
		c.mu.Unlock()
		return
	}
	var due []delayed
	for now := time.Now(); len(c.queue) > 0 && !c.queue[0].due.After(now); {
		due = append(due, heap.Pop(&c.queue).(delayed))
	}
	c.writes.Lock() // before another deliver's packets, which fell due later
	c.mu.Unlock()
	for _, d := range due {
		c.PacketConn.WriteTo(d.data, d.addr)
	}
	c.writes.Unlock()
}

// queue is the packets on their way, a container/heap: earliest due
// first, then first queued.
type queue []delayed

func (q queue) Len() int { return len(q) }
func (q queue) Less(i, j int) bool {
	return q[i].due.Before(q[j].due) || q[i].due.Equal(q[j].due) && q[i].seq < q[j].seq
}
func (q queue) Swap(i, j int) { q[i], q[j] = q[j], q[i] }
func (q *queue) Push(x any)   { *q = append(*q, x.(delayed)) }
func (q *queue) Pop() any {
	old := *q
	d := old[len(old)-1]
	old[len(old)-1] = delayed{}
	*q = old[:len(old)-1]
	return d
}

// Stats returns what the link did so far.
func (c *Conn) Stats() Stats {
	return Stats{Written: c.written.Load(), Dropped: c.dropped.Load(), Duplicated: c.duplicated.Load(), Reordered: c.reordered.Load()}
}

// Drain waits until the packets on their way have been written (at most
// a packet's longest delay: twice the latency and jitter, and a reorder's
// more), so that what a program sends last, a goodbye say, leaves before
// it closes the connection.
func (c *Conn) Drain() {
	deadline := time.Now().Add(3*(c.link.Latency+2*c.link.Jitter) + 10*time.Millisecond)
	for time.Now().Before(deadline) {
		c.mu.Lock()
		n := len(c.queue)
		c.mu.Unlock()
		if n == 0 {
			return
		}
		time.Sleep(time.Millisecond)
	}
}

// Close drops the packets still on their way and closes the connection.
func (c *Conn) Close() error {
	c.mu.Lock()
	c.closed = true
	for t := range c.timers {
		t.Stop()
	}
	clear(c.timers)
	c.queue = nil
	c.mu.Unlock()
	return c.PacketConn.Close()
}
