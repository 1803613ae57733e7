package netsim_test

import (
	"encoding/binary"
	"math"
	"net"
	"strings"
	"testing"
	"time"

	"github.com/fixedstep/fixedstep/engine/netplay/netsim"
)

// A link reads from the command line's form, and a bad one is refused by
// name.
func TestParseLink(t *testing.T) {
	l, err := netsim.ParseLink("80ms,10ms,2%,0.5%,0.01")
	if err != nil || l.Latency != 80*time.Millisecond || l.Jitter != 10*time.Millisecond || l.Loss != 0.02 ||
		l.Duplicate != 0.005 || l.Reorder != 0.01 {
		t.Fatalf("%+v, %v", l, err)
	}
	for s, says := range map[string]string{
		"": "want latency", "80": "part 1", "80ms,90ms": "more than 80ms: want a jitter from 0 to 80ms, the latency", "10ms,1ms,150%": `part 3, "150%": want a share from 0% to 100%`, "10ms,1ms,2%,-1": "part 4",
		"10ms,1ms,x": "part 3", "1ms,0ms,0,0,0,0": "want latency", "-5ms": "negative",
	} {
		if _, err := netsim.ParseLink(s); err == nil || !strings.Contains(err.Error(), says) {
			t.Errorf("%q: %v, want an error saying %q", s, err, says)
		}
	}
}

// pair is two UDP sockets on 127.0.0.1, the sender's writes conditioned.
func pair(t *testing.T, link netsim.Link) (*netsim.Conn, net.PacketConn) {
	t.Helper()
	a, err := net.ListenPacket("udp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	b, err := net.ListenPacket("udp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	c, err := netsim.Wrap(a, link)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { c.Close(); b.Close() })
	return c, b
}

// arrival is a packet as it arrived: its sequence number and its trip.
type arrival struct {
	seq  uint64
	trip time.Duration
}

// listen reads b's packets as they come (so that its socket's buffer never
// fills), each an 8-byte sequence number then a send time, until b is
// closed.
func listen(b net.PacketConn) <-chan arrival {
	ch := make(chan arrival, 4096)
	go func() {
		defer close(ch)
		buf := make([]byte, 64)
		for {
			n, _, err := b.ReadFrom(buf)
			if err != nil {
				return
			}
			if n == 16 {
				sent := time.Unix(0, int64(binary.LittleEndian.Uint64(buf[8:])))
				ch <- arrival{binary.LittleEndian.Uint64(buf), time.Since(sent)}
			}
		}
	}()
	return ch
}

// receive takes want packets from ch, in arrival order. The deadline
// follows progress: it fails only when nothing has arrived for 10 s.
func receive(t *testing.T, ch <-chan arrival, want int64) (seqs []uint64, trips []time.Duration) {
	t.Helper()
	for int64(len(seqs)) < want {
		select {
		case a, ok := <-ch:
			if !ok {
				t.Fatalf("after %d of %d packets: the socket closed", len(seqs), want)
			}
			seqs, trips = append(seqs, a.seq), append(trips, a.trip)
		case <-time.After(10 * time.Second):
			t.Fatalf("after %d of %d packets: nothing for 10 s", len(seqs), want)
		}
	}
	return seqs, trips
}

// send writes n numbered packets to b's address, 200 µs apart.
func send(t *testing.T, c *netsim.Conn, to net.Addr, n int) {
	t.Helper()
	for i := range n {
		var p [16]byte
		binary.LittleEndian.PutUint64(p[:], uint64(i))
		binary.LittleEndian.PutUint64(p[8:], uint64(time.Now().UnixNano()))
		if _, err := c.WriteTo(p[:], to); err != nil {
			t.Fatal(err)
		}
		time.Sleep(200 * time.Microsecond)
	}
}

// Over real UDP sockets: every packet arrives no sooner than the latency
// less the jitter; the lost ones never, the duplicated ones twice, the
// held-back ones after later ones; the same seed makes the same decisions.
func TestLinkOverUDP(t *testing.T) {
	link := netsim.Link{Latency: 20 * time.Millisecond, Jitter: 5 * time.Millisecond, Loss: 0.1, Duplicate: 0.05,
		Reorder: 0.05, Seed: 7}
	c, b := pair(t, link)
	arrivals := listen(b)
	send(t, c, b.LocalAddr(), 500)
	st := c.Stats()
	seqs, trips := receive(t, arrivals, st.Written-st.Dropped+st.Duplicated)
	if st.Written != 500 || st.Dropped < 25 || st.Dropped > 80 || st.Duplicated == 0 || st.Reordered == 0 {
		t.Errorf("stats %+v: want about 50 dropped, some duplicated and reordered", st)
	}
	for i, d := range trips {
		if d < link.Latency-link.Jitter {
			t.Fatalf("packet %d arrived after %v, before the latency less the jitter", seqs[i], d)
		}
	}
	outOfOrder, seen := 0, map[uint64]int{}
	for i, s := range seqs {
		seen[s]++
		if i > 0 && s < seqs[i-1] {
			outOfOrder++
		}
	}
	if outOfOrder == 0 {
		t.Errorf("no packet arrived out of order")
	}
	twice := 0
	for _, n := range seen {
		if n == 2 {
			twice++
		}
	}
	if int64(twice) != st.Duplicated || int64(len(seen)) != st.Written-st.Dropped {
		t.Errorf("%d packets arrived, %d twice; the link wrote %+v", len(seen), twice, st)
	}
	// The same seed decides the same: the same packets dropped.
	c2, b2 := pair(t, link)
	send(t, c2, b2.LocalAddr(), 500)
	if st2 := c2.Stats(); st2 != st {
		t.Errorf("the same seed: %+v, then %+v", st, st2)
	}
}

// Close drops what is on its way and refuses more.
func TestClose(t *testing.T) {
	c, b := pair(t, netsim.Link{Latency: netsim.MaxLatency})
	send(t, c, b.LocalAddr(), 3)
	if err := c.Close(); err != nil {
		t.Fatal(err)
	}
	if _, err := c.WriteTo([]byte("x"), b.LocalAddr()); err != netsim.ErrClosed {
		t.Errorf("a write after Close: %v", err)
	}
}

// Every value that would overflow a packet's delay or means nothing is
// refused, the error naming the range it must be in; the largest link
// that is not conditions packets (reordered, each held back up to five
// minutes) without overflowing a time.Duration.
func TestLinkRanges(t *testing.T) {
	for s, says := range map[string]string{
		"2562047h,2562047h":     "part 1, \"2562047h\": more than 1m0s: want a latency from 0 to 1m0s",
		"61s":                   "want a latency from 0 to 1m0s",
		"1m,61s":                "part 2, \"61s\": more than 1m0s: want a jitter from 0 to 1m0s, the latency",
		"-0ms":                  "part 1, \"-0ms\": negative: want a latency from 0 to 1m0s",
		"-0":                    "negative: want a latency",
		"10ms,-0s":              "part 2, \"-0s\": negative: want a jitter from 0 to 10ms",
		"10ms,1ms,-0%":          "part 3, \"-0%\": negative: want a share from 0% to 100%",
		"10ms,1ms,0,-0":         "part 4, \"-0\": negative",
		"10ms,1ms,0,0,NaN":      "part 5, \"NaN\": not a number: want a share from 0% to 100%",
		"10ms,1ms,Inf":          "part 3, \"Inf\": want a share from 0% to 100%",
		"10ms,1ms,1e400":        "part 3, \"1e400\": want a share from 0% to 100%",
		"10ms,1ms,NaN%":         "not a number",
		"10ms,1ms,%":            "not a number",
		"9223372036854775807ns": "more than 1m0s",
		"80":                    "part 1, \"80\": want a latency from 0 to 1m0s, e.g. 80ms",
	} {
		if l, err := netsim.ParseLink(s); err == nil || !strings.Contains(err.Error(), says) {
			t.Errorf("%q: %+v, %v; want an error saying %q", s, l, err, says)
		}
	}
	for _, l := range []netsim.Link{
		{Latency: netsim.MaxLatency + 1},
		{Latency: math.MaxInt64, Jitter: math.MaxInt64},
		{Latency: time.Second, Jitter: -1},
		{Loss: math.NaN()},
		{Duplicate: math.Inf(1)},
		{Reorder: math.Copysign(0, -1)},
		{Loss: -1e-300},
	} {
		if err := l.Validate(); err == nil || !strings.Contains(err.Error(), "must be") {
			t.Errorf("%+v: %v, want an error naming the range", l, err)
		}
		if _, err := netsim.Wrap(nil, l); err == nil {
			t.Errorf("%+v: wrapped", l)
		}
	}
	largest, err := netsim.ParseLink("1m,1m,0%,100%,100%")
	if err != nil || largest != (netsim.Link{Latency: time.Minute, Jitter: time.Minute, Duplicate: 1, Reorder: 1}) {
		t.Fatalf("the largest link: %+v, %v", largest, err)
	}
	c, b := pair(t, largest)
	for range 20 {
		if _, err := c.WriteTo([]byte("x"), b.LocalAddr()); err != nil {
			t.Fatal(err)
		}
	}
	if st := c.Stats(); st.Written != 20 || st.Duplicated != 20 || st.Reordered != 40 {
		t.Errorf("the largest link: %+v", st)
	}
}

// A link with latency but no jitter nor reordering keeps the order
// packets were written in, a burst of them written at once too (their
// timers, due together, may fire in any order).
func TestLinkKeepsOrder(t *testing.T) {
	c, b := pair(t, netsim.Link{Latency: 5 * time.Millisecond, Seed: 8})
	b.(*net.UDPConn).SetReadBuffer(1 << 20) // a burst is not lost to a reader slow on a busy machine
	arrivals := listen(b)
	const n = 300
	for i := range n {
		var p [16]byte
		binary.LittleEndian.PutUint64(p[:], uint64(i))
		binary.LittleEndian.PutUint64(p[8:], uint64(time.Now().UnixNano()))
		if _, err := c.WriteTo(p[:], b.LocalAddr()); err != nil {
			t.Fatal(err)
		}
		if i%10 == 9 {
			time.Sleep(time.Millisecond) // bursts of 10, some due at the same instant
		}
	}
	seqs, _ := receive(t, arrivals, n)
	for i, s := range seqs {
		if s != uint64(i) {
			t.Fatalf("packet %d arrived %dth: want the order they were written in (%v...)", s, i+1, seqs[max(i-3, 0):i+1])
		}
	}
}
