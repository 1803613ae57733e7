//go:build !js

package client

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"net"
	"net/http"
	"sync"
	"time"

	"github.com/gorilla/websocket"
)

// socket is the realtime socket on a machine: gorilla/websocket over the
// watch's connections, so that every read and write follows the server's
// progress (Options.Silence), and the client's pings make a live server
// answer.
type socket struct {
	conn    *websocket.Conn
	silence time.Duration
}

// httpClient returns the client of the HTTP API's calls: its connections
// are the watch's.
func httpClient(w *watch) *http.Client {
	return &http.Client{Transport: &http.Transport{Proxy: http.ProxyFromEnvironment, DialContext: w.dial, DisableKeepAlives: true}}
}

// openSocket opens the websocket at url through w's connections, its
// messages read at most maxMessage long.
func openSocket(ctx context.Context, w *watch, url string) (*socket, error) {
	conn, resp, err := upgrade(ctx, w, url)
	if err != nil {
		if resp != nil {
			b, _ := io.ReadAll(io.LimitReader(resp.Body, 512))
			err = fmt.Errorf("%w: %s %s", err, resp.Status, bytes.TrimSpace(b))
		}
		return nil, err
	}
	conn.SetReadLimit(maxMessage)
	return &socket{conn: conn, silence: w.silence}, nil
}

// upgrade opens the websocket at url through w's connections. gorilla's
// handshake heeds no context: a cancelled ctx sets the connection's
// deadline in the past, which ends it.
func upgrade(ctx context.Context, w *watch, url string) (*websocket.Conn, *http.Response, error) {
	var (
		mu        sync.Mutex
		dialed    net.Conn
		cancelled bool
	)
	past := time.Unix(1, 0)
	d := &websocket.Dialer{Proxy: http.ProxyFromEnvironment, NetDialContext: func(ctx context.Context, network, addr string) (net.Conn, error) {
		conn, err := w.dial(ctx, network, addr)
		if err == nil {
			mu.Lock()
			dialed = conn
			if cancelled {
				conn.SetDeadline(past)
			}
			mu.Unlock()
		}
		return conn, err
	}}
	stop := context.AfterFunc(ctx, func() {
		mu.Lock()
		cancelled = true
		if dialed != nil {
			dialed.SetDeadline(past)
		}
		mu.Unlock()
	})
	conn, resp, err := d.DialContext(ctx, url, nil)
	if !stop() { // ctx ended the handshake, or is done with the connection made
		if err == nil {
			conn.Close()
		}
		return nil, nil, ctx.Err()
	}
	return conn, resp, err
}

// keepAlive pings the server every third of the client's silence until
// the socket closes: a live server's pong is progress, which the socket's
// reader waits for at most the silence (see Options.Silence).
func (c *Client) keepAlive() {
	t := time.NewTicker(c.silence / 3)
	defer t.Stop()
	for {
		select {
		case <-c.done:
			return
		case <-t.C:
			if err := c.ws.conn.WriteControl(websocket.PingMessage, nil, time.Now().Add(c.silence)); err != nil {
				return // the reader finds the socket closed, and says why
			}
		}
	}
}

// next reads the socket's next message into b's room, growing it when it
// is short, and returns it. It allocates what gorilla/websocket's reader
// does: one small object a message.
func (s *socket) next(b []byte) ([]byte, error) {
	_, r, err := s.conn.NextReader()
	if err != nil {
		return b, err
	}
	for {
		if len(b) == cap(b) {
			b = append(b, 0)[:len(b)]
		}
		n, err := r.Read(b[len(b):cap(b)])
		b = b[:len(b)+n]
		if err == io.EOF {
			return b, nil
		}
		if err != nil {
			return b, err
		}
	}
}

// write writes the binary message b; the caller serializes writes.
func (s *socket) write(b []byte) error {
	return s.conn.WriteMessage(websocket.BinaryMessage, b)
}

// shutdown says goodbye with a close frame (the caller serializes
// writes), then closes the socket.
func (s *socket) shutdown() error {
	s.conn.WriteControl(websocket.CloseMessage, websocket.FormatCloseMessage(websocket.CloseNormalClosure, ""), time.Now().Add(time.Second))
	return s.conn.Close()
}

// close closes the socket at once: its reader is done.
func (s *socket) close() { s.conn.Close() }
