package e2e

// Clients that break the rules: the server refuses what they send, by
// reason, and removes a flooder; the honest players play on.

import (
	"context"
	"encoding/binary"
	"fmt"
	"strings"
	"testing"

	"github.com/fixedstep/fixedstep/engine/input"
	"github.com/fixedstep/fixedstep/engine/online/client"
	"github.com/fixedstep/fixedstep/engine/online/wire"
	"github.com/fixedstep/fixedstep/server/internal/nakamatest"
	"github.com/fixedstep/fixedstep/server/match"
)

// notHeld is an input message with a press of its own in it (of a key
// not held), which no honest client sends (the server derives presses
// from held inputs).
func notHeld(tick int64) []byte {
	var s input.State
	s.KeysPressed.Set(input.KeyArrowLeft, true)
	b := binary.AppendUvarint(nil, uint64(tick))
	return wire.AppendState(b, &s)
}

// A client that sends every kind of bad message is refused each time and
// counted, and changes nothing of the others' run: their checksums equal
// the server's at every tick and their inputs ran as they sent them.
// Clients of another game or version, and a match with bad parameters,
// are refused with a message that says why.
func TestBadClient(t *testing.T) {
	t.Parallel()
	srv := nakamatest.Start(t)
	ctx := context.Background()
	stranger := dial(t, srv, "bad-stranger")
	if _, err := stranger.Create(ctx, game, match.Params{Players: 9, Seconds: 5}); err == nil {
		t.Error("a match of 9 players was made")
	} else {
		t.Logf("9 players: %v", err)
	}

	const seconds = 10
	var sendErr error
	results, _ := playMatch(t, srv, "bad", 3, seconds, func(seat int, _ *client.Client, m *client.Match) (client.Play, bool) {
		if seat == 0 { // before the match is full: refused for its game or version, not for want of a seat
			other := *game
			other.Version = "0"
			if _, err := stranger.Join(ctx, &other, m.ID()); err == nil || !strings.Contains(err.Error(), "version") {
				t.Errorf("a client of another version joined, or was refused for another reason: %v", err)
			}
			other = *game
			other.Name = "pong"
			if _, err := stranger.Join(ctx, &other, m.ID()); err == nil || !strings.Contains(err.Error(), "pong") {
				t.Errorf("a client of another game joined, or was refused for another reason: %v", err)
			}
		}
		if seat != 2 {
			return client.Play{}, false
		}
		var held input.State
		held.SetKey(input.KeyArrowRight, true)
		send := func(op int64, b []byte) {
			if err := m.Send(op, b); err != nil && sendErr == nil {
				sendErr = err
			}
		}
		return client.Play{Idle: true, OnTick: func(tick int64) {
			switch tick {
			case 10:
				send(wire.OpInput, []byte{0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff}) // malformed
			case 20:
				send(wire.OpInput, append(wire.AppendInput(nil, tick+2, &held), make([]byte, wire.MaxInput)...)) // oversized
			case 30:
				send(wire.OpInput, wire.AppendInput(nil, tick+100*match.MaxLead, &held)) // future, however far behind the client is
			case 40:
				send(wire.OpInput, wire.AppendInput(nil, tick+5, &held))
			case 41:
				send(wire.OpInput, wire.AppendInput(nil, tick+2, &input.State{})) // stale: before tick 45
			case 50:
				send(wire.OpInput, notHeld(tick+2))
			case 60:
				send(99, []byte("hello")) // an op code clients do not send
			case 70:
				for i := range int64(3 * match.MaxPerTick) { // a flood
					send(wire.OpInput, wire.AppendInput(nil, tick+2+i, &held))
				}
			}
		}}, false
	})
	if sendErr != nil {
		t.Fatal(sendErr)
	}
	stats := serverStats(t, results[0].End)
	checkEveryTick(t, results[:2], seconds)
	for p, r := range results[:2] {
		checkTaken(t, fmt.Sprintf("honest player %d", p+1), r, stats.Players[p])
	}
	bad := stats.Players[2].Refused
	t.Logf("the bad client's refused messages: %v; taken %d", bad, stats.Players[2].Taken)
	for why, want := range map[string]int64{"malformed": 1, "oversized": 1, "future": 1, "stale": 1, "not held": 1, "unknown op": 1} {
		if bad[why] != want {
			t.Errorf("refused as %s: %d, want %d", why, bad[why], want)
		}
	}
	if bad["flood"] < 1 {
		t.Errorf("a flood of %d messages in a tick was not refused (%d)", 3*match.MaxPerTick, bad["flood"])
	}
}

// A client that floods the match (a thousand messages in a tick) is
// removed, and told why; the others' inputs are all taken, and their run
// goes on to its end, every tick checked.
func TestFlooderRemoved(t *testing.T) {
	t.Parallel()
	srv := nakamatest.Start(t)
	const seconds, floodAt = 8, 2 * hz
	var sendErr error
	results, _ := playMatch(t, srv, "flood", 3, seconds, func(seat int, _ *client.Client, m *client.Match) (client.Play, bool) {
		if seat != 2 {
			return client.Play{}, false
		}
		var held input.State
		return client.Play{Idle: true, OnTick: func(tick int64) {
			if tick != floodAt {
				return
			}
			for i := range int64(1000) {
				held.SetKey(input.KeyArrowLeft, i%2 == 0)
				if err := m.Send(wire.OpInput, wire.AppendInput(nil, tick+2+i%100, &held)); err != nil && sendErr == nil {
					sendErr = err
				}
			}
		}}, false
	})
	if sendErr != nil {
		t.Fatal(sendErr)
	}
	checkEveryTick(t, results[:2], seconds)
	stats := serverStats(t, results[0].End)
	for p, r := range results[:2] {
		checkTaken(t, fmt.Sprintf("honest player %d", p+1), r, stats.Players[p])
	}
	flooder := stats.Players[2]
	if !flooder.Kicked || !strings.Contains(results[2].End.Reason, "removed") || results[2].Ticks >= seconds*hz {
		t.Errorf("the flooder: kicked %v, told %q after %d ticks", flooder.Kicked, results[2].End.Reason, results[2].Ticks)
	}
	t.Logf("the flooder was told %q; the server took %d of its messages, refused %v, and %d came from no player", results[2].End.Reason, flooder.Taken, flooder.Refused, stats.Strange["stranger"])
}
