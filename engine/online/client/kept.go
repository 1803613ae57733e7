package client

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"net/http"

	"github.com/fixedstep/fixedstep/engine/input"
	"github.com/fixedstep/fixedstep/engine/lockstep"
	"github.com/fixedstep/fixedstep/engine/online/wire"
)

// maxKeptAnswer bounds the HTTP answer that carries a kept match: its
// compressed ticks (at most wire.MaxKept bytes, and no more than that for
// ticks that do not compress), base64 in JSON in a JSON string, and its
// start and end.
const maxKeptAnswer = 2*wire.MaxKept + 1<<20

// Kept fetches a finished match of game that its server kept (the
// server's RPC "<game>_kept", over the HTTP API: the answer may be longer
// than a socket message), for Replay to play again. A match the server
// does not keep (no such match, one still under way, or one too long to
// keep) is an error that says so. Replay checks its bytes.
func (c *Client) Kept(ctx context.Context, game *lockstep.Game, id string) (*wire.Kept, error) {
	payload, _ := json.Marshal(map[string]string{"match_id": id})
	body, _ := json.Marshal(string(payload)) // the HTTP API takes an RPC's payload as a JSON string
	rpc := game.Name + "_kept"
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, c.base.JoinPath("/v2/rpc", rpc).String(), bytes.NewReader(body))
	if err != nil {
		return nil, err
	}
	req.Header.Set("Authorization", "Bearer "+c.token)
	req.Header.Set("Content-Type", "application/json")
	var answer struct {
		Payload string `json:"payload"`
	}
	if err := call(c.web, req, &answer, maxKeptAnswer); err != nil {
		return nil, fmt.Errorf("client: fetching match %s of %s: %w", id, game.Name, err)
	}
	var k wire.Kept
	if err := json.Unmarshal([]byte(answer.Payload), &k); err != nil {
		return nil, fmt.Errorf("client: match %s of %s: the server's answer does not decode: %w", id, game.Name, err)
	}
	return &k, nil
}

// Replay returns a session that plays a kept match again in the engine's
// loop (engine.Options.Session), as a player who came back to it would
// catch up: every tick with the inputs the server ran it with, its
// checksum checked against the server's, to the match's end (an
// *EndedError once the loop has run its last tick: the loop stops there). The local input goes
// nowhere. It refuses a match of another game or version than game, one
// its server computed with another determinism version, and bytes that
// are not a kept match's (wire.Kept.History).
func Replay(game *lockstep.Game, k *wire.Kept) (*Session, error) {
	start := k.Start
	start.Seat = 0 // a watcher's: its input goes nowhere
	switch {
	case start.Game != game.Name || start.Version != game.Version:
		return nil, fmt.Errorf("client: the kept match played %s %s; this client plays %s %s", start.Game, start.Version, game.Name, game.Version)
	case checkDeterminism(start) != nil:
		return nil, checkDeterminism(start)
	}
	h, err := k.History()
	if err != nil {
		return nil, fmt.Errorf("client: match %s: %w", start.Match, err)
	}
	end := k.End
	return &Session{start: start, kept: h, end: &end, ticks: make([]serverTick, sessionTicks),
		cur: make([]input.State, start.Players)}, nil
}

// pollKept gives the loop a kept match's next ticks, a few ahead of the
// last it simulated, as a live match's arrive: fewer than would make the
// loop catch up (Behind), so that a window shows the match at its pace.
func (s *Session) pollKept() error {
	for s.err == nil && len(s.kept) > 0 && s.received-s.simulated < catchUpAfter {
		msg, rest, err := wire.SplitHistory(s.kept)
		if err != nil { // History checked it
			s.err = fmt.Errorf("client: match %s after tick %d: %w", s.start.Match, s.received, err)
			break
		}
		s.apply(msg)
		s.kept = rest
	}
	if s.err == nil && len(s.kept) == 0 && s.simulated >= s.end.Tick {
		s.err = &EndedError{End: *s.end}
	}
	return s.err
}
