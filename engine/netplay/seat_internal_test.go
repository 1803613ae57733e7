package netplay

import (
	"net/netip"
	"strings"
	"testing"
	"time"

	"github.com/fixedstep/fixedstep/engine"
)

// helloAs returns a hello of the arena, role a player or a spectator.
func helloAs(nonce uint64, role uint8) []byte {
	return packet(kindHello, 0, func(w *writer) {
		w.u64(nonce)
		w.u8(role)
		w.str("arena")
		w.str("1")
		w.u8(engine.Determinism)
		w.u8(0)
		w.u64(0)
		w.settings(nil, -1)
		w.u8(1) // every tick from the first
	})
}

// A seat that waits stays the seat of the player who left: a spectator
// joining from its address does not take its place in the host's peers,
// and a player who joins again after it takes the seat (rather than
// crashing the host); spectators who left count no more against
// MaxSpectators. A seat that waits in vain names its player and why.
func TestSeatWaitsWhateverJoins(t *testing.T) {
	s, p := bare()
	s.cfg = Config{Game: "arena", Version: "1", SeatWait: time.Minute}
	s.leave(p, "it quit", 2)
	if !s.fill[1] || s.emptySince[1].IsZero() {
		t.Fatal("player 2's seat does not wait")
	}
	waiting := s.emptySince[1]
	deliver(s, p, helloAs(11, roleSpectator)) // a spectator at player 2's old address
	if len(s.peers) != 2 || s.peers[0] != p || s.peers[1].player != -1 {
		t.Fatalf("after a spectator's hello from player 2's address: %d peers", len(s.peers))
	}
	back := &peer{addr: netip.MustParseAddrPort("127.0.0.1:4002")}
	deliver(s, back, helloAs(12, rolePlayer))
	if s.peers[0].player != 1 || s.peers[0].addr != back.addr || s.fill[1] && !s.emptySince[1].IsZero() {
		t.Fatalf("the player who came back did not take seat 2: %+v", s.peers[0])
	}
	s.leave(s.peers[0], "it quit", 2) // left before it played: the seat's wait goes on
	if !s.emptySince[1].Equal(waiting) {
		t.Fatalf("the seat's wait began again at %v; it began at %v", s.emptySince[1], waiting)
	}
	s.emptySince[1] = time.Now().Add(-2 * time.Minute)
	if err := s.seatsWaited(time.Now()); err == nil || !strings.Contains(err.Error(), "player 2 (127.0.0.1:4002) left: it quit; its seat waited 1m0s") {
		t.Fatalf("the seat that waited in vain: %v", err)
	}
	for i := range MaxSpectators + 1 { // spectators who come and go
		o := &peer{addr: netip.AddrPortFrom(netip.MustParseAddr("127.0.0.2"), uint16(5000+i))}
		deliver(s, o, helloAs(uint64(100+i), roleSpectator))
		if !s.isPeer(o.addr) {
			t.Fatalf("spectator %d, after %d who left, was refused", i+2, i)
		}
		s.leave(s.peers[len(s.peers)-1], "it quit", 0)
	}
	if n := s.stats.Dropped[dropMalformed]; n != 0 {
		t.Fatalf("%d hellos dropped as malformed", n)
	}
}
