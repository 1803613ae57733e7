package netplay

import (
	"math/rand/v2"
	"net/netip"
	"testing"

	"github.com/fixedstep/fixedstep/engine/input"
)

// The history gives back every confirmed input, presses and releases
// included, from any tick, long after the queue's ring has let it go.
func TestHistoryReadsFromAnyTick(t *testing.T) {
	const ticks = 5 * ringTicks
	var q queue
	q.reset(2, 3)
	var h history
	rng := rand.New(rand.NewPCG(1, 2))
	want := [2][ticks + 1]input.State{}
	for tk := int64(4); tk <= ticks; tk++ {
		for p := range 2 {
			var in input.State
			in.SetKey(input.KeySpace, rng.IntN(3) == 0)
			in.SetKey(input.KeyArrowLeft, tk%7 < 3)
			in.SetGamepadAxis(0, input.AxisLeftStickHorizontal, float64(rng.IntN(9))/8-0.5)
			prev := want[p][tk-1]
			prev.ClearEdges()
			in.DeriveEdges(&prev)
			want[p][tk] = in
			q.add(p, tk, &in)
		}
		q.simulated = tk
		h.keep(&q)
	}
	for range 200 {
		p, from := rng.IntN(2), 1+rng.Int64N(ticks)
		next := from
		ok := h.read(p, from, func(tk int64, in *input.State) bool {
			if tk != next || !in.Same(&want[p][tk]) {
				t.Fatalf("player %d from tick %d: tick %d reads %+v, want tick %d %+v", p, from, tk, *in, next, want[p][next])
			}
			next++
			return next < from+300
		})
		if !ok || next != min(from+300, ticks+1) {
			t.Fatalf("player %d from tick %d: read to %d (%v)", p, from, next, ok)
		}
	}
	if h.read(0, ticks+1, func(int64, *input.State) bool { return true }) || h.read(0, 0, func(int64, *input.State) bool { return true }) {
		t.Fatal("read a tick not kept")
	}
}

// A spectator may join a session under way, but not from the address of
// one of its peers (a hello with another nonce): one peer an address.
func TestLateSpectatorNotAtAPeersAddress(t *testing.T) {
	s, p := bare()
	s.cfg = Config{Game: "arena", Version: "1"}
	hello := func(nonce uint64) []byte { return helloAs(nonce, roleSpectator) }
	deliver(s, p, hello(99))
	if len(s.peers) != 1 {
		t.Fatalf("a hello from player 2's address made %d peers", len(s.peers))
	}
	other := &peer{addr: netip.MustParseAddrPort("127.0.0.1:4001")}
	deliver(s, other, hello(99))
	if len(s.peers) != 2 || s.peers[1].player != -1 || s.peers[1].started {
		t.Fatalf("a spectator's hello under way: %d peers", len(s.peers))
	}
}
