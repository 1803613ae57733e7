package streamsim_test

import (
	"encoding/binary"
	"errors"
	"io"
	"math"
	"net"
	"os"
	"runtime"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/fixedstep/fixedstep/engine/online/streamsim"
)

// A link reads from the command line's form; a bad one is refused, the
// error naming the part and the range it must be in.
func TestParseLink(t *testing.T) {
	l, err := streamsim.ParseLink("50ms, 10ms,1%,300ms")
	if err != nil || l != (streamsim.Link{Latency: 50 * time.Millisecond, Jitter: 10 * time.Millisecond, Loss: 0.01, Stall: 300 * time.Millisecond}) {
		t.Fatalf("%+v, %v", l, err)
	}
	if l.String() != "50ms,10ms,1%,300ms" {
		t.Errorf("String: %q", l)
	}
	if l, err := streamsim.ParseLink("100ms"); err != nil || l.String() != "100ms" {
		t.Errorf("100ms: %v, %v", l, err)
	}
	for s, says := range map[string]string{
		"":                   "want latency[,jitter[,loss[,stall]]], each way",
		"1ms,0,0,1ms,1ms":    "want latency",
		"80":                 `part 1, "80": want a latency from 0 to 1m0s, e.g. 80ms`,
		"-0ms":               "part 1, \"-0ms\": negative: want a latency from 0 to 1m0s",
		"61s":                "more than 1m0s: want a latency from 0 to 1m0s",
		"80ms,90ms":          "part 2, \"90ms\": more than 80ms: want a jitter from 0 to 80ms, the latency",
		"10ms,1ms,150%":      `part 3, "150%": want a share from 0% to 100%`,
		"10ms,1ms,-0%":       "part 3, \"-0%\": negative: want a share",
		"10ms,1ms,NaN":       "not a number",
		"10ms,1ms,1%,2m":     `part 4, "2m": more than 1m0s: want a stall from 0 to 1m0s`,
		"10ms,1ms,1%,-1ms":   "part 4, \"-1ms\": negative: want a stall",
		"10ms,1ms,1%,soon":   "want a stall from 0 to 1m0s",
		"2562047h,2562047h":  "more than 1m0s: want a latency",
		"10ms,1ms,1e400":     "want a share from 0% to 100%",
		"10ms,1ms,0.5,100ms": "", // good: checked below
	} {
		l, err := streamsim.ParseLink(s)
		if says == "" {
			if err != nil || l.Loss != 0.5 {
				t.Errorf("%q: %+v, %v", s, l, err)
			}
			continue
		}
		if err == nil || !strings.Contains(err.Error(), says) {
			t.Errorf("%q: %+v, %v; want an error saying %q", s, l, err, says)
		}
	}
	for _, l := range []streamsim.Link{
		{Latency: streamsim.MaxLatency + 1},
		{Latency: -1},
		{Latency: time.Second, Jitter: time.Second + 1},
		{Jitter: -1},
		{Loss: math.NaN()},
		{Loss: math.Copysign(0, -1)},
		{Loss: 1.5},
		{Stall: -1},
		{Stall: streamsim.MaxLatency + 1},
	} {
		if err := l.Validate(); err == nil || !strings.Contains(err.Error(), "must be") {
			t.Errorf("%+v: %v, want an error naming the range", l, err)
		}
		if _, err := streamsim.Wrap(nil, l); err == nil {
			t.Errorf("%+v: wrapped", l)
		}
		if _, err := streamsim.Listen("127.0.0.1:0", "127.0.0.1:1", l); err == nil {
			t.Errorf("%+v: listened", l)
		}
	}
}

// The same seed draws the same decisions, another seed others; the share
// lost is about the loss, and a lost chunk's delay has the stall in it.
func TestDecisionsBySeed(t *testing.T) {
	l := streamsim.Link{Latency: 50 * time.Millisecond, Jitter: 20 * time.Millisecond, Loss: 0.1, Seed: 3}
	a, lostA := streamsim.Decisions(l, 2000)
	b, lostB := streamsim.Decisions(l, 2000)
	if !slices.Equal(a, b) || lostA != lostB {
		t.Fatalf("the same seed drew different decisions")
	}
	l.Seed = 4
	if c, _ := streamsim.Decisions(l, 2000); slices.Equal(a, c) {
		t.Errorf("another seed drew the same decisions")
	}
	if lostA < 150 || lostA > 250 {
		t.Errorf("%d of 2000 lost, want about 200", lostA)
	}
	stalled := 0
	for _, d := range a {
		if d < l.Latency-l.Jitter || d > l.Latency+l.Jitter+streamsim.DefaultStall {
			t.Fatalf("a delay of %v", d)
		}
		if d > l.Latency+l.Jitter {
			stalled++
		}
	}
	if stalled != lostA {
		t.Errorf("%d delays with a stall, %d lost", stalled, lostA)
	}
}

// goroutines returns a function that fails t unless the goroutines
// running are back to as many as now, waiting for them for 10 s.
func goroutines(t *testing.T) func() {
	t.Helper()
	before := runtime.NumGoroutine()
	return func() {
		t.Helper()
		for deadline := time.Now().Add(10 * time.Second); runtime.NumGoroutine() > before; time.Sleep(5 * time.Millisecond) {
			if time.Now().After(deadline) {
				buf := make([]byte, 1<<20)
				t.Fatalf("%d goroutines, %d before:\n%s", runtime.NumGoroutine(), before, buf[:runtime.Stack(buf, true)])
			}
		}
	}
}

// server is a TCP listener on 127.0.0.1 whose accepted connections come
// on the channel.
func server(t *testing.T) (net.Listener, <-chan net.Conn) {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	ch := make(chan net.Conn, 4)
	go func() {
		for {
			c, err := ln.Accept()
			if err != nil {
				close(ch)
				return
			}
			ch <- c
		}
	}()
	t.Cleanup(func() { ln.Close() })
	return ln, ch
}

// accepted takes the next connection from ch, waiting at most 10 s.
func accepted(t *testing.T, ch <-chan net.Conn) net.Conn {
	t.Helper()
	select {
	case c := <-ch:
		t.Cleanup(func() { c.Close() })
		return c
	case <-time.After(10 * time.Second):
		t.Fatal("no connection in 10 s")
		return nil
	}
}

// A record is 16 bytes on the stream: a sequence number and the time it
// was written.
const record = 16

// writeRecords writes n records to c, gap apart.
func writeRecords(t *testing.T, c net.Conn, n int, gap time.Duration) {
	for i := range n {
		var p [record]byte
		binary.LittleEndian.PutUint64(p[:], uint64(i))
		binary.LittleEndian.PutUint64(p[8:], uint64(time.Now().UnixNano()))
		if _, err := c.Write(p[:]); err != nil {
			t.Error(err)
			return
		}
		time.Sleep(gap)
	}
}

// readRecords reads n records from c (each read waiting at most 10 s for
// progress), and returns each one's trip, failing t unless they come in
// order.
func readRecords(t *testing.T, c net.Conn, n int) []time.Duration {
	t.Helper()
	var trips []time.Duration
	var p [record]byte
	for i := range n {
		c.SetReadDeadline(time.Now().Add(10 * time.Second))
		if _, err := io.ReadFull(c, p[:]); err != nil {
			t.Fatalf("record %d of %d: %v", i, n, err)
		}
		if seq := binary.LittleEndian.Uint64(p[:]); seq != uint64(i) {
			t.Fatalf("record %d arrived %dth: out of order", seq, i)
		}
		trips = append(trips, time.Since(time.Unix(0, int64(binary.LittleEndian.Uint64(p[8:])))))
	}
	c.SetReadDeadline(time.Time{})
	return trips
}

// atLeast fails t if a trip is shorter than least.
func atLeast(t *testing.T, what string, trips []time.Duration, least time.Duration) {
	t.Helper()
	for i, d := range trips {
		if d < least {
			t.Fatalf("%s: record %d took %v, less than %v", what, i, d, least)
		}
	}
}

// echo writes back what c reads until it ends, then closes it.
func echo(c net.Conn) {
	io.Copy(c, c)
	c.Close()
}

// Through the proxy over real sockets, both ways: every record arrives no
// sooner than the latency less the jitter (a round trip twice that), in
// order though records 1 ms apart have delays up to 40 ms apart; the
// jitter spreads the trips.
func TestProxyDelaysInOrder(t *testing.T) {
	done := goroutines(t)
	ln, conns := server(t)
	link := streamsim.Link{Latency: 40 * time.Millisecond, Jitter: 20 * time.Millisecond, Seed: 1}
	p, err := streamsim.Listen("127.0.0.1:0", ln.Addr().String(), link)
	if err != nil {
		t.Fatal(err)
	}
	c, err := net.Dial("tcp", p.Addr().String())
	if err != nil {
		t.Fatal(err)
	}
	s := accepted(t, conns)
	const n = 200
	go writeRecords(t, c, n, time.Millisecond)
	atLeast(t, "to the target", readRecords(t, s, n), link.Latency-link.Jitter)

	go writeRecords(t, s, n, time.Millisecond)
	trips := readRecords(t, c, n)
	atLeast(t, "from the target", trips, link.Latency-link.Jitter)
	if slices.Min(trips) == slices.Max(trips) {
		t.Errorf("every trip took %v: no jitter", trips[0])
	}

	go echo(s)
	go writeRecords(t, c, n, time.Millisecond)
	atLeast(t, "there and back", readRecords(t, c, n), 2*(link.Latency-link.Jitter))
	c.Close()
	if err := p.Close(); err != nil {
		t.Fatal(err)
	}
	if err := p.Close(); err != streamsim.ErrClosed {
		t.Errorf("a second Close: %v", err)
	}
	ln.Close()
	done()
}

// A lost chunk holds the stream for the stall: with every chunk lost,
// every record takes at least the latency less the jitter and the stall.
func TestStall(t *testing.T) {
	ln, conns := server(t)
	link := streamsim.Link{Latency: 10 * time.Millisecond, Jitter: 5 * time.Millisecond, Loss: 1, Stall: 100 * time.Millisecond}
	p, err := streamsim.Listen("127.0.0.1:0", ln.Addr().String(), link)
	if err != nil {
		t.Fatal(err)
	}
	defer p.Close()
	c, err := net.Dial("tcp", p.Addr().String())
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	s := accepted(t, conns)
	go writeRecords(t, c, 20, 5*time.Millisecond)
	atLeast(t, "stalled", readRecords(t, s, 20), link.Latency-link.Jitter+link.Stall)
}

// closes writes bye to from and closes it: to reads bye, then the end
// (waiting at most 10 s), and is closed.
func closes(t *testing.T, who string, from, to net.Conn) {
	t.Helper()
	from.Write([]byte("bye"))
	from.Close()
	to.SetReadDeadline(time.Now().Add(10 * time.Second))
	if b, err := io.ReadAll(to); string(b) != "bye" || err != nil {
		t.Errorf("%s closed: the other read %q, %v; want bye, then the end", who, b, err)
	}
	to.Close()
}

// wrap dials a listener on 127.0.0.1 (closed by stop) and wraps the
// connection with link: c is the wrapped one, raw the one it wraps, s the
// listener's side.
func wrap(t *testing.T, link streamsim.Link) (c, raw, s net.Conn, stop func()) {
	t.Helper()
	ln, conns := server(t)
	raw, err := net.Dial("tcp", ln.Addr().String())
	if err != nil {
		t.Fatal(err)
	}
	if c, err = streamsim.Wrap(raw, link); err != nil {
		t.Fatal(err)
	}
	return c, raw, accepted(t, conns), func() { ln.Close() }
}

// A wrapped connection is conditioned both ways, has the addresses of the
// connection it wraps and a pipe's deadlines; closing it closes the
// connection once what was written has arrived, and its goroutines end.
func TestWrap(t *testing.T) {
	done := goroutines(t)
	link := streamsim.Link{Latency: 20 * time.Millisecond, Jitter: 5 * time.Millisecond, Seed: 9}
	c, raw, s, stop := wrap(t, link)
	if c.LocalAddr() != raw.LocalAddr() || c.RemoteAddr() != raw.RemoteAddr() {
		t.Errorf("addresses %v, %v; want %v, %v", c.LocalAddr(), c.RemoteAddr(), raw.LocalAddr(), raw.RemoteAddr())
	}
	go writeRecords(t, c, 100, time.Millisecond)
	atLeast(t, "written", readRecords(t, s, 100), link.Latency-link.Jitter)
	go writeRecords(t, s, 100, time.Millisecond)
	atLeast(t, "read", readRecords(t, c, 100), link.Latency-link.Jitter)

	c.SetReadDeadline(time.Now().Add(10 * time.Millisecond))
	if _, err := c.Read(make([]byte, 1)); !errors.Is(err, os.ErrDeadlineExceeded) {
		t.Errorf("a read past its deadline: %v", err)
	}
	c.SetReadDeadline(time.Time{})
	closes(t, "the wrapped connection", c, s)
	stop()
	done()
}

// The peer of a wrapped connection closing ends it: its reads return
// what was sent, then io.EOF.
func TestWrapPeerCloses(t *testing.T) {
	done := goroutines(t)
	c, _, s, stop := wrap(t, streamsim.Link{Latency: 10 * time.Millisecond})
	closes(t, "the peer", s, c)
	stop()
	done()
}

// Either side closing closes the other through the proxy, once what it
// sent has arrived; the proxy's Close closes the connections still open,
// and a target that cannot be dialed closes the connection; every
// goroutine ends.
func TestProxyClose(t *testing.T) {
	done := goroutines(t)
	ln, conns := server(t)
	p, err := streamsim.Listen("127.0.0.1:0", ln.Addr().String(), streamsim.Link{Latency: 10 * time.Millisecond})
	if err != nil {
		t.Fatal(err)
	}
	dial := func() net.Conn {
		c, err := net.Dial("tcp", p.Addr().String())
		if err != nil {
			t.Fatal(err)
		}
		c.SetReadDeadline(time.Now().Add(10 * time.Second))
		return c
	}
	c := dial()
	closes(t, "the client", c, accepted(t, conns))
	c = dial()
	closes(t, "the target", accepted(t, conns), c)

	c = dial()
	accepted(t, conns)
	if err := p.Close(); err != nil {
		t.Fatal(err)
	}
	if n, err := c.Read(make([]byte, 1)); n != 0 || err == nil || errors.Is(err, os.ErrDeadlineExceeded) {
		t.Errorf("after the proxy's Close, a read: %d, %v", n, err)
	}
	c.Close()

	ln.Close()
	p, err = streamsim.Listen("127.0.0.1:0", ln.Addr().String(), streamsim.Link{})
	if err != nil {
		t.Fatal(err)
	}
	c = dial()
	if n, err := c.Read(make([]byte, 1)); n != 0 || err == nil || errors.Is(err, os.ErrDeadlineExceeded) {
		t.Errorf("with no target, a read: %d, %v", n, err)
	}
	c.Close()
	p.Close()
	done()
}
