package client

import (
	"bytes"
	"context"
	"encoding/json"
	"strings"
	"testing"

	"github.com/fixedstep/fixedstep/engine"
	"github.com/fixedstep/fixedstep/engine/input"
	"github.com/fixedstep/fixedstep/engine/internal/statefile"
	"github.com/fixedstep/fixedstep/engine/lockstep"
	"github.com/fixedstep/fixedstep/engine/online/wire"
)

// A session that joins a match under way from the server's state reads
// the state first (OpState pieces of Start.StateBytes), then the ticks
// from the state's: its run's first tick is the one after the state's, and
// a state longer than its start says, or a message before it is whole, is
// an error.
func TestSessionFromState(t *testing.T) {
	game := &lockstep.Game{Name: "g", Version: "1", MaxPlayers: 4, Hz: 60}
	session := func(start wire.Start, msgs ...[2][]byte) (*Session, error) {
		m := newMatch(&Client{}, game, "m1")
		b, _ := json.Marshal(start)
		m.queue(wire.OpStart, b)
		for _, msg := range msgs {
			m.queue(int64(msg[0][0]), msg[1])
		}
		return m.Session(context.Background(), 0)
	}
	state, err := statefile.Append(nil, statefile.Meta{Game: "g", Version: "1", Determinism: engine.Determinism, Scene: 1, SceneName: "S",
		Tick: 10, Sum: 100}, []byte("the scene's bytes"))
	if err != nil {
		t.Fatal(err)
	}
	start := wire.Start{Game: "g", Version: "1", Determinism: engine.Determinism, Match: "m1", Players: 2, Seed: 7, MaxLead: 120,
		Resumed: 12, From: 10, StateBytes: len(state)}
	none, in := make([]input.State, 2), make([]input.State, 2)
	in[1].SetKey(input.KeySpace, true)
	history := wire.AppendHistory(nil, wire.AppendTick(nil, 10, 100, in, none))
	history = wire.AppendHistory(history, wire.AppendTick(nil, 11, 110, in, in))
	s, err := session(start, [2][]byte{{wire.OpState}, state[:7]}, [2][]byte{{wire.OpState}, state[7:]},
		[2][]byte{{wire.OpHistory}, history})
	if err != nil || !bytes.Equal(s.State(), state) {
		t.Fatalf("the state: %v", err)
	}
	if err := s.Poll(); err != nil || !s.Ready(11) || s.Ready(12) || s.Behind() != 0 {
		t.Fatalf("after the ticks from the state: %v, Ready(11) %v, Ready(12) %v", err, s.Ready(11), s.Ready(12))
	}
	players := make([]input.State, 2)
	s.Inputs(11, players)
	if !players[1].KeyDown(input.KeySpace) {
		t.Error("tick 11 did not run with player 2's space held since tick 10")
	}
	s.Checksum(11, 110)
	if s.Checked() != 1 {
		t.Errorf("%d ticks checked, want 1", s.Checked())
	}

	if _, err := session(start, [2][]byte{{wire.OpState}, append(bytes.Clone(state), 0)}); err == nil || !strings.Contains(err.Error(), "longer") {
		t.Errorf("a state longer than it says: %v", err)
	}
	other := start
	other.From, other.Resumed = 9, 9
	if _, err := session(other, [2][]byte{{wire.OpState}, state}); err == nil || !strings.Contains(err.Error(), "at tick 10") {
		t.Errorf("a state of another tick than its start says: %v", err)
	}
	if _, err := session(start, [2][]byte{{wire.OpHistory}, history}); err == nil || !strings.Contains(err.Error(), "before the match's state") {
		t.Errorf("ticks before the state: %v", err)
	}
	bad := start
	bad.From = 13
	if _, err := session(bad); err == nil || !strings.Contains(err.Error(), "of tick 13") {
		t.Errorf("a state after the match's tick: %v", err)
	}
}

// Replay refuses a kept match of another game or version, or of another
// determinism version, and ticks that are not the match's.
func TestReplayRefuses(t *testing.T) {
	game := &lockstep.Game{Name: "g", Version: "1", MaxPlayers: 4, Hz: 60}
	one := make([]input.State, 1)
	k, err := wire.Keep(wire.Start{Game: "g", Version: "1", Determinism: engine.Determinism, Players: 1}, wire.End{Tick: 1},
		wire.AppendHistory(nil, wire.AppendTick(nil, 1, 5, one, one)))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := Replay(game, k); err != nil {
		t.Fatal(err)
	}
	other, det, cut := *k, *k, *k
	other.Start.Version = "2"
	det.Start.Determinism++
	cut.Ticks = cut.Ticks[:len(cut.Ticks)-1]
	for name, c := range map[string]*wire.Kept{"another version": &other, "another arithmetic": &det, "cut": &cut} {
		if _, err := Replay(game, c); err == nil {
			t.Errorf("%s: no error", name)
		}
	}
	if _, err := Replay(game, &other); err == nil || !strings.Contains(err.Error(), `g 2`) {
		t.Errorf("another version: %v", err)
	}
}
