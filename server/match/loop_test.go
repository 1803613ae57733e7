package match_test

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"math"
	"testing"
	"time"

	"github.com/heroiclabs/nakama-common/runtime"

	"github.com/fixedstep/fixedstep/engine"
	"github.com/fixedstep/fixedstep/engine/input"
	"github.com/fixedstep/fixedstep/engine/lockstep"
	"github.com/fixedstep/fixedstep/engine/online/wire"
	"github.com/fixedstep/fixedstep/server/match"
)

// The handler's calls are Nakama's to make; these stand in for the few
// values they are given, so that a test can count what a MatchLoop call
// itself allocates (the end-to-end tests in server/e2e run the handler in
// a real Nakama).

type quiet struct{}

func (quiet) Debug(string, ...any)                       {}
func (quiet) Info(string, ...any)                        {}
func (quiet) Warn(string, ...any)                        {}
func (quiet) Error(string, ...any)                       {}
func (l quiet) WithField(string, any) runtime.Logger     { return l }
func (l quiet) WithFields(map[string]any) runtime.Logger { return l }
func (quiet) Fields() map[string]any                     { return nil }
func (quiet) GetHidden() bool                            { return false }
func (quiet) GetPersistence() bool                       { return false }
func (quiet) GetStatus() string                          { return "" }
func (quiet) GetReason() runtime.PresenceReason          { return runtime.PresenceReasonUnknown }
func (quiet) GetNodeId() string                          { return "node" }
func (quiet) BroadcastMessageDeferred(int64, []byte, []runtime.Presence, runtime.Presence, bool) error {
	return nil
}
func (quiet) MatchLabelUpdate(string) error { return nil }

// player is a client's presence, and its input messages.
type player struct {
	quiet
	session string
	user    string // "user-" + session when empty
	op      int64
	data    []byte
}

func (p *player) GetUserId() string {
	if p.user != "" {
		return p.user
	}
	return "user-" + p.session
}
func (p *player) GetSessionId() string  { return p.session }
func (p *player) GetUsername() string   { return p.session }
func (p *player) GetOpCode() int64      { return p.op }
func (p *player) GetData() []byte       { return p.data }
func (p *player) GetReliable() bool     { return true }
func (p *player) GetReceiveTime() int64 { return 0 }

// dispatcher counts the tick messages broadcast, and keeps the others.
type dispatcher struct {
	quiet
	ticks  int
	others []sent
	kicked []string // sessions
	label  string   // the last label set
}

// sent is a message other than a tick's, and to whom.
type sent struct {
	op   int64
	data []byte
	to   []string // sessions; nil: every player
}

func (d *dispatcher) BroadcastMessage(op int64, data []byte, to []runtime.Presence, _ runtime.Presence, _ bool) error {
	if op == wire.OpTick {
		d.ticks++
		return nil
	}
	m := sent{op: op, data: bytes.Clone(data)}
	for _, p := range to {
		m.to = append(m.to, p.GetSessionId())
	}
	d.others = append(d.others, m)
	return nil
}

func (d *dispatcher) MatchLabelUpdate(label string) error {
	d.label = label
	return nil
}

func (d *dispatcher) MatchKick(ps []runtime.Presence) error {
	for _, p := range ps {
		d.kicked = append(d.kicked, p.GetSessionId())
	}
	return nil
}

// walkers is a game whose ticks allocate nothing themselves: each player
// walks left while the left arrow is held, right otherwise. (Rally's
// ticks allocate when it serves a ball or begins a round: cp's bodies,
// a new world.)
type walkers struct {
	at    [input.MaxPlayers]float64
	slots [256][input.MaxPlayers]float64
}

func (w *walkers) Name() string { return "Walkers" }

func (w *walkers) Run(loop *engine.Loop) (engine.Scene, error) {
	loop.Recording().SetChecksum(func() uint64 {
		var h uint64
		for _, x := range w.at {
			h = h*31 + math.Float64bits(x)
		}
		return h
	})
	loop.Recording().SetSceneState(w)
	for ev := range loop.Events(engine.Group{Name: "walk", Hz: 60}) {
		if ev.Kind != engine.Update {
			continue
		}
		for p := range loop.Players() {
			if ev.Player(p).KeyDown(input.KeyArrowLeft) {
				w.at[p]--
			} else {
				w.at[p]++
			}
		}
	}
	return nil, loop.Err()
}

func (w *walkers) SaveState(n int) error    { w.slots[n] = w.at; return nil }
func (w *walkers) RestoreState(n int) error { w.at = w.slots[n]; return nil }

var walkersGame = lockstep.Game{Name: "walkers", Version: "1", MaxPlayers: input.MaxPlayers, Hz: 60,
	New: func(uint64, map[string]string) (engine.Scene, lockstep.Bot, error) { return &walkers{}, nil, nil }}

// A match's tick (MatchLoop: the inputs taken, the game's tick run, the
// tick broadcast) allocates nothing once the match runs, when the game's
// own tick allocates nothing; but for the match's history of tick
// messages (for a player who comes back), which grows by doubling: an
// allocation in some ticks, a fraction of one a tick on average, as
// AllocsPerRun counts.
func TestMatchLoopAllocatesNothing(t *testing.T) {
	h := match.NewHandler(&walkersGame)
	ctx := context.Background()
	var log quiet
	st, _, _ := h.MatchInit(ctx, log, nil, nil, map[string]any{"players": 2, "seconds": 0})
	if st == nil {
		t.Fatal("MatchInit refused the match")
	}
	d := &dispatcher{}
	players := []*player{{session: "a", op: wire.OpInput}, {session: "b", op: wire.OpInput}}
	for _, p := range players {
		st, _, _ = h.MatchJoinAttempt(ctx, log, nil, nil, d, 0, st, p, map[string]string{"game": walkersGame.Name, "version": walkersGame.Version})
		st = h.MatchJoin(ctx, log, nil, nil, d, 0, st, []runtime.Presence{p})
	}
	var held input.State
	msgs := make([]runtime.MatchData, 2)
	for i, p := range players {
		msgs[i] = p
	}
	tick := int64(0)
	loop := func() {
		tick++
		for i, p := range players {
			held.SetKey(input.KeyArrowLeft, (tick/30+int64(i))%2 == 0)
			p.data = wire.AppendInput(p.data[:0], tick+2, &held)
		}
		if st = h.MatchLoop(ctx, log, nil, nil, d, tick, st, msgs); st == nil {
			t.Fatalf("the match ended at tick %d", tick)
		}
	}
	for range 600 { // warm up: the world's and the queues' capacity
		loop()
	}
	if n := testing.AllocsPerRun(600, loop); n != 0 {
		t.Errorf("a match's tick allocates %.2f times", n)
	}
	if d.ticks != int(tick) {
		t.Errorf("%d ticks broadcast in %d", d.ticks, tick)
	}
	_, answer := h.MatchSignal(ctx, log, nil, nil, d, tick, st, "stats")
	var stats match.Stats
	if err := json.Unmarshal([]byte(answer), &stats); err != nil {
		t.Fatal(err)
	}
	for _, p := range stats.Players {
		if p.Taken != tick || len(p.Refused) != 0 {
			t.Errorf("player %d: %d of %d inputs taken, refused %v", p.Seat+1, p.Taken, tick, p.Refused)
		}
	}
	h.MatchTerminate(ctx, log, nil, nil, d, tick, st, 0)
}

// newMatch makes a match of walkers for players and seats them; it
// returns the handler, its state and the players.
func newMatch(t *testing.T, d *dispatcher, players int) (*match.Handler, any, []*player) {
	t.Helper()
	h := match.NewHandler(&walkersGame)
	ctx := context.Background()
	st, _, _ := h.MatchInit(ctx, quiet{}, nil, nil, map[string]any{"players": players, "seconds": 0})
	if st == nil {
		t.Fatal("MatchInit refused the match")
	}
	var ps []*player
	for i := range players {
		p := &player{session: fmt.Sprint("s", i), op: wire.OpInput}
		var ok bool
		var why string
		if st, ok, why = h.MatchJoinAttempt(ctx, quiet{}, nil, nil, d, 0, st, p, meta); !ok {
			t.Fatalf("player %d refused: %s", i+1, why)
		}
		st = h.MatchJoin(ctx, quiet{}, nil, nil, d, 0, st, []runtime.Presence{p})
		ps = append(ps, p)
	}
	return h, st, ps
}

var meta = map[string]string{"game": walkersGame.Name, "version": walkersGame.Version}

// A player who left comes back as the same user, on a new session or on
// the one it left from: it gets its seat, its start (Resumed: the last
// tick) and every tick so far in history messages; while it is on its way
// back the match does not end though every other player left. Another
// user may not take its seat, nor a session in the match join again.
func TestComeBackSeats(t *testing.T) {
	ctx := context.Background()
	d := &dispatcher{}
	h, st, ps := newMatch(t, d, 2)
	tick := int64(0)
	loop := func(n int) {
		t.Helper()
		for range n {
			tick++
			if st = h.MatchLoop(ctx, quiet{}, nil, nil, d, tick, st, nil); st == nil {
				t.Fatalf("the match ended at tick %d", tick)
			}
		}
	}
	loop(100)
	if _, ok, _ := h.MatchJoinAttempt(ctx, quiet{}, nil, nil, d, tick, st, ps[0], meta); ok {
		t.Error("a session in the match joined it again")
	}
	st = h.MatchLeave(ctx, quiet{}, nil, nil, d, tick, st, []runtime.Presence{ps[0]})
	loop(50)
	if _, ok, why := h.MatchJoinAttempt(ctx, quiet{}, nil, nil, d, tick, st, &player{session: "s9"}, meta); ok {
		t.Error("another user took the seat of a player who left")
	} else {
		t.Logf("another user: %s", why)
	}
	again := &player{session: "s0b", user: ps[0].GetUserId(), op: wire.OpInput}
	var ok bool
	var why string
	if st, ok, why = h.MatchJoinAttempt(ctx, quiet{}, nil, nil, d, tick, st, again, meta); !ok {
		t.Fatalf("the player who left, on a new session, was refused: %s", why)
	}
	st = h.MatchLeave(ctx, quiet{}, nil, nil, d, tick, st, []runtime.Presence{ps[1]})
	loop(1) // every other player has left: the match waits for the one coming back
	d.others = nil
	st = h.MatchJoin(ctx, quiet{}, nil, nil, d, tick, st, []runtime.Presence{again})
	var start wire.Start
	var history []byte
	for _, m := range d.others {
		if len(m.to) != 1 || m.to[0] != "s0b" {
			t.Fatalf("op %d sent to %v", m.op, m.to)
		}
		switch m.op {
		case wire.OpStart:
			if err := json.Unmarshal(m.data, &start); err != nil {
				t.Fatal(err)
			}
		case wire.OpHistory:
			history = append(history, m.data...)
		}
	}
	if start.Seat != 0 || start.Resumed != tick {
		t.Errorf("the start: seat %d, resumed after tick %d; want seat 0 after tick %d", start.Seat, start.Resumed, tick)
	}
	n := int64(0)
	for rest := history; len(rest) > 0; n++ {
		msg, after, err := wire.SplitHistory(rest)
		if err != nil {
			t.Fatal(err)
		}
		if got, _, err := wire.DecodeTick(msg, make([]input.State, 2)); err != nil || got != n+1 {
			t.Fatalf("the history's tick message %d: tick %d, %v", n+1, got, err)
		}
		rest = after
	}
	if n != tick {
		t.Errorf("the history holds %d ticks of %d", n, tick)
	}
	loop(10) // the match goes on with the player who came back
	st = h.MatchLeave(ctx, quiet{}, nil, nil, d, tick, st, []runtime.Presence{again})
	if st, ok, why = h.MatchJoinAttempt(ctx, quiet{}, nil, nil, d, tick, st, again, meta); !ok {
		t.Fatalf("the player who left, on the session it left from, was refused: %s", why)
	}
	st = h.MatchJoin(ctx, quiet{}, nil, nil, d, tick, st, []runtime.Presence{again})
	loop(1)
	_, answer := h.MatchSignal(ctx, quiet{}, nil, nil, d, tick, st, "stats")
	var stats match.Stats
	if err := json.Unmarshal([]byte(answer), &stats); err != nil {
		t.Fatal(err)
	}
	if p := stats.Players[0]; p.Left || p.Back != 2 {
		t.Errorf("the seat of the player who came back twice: %+v", p)
	}
}

// A player who sends more than KickAt messages in one tick is removed and
// told why, and may not come back; the others play on.
func TestFlooderKicked(t *testing.T) {
	ctx := context.Background()
	d := &dispatcher{}
	h, st, ps := newMatch(t, d, 2)
	var held input.State
	flood := make([]runtime.MatchData, match.KickAt+5)
	for i := range flood {
		flood[i] = &player{session: ps[1].session, op: wire.OpInput, data: wire.AppendInput(nil, int64(i+2), &held)}
	}
	if st = h.MatchLoop(ctx, quiet{}, nil, nil, d, 1, st, flood); st == nil {
		t.Fatal("the match ended")
	}
	if len(d.kicked) != 1 || d.kicked[0] != "s1" {
		t.Fatalf("kicked %v, want s1", d.kicked)
	}
	told := false
	for _, m := range d.others {
		told = told || (m.op == wire.OpEnd && len(m.to) == 1 && m.to[0] == "s1")
	}
	if !told {
		t.Error("the flooder was not told why")
	}
	st = h.MatchLeave(ctx, quiet{}, nil, nil, d, 1, st, []runtime.Presence{ps[1]})
	if _, ok, _ := h.MatchJoinAttempt(ctx, quiet{}, nil, nil, d, 1, st, &player{session: "s1b", user: ps[1].GetUserId()}, meta); ok {
		t.Error("the flooder came back")
	}
	hold := int64(match.SeatHeld/time.Second) * int64(walkersGame.Hz)
	for tick := int64(2); tick <= 2+hold; tick++ {
		if st = h.MatchLoop(ctx, quiet{}, nil, nil, d, tick, st, nil); st == nil {
			t.Fatal("the match ended with a player in it")
		}
	}
	if _, ok, _ := h.MatchJoinAttempt(ctx, quiet{}, nil, nil, d, 2+hold, st, &player{session: "s1c", user: ps[1].GetUserId()}, meta); ok {
		t.Error("the flooder came back once its seat was free to newcomers")
	}
	if _, ok, why := h.MatchJoinAttempt(ctx, quiet{}, nil, nil, d, 2+hold, st, &player{session: "s7"}, meta); !ok {
		t.Errorf("a newcomer was refused the flooder's seat: %s", why)
	}
}

// The seat of a player who left is its player's for SeatHeld; then the
// label offers it, and a newcomer takes it over: its start names the seat
// and the last tick run, the ticks so far follow, its input is taken from
// the next tick on, and the player who left may no longer come back. Until
// the newcomer arrives, the player who left is refused too (another is on
// its way to the seat); before the hold ends it may come back to it.
func TestNewcomerTakesALeftSeat(t *testing.T) {
	ctx := context.Background()
	d := &dispatcher{}
	h, st, ps := newMatch(t, d, 2)
	tick := int64(0)
	loop := func(n int64) {
		t.Helper()
		for range n {
			tick++
			if st = h.MatchLoop(ctx, quiet{}, nil, nil, d, tick, st, nil); st == nil {
				t.Fatalf("the match ended at tick %d", tick)
			}
		}
	}
	label := func() match.Label {
		t.Helper()
		var l match.Label
		if err := json.Unmarshal([]byte(d.label), &l); err != nil {
			t.Fatalf("label %q: %v", d.label, err)
		}
		return l
	}
	held := int64(match.SeatHeld/time.Second) * int64(walkersGame.Hz)
	loop(100)
	st = h.MatchLeave(ctx, quiet{}, nil, nil, d, tick, st, []runtime.Presence{ps[1]})
	if l := label(); l.Open || l.Free != 0 || !l.Playing {
		t.Errorf("the label as player 2 left: %+v", l)
	}
	newcomer := &player{session: "s9", op: wire.OpInput}
	loop(held - 1)
	if _, ok, why := h.MatchJoinAttempt(ctx, quiet{}, nil, nil, d, tick, st, newcomer, meta); ok {
		t.Fatalf("a newcomer took the seat %d ticks after its player left (held for %d)", held-1, held)
	} else {
		t.Logf("a tick before: %s", why)
	}
	loop(1)
	if l := label(); !l.Open || l.Free != 1 {
		t.Errorf("the label once the seat is free: %+v", l)
	}
	var ok bool
	var why string
	if st, ok, why = h.MatchJoinAttempt(ctx, quiet{}, nil, nil, d, tick, st, newcomer, meta); !ok {
		t.Fatalf("the newcomer was refused the seat: %s", why)
	}
	back := &player{session: "s1b", user: ps[1].GetUserId(), op: wire.OpInput}
	if _, ok, why := h.MatchJoinAttempt(ctx, quiet{}, nil, nil, d, tick, st, back, meta); ok {
		t.Error("the player who left came back to a seat a newcomer is on its way to")
	} else {
		t.Logf("the player who left, meanwhile: %s", why)
	}
	d.others = nil
	st = h.MatchJoin(ctx, quiet{}, nil, nil, d, tick, st, []runtime.Presence{newcomer})
	var start wire.Start
	ticks := int64(0)
	for _, m := range d.others {
		if len(m.to) != 1 || m.to[0] != "s9" {
			t.Fatalf("op %d sent to %v", m.op, m.to)
		}
		switch m.op {
		case wire.OpStart:
			if err := json.Unmarshal(m.data, &start); err != nil {
				t.Fatal(err)
			}
		case wire.OpHistory:
			for rest := m.data; len(rest) > 0; ticks++ {
				_, after, err := wire.SplitHistory(rest)
				if err != nil {
					t.Fatal(err)
				}
				rest = after
			}
		}
	}
	if start.Seat != 1 || start.Resumed != tick || ticks != tick {
		t.Errorf("the newcomer's start: seat %d after tick %d, %d ticks sent; want seat 1 after tick %d, every tick", start.Seat, start.Resumed, ticks, tick)
	}
	if l := label(); l.Open || l.Free != 0 {
		t.Errorf("the label with the seat taken: %+v", l)
	}
	var walk input.State
	walk.SetKey(input.KeyArrowRight, true)
	newcomer.data = wire.AppendInput(nil, tick+2, &walk)
	loop(1)
	st = h.MatchLoop(ctx, quiet{}, nil, nil, d, tick+1, st, []runtime.MatchData{newcomer})
	tick++
	loop(3)
	if _, ok, _ := h.MatchJoinAttempt(ctx, quiet{}, nil, nil, d, tick, st, back, meta); ok {
		t.Error("the player who left came back to the seat a newcomer took")
	}
	_, answer := h.MatchSignal(ctx, quiet{}, nil, nil, d, tick, st, "stats")
	var stats match.Stats
	if err := json.Unmarshal([]byte(answer), &stats); err != nil {
		t.Fatal(err)
	}
	if p := stats.Players[1]; p.Left || p.Newcomers != 1 || p.User != newcomer.GetUserId() || p.Taken != 1 || len(p.Refused) > 0 {
		t.Errorf("the seat the newcomer took: %+v", p)
	}

	// Player 1 leaves and comes back after the hold, before any newcomer:
	// its seat again, as a come-back.
	st = h.MatchLeave(ctx, quiet{}, nil, nil, d, tick, st, []runtime.Presence{ps[0]})
	loop(held + 5)
	again := &player{session: "s0b", user: ps[0].GetUserId(), op: wire.OpInput}
	if st, ok, why = h.MatchJoinAttempt(ctx, quiet{}, nil, nil, d, tick, st, again, meta); !ok {
		t.Fatalf("player 1 came back after the hold, and was refused: %s", why)
	}
	st = h.MatchJoin(ctx, quiet{}, nil, nil, d, tick, st, []runtime.Presence{again})
	loop(1)
	_, answer = h.MatchSignal(ctx, quiet{}, nil, nil, d, tick, st, "stats")
	if err := json.Unmarshal([]byte(answer), &stats); err != nil {
		t.Fatal(err)
	}
	if p := stats.Players[0]; p.Left || p.Back != 1 || p.Newcomers != 0 {
		t.Errorf("the seat of player 1, back after the hold: %+v", p)
	}
}

// A match ends with its reason: "the match's time ran out" when its length
// is played, "the game ended" when the game's scene chain ends first.
func TestMatchEndsWithItsReason(t *testing.T) {
	ends := lockstep.Game{Name: "walkers", Version: "1", MaxPlayers: input.MaxPlayers, Hz: 60,
		New: func(uint64, map[string]string) (engine.Scene, lockstep.Bot, error) {
			return engine.NewScene("Short", func(loop *engine.Loop) (engine.Scene, error) {
				var n uint64
				loop.Recording().SetChecksum(func() uint64 { return n })
				loop.Recording().SetSceneState(noState{})
				for ev := range loop.Events() {
					if ev.Kind == engine.Update {
						if n++; n == 30 && loop.Session().Settle() {
							loop.Recording().Checkpoint() // the last tick checked too
							break
						}
					}
				}
				return nil, loop.Err()
			}), nil, nil
		}}
	for _, c := range []struct {
		game    *lockstep.Game
		seconds int
		tick    int64
		why     string
	}{
		{&walkersGame, 1, 60, "the match's time ran out"},
		{&ends, 2, 30, "the game ended"},
	} {
		h := match.NewHandler(c.game)
		ctx := context.Background()
		st, _, _ := h.MatchInit(ctx, quiet{}, nil, nil, map[string]any{"players": 1, "seconds": c.seconds})
		d := &dispatcher{}
		p := &player{session: "s", op: wire.OpInput}
		st, _, _ = h.MatchJoinAttempt(ctx, quiet{}, nil, nil, d, 0, st, p, meta)
		st = h.MatchJoin(ctx, quiet{}, nil, nil, d, 0, st, []runtime.Presence{p})
		for tick := int64(1); st != nil && tick < 1000; tick++ {
			st = h.MatchLoop(ctx, quiet{}, nil, nil, d, tick, st, nil)
		}
		var end wire.End
		for _, m := range d.others {
			if m.op == wire.OpEnd {
				if err := json.Unmarshal(m.data, &end); err != nil {
					t.Fatal(err)
				}
			}
		}
		if end.Reason != c.why || end.Tick != c.tick {
			t.Errorf("a match of %d s of %s ended after tick %d: %q; want tick %d: %q", c.seconds, c.game.Name, end.Tick, end.Reason, c.tick, c.why)
		}
	}
}

// noState is the state of a scene that keeps all of its state in its
// checksum's counter, which a match never rolls back.
type noState struct{}

func (noState) SaveState(int) error    { return nil }
func (noState) RestoreState(int) error { return nil }
