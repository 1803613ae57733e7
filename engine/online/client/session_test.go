package client

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/fixedstep/fixedstep/engine"
	"github.com/fixedstep/fixedstep/engine/input"
	"github.com/fixedstep/fixedstep/engine/lockstep"
	"github.com/fixedstep/fixedstep/engine/online/wire"
)

var _ engine.Follower = (*Session)(nil)

// server stands in for the match's messages as the socket's reader queues
// them (the whole exchange with a real Nakama is server/e2e's TestDemo).
type server struct {
	m    *Match
	prev []input.State
}

func newServer(t *testing.T, players, seat int) (*server, *Session) {
	t.Helper()
	game := &lockstep.Game{Name: "g", Version: "1", MaxPlayers: 4, Hz: 60}
	m := newMatch(&Client{}, game, "m1")
	start, _ := json.Marshal(wire.Start{Game: "g", Version: "1", Determinism: engine.Determinism, Match: "m1", Players: players, Seat: seat, Seed: 7, MaxLead: 120})
	m.queue(wire.OpStart, start)
	s, err := m.Session(context.Background(), 0)
	if err != nil {
		t.Fatal(err)
	}
	return &server{m: m, prev: make([]input.State, players)}, s
}

// tick queues tick t with every player's stick at x and the checksum sum.
func (sv *server) tick(t int64, x float64, sum uint64) {
	in := make([]input.State, len(sv.prev))
	for p := range in {
		in[p].SetGamepadAxis(0, input.AxisLeftStickHorizontal, x+0.1*float64(p))
	}
	sv.m.queue(wire.OpTick, wire.AppendTick(nil, t, sum, in, sv.prev))
	sv.prev = in
}

// The loop's side: a tick is ready once the server sent it, runs with the
// server's inputs, and its checksum is checked; the match's end ends the
// run once its last tick has run; a different checksum is a desync naming
// the tick.
func TestSessionRunsTheServersTicks(t *testing.T) {
	sv, s := newServer(t, 2, 1)
	if s.Players() != 2 || s.Start().Seed != 7 || s.Start().Seat != 1 {
		t.Fatalf("start %+v", s.Start())
	}
	if err := s.Poll(); err != nil || s.Ready(1) {
		t.Fatalf("before any tick: Poll %v, Ready(1) %v", err, s.Ready(1))
	}
	sv.tick(1, 0.25, 11)
	sv.tick(2, 0.5, 22)
	if err := s.Poll(); err != nil || !s.Ready(2) || s.Ready(3) || s.Confirmed() != 2 {
		t.Fatalf("after two ticks: Poll %v, Ready(2) %v, Ready(3) %v, Confirmed %d", err, s.Ready(2), s.Ready(3), s.Confirmed())
	}
	players := make([]input.State, 2)
	for tk, sum := range map[int64]uint64{1: 11, 2: 22} {
		s.Inputs(tk, players)
		if got := players[1].GamepadAxis(0, input.AxisLeftStickHorizontal); got != 0.25*float64(tk)+0.1 {
			t.Errorf("tick %d: player 2's stick %v, want the server's %v", tk, got, 0.25*float64(tk)+0.1)
		}
		s.Checksum(tk, sum)
	}
	if rb, ok := s.Rollback(); ok || s.Hold() {
		t.Errorf("Rollback %d %v, Hold %v: a server's ticks are final", rb, ok, s.Hold())
	}
	if s.Checked() != 2 {
		t.Errorf("%d ticks checked, want 2", s.Checked())
	}

	end, _ := json.Marshal(wire.End{Reason: "the game ended", Tick: 3})
	sv.tick(3, 0.75, 33)
	sv.m.queue(wire.OpEnd, end)
	if err := s.Poll(); err != nil {
		t.Fatalf("the end arrived with tick 3 not yet run: %v", err)
	}
	s.Inputs(3, players)
	s.Checksum(3, 33)
	var ended *EndedError
	if err := s.Poll(); !errors.As(err, &ended) || ended.End.Tick != 3 {
		t.Fatalf("after the last tick: %v, want an EndedError at tick 3", err)
	}

	sv, s = newServer(t, 1, 0)
	sv.tick(1, 0, 11)
	s.Poll()
	s.Inputs(1, players[:1])
	s.Checksum(1, 12)
	var de *DesyncError
	if err := s.EndFrame(); !errors.As(err, &de) || de.Tick != 1 || de.Server != 11 || de.Client != 12 {
		t.Fatalf("a checksum unlike the server's: %v, want a DesyncError at tick 1", err)
	}
}

// A frame of a session allocates nothing on the loop's goroutine: taking
// in a tick, running it, checking it (the local input unchanged); nor
// does queueing the tick, the socket reader's part once it has decoded it
// (TestReceiveAllocatesNothing has the socket's).
func TestSessionFrameAllocatesNothing(t *testing.T) {
	sv, s := newServer(t, 2, 0)
	msgs := make([][]byte, 0, 200)
	for tk := int64(1); tk <= 200; tk++ {
		sv.tick(tk, float64(tk%7)/10, uint64(tk))
		d := <-sv.m.data
		msgs = append(msgs, d.data) // encoded beforehand: the server encodes them
	}
	players := make([]input.State, 2)
	var local input.State
	s.sent, s.haveSent = local, true // sent before: unchanged, EndFrame sends nothing
	tk := int64(0)
	allocs := testing.AllocsPerRun(100, func() {
		tk++
		sv.m.queue(wire.OpTick, msgs[tk-1])
		if err := s.Poll(); err != nil || !s.Ready(tk) {
			t.Fatalf("tick %d: %v", tk, err)
		}
		s.Local(tk, &local)
		s.Inputs(tk, players)
		s.Checksum(tk, uint64(tk))
		if err := s.EndFrame(); err != nil {
			t.Fatal(err)
		}
	})
	if allocs != 0 {
		t.Errorf("%v allocations a frame, want 0", allocs)
	}
}

// Ticks the server sent ahead of the loop (a player joining a match under
// way is sent the ticks so far) are to be caught up with: Behind reports
// all but jitterTicks of them once more than catchUpAfter wait, and
// nothing once the loop is within that.
func TestSessionBehind(t *testing.T) {
	sv, s := newServer(t, 2, 0)
	players := make([]input.State, 2)
	for tick := int64(1); tick <= 100; tick++ {
		sv.tick(tick, 0.5, uint64(tick))
	}
	if err := s.Poll(); err != nil {
		t.Fatal(err)
	}
	if got := s.Behind(); got != 100-jitterTicks {
		t.Fatalf("100 ticks waiting: Behind %d, want %d", got, 100-jitterTicks)
	}
	for tick := int64(1); tick <= 100-catchUpAfter-1; tick++ {
		s.Inputs(tick, players)
	}
	if got := s.Behind(); got != catchUpAfter+1-jitterTicks {
		t.Fatalf("%d ticks waiting: Behind %d, want %d", catchUpAfter+1, got, catchUpAfter+1-jitterTicks)
	}
	s.Inputs(100-catchUpAfter, players)
	if got := s.Behind(); got != 0 {
		t.Fatalf("%d ticks waiting: Behind %d, want 0", catchUpAfter, got)
	}
}

// A match whose server's engine computes with another determinism version
// (an older server says none: 0) is refused by name before it is played.
func TestMatchOfAnotherDeterminismRefused(t *testing.T) {
	game := &lockstep.Game{Name: "g", Version: "1", MaxPlayers: 4, Hz: 60}
	m := newMatch(&Client{}, game, "m1")
	start, _ := json.Marshal(wire.Start{Game: "g", Version: "1", Match: "m1", Players: 2, Seat: 1, Seed: 7, MaxLead: 120})
	m.queue(wire.OpStart, start)
	_, err := m.Session(context.Background(), 0)
	if err == nil || !strings.Contains(err.Error(), fmt.Sprintf("determinism version 0, this client with %d", engine.Determinism)) {
		t.Fatalf("got %v, want the match refused for its determinism", err)
	}
}
