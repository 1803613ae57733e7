package e2e

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/fixedstep/fixedstep/engine"
	"github.com/fixedstep/fixedstep/engine/online/client"
	"github.com/fixedstep/fixedstep/engine/online/wire"
	"github.com/fixedstep/fixedstep/server/internal/nakamatest"
)

// A match that ended is kept by the server: a client that did not play it
// fetches it (the RPC over the HTTP API) and plays it again in the
// engine's loop, every tick with the server's inputs and its checksum
// equal to the server's, to the match's end; a match the server does not
// keep is an error that says so.
func TestKept(t *testing.T) {
	t.Parallel()
	srv := nakamatest.Start(t)
	const seconds = 4
	results, _ := playMatch(t, srv, "kept", 2, seconds, nil)
	checkEveryTick(t, results, seconds)
	id := results[0].Start.Match

	c := dial(t, srv, "kept-watcher")
	began := time.Now()
	k, err := c.Kept(context.Background(), game, id)
	if err != nil {
		t.Fatal(err)
	}
	fetched := time.Since(began)
	if k.End.Tick != results[0].End.Tick || k.End.Reason != results[0].End.Reason || k.Start.Seed != results[0].Start.Seed || k.Start.Players != 2 {
		t.Fatalf("kept: %+v, %+v; the players saw %+v, %+v", k.Start, k.End, results[0].Start, results[0].End)
	}
	s, err := playKept(t, k)
	if err != nil || s.Checked() != k.End.Tick {
		t.Fatalf("played again: %v, %d ticks checked of %d", err, s.Checked(), k.End.Tick)
	}
	t.Logf("match %s kept: %d ticks in %d bytes (%d compressed), fetched in %v, every checksum equal to the server's",
		id, k.End.Tick, k.Bytes, len(k.Ticks), fetched)

	for _, bad := range []string{"no-such-match.nakama", results[0].Start.Match + "x"} {
		if _, err := c.Kept(context.Background(), game, bad); err == nil || !strings.Contains(err.Error(), "no kept match") {
			t.Errorf("fetching match %q: %v; want no kept match", bad, err)
		}
	}
	if _, err := c.RPC(context.Background(), game.Name+"_kept", `{"match":1}`); err == nil || !strings.Contains(err.Error(), "match_id") {
		t.Errorf("a bad payload: %v", err)
	}
}

// playKept plays kept match k again in the engine's loop, headless, each
// tick checked against the server's checksum, and returns its session.
func playKept(t *testing.T, k *wire.Kept) (*client.Session, error) {
	t.Helper()
	s, err := client.Replay(game, k)
	if err != nil {
		t.Fatal(err)
	}
	first, _, err := game.New(k.Start.Seed, k.Start.Settings)
	if err != nil {
		t.Fatal(err)
	}
	return s, engine.Run(first, &engine.Options{Session: s, Headless: &engine.Headless{FPS: 60}})
}
