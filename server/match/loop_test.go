package match_test

import (
	"context"
	"encoding/json"
	"math"
	"testing"

	"github.com/heroiclabs/nakama-common/runtime"

	"github.com/fixedstep/fixedstep/engine"
	"github.com/fixedstep/fixedstep/engine/input"
	"github.com/fixedstep/fixedstep/server/match"
	"github.com/fixedstep/fixedstep/server/sim"
	"github.com/fixedstep/fixedstep/server/wire"
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
func (quiet) MatchKick([]runtime.Presence) error { return nil }
func (quiet) MatchLabelUpdate(string) error      { return nil }

// player is a client's presence, and its input messages.
type player struct {
	quiet
	session string
	op      int64
	data    []byte
}

func (p *player) GetUserId() string     { return "user-" + p.session }
func (p *player) GetSessionId() string  { return p.session }
func (p *player) GetUsername() string   { return p.session }
func (p *player) GetOpCode() int64      { return p.op }
func (p *player) GetData() []byte       { return p.data }
func (p *player) GetReliable() bool     { return true }
func (p *player) GetReceiveTime() int64 { return 0 }

// dispatcher counts the tick messages broadcast.
type dispatcher struct {
	quiet
	ticks int
}

func (d *dispatcher) BroadcastMessage(op int64, data []byte, _ []runtime.Presence, _ runtime.Presence, _ bool) error {
	if op == wire.OpTick {
		d.ticks++
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
	loop.SetChecksum(func() uint64 {
		var h uint64
		for _, x := range w.at {
			h = h*31 + math.Float64bits(x)
		}
		return h
	})
	loop.SetSceneState(w)
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

var walkersGame = sim.Game{Name: "walkers", Version: "1", MaxPlayers: input.MaxPlayers, Hz: 60,
	New: func(uint64, map[string]string) (engine.Scene, sim.Bot, error) { return &walkers{}, nil, nil }}

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
