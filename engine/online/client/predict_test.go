package client

import (
	"context"
	"encoding/json"
	"errors"
	"testing"

	"github.com/fixedstep/fixedstep/engine"
	"github.com/fixedstep/fixedstep/engine/input"
	"github.com/fixedstep/fixedstep/engine/lockstep"
	"github.com/fixedstep/fixedstep/engine/online/wire"
)

var _ engine.Follower = (*Predicting)(nil)

// A predicting session runs ahead of the server by its Ahead, the local
// player's input at once and the other's held as the server last ran it;
// a server's tick that ran as predicted has the checksum kept for it
// checked, one whose other player's input differs is the rollback's tick,
// and one whose own input differs (the server took it late) also raises
// Ahead. A kept checksum unlike the server's is a desync.
func TestPredicting(t *testing.T) {
	game := &lockstep.Game{Name: "g", Version: "1", MaxPlayers: 4, Hz: 60}
	m := newMatch(&Client{}, game, "m1")
	start, _ := json.Marshal(wire.Start{Game: "g", Version: "1", Determinism: engine.Determinism, Match: "m1", Players: 2, Seat: 0, Seed: 7, MaxLead: 120})
	m.queue(wire.OpStart, start)
	p, err := m.Predict(context.Background(), 0)
	if err != nil {
		t.Fatal(err)
	}
	if err := p.Poll(); err != nil || p.Ahead() != 2 || !p.Ready(2) || p.Ready(3) {
		t.Fatalf("before the server's first tick: %v, ahead %d, Ready(2) %v, Ready(3) %v", err, p.Ahead(), p.Ready(2), p.Ready(3))
	}
	var space input.State
	space.SetKey(input.KeySpace, true)
	players := make([]input.State, 2)
	p.Local(1, &space)
	p.Inputs(1, players)
	if !players[0].KeyPressed(input.KeySpace) || players[1].KeyDown(input.KeySpace) {
		t.Fatalf("tick 1 predicted: own %+v, other %+v; want own space pressed, the other nothing", players[0].Keys, players[1].Keys)
	}
	p.Checksum(1, 11)
	p.Local(2, &space)
	p.Inputs(2, players)
	p.Checksum(2, 22)
	if len(p.pending) != 1 || p.pending[0].tick != 1 {
		t.Fatalf("inputs to send: %+v; want the space held from tick 1, once", p.pending)
	}

	prev := make([]input.State, 2)
	send := func(tick int64, sum uint64, in []input.State) {
		m.queue(wire.OpTick, wire.AppendTick(nil, tick, sum, in, prev))
		copy(prev, in)
	}
	ran := []input.State{space, {}}
	ran[0].DeriveEdges(&input.State{})
	send(1, 11, ran) // as predicted: its checksum is checked
	if err := p.Poll(); err != nil || p.Checked() != 1 || p.received != 1 {
		t.Fatalf("tick 1 as predicted: %v, %d checked", err, p.Checked())
	}
	if rb, ok := p.Rollback(); ok {
		t.Fatalf("a rollback to %d after a right prediction", rb)
	}
	other := []input.State{space, space} // the other player pressed space at tick 2
	other[1].DeriveEdges(&input.State{})
	send(2, 23, other)
	if err := p.Poll(); err != nil {
		t.Fatal(err)
	}
	if rb, ok := p.Rollback(); !ok || rb != 2 || p.Checked() != 1 {
		t.Fatalf("the other's input at tick 2 predicted wrong: rollback %d %v, %d checked", rb, ok, p.Checked())
	}
	p.Inputs(2, players) // the rollback's tick: the server's inputs
	p.Checksum(2, 23)
	if _, ok := p.Rollback(); ok || p.Checked() != 2 || !players[1].KeyPressed(input.KeySpace) {
		t.Fatalf("after the rollback: %d checked, other %+v", p.Checked(), players[1])
	}

	// The server ran the own input of tick 3 late: the own prediction was
	// wrong, and the session runs a tick further ahead.
	var none input.State
	p.Local(3, &none)
	p.Inputs(3, players)
	p.Checksum(3, 33)
	send(3, 34, []input.State{space, space})
	ahead := p.Ahead()
	if err := p.Poll(); err != nil || p.Late() != 1 || p.Ahead() != ahead+1 {
		t.Fatalf("an own input run late: %v, late %d, ahead %d (was %d)", err, p.Late(), p.Ahead(), ahead)
	}
	if rb, _ := p.Rollback(); rb != 3 {
		t.Fatalf("rollback to %d, want 3", rb)
	}

	p.Inputs(3, players)
	p.Checksum(3, 34)
	p.Inputs(4, players)
	p.Checksum(4, 44)
	send(4, 45, []input.State{space, space})
	var de *DesyncError
	if err := p.Poll(); !errors.As(err, &de) || de.Tick != 4 {
		t.Fatalf("a kept checksum unlike the server's: %v", err)
	}
}

// A frame of a predicting session allocates nothing on the loop's
// goroutine: taking in the server's tick, running the next ahead of it
// with the other's input predicted, a rollback's tick, the checksums (the
// local input unchanged: nothing to send).
func TestPredictingFrameAllocatesNothing(t *testing.T) {
	sv, s := newServer(t, 2, 0)
	p := &Predicting{Session: s, ahead: 3, base: 3}
	msgs := make([][]byte, 0, 300)
	for tk := int64(1); tk <= 300; tk++ {
		sv.tick(tk, float64(tk%7)/10, uint64(tk))
		d := <-sv.m.data
		msgs = append(msgs, d.data)
	}
	players := make([]input.State, 2)
	var local input.State
	p.last, p.sentAny = local, true
	tk := int64(0)
	frame := func() {
		tk++
		sv.m.queue(wire.OpTick, msgs[tk-1])
		if err := p.Poll(); err != nil {
			t.Fatalf("tick %d: %v", tk, err)
		}
		if rb, ok := p.Rollback(); ok {
			for u := rb; u < tk+2; u++ {
				p.Inputs(u, players)
				p.Checksum(u, uint64(u))
			}
		}
		p.Local(tk+2, &local)
		p.Inputs(tk+2, players)
		p.Checksum(tk+2, uint64(tk+2))
		if err := p.EndFrame(); err != nil {
			t.Fatal(err)
		}
	}
	p.Local(1, &local)
	p.Inputs(1, players)
	p.Local(2, &local)
	p.Inputs(2, players)
	for range 100 {
		frame()
	}
	if allocs := testing.AllocsPerRun(100, frame); allocs != 0 {
		t.Errorf("%v allocations a frame, want 0", allocs)
	}
	if p.Checked() < 150 {
		t.Errorf("%d ticks checked of %d", p.Checked(), tk)
	}
}

// The match's end ends a predicting session's run only once every tick to
// the end ran with the server's inputs: with a prediction of the last tick
// proved wrong, the rollback comes first.
func TestPredictingEndsAfterItsRollback(t *testing.T) {
	sv, s := newServer(t, 2, 0)
	p := &Predicting{Session: s, ahead: 2, base: 2}
	players := make([]input.State, 2)
	var none input.State
	for tk := int64(1); tk <= 2; tk++ {
		p.Local(tk, &none)
		p.Inputs(tk, players)
		p.Checksum(tk, uint64(tk))
	}
	sv.tick(1, 0, 1) // the other's stick moved: both ticks predicted wrong
	sv.tick(2, 0, 2)
	end, _ := json.Marshal(wire.End{Reason: "over", Tick: 2})
	sv.m.queue(wire.OpEnd, end)
	if err := p.Poll(); err != nil {
		t.Fatalf("the end with ticks predicted wrong: %v, want the rollback first", err)
	}
	rb, ok := p.Rollback()
	if !ok || rb != 1 {
		t.Fatalf("rollback %d %v, want tick 1", rb, ok)
	}
	for tk := int64(1); tk <= 2; tk++ {
		p.Inputs(tk, players)
		p.Checksum(tk, uint64(tk))
	}
	var ended *EndedError
	if err := p.Poll(); !errors.As(err, &ended) || p.Checked() != 2 {
		t.Fatalf("after the rollback: %v, %d checked; want the end, both ticks checked", err, p.Checked())
	}
}
