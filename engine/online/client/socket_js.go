//go:build js

package client

import (
	"context"
	"errors"
	"net/http"
	"time"

	"github.com/coder/websocket"
	"github.com/heroiclabs/nakama-common/rtapi"
	"google.golang.org/protobuf/proto"
)

// socket is the realtime socket in a browser: coder/websocket, which is
// the browser's WebSocket there (gorilla/websocket dials TCP, which a page
// cannot). The browser answers the server's websocket pings and sends none
// of its own a page could ask for, so the client sends Nakama's Ping
// envelope instead (keepAlive), which a live server answers with a Pong
// envelope: progress, as a pong is on a machine. Each read waits at most
// the silence for a message.
type socket struct {
	conn    *websocket.Conn
	silence time.Duration
	server  string // host:port, for a NoAnswerError
}

// httpClient returns the client of the HTTP API's calls: the browser's
// fetch (net/http's Transport without a dialer). fetch gives no progress
// to follow, so a call waits at most the silence in all; the HTTP API's
// answers are small. A page served from another origin than the server's
// is let in by Nakama's CORS headers (any origin, the Authorization and
// Content-Type headers).
func httpClient(w *watch) *http.Client {
	return &http.Client{Transport: &http.Transport{}, Timeout: w.silence}
}

// openSocket opens the browser's WebSocket at url, waiting at most the
// silence for it to open.
func openSocket(ctx context.Context, w *watch, url string) (*socket, error) {
	waiting, cancel := context.WithTimeout(ctx, w.silence)
	defer cancel()
	conn, _, err := websocket.Dial(waiting, url, nil)
	if err != nil {
		if ctx.Err() == nil && errors.Is(err, context.DeadlineExceeded) {
			return nil, &NoAnswerError{Server: w.server, After: w.silence}
		}
		return nil, err
	}
	conn.SetReadLimit(maxMessage)
	return &socket{conn: conn, silence: w.silence, server: w.server}, nil
}

// ping is Nakama's Ping envelope, which the server answers with a Pong.
var ping, _ = proto.Marshal(&rtapi.Envelope{Message: &rtapi.Envelope_Ping{Ping: &rtapi.Ping{}}})

// keepAlive sends the server a Ping envelope every third of the client's
// silence until the socket closes: a live server's Pong is progress, which
// the socket's reader waits for at most the silence (see Options.Silence).
func (c *Client) keepAlive() {
	t := time.NewTicker(c.silence / 3)
	defer t.Stop()
	for {
		select {
		case <-c.done:
			return
		case <-t.C:
			c.writeMu.Lock()
			err := c.write(ping)
			c.writeMu.Unlock()
			if err != nil {
				return // the reader finds the socket closed, and says why
			}
		}
	}
}

// next reads the socket's next message, waiting at most the silence for
// it, and returns it (b is not used: the library copies each message out
// of the browser into a slice of its own, one allocation a message).
func (s *socket) next(b []byte) ([]byte, error) {
	ctx, cancel := context.WithTimeout(context.Background(), s.silence)
	defer cancel()
	_, msg, err := s.conn.Read(ctx)
	if err != nil {
		if ctx.Err() != nil {
			return b, &NoAnswerError{Server: s.server, After: s.silence}
		}
		return b, err
	}
	return msg, nil
}

// write sends the binary message b (the browser queues it: it never
// blocks).
func (s *socket) write(b []byte) error {
	return s.conn.Write(context.Background(), websocket.MessageBinary, b)
}

// shutdown closes the socket with the close handshake, which the browser
// completes or gives up.
func (s *socket) shutdown() error {
	return s.conn.Close(websocket.StatusNormalClosure, "")
}

// close closes the socket: its reader is done.
func (s *socket) close() { s.conn.CloseNow() }
