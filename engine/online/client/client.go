// Package client plays a game's authoritative match on a Nakama server
// (the game server module's package match), headless ([Match.Play]) or in
// the engine's loop ([Session]: a window's, the demo's -server): it
// authenticates, finds or creates a match, joins it, sends its player's
// input for the ticks ahead, and simulates every tick the server
// broadcasts with the inputs the server ran it with, checking the server's
// state checksum against its own at every tick.
//
//	c, err := client.Dial(ctx, "http://127.0.0.1:7350", client.Options{Device: "player-one-device"})
//	id, err := c.Find(ctx, &arena.Spec, 2, 0)
//	m, err := c.Join(ctx, &arena.Spec, id)
//	res, err := m.Play(ctx, client.Play{}) // the game's bot plays the seat
//
// It speaks Nakama's documented protocol: device authentication over the
// HTTP API, then the realtime socket (a websocket, protobuf envelopes of
// nakama-common's rtapi) for RPCs and match data. Once a match is under
// way, receiving its messages and sending the player's input allocate
// nothing of the package's own: gorilla/websocket allocates one small
// object for each message it reads and each it writes.
//
// # In a browser
//
// Built for WebAssembly (GOOS=js), the client plays from a web page: the
// HTTP API through net/http, which is the browser's fetch there, and the
// realtime socket through github.com/coder/websocket, which is the
// browser's WebSocket there (socket_js.go). A machine keeps
// gorilla/websocket (socket_native.go): its connections are the client's
// own (each read and write follows the server's progress, see
// Options.Silence), its pings are the client's, and its per-message cost
// is measured and held by the tests; a page has none of that to offer,
// since the browser owns the connection. What changes in a browser:
//   - The browser answers the server's websocket pings itself and lets a
//     page send none, so the client sends Nakama's Ping envelope every
//     third of the silence instead; the server's Pong envelope is the
//     progress a pong is on a machine. A read that sees no message for
//     the silence is a *NoAnswerError, as on a machine.
//   - An HTTP call waits at most the silence in all (fetch reports no
//     progress to follow).
//   - Each message received is copied out of the browser into a new slice
//     (one allocation a message); the match's own handling of it still
//     allocates nothing.
//
// A page served from another origin than the server reaches it: Nakama
// answers the HTTP API's CORS preflight for any origin (with the
// Authorization and Content-Type headers the client sends), and its
// realtime socket takes any Origin.
package client

import (
	"bytes"
	"context"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/heroiclabs/nakama-common/api"
	"github.com/heroiclabs/nakama-common/rtapi"
	"google.golang.org/protobuf/proto"

	"github.com/fixedstep/fixedstep/engine/lockstep"
	"github.com/fixedstep/fixedstep/engine/online/wire"
)

// Options configure Dial.
type Options struct {
	// ServerKey is the server's socket key ("defaultkey" when empty: a
	// Nakama's default).
	ServerKey string

	// Device identifies the player's device: 10 to 128 characters. The
	// server makes the account the first time it sees one.
	Device string

	// Username, if set, names a new account (the server picks one
	// otherwise).
	Username string

	// Silence is how long the client waits for a server that sends
	// nothing: to connect, for an HTTP answer, for the websocket upgrade,
	// for a reply or the match's messages (the client pings the server
	// every third of it, so that a live server answers with a pong). A
	// wait that sees no byte for that long fails with a *NoAnswerError
	// ("no answer from host:port after 30 s"), and the socket closes; a
	// server that sends at all, however slowly, is waited for. 0:
	// DefaultSilence. In a browser, see the package's doc.
	Silence time.Duration
}

// A Client is an authenticated player's realtime socket.
type Client struct {
	base    *url.URL
	web     *http.Client
	token   string
	user    string
	created bool

	ws      *socket
	writeMu sync.Mutex
	out     []byte // the match message being sent, under writeMu
	cid     atomic.Int64

	mu      sync.Mutex
	waiting map[string]chan *rtapi.Envelope // replies by cid
	matches map[string]*Match               // the matches joined, whose messages read queues
	err     error                           // why the socket closed
	done    chan struct{}

	bytesIn, bytesOut atomic.Int64

	silence time.Duration // Options.Silence
}

// Dial authenticates the device at the server (an http:// base URL, the
// server's HTTP API port: 7350 by default) and opens its realtime socket.
// A server that sends nothing for Options.Silence, then or later, is a
// *NoAnswerError.
func Dial(ctx context.Context, server string, opts Options) (*Client, error) {
	base, err := url.Parse(server)
	if err != nil || (base.Scheme != "http" && base.Scheme != "https") || base.Host == "" {
		return nil, fmt.Errorf("client: server %q: want http://host:port", server)
	}
	if n := len(opts.Device); n < 10 || n > 128 {
		return nil, fmt.Errorf("client: device %q: want 10 to 128 characters", opts.Device)
	}
	key := opts.ServerKey
	if key == "" {
		key = "defaultkey"
	}
	silence := opts.Silence
	if silence <= 0 {
		silence = DefaultSilence
	}
	w := &watch{server: base.Host, silence: silence}
	web := httpClient(w)
	q := url.Values{"create": {"true"}}
	if opts.Username != "" {
		q.Set("username", opts.Username)
	}
	auth := base.JoinPath("/v2/account/authenticate/device")
	auth.RawQuery = q.Encode()
	body, _ := json.Marshal(map[string]string{"id": opts.Device})
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, auth.String(), bytes.NewReader(body))
	if err != nil {
		return nil, err
	}
	req.SetBasicAuth(key, "")
	req.Header.Set("Content-Type", "application/json")
	var session struct {
		Token   string `json:"token"`
		Created bool   `json:"created"`
	}
	if err := call(web, req, &session, 1<<20); err != nil {
		return nil, fmt.Errorf("client: authenticating: %w", err)
	}

	ws := *base
	ws.Scheme = strings.Replace(base.Scheme, "http", "ws", 1)
	ws.Path = "/ws"
	ws.RawQuery = url.Values{"token": {session.Token}, "format": {"protobuf"}, "status": {"false"}}.Encode()
	conn, err := openSocket(ctx, w, ws.String())
	if err != nil {
		return nil, fmt.Errorf("client: opening the realtime socket: %w", err)
	}
	c := &Client{base: base, web: web, token: session.Token, created: session.Created, user: tokenUser(session.Token), ws: conn, waiting: map[string]chan *rtapi.Envelope{},
		matches: map[string]*Match{}, done: make(chan struct{}), silence: silence}
	go c.read()
	go c.keepAlive()
	return c, nil
}

// maxMessage bounds a message read from the server's socket: the longest
// it sends is a history of wire.MaxHistory bytes of tick messages and one
// more, in an envelope. A longer one closes the socket with an error
// (gorilla/websocket's read limit), before it is read whole.
const maxMessage = 4 * wire.MaxHistory

// tokenUser returns the user id a session token (a JWT) holds.
func tokenUser(token string) string {
	parts := strings.Split(token, ".")
	if len(parts) != 3 {
		return ""
	}
	b, err := base64.RawURLEncoding.DecodeString(parts[1])
	if err != nil {
		return ""
	}
	var claims struct {
		User string `json:"uid"`
	}
	json.Unmarshal(b, &claims)
	return claims.User
}

// User returns the player's user id, and whether Dial made the account
// (the server had not seen the device before).
func (c *Client) User() (id string, created bool) { return c.user, c.created }

// call does an HTTP API request and decodes its JSON answer, of at most
// limit bytes, into out, or returns the server's error message.
func call(web *http.Client, req *http.Request, out any, limit int64) error {
	resp, err := web.Do(req)
	if err != nil {
		return err
	}
	defer resp.Body.Close()
	b, err := io.ReadAll(io.LimitReader(resp.Body, limit+1))
	if err != nil {
		return err
	}
	if int64(len(b)) > limit {
		return fmt.Errorf("%s: an answer of more than %d bytes", req.URL.Path, limit)
	}
	if resp.StatusCode != http.StatusOK {
		var e struct {
			Message string `json:"message"`
		}
		if json.Unmarshal(b, &e) == nil && e.Message != "" {
			return fmt.Errorf("%s: %s", resp.Status, e.Message)
		}
		return fmt.Errorf("%s: %s", resp.Status, bytes.TrimSpace(b))
	}
	return json.Unmarshal(b, out)
}

// Close closes the socket: the server takes the player out of its
// matches.
func (c *Client) Close() error {
	c.writeMu.Lock()
	err := c.ws.shutdown()
	c.writeMu.Unlock()
	<-c.done
	return err
}

// Bytes returns the bytes of the socket's messages received and sent so
// far (websocket payloads: the protobuf envelopes).
func (c *Client) Bytes() (in, out int64) { return c.bytesIn.Load(), c.bytesOut.Load() }

// read reads the socket until it closes, handing replies to their callers
// and match data to their matches. A match's message, the server's ticks,
// is read into a buffer it reuses, decoded by hand (decodeMatchData) and
// copied into one of the match's messages that its consumer hands back:
// it allocates nothing of its own (the socket's reader allocates one
// small object a message on a machine, the message in a browser). Any
// other message, rare, goes through
// proto.Unmarshal.
func (c *Client) read() {
	defer close(c.done)
	var (
		err error
		b   []byte
		d   matchData
	)
	for {
		if cap(b) > largeMessage {
			b = nil // after a rare large message: do not keep its buffer
		}
		b, err = c.ws.next(b[:0])
		if err != nil {
			break
		}
		c.bytesIn.Add(int64(len(b)))
		err = decodeMatchData(b, &d)
		if err == nil {
			c.mu.Lock()
			c.queue(d.matchID, d.op, d.data)
			c.mu.Unlock()
			continue
		}
		if err != errNotMatchData {
			err = fmt.Errorf("client: a message from the server does not decode: %w", err)
			break
		}
		env := &rtapi.Envelope{}
		if err = proto.Unmarshal(b, env); err != nil {
			err = fmt.Errorf("client: a message from the server does not decode: %w", err)
			break
		}
		c.mu.Lock()
		if env.Cid != "" {
			if ch := c.waiting[env.Cid]; ch != nil {
				delete(c.waiting, env.Cid)
				ch <- env
			}
		} else if d := env.GetMatchData(); d != nil {
			c.queue([]byte(d.MatchId), d.OpCode, d.Data)
		}
		c.mu.Unlock()
	}
	c.ws.close()
	c.mu.Lock()
	c.err = fmt.Errorf("client: the socket closed: %w", err)
	for cid, ch := range c.waiting {
		close(ch)
		delete(c.waiting, cid)
	}
	for id, m := range c.matches {
		close(m.data)
		delete(c.matches, id)
	}
	c.mu.Unlock()
}

// queue queues a message of match id for the match's consumer, if the
// client plays that match. A consumer a queue's length behind is out of
// the match: its queue closes (Match.next says why). Called with c.mu
// held.
func (c *Client) queue(id []byte, op int64, data []byte) {
	m := c.matches[string(id)] // no allocation: the compiler looks the bytes up
	if m == nil || m.queue(op, data) {
		return
	}
	m.overflowed.Store(true)
	close(m.data)
	delete(c.matches, m.id)
}

// send writes env to the socket.
func (c *Client) send(env *rtapi.Envelope) error {
	b, err := proto.Marshal(env)
	if err != nil {
		return err
	}
	c.writeMu.Lock()
	defer c.writeMu.Unlock()
	return c.write(b)
}

// sendMatchData writes a MatchDataSend envelope (reliable) of match id,
// op code op and data to the socket, encoded by hand into a buffer the
// client reuses.
func (c *Client) sendMatchData(id string, op int64, data []byte) error {
	c.writeMu.Lock()
	defer c.writeMu.Unlock()
	c.out = appendMatchDataSend(c.out[:0], id, op, data, true)
	err := c.write(c.out)
	if cap(c.out) > largeMessage {
		c.out = nil
	}
	return err
}

// write writes the message b to the socket, with c.writeMu held.
func (c *Client) write(b []byte) error {
	if err := c.ws.write(b); err != nil {
		return fmt.Errorf("client: sending: %w", err)
	}
	c.bytesOut.Add(int64(len(b)))
	return nil
}

// request sends env with a fresh cid and waits for the server's reply to
// it; an Error reply is returned as an error.
func (c *Client) request(ctx context.Context, env *rtapi.Envelope) (*rtapi.Envelope, error) {
	env.Cid = strconv.FormatInt(c.cid.Add(1), 10)
	ch := make(chan *rtapi.Envelope, 1)
	c.mu.Lock()
	if c.err != nil {
		c.mu.Unlock()
		return nil, c.err
	}
	c.waiting[env.Cid] = ch
	c.mu.Unlock()
	if err := c.send(env); err != nil {
		return nil, err
	}
	select {
	case reply, ok := <-ch:
		if !ok {
			return nil, c.closedErr()
		}
		if e := reply.GetError(); e != nil {
			return nil, &ServerError{Code: e.Code, Message: e.Message}
		}
		return reply, nil
	case <-ctx.Done():
		c.mu.Lock()
		delete(c.waiting, env.Cid)
		c.mu.Unlock()
		return nil, ctx.Err()
	}
}

func (c *Client) closedErr() error {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.err
}

// A ServerError is an error the server answered a request with.
type ServerError struct {
	Code    int32
	Message string
}

func (e *ServerError) Error() string {
	return fmt.Sprintf("client: the server refused: %s (code %d)", e.Message, e.Code)
}

// RPC calls the server's RPC id with payload (JSON, as the RPC takes it)
// and returns its answer.
func (c *Client) RPC(ctx context.Context, id, payload string) (string, error) {
	reply, err := c.request(ctx, &rtapi.Envelope{Message: &rtapi.Envelope_Rpc{Rpc: &api.Rpc{Id: id, Payload: payload}}})
	if err != nil {
		return "", err
	}
	return reply.GetRpc().GetPayload(), nil
}

// Find returns the id of an open match of game for players players, or
// of one made for them, of seconds (0: the server's default) when none
// is open (the server's RPC "<game>_find").
func (c *Client) Find(ctx context.Context, game *lockstep.Game, players, seconds int) (string, error) {
	return c.matchRPC(ctx, game, "_find", map[string]int{"players": players, "seconds": seconds})
}

// Create makes a match of game with the server's RPC "<game>_create" and
// returns its id. params are the match's: package match's Params (players,
// seconds, seed, settings), or any value with the same JSON, such as
// map[string]any{"players": 2, "settings": map[string]string{"win": "3"}},
// for a client that does not import the server's module.
func (c *Client) Create(ctx context.Context, game *lockstep.Game, params any) (string, error) {
	return c.matchRPC(ctx, game, "_create", params)
}

// Resume returns the id of match id of game resumed by its server (the
// RPC "<game>_resume") after the server was killed and started again: the
// match made anew from what the server stored of it, which its players
// join again (Join, as players who left) to play on from its state. A
// match the server stored nothing of is an error that says so.
func (c *Client) Resume(ctx context.Context, game *lockstep.Game, id string) (string, error) {
	return c.matchRPC(ctx, game, "_resume", map[string]string{"match_id": id})
}

// matchRPC calls game's RPC "<game>" + verb with payload, and returns the
// match id it answers.
func (c *Client) matchRPC(ctx context.Context, game *lockstep.Game, verb string, payload any) (string, error) {
	b, err := json.Marshal(payload)
	if err != nil {
		return "", err
	}
	rpc := game.Name + verb
	answer, err := c.RPC(ctx, rpc, string(b))
	var se *ServerError
	if errors.As(err, &se) && se.Code == int32(rtapi.Error_RUNTIME_FUNCTION_NOT_FOUND) {
		return "", fmt.Errorf("client: this server does not serve %s (it has no RPC %s): %w", game.Name, rpc, err)
	}
	if err != nil {
		return "", err
	}
	var r struct {
		Match string `json:"match_id"`
	}
	if err := json.Unmarshal([]byte(answer), &r); err != nil || r.Match == "" {
		return "", fmt.Errorf("client: %s answered %q: want {\"match_id\": id}", rpc, answer)
	}
	return r.Match, nil
}
