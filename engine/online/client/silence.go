package client

import (
	"context"
	"errors"
	"fmt"
	"net"
	"os"
	"sync"
	"time"
)

// DefaultSilence is how long a client waits for a server that sends
// nothing (Options.Silence): long enough for a loaded server, far longer
// than the 15 s between Nakama's own pings.
const DefaultSilence = 30 * time.Second

// A NoAnswerError is a server that sent nothing for the client's silence
// (Options.Silence) while the client waited for it: to connect, for an
// HTTP answer, for the websocket upgrade, for a reply, for the match's
// messages, or for a pong to one of the client's pings.
type NoAnswerError struct {
	Server string        // host:port
	After  time.Duration // the silence waited
}

func (e *NoAnswerError) Error() string {
	return fmt.Sprintf("no answer from %s after %g s", e.Server, e.After.Seconds())
}

// Timeout reports true: it is a timeout, as net.Error's are.
func (e *NoAnswerError) Timeout() bool { return true }

// Unwrap returns os.ErrDeadlineExceeded.
func (e *NoAnswerError) Unwrap() error { return os.ErrDeadlineExceeded }

// watch dials the server's connections for the HTTP calls and the
// socket: every wait on one follows the server's progress, never the
// clock alone. Connecting waits at most silence; each read waits at most
// silence for a byte, so a server that sends at all (an answer coming
// slowly, a pong, a ping) is never cut off; each write waits at most
// silence for the server to take a piece of it.
type watch struct {
	server  string
	silence time.Duration
}

func (w *watch) dial(ctx context.Context, network, addr string) (net.Conn, error) {
	conn, err := (&net.Dialer{Timeout: w.silence}).DialContext(ctx, network, addr)
	if err != nil {
		if ne := net.Error(nil); ctx.Err() == nil && errors.As(err, &ne) && ne.Timeout() {
			return nil, &NoAnswerError{Server: w.server, After: w.silence}
		}
		return nil, err
	}
	return &watchedConn{Conn: conn, watch: w}, nil
}

// A watchedConn is a connection whose every read and write waits at most
// the watch's silence without progress (besides any deadline its user
// sets, which it keeps).
type watchedConn struct {
	net.Conn
	*watch

	mu              sync.Mutex
	readBy, writeBy time.Time // the deadlines the conn's user set (zero: none)
}

// maxWrite is the most of a write given the connection under one
// deadline: a long write to a server taking it slowly goes on while the
// server takes pieces of it.
const maxWrite = 32 << 10

func (c *watchedConn) Read(p []byte) (int, error) {
	c.mu.Lock()
	by := c.readBy
	at := time.Now().Add(c.silence)
	if !by.IsZero() && by.Before(at) {
		at = by
	}
	err := c.Conn.SetReadDeadline(at)
	c.mu.Unlock()
	if err != nil {
		return 0, err
	}
	n, err := c.Conn.Read(p)
	if n == 0 && err != nil {
		err = c.quiet(err, &c.readBy)
	}
	return n, err
}

func (c *watchedConn) Write(p []byte) (int, error) {
	written := 0
	for written < len(p) {
		c.mu.Lock()
		by := c.writeBy
		at := time.Now().Add(c.silence)
		if !by.IsZero() && by.Before(at) {
			at = by
		}
		err := c.Conn.SetWriteDeadline(at)
		c.mu.Unlock()
		if err != nil {
			return written, err
		}
		n, err := c.Conn.Write(p[written:min(len(p), written+maxWrite)])
		written += n
		if err != nil {
			if n == 0 {
				err = c.quiet(err, &c.writeBy)
			}
			return written, err
		}
	}
	return written, nil
}

// quiet returns a NoAnswerError for err when it is the silence's deadline
// passing (not one the conn's user set, by), err otherwise.
func (c *watchedConn) quiet(err error, by *time.Time) error {
	if !errors.Is(err, os.ErrDeadlineExceeded) {
		return err
	}
	c.mu.Lock()
	users := !by.IsZero() && !by.After(time.Now())
	c.mu.Unlock()
	if users {
		return err
	}
	return &NoAnswerError{Server: c.server, After: c.silence}
}

func (c *watchedConn) SetDeadline(t time.Time) error {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.readBy, c.writeBy = t, t
	return c.Conn.SetDeadline(t)
}

func (c *watchedConn) SetReadDeadline(t time.Time) error {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.readBy = t
	return c.Conn.SetReadDeadline(t)
}

func (c *watchedConn) SetWriteDeadline(t time.Time) error {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.writeBy = t
	return c.Conn.SetWriteDeadline(t)
}
