package streamsim

import (
	"context"
	"net"
	"sync"
	"time"
)

// chunkSize is the most one read takes of a side's bytes: a chunk.
const chunkSize = 32 << 10

// queued is how many chunks a direction holds on their way: a sender past
// it waits, as a full TCP window makes it.
const queued = 256

// chunk is bytes on their way, and when they arrive.
type chunk struct {
	data []byte
	due  time.Time
}

// pair is two connections joined through the link, each one's bytes
// conditioned on their way to the other. It closes both when either
// side ends, once what that side sent has arrived.
type pair struct {
	a, b net.Conn
	once sync.Once
	done chan struct{}
}

// join conditions a's bytes to b by sent's decisions and b's to a by
// received's, in four goroutines that wg counts, until either side ends.
func join(a, b net.Conn, link Link, wg *sync.WaitGroup) *pair {
	p := &pair{a: a, b: b, done: make(chan struct{})}
	p.pump(a, b, newSchedule(link, saltSent), wg)
	p.pump(b, a, newSchedule(link, saltReceived), wg)
	return p
}

// close closes both sides, once.
func (p *pair) close() {
	p.once.Do(func() {
		close(p.done)
		p.a.Close()
		p.b.Close()
	})
}

// pump reads src's bytes as they come, each read a chunk due when s says,
// and writes each to dst when it is due, in order. When src ends, what it
// sent is delivered, then both sides close; when dst fails, or the pair
// closes, the bytes on their way are dropped.
func (p *pair) pump(src, dst net.Conn, s *schedule, wg *sync.WaitGroup) {
	q := make(chan chunk, queued)
	wg.Add(2)
	go func() {
		defer wg.Done()
		defer close(q)
		buf := make([]byte, chunkSize)
		for {
			n, err := src.Read(buf)
			if n > 0 {
				c := chunk{data: append([]byte(nil), buf[:n]...), due: s.due(time.Now())}
				select {
				case q <- c:
				case <-p.done:
					return
				}
			}
			if err != nil {
				return
			}
		}
	}()
	go func() {
		defer wg.Done()
		defer p.close()
		t := time.NewTimer(time.Hour)
		defer t.Stop()
		for c := range q {
			if wait := time.Until(c.due); wait > 0 {
				t.Reset(wait)
				select {
				case <-t.C:
				case <-p.done:
					return
				}
			}
			if _, err := dst.Write(c.data); err != nil {
				return
			}
		}
	}()
}

// conn is Wrap's connection: one end of a pipe whose other end is joined
// to the connection wrapped, with that connection's addresses.
type conn struct {
	net.Conn
	wrapped net.Conn
}

func (c *conn) LocalAddr() net.Addr  { return c.wrapped.LocalAddr() }
func (c *conn) RemoteAddr() net.Addr { return c.wrapped.RemoteAddr() }

// Wrap returns c conditioned both ways by link, which must be valid
// (Validate): what is written to the connection returned reaches c's peer
// late, and what c's peer sends is read from it late. Its deadlines and
// Close are an in-memory pipe's (net.Pipe): a write returns once the
// conditioner has taken the bytes. Closing it, or c's peer closing,
// closes both once the bytes sent before have arrived; its goroutines
// then end.
func Wrap(c net.Conn, link Link) (net.Conn, error) {
	if err := link.Validate(); err != nil {
		return nil, err
	}
	mine, inner := net.Pipe()
	join(inner, c, link, new(sync.WaitGroup))
	return &conn{Conn: mine, wrapped: c}, nil
}

// A Proxy listens for TCP connections and joins each to a new connection
// to its target, both directions conditioned by its link: a client that
// dials the proxy instead of the target (a browser too) talks to the
// target over the link.
type Proxy struct {
	ln     net.Listener
	target string
	link   Link
	ctx    context.Context // the dials', cancelled by Close
	cancel context.CancelFunc

	mu     sync.Mutex
	pairs  map[*pair]struct{}
	closed bool
	wg     sync.WaitGroup
}

// Listen listens on addr ("127.0.0.1:0": a free port; Addr says which)
// and forwards each connection accepted to target (host:port), through
// link, which must be valid (Validate). Every connection has the link's
// decisions from its seed: the same seed, the same decisions. A
// connection whose target cannot be dialed is closed.
func Listen(addr, target string, link Link) (*Proxy, error) {
	if err := link.Validate(); err != nil {
		return nil, err
	}
	ln, err := net.Listen("tcp", addr)
	if err != nil {
		return nil, err
	}
	p := &Proxy{ln: ln, target: target, link: link, pairs: map[*pair]struct{}{}}
	p.ctx, p.cancel = context.WithCancel(context.Background())
	p.wg.Add(1)
	go p.accept()
	return p, nil
}

// Addr is the address the proxy listens on.
func (p *Proxy) Addr() net.Addr { return p.ln.Addr() }

// accept takes connections until the listener closes.
func (p *Proxy) accept() {
	defer p.wg.Done()
	for {
		c, err := p.ln.Accept()
		if err != nil {
			return
		}
		p.wg.Add(1)
		go p.forward(c)
	}
}

// forward dials the target for c and joins the two.
func (p *Proxy) forward(c net.Conn) {
	defer p.wg.Done()
	t, err := (&net.Dialer{Timeout: 30 * time.Second}).DialContext(p.ctx, "tcp", p.target)
	if err != nil {
		c.Close()
		return
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.closed {
		c.Close()
		t.Close()
		return
	}
	pr := join(c, t, p.link, &p.wg)
	p.pairs[pr] = struct{}{}
	p.wg.Add(1)
	go func() {
		defer p.wg.Done()
		<-pr.done
		p.mu.Lock()
		delete(p.pairs, pr)
		p.mu.Unlock()
	}()
}

// Close stops listening, closes every connection (dropping the bytes on
// their way) and returns once the proxy's goroutines have ended.
func (p *Proxy) Close() error {
	p.mu.Lock()
	if p.closed {
		p.mu.Unlock()
		return ErrClosed
	}
	p.closed = true
	p.cancel()
	err := p.ln.Close()
	for pr := range p.pairs {
		pr.close()
	}
	p.mu.Unlock()
	p.wg.Wait()
	return err
}
