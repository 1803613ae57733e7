package e2e

import (
	"context"
	"fmt"
	"os"
	"regexp"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/fixedstep/fixedstep/engine/online/client"
	"github.com/fixedstep/fixedstep/server/internal/nakamatest"
	"github.com/fixedstep/fixedstep/server/match"
)

// A match outlives its server: two players play a match of 16 s; 7.5 s in,
// the server is killed (SIGKILL) and started again on the same database.
// Each client dials again, asks for the match resumed (the RPC
// "<game>_resume": one match for both), joins it, begins from the state the
// server stored, and plays on to the match's end: every tick after the
// state checked against the server's checksum, the match as long as it was
// to be, and the server's stats counting each player back. The server
// stored the match's history too, in pieces of 4 KiB here (the plugin's
// fixedstep_piece_bytes): the resumed match is kept when it ends, and
// plays again from its first tick, every checksum the server's. A stranger
// may not ask for it resumed; a match of which the server stored nothing
// (none of that id, or one resumed and ended) is an error that says so.
func TestResume(t *testing.T) {
	t.Parallel()
	srv := nakamatest.Start(t, nakamatest.Options{Args: []string{"--runtime.env", "fixedstep_piece_bytes=4096"}})
	const seconds = 16
	killAt := int64(15 * hz / 2)
	var reached atomic.Int32
	results, errs := playMatch(t, srv, "resume", 2, seconds, func(seat int, _ *client.Client, _ *client.Match) (client.Play, bool) {
		return client.Play{OnTick: func(tick int64) {
			if tick == killAt && reached.Add(1) == 2 {
				go srv.Kill()
			}
		}}, true
	})
	for p, err := range errs {
		if err == nil || results[p].Ticks < killAt || results[p].Ticks >= seconds*hz {
			t.Fatalf("player %d played %d ticks of the match whose server was killed at tick %d: %v", p+1, results[p].Ticks, killAt, err)
		}
	}
	old := results[0].Start.Match
	srv.Restart()
	stranger := dial(t, srv, "resume-stranger")
	if _, err := stranger.Resume(context.Background(), game, old); err == nil || !strings.Contains(err.Error(), "only its players") {
		t.Errorf("a stranger asking for the match resumed: %v", err)
	}

	ctx, onTick := progress(t, 30*time.Second)
	after := make([]client.Result, 2)
	afterErr := make([]error, 2)
	ids := make([]string, 2)
	var wg sync.WaitGroup
	for p := range after {
		wg.Go(func() {
			c, err := client.Dial(ctx, srv.URL, client.Options{ServerKey: srv.ServerKey, Device: fmt.Sprintf("e2e-device-resume-%d", p)})
			if afterErr[p] = err; err != nil {
				return
			}
			defer c.Close()
			if ids[p], afterErr[p] = c.Resume(ctx, game, old); afterErr[p] != nil {
				return
			}
			m, err := c.Join(ctx, game, ids[p])
			if afterErr[p] = err; err != nil {
				return
			}
			after[p], afterErr[p] = m.Play(ctx, client.Play{OnTick: onTick})
		})
	}
	wg.Wait()
	for p, err := range afterErr {
		if err != nil {
			t.Fatalf("player %d after the restart: %v (%v)", p+1, err, context.Cause(ctx))
		}
	}
	if ids[0] != ids[1] || ids[0] == old {
		t.Errorf("the match %s resumed as %s for player 1 and %s for player 2", old, ids[0], ids[1])
	}
	checkEveryTick(t, after, seconds)
	// The server ticks on its own clock and a client plays what reaches it,
	// so on a busy machine the server may have run and stored ticks its
	// players had not seen when it was killed: a player's last tick bounds
	// nothing. What holds is where the server keeps and stores: the state
	// at a tick of its own (every match.SnapshotEvery), the record every
	// match.PersistEvery, and both before the match's end.
	snapTicks := int64(match.SnapshotEvery) * hz / int64(time.Second)
	persistTicks := int64(match.PersistEvery) * hz / int64(time.Second)
	for p, r := range after {
		if r.From < 1 || r.From%snapTicks != 0 || r.Start.Resumed < r.From || r.Start.Resumed%persistTicks != 0 || r.Start.Resumed >= seconds*hz {
			t.Errorf("player %d, back after the restart: began from the state of tick %d, the match resumed after tick %d; killed after tick %d, the player at %d",
				p+1, r.From, r.Start.Resumed, killAt, results[p].Ticks)
		}
	}
	stats := serverStats(t, after[0].End)
	for p, s := range stats.Players {
		if s.Back != 1 || s.Left {
			t.Errorf("the resumed match's seat %d: %+v", p+1, s)
		}
	}
	t.Logf("killed after tick %d; resumed from the state of tick %d and the ticks to %d (up to %v of play stored a second); played on to tick %d",
		killAt, after[0].From, after[0].Start.Resumed, match.PersistEvery, after[0].Ticks)

	k, err := stranger.Kept(ctx, game, ids[0])
	if err != nil {
		t.Fatalf("the resumed match, ended: %v", err)
	}
	if replay, err := playKept(t, k); err != nil || replay.Checked() != seconds*hz || k.End.Tick != seconds*hz {
		t.Errorf("the resumed match, kept and played again: %v; %d ticks checked of %d (kept to tick %d)", err, replay.Checked(), seconds*hz, k.End.Tick)
	}

	if n := srv.StorageCount(match.PiecesCollection(game)); n != 0 {
		t.Errorf("%d pieces of histories left in storage once the resumed match ended", n)
	}

	if _, err := stranger.Resume(ctx, game, "no-such-match.nakamatest"); err == nil || !strings.Contains(err.Error(), "to resume") {
		t.Errorf("resuming a match the server stored nothing of: %v", err)
	}
	c := dial(t, srv, "resume-0")
	if _, err := c.Resume(ctx, game, old); err == nil || !strings.Contains(err.Error(), "to resume") {
		t.Errorf("asking again, once the match resumed has ended: %v", err)
	}
}

// A record no player asks to resume is swept away once its time to be
// resumed is over, as the server makes a match, and the pieces of its
// history with it: asked for after that, it is not there (rather than
// there and too old). The records here may be resumed within 3 s of their
// last write (the plugin's fixedstep_resume_within), and their histories
// go into pieces of 4 KiB (fixedstep_piece_bytes).
func TestResumeRecordSwept(t *testing.T) {
	t.Parallel()
	srv := nakamatest.Start(t, nakamatest.Options{Args: []string{"--runtime.env", "fixedstep_resume_within=3s",
		"--runtime.env", "fixedstep_piece_bytes=4096"}})
	killAt := int64(7 * hz) // after the match's first state (match.SnapshotEvery), its record written
	var reached atomic.Int32
	results, _ := playMatch(t, srv, "swept", 2, 16, func(seat int, _ *client.Client, _ *client.Match) (client.Play, bool) {
		return client.Play{OnTick: func(tick int64) {
			if tick == killAt && reached.Add(1) == 2 {
				go srv.Kill()
			}
		}}, true
	})
	killed := time.Now()
	old := results[0].Start.Match
	if old == "" {
		t.Fatalf("the match under way when its server was killed has no id: %+v", results[0])
	}
	srv.Restart()
	before := srv.StorageCount(match.PiecesCollection(game)) // 7 s of the match's history, in pieces of 4 KiB
	if before == 0 {
		t.Error("the killed match's record counts no piece of its history in storage")
	}
	time.Sleep(4*time.Second - time.Since(killed)) // the record's time to be resumed is over
	c := dial(t, srv, "swept-0")                   // one of its players
	if _, err := c.Create(context.Background(), game, map[string]any{"players": 2}); err != nil {
		t.Fatal(err)
	}
	swept := regexp.MustCompile(`removed the records of 1 matches no one resumed within 3s, and ([1-9]\d*) pieces of their histories`)
	for deadline := time.Now().Add(time.Minute); ; time.Sleep(100 * time.Millisecond) {
		if log, _ := os.ReadFile(srv.LogPath); swept.Match(log) {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("the server's log does not say %q a minute after a match was made", swept)
		}
	}
	if _, err := c.Resume(context.Background(), game, old); err == nil || !strings.Contains(err.Error(), "no match "+old) {
		t.Fatalf("asked to resume a match whose record was swept: %v", err)
	}
	if n := srv.StorageCount(match.PiecesCollection(game)); n != 0 {
		t.Errorf("%d of the %d pieces of histories left in storage once the record was swept", n, before)
	}
}
