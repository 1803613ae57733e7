// Package match runs a game (a lockstep.Game) as an authoritative match on a
// Nakama server: the server simulates the game on the engine's core at the
// match's tick rate, from the inputs its players' clients send, and
// broadcasts every tick's inputs and state checksum, so that every client
// simulates the same run and checks it, tick by tick.
//
// # A match
//
// Whoever creates it (Register's RPC "<game>_create", or the server's own
// code: nk.MatchCreate) gives its players (1 to the game's MaxPlayers), its
// length in seconds and the game's settings; the server picks a seed when
// none is given. Clients join with metadata {"game": name, "version":
// version}: a client of another game or version is refused, as is one
// that comes once every seat is taken or the match has begun. When the
// last seat is taken the match begins: each player is sent its wire.Start
// (its seat, the seed, the settings), and from the next tick of Nakama's
// match loop on, each MatchLoop runs one tick of the game:
//
//  1. the input messages that arrived since the tick before are taken (see
//     Inputs for the rules: a late input is applied at the next tick run; a
//     future-stamped, stale, malformed or oversized one is refused and
//     counted, and can change nothing);
//  2. every player's input of the tick is decided (Inputs.Tick) and the
//     simulation runs the tick (lockstep.Runner.Step);
//  3. the tick's number, its inputs that changed and the state checksum
//     after it are broadcast (wire.OpTick).
//
// A player who left (its socket closed, or it left the match) may come
// back while the match goes on, as the same user: it gets its seat again,
// its start (wire.Start.Resumed: the last tick run), the game's state at a
// recent tick (wire.OpState; the match keeps one every SnapshotEvery, see
// state.go) and the ticks since (wire.OpHistory: the match keeps its tick
// messages, some 20 to 80 bytes a tick, up to MaxHistoryBytes), which it
// simulates to catch up, each checksum checked, before the live ticks. A
// game whose scene writes no state is sent every tick so far instead. A
// match with a player on its way back does not end for want of players.
//
// A seat its player left is that player's for SeatHeld (in ticks run);
// after that, a newcomer of the same game and version may take it over
// (the find RPC offers such a match to a player looking for one, after the
// matches still waiting for players): it is seated at the left player's
// place and catches up as a player who comes back does. Until a newcomer
// arrives, the player who left may still come back to it.
//
// The match ends when the game's run ends (its length reached, or its scene
// chain ended): the players are sent wire.End, and the match stops. It
// ends too when every player has left, when it has not begun within
// LobbyTimeout, and when the server shuts down: with a grace period
// (Nakama's shutdown_grace_sec; make server gives 2 s) its players are
// told (wire.End), without one, or when the server is killed, their
// sockets just close. A match that began and ended is kept, to be played
// again (see KeptCollection); one under way stores its record every
// second, and after its server was killed (or shut down) its players ask
// for it resumed (see RunningCollection).
//
// MatchSignal "stats" returns the match's counters as JSON (Stats): the
// RPC "<game>_stats" returns them to a client.
package match

import (
	"context"
	"crypto/rand"
	"database/sql"
	"encoding/binary"
	"encoding/json"
	"errors"
	"fmt"
	"maps"
	"slices"
	"time"

	"github.com/heroiclabs/nakama-common/runtime"

	"github.com/fixedstep/fixedstep/engine"
	"github.com/fixedstep/fixedstep/engine/input"
	"github.com/fixedstep/fixedstep/engine/lockstep"
	"github.com/fixedstep/fixedstep/engine/online/wire"
)

// Limits of a match.
const (
	// MaxSeconds is the longest match.
	MaxSeconds = 3600
	// DefaultSeconds is a match's length when its creator gives none.
	DefaultSeconds = 120
	// LobbyTimeout is how long a match waits for its players.
	LobbyTimeout = 2 * time.Minute
	// ReserveTimeout is how long a seat stays taken for a client whose
	// join was accepted, until it arrives.
	ReserveTimeout = 15 * time.Second
	// MaxHistoryBytes bounds the tick messages a match keeps for a player
	// who comes back (about an hour of rally's ticks); past it, none
	// can.
	MaxHistoryBytes = 16 << 20
	// SeatHeld is how long, in the match's ticks, the seat of a player who
	// left is kept for that player alone; then a newcomer may take it.
	SeatHeld = 10 * time.Second
)

// Label is a match's label, JSON, as nk.MatchList queries it
// ("+label.game:rally +label.open:T").
type Label struct {
	Game    string `json:"game"`
	Version string `json:"version"`
	Open    bool   `json:"open"` // it takes players: Free > 0
	Players int    `json:"players"`
	Joined  int    `json:"joined"`
	Free    int    `json:"free"`    // the seats a newcomer may take now
	Playing bool   `json:"playing"` // the match has begun (its free seats are seats players left)
}

// Handler is a match of a game: Nakama's runtime.Match. Register makes one
// per match.
type Handler struct {
	game *lockstep.Game
	opts Options
}

// NewHandler returns a handler of a match of game.
func NewHandler(game *lockstep.Game) *Handler { return &Handler{game: game} }

// phases of a match.
const (
	lobby = iota
	playing
	over
	resuming // resumed after its server restarted: waiting for its players to come back (resume.go)
)

var phaseNames = [...]string{"lobby", "playing", "over", "resuming"}

// underWay reports whether the match has begun and not ended: it plays,
// or it waits for its players to come back to it resumed.
func (s *state) underWay() bool { return s.phase == playing || s.phase == resuming }

// player is a seat's client.
type player struct {
	presence runtime.Presence // nil: the seat is free (reserved when reserved is set), or its match resumed
	user     string           // the player's user id
	reserved string           // the session a join was accepted for, until it arrives
	until    time.Time        // when the reservation lapses
	left     bool
	leftAt   int64 // the last tick run when it left
	back     int   // times the player came back after leaving
	took     int   // times a newcomer took the seat over
	kicked   bool  // removed for flooding: it may not come back
	sent     int   // its messages in this tick, taken or refused
	allTicks bool  // coming to a match under way, it asked for every tick, not the state (wire.MetaTicks)
}

// state is a match's state: Nakama keeps it between the handler's calls
// (all on the match's goroutine).
type state struct {
	id      string
	hz      int
	params  Params
	start   time.Time // when the match was made
	phase   int
	seats   []player
	inputs  *Inputs
	runner  *lockstep.Runner
	ticks   int64         // the run's length in ticks; 0: until the game ends
	in      []input.State // this tick's inputs
	prev    []input.State // the tick before's
	buf     []byte
	history []byte // every tick message so far (wire.AppendHistory), for a player who comes back
	// historyFull: the history passed MaxHistoryBytes and was dropped
	historyFull bool
	strange     [reasons]int64
	bytes       int64
	last        int64    // the last tick run
	kicked      []string // the users removed for flooding: none may come back, to any seat
	opens       int64    // the tick after which the next held seat opens to newcomers; 0: none held
	endWhy      string

	step, interval, loop engine.Histogram
	lastLoop             time.Time

	snap snapshot // the game's state at a recent tick, for a player who joins under way
	// persist writes the match's record for a resume (resume.go); resumeOf
	// is the match this one resumes, resumedFrom the tick of the state it
	// began from (0: it began at tick 1)
	persist     *persister
	resumeOf    string
	resumedFrom int64
	// partial: the history begins at the state a resume began from, not
	// at tick 1 (a record not Whole: pieces.go); runs: the pieces of the
	// history that the match resumed counted; pieces: the match's own
	// written; pieced: where the history's next piece begins
	partial bool
	runs    []pieceRun
	pieces  int
	pieced  int
	nk      runtime.NakamaModule // MatchInit's: the match is kept through it once it ends
	logger  runtime.Logger
}

// MatchInit makes the match from its params (see Params).
func (h *Handler) MatchInit(ctx context.Context, logger runtime.Logger, db *sql.DB, nk runtime.NakamaModule, params map[string]interface{}) (interface{}, int, string) {
	id, _ := ctx.Value(runtime.RUNTIME_CTX_MATCH_ID).(string)
	if old, ok := params["resume"].(string); ok && len(params) == 1 { // resume.go
		s, err := h.resume(ctx, logger, nk, id, old)
		if err != nil {
			logger.Error("%s match %s: resuming match %s: %v", h.game.Name, id, old, err)
			return nil, h.game.Hz, ""
		}
		history := fmt.Sprintf("its history from tick 1: %d runs of pieces and the ticks since", len(s.runs))
		if s.partial {
			history = "no history before its state"
		}
		logger.Info("%s match %s: match %s resumed after tick %d (its state's %d; %s)", h.game.Name, id, old, s.last, s.resumedFrom, history)
		return s, s.hz, h.label(s)
	}
	p, err := parseParams(h.game, params)
	if err == nil {
		_, _, err = h.game.New(0, p.Settings) // the settings are checked before anyone joins
	}
	if err != nil {
		logger.Error("%s match %s: %v", h.game.Name, id, err)
		return nil, h.game.Hz, "" // Nakama refuses the match (a nil state)
	}
	if p.Seed == 0 {
		var b [8]byte
		rand.Read(b[:])
		p.Seed = binary.LittleEndian.Uint64(b[:]) | 1
	}
	s := &state{id: id, hz: h.game.Hz, params: p, start: time.Now(), seats: make([]player, p.Players), nk: nk, logger: logger}
	s.ticks = int64(p.Seconds) * int64(s.hz)
	return s, s.hz, h.label(s)
}

func (h *Handler) label(s *state) string {
	l := Label{Game: h.game.Name, Version: h.game.Version, Players: len(s.seats), Joined: s.joined(),
		Playing: s.underWay()}
	switch s.phase {
	case lobby:
		l.Free = s.free()
	case playing, resuming:
		for i := range s.seats {
			if s.open(i) {
				l.Free++
			}
		}
	}
	l.Open = l.Free > 0
	b, _ := json.Marshal(l)
	return string(b)
}

// joined counts the seats taken by a client that arrived.
func (s *state) joined() int {
	n := 0
	for _, p := range s.seats {
		if p.presence != nil {
			n++
		}
	}
	return n
}

// free counts the seats neither taken nor reserved.
func (s *state) free() int {
	n := 0
	for _, p := range s.seats {
		if p.presence == nil && p.reserved == "" {
			n++
		}
	}
	return n
}

// open reports whether a newcomer may take the seat of a match under
// way: its player left SeatHeld ago or more, no one is on the way to it,
// and the match's ticks so far can still be sent.
func (s *state) open(seat int) bool {
	p := &s.seats[seat]
	return p.left && p.reserved == "" && s.last >= p.leftAt+s.held() && !s.historyFull
}

// held is SeatHeld in the match's ticks.
func (s *state) held() int64 { return int64(SeatHeld) * int64(s.hz) / int64(time.Second) }

// nextOpening returns the tick after which the next seat held for its
// player opens to newcomers, or 0.
func (s *state) nextOpening() int64 {
	next := int64(0)
	for _, p := range s.seats {
		if at := p.leftAt + s.held(); p.left && at > s.last && (next == 0 || at < next) {
			next = at
		}
	}
	return next
}

// leave notes that the player at seat left the match under way.
func (s *state) leave(seat int) {
	p := &s.seats[seat]
	p.left, p.leftAt = true, s.last
	if s.inputs != nil { // nil when the match ended as it began
		s.inputs.Leave(seat)
	}
	s.opens = s.nextOpening()
}

// seatOf returns the seat of the client of session id, or -1.
func (s *state) seatOf(session string) int {
	for i, p := range s.seats {
		if p.presence != nil && p.presence.GetSessionId() == session {
			return i
		}
	}
	return -1
}

// MatchJoinAttempt admits a client of the match's game and version while
// seats are free and the match has not begun, or once it has, a player
// who left (to its seat) or a newcomer (to a seat open to it); it reserves
// the client the seat.
func (h *Handler) MatchJoinAttempt(ctx context.Context, logger runtime.Logger, db *sql.DB, nk runtime.NakamaModule, dispatcher runtime.MatchDispatcher, tick int64, st interface{}, presence runtime.Presence, metadata map[string]string) (interface{}, bool, string) {
	s := st.(*state)
	reason := ""
	session := presence.GetSessionId()
	seat := -1 // once the match has begun: its player's seat, or one open to a newcomer
	if s.underWay() {
		if seat = s.leftSeatOf(presence.GetUserId()); seat < 0 {
			for i := range s.seats {
				if s.open(i) {
					seat = i
					break
				}
			}
		}
	}
	switch game, version := metadata["game"], metadata["version"]; {
	case game != h.game.Name:
		reason = fmt.Sprintf("this is a match of %q, not %q", h.game.Name, game)
	case version != h.game.Version:
		reason = fmt.Sprintf("this is %s version %q; yours is %q", h.game.Name, h.game.Version, version)
	case s.inMatch(session) || s.reservedFor(session):
		reason = "this session has joined the match already"
	case slices.Contains(s.kicked, presence.GetUserId()):
		reason = "you were removed from this match"
	case s.underWay() && seat < 0:
		reason = fmt.Sprintf("the match has begun and has no seat free (a seat its player left is free to others %v after)", SeatHeld)
	case s.underWay() && s.seats[seat].reserved != "" && s.seats[seat].reserved != session:
		reason = "another player is on its way to your seat"
	case s.underWay() && s.historyFull:
		reason = fmt.Sprintf("the match has run too long to catch up on (its ticks so far are past %d MiB)", MaxHistoryBytes>>20)
	case s.underWay() && s.partial && metadata[wire.MetaTicks] == wire.AllTicks:
		reason = fmt.Sprintf("the match resumed from its state after its server restarted: it has no ticks before tick %d to send "+
			"(a client that begins from the state may join)", s.resumedFrom)
	case s.phase == over:
		reason = "the match is over"
	case s.phase == lobby && s.free() == 0:
		reason = fmt.Sprintf("the match has its %d players", len(s.seats))
	}
	if reason != "" {
		logger.Info("%s match %s: refused %s (%s): %s", h.game.Name, s.id, presence.GetUsername(), session, reason)
		return s, false, reason
	}
	if s.underWay() {
		p := &s.seats[seat]
		p.reserved, p.until, p.allTicks = session, time.Now().Add(ReserveTimeout), metadata[wire.MetaTicks] == wire.AllTicks
		return s, true, ""
	}
	for i := range s.seats {
		if p := &s.seats[i]; p.presence == nil && p.reserved == "" {
			p.reserved, p.until = session, time.Now().Add(ReserveTimeout)
			break
		}
	}
	return s, true, ""
}

// MatchJoin seats the clients that arrived; once every seat is taken the
// match begins.
func (h *Handler) MatchJoin(ctx context.Context, logger runtime.Logger, db *sql.DB, nk runtime.NakamaModule, dispatcher runtime.MatchDispatcher, tick int64, st interface{}, presences []runtime.Presence) interface{} {
	s := st.(*state)
	for _, pr := range presences {
		seat := -1
		for i := range s.seats {
			if s.seats[i].reserved == pr.GetSessionId() {
				seat = i
				break
			}
		}
		if seat < 0 || s.phase == over { // its reservation lapsed and the seat went to another
			logger.Warn("%s match %s: %s arrived with no seat: kicked", h.game.Name, s.id, pr.GetSessionId())
			dispatcher.MatchKick([]runtime.Presence{pr})
			continue
		}
		if s.underWay() {
			what := "came back"
			if s.seats[seat].user != pr.GetUserId() {
				what = "took the seat over"
			}
			if err := h.comeBack(s, dispatcher, seat, pr); err != nil {
				logger.Warn("%s match %s: player %d %s, but: %v", h.game.Name, s.id, seat+1, what, err)
				dispatcher.MatchKick([]runtime.Presence{pr})
			} else {
				logger.Info("%s match %s: player %d (%s) %s after tick %d", h.game.Name, s.id, seat+1, pr.GetUsername(), what, s.last)
			}
			continue
		}
		s.seats[seat] = player{presence: pr, user: pr.GetUserId()}
		logger.Info("%s match %s: %s joined as player %d of %d", h.game.Name, s.id, pr.GetUsername(), seat+1, len(s.seats))
	}
	if s.phase == lobby && s.joined() == len(s.seats) {
		if err := h.begin(s, dispatcher); err != nil {
			logger.Error("%s match %s: %v", h.game.Name, s.id, err)
			h.end(s, dispatcher, err.Error())
		}
	}
	dispatcher.MatchLabelUpdate(h.label(s))
	return s
}

// begin starts the run and tells each player its seat.
func (h *Handler) begin(s *state, dispatcher runtime.MatchDispatcher) error {
	first, _, err := h.game.New(s.params.Seed, s.params.Settings)
	if err != nil {
		return err
	}
	n := len(s.seats)
	r, err := lockstep.New(first, lockstep.Options{Players: n, Ticks: s.ticks, Game: h.gameInfo()})
	if err != nil {
		return err
	}
	s.runner, s.inputs = r, NewInputs(n)
	s.in, s.prev = make([]input.State, n), make([]input.State, n)
	s.phase = playing
	for i := range s.seats {
		if err := h.sendStart(s, dispatcher, i); err != nil {
			return err
		}
	}
	return nil
}

// sendStart tells the player at seat its seat and the match's settings,
// and the ticks run so far.
func (h *Handler) sendStart(s *state, dispatcher runtime.MatchDispatcher, seat int) error {
	to := []runtime.Presence{s.seats[seat].presence}
	start := h.startOf(s, seat)
	if s.last > 0 && s.snap.tick > 0 && !s.seats[seat].allTicks {
		start.From, start.StateBytes = s.snap.tick, len(s.snap.state)
	}
	b, err := json.Marshal(start)
	if err != nil {
		return err
	}
	if err := dispatcher.BroadcastMessage(wire.OpStart, b, to, nil, true); err != nil {
		return fmt.Errorf("telling player %d the match began: %w", seat+1, err)
	}
	if start.From > 0 {
		if err := h.sendState(s, dispatcher, seat); err != nil {
			return fmt.Errorf("sending player %d the match's state: %w", seat+1, err)
		}
		return nil
	}
	return h.sendHistory(s, dispatcher, seat, s.history)
}

// sendHistory sends the player at seat a history of tick messages, in
// OpHistory messages of whole tick messages, at most MaxHistory bytes each
// (or one alone).
func (h *Handler) sendHistory(s *state, dispatcher runtime.MatchDispatcher, seat int, history []byte) error {
	to := []runtime.Presence{s.seats[seat].presence}
	for rest := history; len(rest) > 0; {
		n := 0 // the bytes of rest to send: whole tick messages, at most MaxHistory (or one alone)
		for n < len(rest) {
			_, after, err := wire.SplitHistory(rest[n:])
			if err != nil {
				return err
			}
			next := len(rest) - len(after)
			if next > wire.MaxHistory && n > 0 {
				break
			}
			n = next
		}
		if err := dispatcher.BroadcastMessage(wire.OpHistory, rest[:n], to, nil, true); err != nil {
			return fmt.Errorf("sending player %d the ticks so far: %w", seat+1, err)
		}
		rest = rest[n:]
	}
	return nil
}

// startOf returns the start of the player at seat: what every run of the
// match shares, its seat, and the last tick run.
func (h *Handler) startOf(s *state, seat int) wire.Start {
	return wire.Start{Game: h.game.Name, Version: h.game.Version, Determinism: engine.Determinism, Match: s.id, Players: len(s.seats), Seat: seat,
		Seed: s.params.Seed, Settings: maps.Clone(s.params.Settings), Ticks: s.ticks, Hz: s.hz, MaxLead: MaxLead,
		Resumed: s.last}
}

// comeBack seats a player who left the match under way and came back, or
// a newcomer taking its seat over, and sends it its start and the ticks so
// far; its input counts from the next tick.
func (h *Handler) comeBack(s *state, dispatcher runtime.MatchDispatcher, seat int, pr runtime.Presence) error {
	p := s.seats[seat]
	if p.user == pr.GetUserId() {
		p.back++
		s.inputs.Return(seat)
	} else {
		p.took++
		s.inputs.Seat(seat)
	}
	s.seats[seat] = player{presence: pr, user: pr.GetUserId(), back: p.back, took: p.took, allTicks: p.allTicks}
	s.opens = s.nextOpening()
	return h.sendStart(s, dispatcher, seat)
}

// inMatch reports whether the session's player is in the match (seated,
// and not left).
func (s *state) inMatch(session string) bool {
	i := s.seatOf(session)
	return i >= 0 && !s.seats[i].left
}

// reservedFor reports whether a seat is reserved for the session.
func (s *state) reservedFor(session string) bool {
	for _, p := range s.seats {
		if p.reserved == session {
			return true
		}
	}
	return false
}

// leftSeatOf returns the seat of user's player if it left the match, or -1.
func (s *state) leftSeatOf(user string) int {
	for i, p := range s.seats {
		if p.left && !p.kicked && p.user == user {
			return i
		}
	}
	return -1
}

// end tells the players the match is over, and why.
// endedWhy says why a match whose run is done ended: its length played,
// or the game over.
func endedWhy(r *lockstep.Runner) string {
	if r.TimeUp() {
		return "the match's time ran out"
	}
	return "the game ended"
}

func (h *Handler) end(s *state, dispatcher runtime.MatchDispatcher, why string) {
	h.endOrSuspend(s, dispatcher, why, false)
}

// endOrSuspend ends the match, or with suspend, stops it with its record
// for a resume kept (resume.go).
func (h *Handler) endOrSuspend(s *state, dispatcher runtime.MatchDispatcher, why string, suspend bool) {
	if s.phase == over {
		return
	}
	s.phase, s.endWhy = over, why
	stats, _ := json.Marshal(h.stats(s))
	e := wire.End{Reason: why, Tick: s.last, Stats: stats}
	if s.runner != nil {
		s.runner.Close()
		if suspend {
			h.stopWriting(s)
		} else {
			h.forget(s)
			h.keep(s, e) // before the players hear of the end: a player told may fetch it at once
		}
	}
	b, _ := json.Marshal(e)
	dispatcher.BroadcastMessage(wire.OpEnd, b, nil, nil, true)
}

// MatchLeave frees a seat in the lobby; once the match has begun the
// player's input is released and held empty from the next tick.
func (h *Handler) MatchLeave(ctx context.Context, logger runtime.Logger, db *sql.DB, nk runtime.NakamaModule, dispatcher runtime.MatchDispatcher, tick int64, st interface{}, presences []runtime.Presence) interface{} {
	s := st.(*state)
	for _, pr := range presences {
		seat := s.seatOf(pr.GetSessionId())
		if seat < 0 {
			continue
		}
		logger.Info("%s match %s: player %d (%s) left", h.game.Name, s.id, seat+1, pr.GetUsername())
		if s.phase == lobby {
			s.seats[seat] = player{}
			continue
		}
		s.leave(seat)
	}
	dispatcher.MatchLabelUpdate(h.label(s))
	return s
}

// MatchLoop runs one tick of the game once the match has begun (see the
// package doc).
func (h *Handler) MatchLoop(ctx context.Context, logger runtime.Logger, db *sql.DB, nk runtime.NakamaModule, dispatcher runtime.MatchDispatcher, tick int64, st interface{}, messages []runtime.MatchData) interface{} {
	s := st.(*state)
	began := time.Now()
	switch s.phase {
	case over:
		return nil
	case lobby:
		s.strange[Early] += int64(len(messages)) // no tick to apply them to yet
		now := time.Now()
		lapsed := false
		for i := range s.seats {
			if p := &s.seats[i]; p.reserved != "" && p.presence == nil && now.After(p.until) {
				*p = player{}
				lapsed = true
			}
		}
		if lapsed {
			dispatcher.MatchLabelUpdate(h.label(s))
		}
		if now.Sub(s.start) > LobbyTimeout {
			logger.Info("%s match %s: %d of %d players came in %v: ended", h.game.Name, s.id, s.joined(), len(s.seats), LobbyTimeout)
			h.end(s, dispatcher, fmt.Sprintf("the players did not come within %v", LobbyTimeout))
			return nil
		}
		return s
	}

	for i := range s.seats { // a come-back's reservation lapses as a lobby's does
		if p := &s.seats[i]; p.reserved != "" && began.After(p.until) {
			p.reserved = ""
			dispatcher.MatchLabelUpdate(h.label(s))
		}
	}
	for _, m := range messages {
		seat := s.seatOf(m.GetSessionId())
		if seat >= 0 && s.seats[seat].left {
			seat = -1 // it left, or was removed this tick: its messages count as a stranger's
		}
		switch {
		case seat < 0:
			s.strange[Stranger]++
		case s.seats[seat].sent >= KickAt:
			h.kick(s, dispatcher, logger, seat)
			s.strange[Stranger]++
		case m.GetOpCode() != wire.OpInput:
			s.seats[seat].sent++
			s.inputs.Refuse(seat, UnknownOp)
		default:
			s.seats[seat].sent++
			s.inputs.Take(seat, m.GetData())
		}
	}
	for i := range s.seats {
		s.seats[i].sent = 0
	}
	if s.phase == resuming && !h.resumeNow(s, dispatcher, logger) {
		return s // the inputs taken wait for the first tick run
	}
	t := s.inputs.Tick(s.in)
	stepBegan := time.Now()
	ran, sum, err := s.runner.Step(s.in)
	s.step.Record(time.Since(stepBegan))
	if err != nil {
		why := endedWhy(s.runner)
		if !errors.Is(err, lockstep.ErrDone) {
			why = fmt.Sprintf("the server's simulation failed: %v", err)
			logger.Error("%s match %s: tick %d: %v", h.game.Name, s.id, t, err)
		}
		h.end(s, dispatcher, why)
		return nil
	}
	if ran != t {
		h.end(s, dispatcher, fmt.Sprintf("the server's simulation ran tick %d for tick %d", ran, t))
		return nil
	}
	s.last = t
	if s.opens > 0 && t >= s.opens { // a held seat opens to newcomers
		s.opens = s.nextOpening()
		dispatcher.MatchLabelUpdate(h.label(s))
	}
	s.buf = wire.AppendTick(s.buf[:0], t, sum, s.in, s.prev)
	if !s.historyFull {
		if len(s.history)+len(s.buf) > MaxHistoryBytes {
			s.history, s.historyFull = nil, true // too long to catch up on: no more come-backs
			s.snap = snapshot{none: true}        // nor states whose ticks since it are gone
		} else {
			s.history = wire.AppendHistory(s.history, s.buf)
		}
	}
	s.bytes += int64(len(s.buf))
	h.maybeSnapshot(s, t, sum)
	h.maybePersist(s, t)
	copy(s.prev, s.in)
	if err := dispatcher.BroadcastMessage(wire.OpTick, s.buf, nil, nil, true); err != nil {
		logger.Warn("%s match %s: tick %d: broadcast: %v", h.game.Name, s.id, t, err)
	}
	if !s.lastLoop.IsZero() {
		s.interval.Record(began.Sub(s.lastLoop))
	}
	s.lastLoop = began
	defer func() { s.loop.Record(time.Since(began)) }()
	switch {
	case s.runner.Done():
		h.end(s, dispatcher, endedWhy(s.runner))
		return nil
	case s.allLeft():
		logger.Info("%s match %s: every player left after tick %d: ended", h.game.Name, s.id, t)
		h.end(s, dispatcher, "every player left")
		return nil
	}
	return s
}

// kick removes the player at seat from the match for flooding it: it is
// told why (wire.End), its input holds nothing from the next tick on, and
// it may not come back.
func (h *Handler) kick(s *state, dispatcher runtime.MatchDispatcher, logger runtime.Logger, seat int) {
	p := &s.seats[seat]
	logger.Warn("%s match %s: player %d (%s) sent more than %d messages in tick %d: removed", h.game.Name, s.id, seat+1, p.presence.GetUsername(), KickAt, s.inputs.Next())
	b, _ := json.Marshal(wire.End{Reason: fmt.Sprintf("you were removed from the match: more than %d messages in one tick", KickAt), Tick: s.last})
	to := []runtime.Presence{p.presence}
	dispatcher.BroadcastMessage(wire.OpEnd, b, to, nil, true)
	dispatcher.MatchKick(to)
	p.kicked = true
	s.kicked = append(s.kicked, p.user)
	s.leave(seat)
}

// allLeft reports whether every player has left, none on its way back.
func (s *state) allLeft() bool {
	for _, p := range s.seats {
		if !p.left || p.reserved != "" {
			return false
		}
	}
	return true
}

// MatchTerminate ends the match as the server shuts down: the players are
// told; a match that stored its record (resume.go) may be resumed once the
// server is back, others are kept as they ended.
func (h *Handler) MatchTerminate(ctx context.Context, logger runtime.Logger, db *sql.DB, nk runtime.NakamaModule, dispatcher runtime.MatchDispatcher, tick int64, st interface{}, graceSeconds int) interface{} {
	s := st.(*state)
	if s.persist != nil { // stored: its players may ask for it resumed once the server is back
		h.endOrSuspend(s, dispatcher, fmt.Sprintf("the server is shutting down: once it is back, ask for match %s resumed (%s_resume)", s.id, h.game.Name), true)
		return nil
	}
	h.end(s, dispatcher, "the server is shutting down: the match is lost")
	return nil
}

// MatchSignal answers "stats" with the match's counters (Stats, JSON).
func (h *Handler) MatchSignal(ctx context.Context, logger runtime.Logger, db *sql.DB, nk runtime.NakamaModule, dispatcher runtime.MatchDispatcher, tick int64, st interface{}, data string) (interface{}, string) {
	s := st.(*state)
	if data != "stats" {
		return s, fmt.Sprintf(`{"error":"unknown signal %q (stats)"}`, data)
	}
	b, _ := json.Marshal(h.stats(s))
	return s, string(b)
}
