package wire_test

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"

	"github.com/fixedstep/fixedstep/engine/input"
	"github.com/fixedstep/fixedstep/engine/online/wire"
)

// kept returns a kept match of the scripted match's first 200 ticks.
func kept(tb testing.TB) (*wire.Kept, []byte) {
	_, _, history := match(tb)
	k, err := wire.Keep(wire.Start{Game: "g", Version: "1", Match: "m", Players: 3, Seat: 2, Seed: 7}, wire.End{Reason: "over", Tick: 200}, history)
	if err != nil {
		tb.Fatal(err)
	}
	return k, history
}

// A kept match gives back its ticks as they were, through its JSON (what
// a server stores), smaller than they were; its start is seat 0's, and
// says the ticks run.
func TestKept(t *testing.T) {
	k, history := kept(t)
	b, err := json.Marshal(k)
	if err != nil {
		t.Fatal(err)
	}
	var back wire.Kept
	if err := json.Unmarshal(b, &back); err != nil {
		t.Fatal(err)
	}
	h, err := back.History()
	if err != nil || !bytes.Equal(h, history) {
		t.Fatalf("the history read back: %d bytes (%v); want %d", len(h), err, len(history))
	}
	if back.Start.Seat != 0 || back.Start.Resumed != 200 || len(k.Ticks) >= len(history) {
		t.Errorf("start: seat %d, resumed %d; %d bytes compressed of %d", back.Start.Seat, back.Start.Resumed, len(k.Ticks), len(history))
	}
	t.Logf("%d ticks: %d bytes, %d compressed", k.End.Tick, len(history), len(k.Ticks))
}

// A kept match that is not what it says is refused by name: its ticks
// damaged, cut, of another length, more than it says or fewer, out of
// order, of more players than it has, or a decompression bomb.
func TestKeptRefused(t *testing.T) {
	_, history := kept(t)
	keep := func(h []byte, end int64) *wire.Kept {
		k, err := wire.Keep(wire.Start{Game: "g", Version: "1", Players: 3}, wire.End{Tick: end}, h)
		if err != nil {
			t.Fatal(err)
		}
		return k
	}
	first, rest, _ := wire.SplitHistory(history)
	second, _, _ := wire.SplitHistory(rest)
	swapped := wire.AppendHistory(wire.AppendHistory(nil, second), first)
	cases := []struct {
		name string
		k    func() *wire.Kept
		want string
	}{
		{"damaged", func() *wire.Kept { k := keep(history, 200); k.Ticks[len(k.Ticks)/2] ^= 0xff; return k }, "ticks"},
		{"cut", func() *wire.Kept { k := keep(history, 200); k.Ticks = k.Ticks[:len(k.Ticks)-9]; return k }, "ticks"},
		{"longer than it says", func() *wire.Kept { k := keep(history, 200); k.Bytes -= 10; return k }, "ticks"},
		{"fewer ticks", func() *wire.Kept { return keep(history, 201) }, "says it ran"},
		{"more ticks", func() *wire.Kept { return keep(history, 199) }, "says it ran"},
		{"out of order", func() *wire.Kept { return keep(swapped, 2) }, "comes where"},
		{"one player", func() *wire.Kept { k := keep(history, 200); k.Start.Players = 1; return k }, "tick 1"},
		{"no players", func() *wire.Kept { k := keep(history, 200); k.Start.Players = 0; return k }, "0 players"},
		{"too long", func() *wire.Kept { k := keep(history, 200); k.Bytes = wire.MaxKept + 1; return k }, "at most"},
		{"resumed elsewhere", func() *wire.Kept { k := keep(history, 200); k.Start.Resumed = 3; return k }, "says it ran"},
		{"a bomb", func() *wire.Kept {
			k := keep(bytes.Repeat([]byte{0}, 8<<20), 0)
			k.Bytes = 100
			return k
		}, "ticks"},
	}
	for _, c := range cases {
		if _, err := c.k().History(); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: %v; want an error with %q", c.name, err, c.want)
		}
	}
}

// Bytes from a server are hostile: History refuses them or gives ticks
// that decode, and never panics. (The tick messages' decoding has
// FuzzDecodeTick; this one fuzzes what is around them.)
func FuzzKept(f *testing.F) {
	k, _ := kept(f)
	f.Add(k.Ticks, k.Bytes, uint8(k.Start.Players), k.End.Tick)
	short, _ := wire.Keep(wire.Start{Players: 1}, wire.End{Tick: 1}, wire.AppendHistory(nil, wire.AppendTick(nil, 1, 9, make([]input.State, 1), make([]input.State, 1))))
	f.Add(short.Ticks, short.Bytes, uint8(1), int64(1))
	f.Fuzz(func(t *testing.T, ticks []byte, n int, players uint8, end int64) {
		k := wire.Kept{Start: wire.Start{Players: int(players), Resumed: end}, End: wire.End{Tick: end}, Bytes: n, Ticks: ticks}
		h, err := k.History()
		if err == nil && len(h) != k.Bytes {
			t.Fatalf("%d bytes of ticks; it says %d", len(h), k.Bytes)
		}
	})
}
