package client

import (
	"context"
	"encoding/json"
	"fmt"
	"sync/atomic"
	"time"

	"github.com/heroiclabs/nakama-common/rtapi"

	"github.com/fixedstep/fixedstep/engine"
	"github.com/fixedstep/fixedstep/engine/input"
	"github.com/fixedstep/fixedstep/engine/lockstep"
	"github.com/fixedstep/fixedstep/engine/online/wire"
)

// queued is how many match messages a match keeps for Play: a minute of
// ticks at 60 Hz. A client that falls further behind is out of the match:
// Play returns an error that says so.
const queued = 4096

// largeMessage is the size past which a message's buffer, once its
// consumer hands it back, is let go rather than kept for the next message
// (a rare one: the ticks so far of a match under way).
const largeMessage = 64 << 10

// A Match is a match the client joined.
type Match struct {
	c          *Client
	game       *lockstep.Game
	id         string
	data       chan *message // the messages queued, in order; closed when the socket closes, or when it overflowed
	free       chan *message // the messages handed back, for the socket's reader to fill again
	held       *message      // the message next returned last, handed back at the next call
	overflowed atomic.Bool   // Play fell more than queued messages behind
	joinTrip   time.Duration // the join's round trip to the server
}

// A message is one message of the match: the socket's reader fills it and
// queues it (Match.queue), its consumer reads it and hands it back
// (Match.release), and the reader fills it again, so that a warm match
// receives without allocating. Only the goroutine holding a message reads
// or writes it: the channels it passes through hand it over.
type message struct {
	op   int64
	data []byte
}

func newMatch(c *Client, game *lockstep.Game, id string) *Match {
	// Messages are made when none is free: at most queued in data, one
	// held by the consumer and one being filled, all of which free holds.
	return &Match{c: c, game: game, id: id, data: make(chan *message, queued), free: make(chan *message, queued+2)}
}

// queue queues a message of op code op with a copy of data for the
// match's consumer. It reports false when the queue is full: the consumer
// fell a queue's length behind. The socket's reader calls it.
func (m *Match) queue(op int64, data []byte) bool {
	var msg *message
	select {
	case msg = <-m.free:
	default:
		msg = &message{data: make([]byte, 0, 128)} // room for a tick's message (some 20 to 70 bytes)
	}
	msg.op = op
	msg.data = append(msg.data[:0], data...)
	select {
	case m.data <- msg:
		return true
	default:
		return false
	}
}

// release hands msg back to the socket's reader (nil: nothing); the
// caller is done with it and its data.
func (m *Match) release(msg *message) {
	if msg == nil {
		return
	}
	if cap(msg.data) > largeMessage {
		msg.data = nil
	}
	select {
	case m.free <- msg:
	default: // cannot be full (newMatch): let it go
	}
}

// ID returns the match's id.
func (m *Match) ID() string { return m.id }

// Join joins the match id of game, telling the server the game's name
// and version: the server refuses a client of another game or version,
// and one that comes once the match is full or has begun.
func (c *Client) Join(ctx context.Context, game *lockstep.Game, id string) (*Match, error) {
	return c.join(ctx, game, id, false)
}

// JoinTicks is Join for a client whose run cannot begin from the server's
// state (a game whose scene cannot read it, or a run that records: a
// recording holds a run from its first tick): joining a match under way,
// it is sent every tick from the first (wire.MetaTicks), and simulates
// them all to catch up.
func (c *Client) JoinTicks(ctx context.Context, game *lockstep.Game, id string) (*Match, error) {
	return c.join(ctx, game, id, true)
}

func (c *Client) join(ctx context.Context, game *lockstep.Game, id string, allTicks bool) (*Match, error) {
	m := newMatch(c, game, id)
	c.mu.Lock()
	if c.err != nil {
		c.mu.Unlock()
		return nil, c.err
	}
	if c.matches[id] != nil {
		c.mu.Unlock()
		return nil, fmt.Errorf("client: match %s: joined already", id)
	}
	c.matches[id] = m // before the join: the match may begin at once
	c.mu.Unlock()
	began := time.Now()
	_, err := c.request(ctx, &rtapi.Envelope{Message: &rtapi.Envelope_MatchJoin{MatchJoin: &rtapi.MatchJoin{
		Id:       &rtapi.MatchJoin_MatchId{MatchId: id},
		Metadata: joinMeta(game, allTicks),
	}}})
	m.joinTrip = time.Since(began)
	if err != nil {
		m.forget()
		return nil, fmt.Errorf("client: joining match %s: %w", id, err)
	}
	return m, nil
}

// joinMeta is a join's metadata.
func joinMeta(game *lockstep.Game, allTicks bool) map[string]string {
	m := map[string]string{"game": game.Name, "version": game.Version}
	if allTicks {
		m[wire.MetaTicks] = wire.AllTicks
	}
	return m
}

// forget stops the client's queueing the match's messages.
func (m *Match) forget() {
	m.c.mu.Lock()
	if m.c.matches[m.id] == m {
		delete(m.c.matches, m.id)
	}
	m.c.mu.Unlock()
}

// Send sends the match a message of op code op. Play sends the player's
// input itself; Send is for what it does not send.
// It allocates nothing of its own (gorilla/websocket's writer allocates
// one small object a message).
func (m *Match) Send(op int64, data []byte) error {
	return m.c.sendMatchData(m.id, op, data)
}

// Leave leaves the match: the player's seat holds nothing from then on.
func (m *Match) Leave(ctx context.Context) error {
	m.forget()
	_, err := m.c.request(ctx, &rtapi.Envelope{Message: &rtapi.Envelope_MatchLeave{MatchLeave: &rtapi.MatchLeave{MatchId: m.id}}})
	return err
}

// Play configures Match.Play.
type Play struct {
	// Bot gives the player's held input for the tick ahead from the state
	// of the client's own run, after each tick; nil: the game's own bot.
	Bot lockstep.Bot

	// Script, if set, gives the player's held input for tick instead of a
	// bot (a client that does not simulate needs one to play).
	Script func(tick int64, in *input.State)

	// Idle sends no input: the seat holds nothing.
	Idle bool

	// Blind does not simulate: the client checks no checksum, and needs
	// Script to play. A load test's clients are blind, so that their
	// simulations do not take the server's CPU.
	Blind bool

	// Lead is how many ticks past the last tick the server broadcast the
	// client stamps its input for (default 2: it reaches the server before
	// that tick runs when the round trip is under about two ticks; at most
	// the match's wire.Start.MaxLead plus one).
	Lead int64

	// OnTick, if set, is called after each tick the client ran and
	// checked (or, blind, received), with the tick's number. It runs
	// between ticks, where the client's run can be read as a Bot reads it
	// (through what lockstep.Game.New made). After a match's last tick the run
	// has ended and its scene has released its world: a game that wants
	// its final state shown keeps it as its last tick ends.
	OnTick func(tick int64)
}

// Result is what Play saw.
type Result struct {
	Start   wire.Start // what the server sent as the match began: the seat among it
	Ticks   int64      // the ticks the server broadcast (the last tick heard of)
	Checked int64      // of them, the ticks the client simulated, its checksum equal to the server's
	Sent    int64      // input messages sent (those stamped past the tick a game ended at by itself are not taken)

	// LastSent is the stamp of the input sent last (0: none). Inputs
	// still on their way when the server ran the match's last tick are
	// never taken: a server that says which stamp it took last shows
	// which ones.
	LastSent int64

	// Moved counts the inputs the server did not run at the tick the
	// client stamped them for, as sent: late ones (the server applies
	// them at the next tick it runs) and, were it to happen, any changed
	// by anyone else. An honest client on a quick link sees none.
	Moved int64

	// From is the tick of the server's state the client began from (a
	// player who joined the match under way), 0 for none; StateBytes its
	// length. Checked counts the ticks after it.
	From       int64
	StateBytes int

	End     wire.End
	Elapsed time.Duration // from the match's start to its end

	// BytesIn and BytesOut are the socket's bytes from the start to the
	// end (Client.Bytes).
	BytesIn, BytesOut int64
}

// A DesyncError is a tick whose checksum the server's simulation and the
// client's disagree on.
type DesyncError struct {
	Tick           int64
	Server, Client uint64
}

func (e *DesyncError) Error() string {
	return fmt.Sprintf("client: tick %d: the server's state checksum is %016x, this client's %016x: the two builds of the game "+
		"differ (a change to its simulation needs a new lockstep.Game.Version, on both), or its simulation is not deterministic "+
		"(-synctest checks it)", e.Tick, e.Server, e.Client)
}

// Play plays the match until it ends: it waits for the server's start
// (coming back to a match under way, it first runs every tick so far, as
// the server sends them), then runs every tick the server broadcasts with
// the inputs the server ran it with, checks the checksum, and sends the
// player's input for the tick Lead ticks ahead. It returns when the server
// ends the match (Result.End says why), with an error when the client's
// run disagrees with the server's (a *DesyncError), when the socket
// closes, or when ctx is done.
func (m *Match) Play(ctx context.Context, opts Play) (res Result, err error) {
	if opts.Lead <= 0 {
		opts.Lead = 2
	}
	defer m.forget()
	start, err := m.start(ctx)
	if err != nil {
		return res, err
	}
	if opts.Lead > int64(start.MaxLead)+1 || opts.Lead > 128 {
		return res, fmt.Errorf("client: lead %d: the match takes an input at most %d ticks ahead", opts.Lead, min(start.MaxLead+1, 128))
	}
	res.Start = start
	if start.Game != m.game.Name || start.Version != m.game.Version {
		return res, fmt.Errorf("client: the match plays %s %s; this client %s %s", start.Game, start.Version, m.game.Name, m.game.Version)
	}
	if err := checkDeterminism(start); err != nil {
		return res, err
	}
	if start.Players < 1 || start.Players > input.MaxPlayers || start.Seat < 0 || start.Seat >= start.Players {
		return res, fmt.Errorf("client: the match's start says seat %d of %d players", start.Seat, start.Players)
	}
	began := time.Now()
	in0, out0 := m.c.Bytes()
	defer func() {
		res.Elapsed = time.Since(began)
		in1, out1 := m.c.Bytes()
		res.BytesIn, res.BytesOut = in1-in0, out1-out0
	}()

	from, err := m.state(ctx, start)
	if err != nil {
		return res, err
	}
	res.From, res.StateBytes = start.From, len(from)
	var runner *lockstep.Runner
	bot := opts.Bot
	if !opts.Blind {
		first, own, err := m.game.New(start.Seed, start.Settings)
		if err != nil {
			return res, fmt.Errorf("client: the match's settings: %w", err)
		}
		if bot == nil {
			bot = own
		}
		runner, err = lockstep.New(first, lockstep.Options{Players: start.Players, Ticks: start.Ticks, From: from,
			Game: engine.GameInfo{Name: m.game.Name, Version: m.game.Version}})
		if err != nil {
			return res, fmt.Errorf("client: beginning from the match's state: %w", err)
		}
		defer runner.Close()
	}
	if start.From > 0 {
		res.Ticks = start.From - 1 // the history from the state begins with tick From, which the state ran
	}
	players := make([]input.State, start.Players)
	var held, sent input.State
	var stamped [256]struct { // the inputs sent, by tick
		tick int64
		held input.State
	}
	var msg []byte
	// apply runs the tick of a tick message, checking its checksum.
	apply := func(msg []byte) (int64, error) {
		tick, sum, err := wire.DecodeTick(msg, players)
		if err != nil {
			return 0, fmt.Errorf("client: tick message %d: %w", res.Ticks+1, err)
		}
		if tick != res.Ticks+1 {
			return 0, fmt.Errorf("client: the server sent tick %d after tick %d", tick, res.Ticks)
		}
		res.Ticks = tick
		if tick == start.From { // the state's own tick: its inputs, for the ticks after it
			return tick, nil
		}
		if st := &stamped[tick%int64(len(stamped))]; st.tick == tick {
			ran := players[start.Seat]
			ran.ClearEdges()
			if !ran.Same(&st.held) {
				res.Moved++
			}
		}
		if runner != nil {
			ran, own, err := runner.Step(players)
			if err != nil {
				return 0, fmt.Errorf("client: running tick %d: %w", tick, err)
			}
			if ran != tick {
				return 0, fmt.Errorf("client: the simulation ran tick %d for the server's tick %d", ran, tick)
			}
			if own != sum {
				return 0, &DesyncError{Tick: tick, Server: sum, Client: own}
			}
			res.Checked++
		}
		if opts.OnTick != nil {
			opts.OnTick(tick)
		}
		return tick, nil
	}
	for {
		d, err := m.next(ctx)
		if err != nil {
			return res, err
		}
		switch d.op {
		case wire.OpEnd:
			if err := json.Unmarshal(d.data, &res.End); err != nil {
				return res, fmt.Errorf("client: the match's end does not decode: %w", err)
			}
			return res, nil
		case wire.OpHistory: // came back to a match under way: the ticks so far
			for rest := d.data; len(rest) > 0; {
				msg, after, err := wire.SplitHistory(rest)
				if err != nil {
					return res, fmt.Errorf("client: the ticks so far after tick %d: %w", res.Ticks, err)
				}
				if _, err := apply(msg); err != nil {
					return res, err
				}
				rest = after
			}
			continue
		case wire.OpTick:
		default:
			continue
		}
		tick, err := apply(d.data)
		if err != nil {
			return res, err
		}
		switch {
		case opts.Idle:
			continue
		case opts.Script != nil:
			held = input.State{}
			opts.Script(tick+opts.Lead, &held)
		case bot != nil && runner != nil:
			held = input.State{}
			bot(start.Seat, &held)
		default:
			continue
		}
		// The server has run the ticks still waiting here too: the input is
		// stamped Lead ticks past the last of them, so that a client behind
		// the server (a busy machine, a burst of ticks) still sends inputs
		// the server runs on time. Stamps only go up, one per tick the
		// server ran at most while this client catches up: never stale,
		// never a flood.
		at := tick + int64(len(m.data)) + opts.Lead
		if at <= res.LastSent {
			continue
		}
		if start.Ticks > 0 && at > start.Ticks {
			continue // past the match's end
		}
		if res.Sent > 0 && held.Same(&sent) {
			continue // the server holds it as it was
		}
		msg = wire.AppendInput(msg[:0], at, &held)
		if err := m.Send(wire.OpInput, msg); err != nil {
			return res, err
		}
		sent, res.LastSent = held, at
		stamped[at%int64(len(stamped))].tick, stamped[at%int64(len(stamped))].held = at, held
		res.Sent++
	}
}

// start waits for the server's start message.
func (m *Match) start(ctx context.Context) (wire.Start, error) {
	var s wire.Start
	for {
		d, err := m.next(ctx)
		if err != nil {
			return s, err
		}
		switch d.op {
		case wire.OpStart:
			if err := json.Unmarshal(d.data, &s); err != nil {
				return s, fmt.Errorf("client: the match's start does not decode: %w", err)
			}
			return s, nil
		case wire.OpEnd:
			var e wire.End
			json.Unmarshal(d.data, &e)
			return s, fmt.Errorf("client: the match ended before it began: %s", e.Reason)
		}
	}
}

// state reads the state a player who joins the match under way begins
// from (wire.Start.From): OpState messages of start.StateBytes in all;
// nil when the start says none follows.
func (m *Match) state(ctx context.Context, start wire.Start) ([]byte, error) {
	switch {
	case start.From == 0 && start.StateBytes == 0:
		return nil, nil
	case start.From < 1 || start.From > start.Resumed || start.StateBytes < 1 || start.StateBytes > wire.MaxState:
		return nil, fmt.Errorf("client: the match's start says a state of %d bytes of tick %d, the match at tick %d", start.StateBytes, start.From, start.Resumed)
	}
	b := make([]byte, 0, min(start.StateBytes, wire.MaxHistory))
	for len(b) < start.StateBytes {
		d, err := m.next(ctx)
		if err != nil {
			return nil, err
		}
		switch d.op {
		case wire.OpState:
			if len(b)+len(d.data) > start.StateBytes {
				return nil, fmt.Errorf("client: the match's state is longer than the %d bytes its start says", start.StateBytes)
			}
			b = append(b, d.data...)
		case wire.OpEnd:
			var e wire.End
			json.Unmarshal(d.data, &e)
			return nil, fmt.Errorf("client: the match ended while its state was on its way: %s", e.Reason)
		default:
			return nil, fmt.Errorf("client: message %d came before the match's state was whole", d.op)
		}
	}
	return b, nil
}

// next returns the match's next message, which is the caller's until its
// next call (or m.release(m.held)): it hands back the one it returned
// before.
func (m *Match) next(ctx context.Context) (*message, error) {
	m.release(m.held)
	m.held = nil
	select {
	case d, ok := <-m.data:
		if !ok {
			if m.overflowed.Load() {
				return nil, fmt.Errorf("client: match %s: this client fell more than %d messages behind the server", m.id, queued)
			}
			if err := m.c.closedErr(); err != nil {
				return nil, err
			}
			return nil, fmt.Errorf("client: match %s: no more messages", m.id)
		}
		m.held = d
		return d, nil
	case <-ctx.Done():
		return nil, ctx.Err()
	}
}

// checkDeterminism refuses a match whose server's engine computes with
// another determinism version than this client's (engine.Determinism).
func checkDeterminism(start wire.Start) error {
	if start.Determinism != engine.Determinism {
		return fmt.Errorf("client: the match's server computes with determinism version %d, this client with %d: "+
			"the two would compute different games (build both with the same engine)", start.Determinism, engine.Determinism)
	}
	return nil
}
