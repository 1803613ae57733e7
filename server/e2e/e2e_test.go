// Package e2e plays the demo's Arena as authoritative matches on a real Nakama server
// (built from this module, with the plugin) and a real Postgres, with real
// headless clients over Nakama's realtime socket: nothing stands in for
// either side.
//
// Every test starts a server of its own (nakamatest.Start) and runs in
// parallel with the others: they mostly wait on real time (a match plays
// its seconds as a player sees them), so make test runs them four at a
// time (-parallel 4).
package e2e

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"image"
	"image/color"
	"image/png"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/fixedstep/fixedstep/engine/input"
	"github.com/fixedstep/fixedstep/engine/lockstep"
	"github.com/fixedstep/fixedstep/engine/online/client"
	"github.com/fixedstep/fixedstep/engine/online/wire"
	"github.com/fixedstep/fixedstep/scenes/arena"
	"github.com/fixedstep/fixedstep/server/internal/nakamatest"
	"github.com/fixedstep/fixedstep/server/match"
)

// game is what the tests play: the demo's Arena, whose players are undying
// in playMatch's matches, so that a match lasts its length whatever the
// bots do. hz is its tick rate.
var game = &arena.Spec

const hz = arena.Hz

// dial connects a client of a device of its own (name: unique in the
// test's server).
func dial(t *testing.T, srv *nakamatest.Server, name string) *client.Client {
	t.Helper()
	return dialAt(t, srv.URL, srv.ServerKey, name)
}

// dialAt connects a client as dial does, to the server at url (a proxy's
// in front of it).
func dialAt(t *testing.T, url, key, name string) *client.Client {
	t.Helper()
	c, err := client.Dial(context.Background(), url, client.Options{ServerKey: key, Device: "e2e-device-" + name})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { c.Close() })
	return c
}

// progress is a context for a match's play that is cancelled when the
// match's ticks stop advancing for stall (the server or a client stuck),
// not after a fixed time: a busy machine plays slowly but plays. tick is
// to be called by every client after each tick it ran.
func progress(t *testing.T, stall time.Duration) (ctx context.Context, tick func(int64)) {
	ctx, cancel := context.WithCancelCause(context.Background())
	t.Cleanup(func() { cancel(nil) })
	var mu sync.Mutex
	last, at := int64(-1), time.Now()
	go func() {
		for ctx.Err() == nil {
			time.Sleep(stall / 10)
			mu.Lock()
			if time.Since(at) > stall {
				cancel(fmt.Errorf("no tick in %v after tick %d", stall, last))
			}
			mu.Unlock()
		}
	}()
	return ctx, func(tick int64) {
		mu.Lock()
		if tick != last {
			last, at = tick, time.Now()
		}
		mu.Unlock()
	}
}

// serverStats decodes the server's stats a match's end carries.
func serverStats(t *testing.T, end wire.End) match.Stats {
	t.Helper()
	var s match.Stats
	if err := json.Unmarshal(end.Stats, &s); err != nil {
		t.Fatalf("the match's end carries no stats (%q): %v", end.Stats, err)
	}
	return s
}

// checkTaken checks that the server took every input an honest client
// sent, refused none, and ran late only those the client saw moved. The
// inputs still on their way when the server ran the match's last tick
// (a busy machine's client behind it) are the only ones it may not have
// taken: all stamped past the last it took, no more of them than the
// stamps there, each one seen moved by the client.
func checkTaken(t *testing.T, who string, r client.Result, seat match.SeatJSON) {
	t.Helper()
	lost := r.Sent - seat.Taken
	if len(seat.Refused) != 0 || lost < 0 || lost > r.LastSent-seat.Last || r.Moved > seat.Late+lost {
		t.Errorf("%s: sent %d inputs (the last stamped %d), %d moved; the server took %d (the last stamped %d), %d late, refused %v",
			who, r.Sent, r.LastSent, r.Moved, seat.Taken, seat.Last, seat.Late, seat.Refused)
	}
	if lost > 0 {
		t.Logf("%s: %d inputs stamped after %d were on their way as the match ended", who, lost, seat.Last)
	}
}

// checkBotsPlayed fails unless every player's bot sent input and the
// server took it (checkTaken); it returns the server's stats.
func checkBotsPlayed(t *testing.T, results []client.Result) match.Stats {
	t.Helper()
	stats := serverStats(t, results[0].End)
	for p, r := range results {
		if r.Sent == 0 {
			t.Errorf("player %d sent no input: its bot did not play", p+1)
		}
		checkTaken(t, fmt.Sprintf("player %d", p+1), r, stats.Players[p])
	}
	return stats
}

// playMatch makes a match of players seats for seconds on srv and plays
// it with a client per seat, each with the options play gives (nil: the
// game's bot). It returns each seat's result, and fails the test on a
// client's error unless play says the seat may have one (mayFail).
func playMatch(t *testing.T, srv *nakamatest.Server, name string, players, seconds int, play func(seat int, c *client.Client, m *client.Match) (opts client.Play, mayFail bool)) ([]client.Result, []error) {
	t.Helper()
	clients := make([]*client.Client, players)
	for i := range clients {
		clients[i] = dial(t, srv, fmt.Sprintf("%s-%d", name, i))
	}
	return playClients(t, clients, seconds, play)
}

// playClients is playMatch with its clients dialed: the first makes the
// match, and each plays the seat it is given.
func playClients(t *testing.T, clients []*client.Client, seconds int, play func(seat int, c *client.Client, m *client.Match) (opts client.Play, mayFail bool)) ([]client.Result, []error) {
	t.Helper()
	players := len(clients)
	ctx, onTick := progress(t, 20*time.Second)
	id, err := clients[0].Create(ctx, game, match.Params{Players: players, Seconds: seconds, Seed: 42,
		Settings: map[string]string{"undying": "true"}})
	if err != nil {
		t.Fatal(err)
	}
	results := make([]client.Result, players)
	errs := make([]error, players)
	mayFail := make([]bool, players)
	var wg sync.WaitGroup
	for i, c := range clients {
		m, err := c.Join(ctx, game, id)
		if err != nil {
			t.Fatal(err)
		}
		opts := client.Play{}
		if play != nil {
			opts, mayFail[i] = play(i, c, m)
		}
		if own := opts.OnTick; own != nil {
			opts.OnTick = func(tick int64) { onTick(tick); own(tick) }
		} else {
			opts.OnTick = onTick
		}
		wg.Go(func() { results[i], errs[i] = m.Play(ctx, opts) })
	}
	wg.Wait()
	for i, err := range errs {
		if err != nil && !mayFail[i] {
			t.Fatalf("match %s, player %d: %v (%v)", id, i+1, err, context.Cause(ctx))
		}
	}
	return results, errs
}

// checkEveryTick fails unless every client ran and checked every tick of
// a whole match of seconds, and ended when its time ran out.
func checkEveryTick(t *testing.T, results []client.Result, seconds int) {
	t.Helper()
	want := int64(seconds * hz)
	for p, r := range results {
		if r.Ticks != want || r.Checked != want-r.From {
			t.Errorf("player %d: %d ticks received, %d checked after the state of tick %d; want %d ticks, each after the state checked", p+1, r.Ticks, r.Checked, r.From, want)
		}
		if r.End.Reason != "the match's time ran out" || r.End.Tick != want {
			t.Errorf("player %d: the match ended at tick %d: %q", p+1, r.End.Tick, r.End.Reason)
		}
		if r.Start.Seat != p {
			t.Errorf("player %d was given seat %d", p+1, r.Start.Seat)
		}
	}
}

// Two clients play a 30 s match: each simulates every tick with the
// inputs the server broadcast, and its checksum equals the server's at
// every one; each player's input ran as it sent it.
func TestTwoPlayers(t *testing.T) {
	t.Parallel()
	srv := nakamatest.Start(t)
	const seconds = 30
	results, _ := playMatch(t, srv, "two", 2, seconds, nil)
	checkEveryTick(t, results, seconds)
	stats := checkBotsPlayed(t, results)
	t.Logf("server: %+v", stats.Loop)
	t.Logf("player 1: %.0f B/s in, %.0f B/s out", float64(results[0].BytesIn)/results[0].Elapsed.Seconds(), float64(results[0].BytesOut)/results[0].Elapsed.Seconds())
}

// Eight clients play at once, in two 30 s matches of four (a match seats
// up to input.MaxPlayers): every client checks every tick.
func TestEightPlayers(t *testing.T) {
	t.Parallel()
	srv := nakamatest.Start(t)
	const seconds = 30
	for i := range 2 {
		t.Run(fmt.Sprint("match ", i+1), func(t *testing.T) {
			t.Parallel()
			results, _ := playMatch(t, srv, fmt.Sprintf("eight-%d", i), input.MaxPlayers, seconds, nil)
			checkEveryTick(t, results, seconds)
		})
	}
}

// A player who drops out mid-match (its socket closed) leaves the match
// playing on: the others run to its end, every tick checked, and the
// server says the seat left.
func TestDropOut(t *testing.T) {
	t.Parallel()
	srv := nakamatest.Start(t)
	const seconds, dropAt = 10, 5 * hz
	results, errs := playMatch(t, srv, "drop", 3, seconds, func(seat int, c *client.Client, _ *client.Match) (client.Play, bool) {
		if seat != 2 {
			return client.Play{}, false
		}
		return dropOut(c, dropAt), true
	})
	checkEveryTick(t, results[:2], seconds)
	if errs[2] == nil || results[2].Ticks < dropAt || results[2].Ticks >= seconds*hz {
		t.Errorf("the client that dropped out at tick %d played to tick %d: %v", dropAt, results[2].Ticks, errs[2])
	}
	stats := serverStats(t, results[0].End)
	if !stats.Players[2].Left || stats.Players[0].Left || stats.Players[1].Left {
		t.Errorf("the server's seats: %+v; want player 3 left, the others not", stats.Players)
	}
}

// Killing the server mid-match loses the match (its clients are told by
// their sockets closing), and nothing else: restarted on the same
// database, the server knows the accounts it made, and a new match plays
// to its end.
func TestServerKilled(t *testing.T) {
	t.Parallel()
	srv := nakamatest.Start(t)
	const killAt = 2 * hz
	before := dial(t, srv, "killed-account")
	user, _ := before.User()
	// Killed once both players have run tick killAt: a player a tick
	// behind the other when the socket closes would lose the tick in
	// flight, and the test would say nothing of the server.
	var reached atomic.Int32
	results, errs := playMatch(t, srv, "killed", 2, 60, func(seat int, _ *client.Client, _ *client.Match) (client.Play, bool) {
		return client.Play{OnTick: func(tick int64) {
			if tick == killAt && reached.Add(1) == 2 {
				go srv.Kill()
			}
		}}, true
	})
	for p, err := range errs {
		if err == nil || results[p].Ticks < killAt || results[p].Ticks >= 60*hz {
			t.Errorf("player %d played %d ticks of the match whose server was killed at tick %d: %v", p+1, results[p].Ticks, killAt, err)
		}
	}
	t.Logf("the clients when the server was killed: %v", errs)

	srv.Restart()
	after := dial(t, srv, "killed-account")
	if id, created := after.User(); created || id != user {
		t.Errorf("after the restart the device's account is %s (made anew: %v), before it %s", id, created, user)
	}
	results, _ = playMatch(t, srv, "after", 2, 3, nil)
	checkEveryTick(t, results, 3)
}

// Two windows of cmd/rally (under the test's display: make test runs it
// under Xvfb) find a match together and play it to its end, each checking
// every tick's checksum; one saves its picture, which shows the box, the
// paddles and the balls.
func TestWindows(t *testing.T) {
	t.Parallel()
	if os.Getenv("DISPLAY") == "" {
		t.Skip("no display (DISPLAY is empty): make test runs this under Xvfb")
	}
	srv := nakamatest.Start(t)
	dir := t.TempDir()
	bin := filepath.Join(dir, "rally")
	if out, err := exec.Command("go", "build", "-o", bin, "../cmd/rally").CombinedOutput(); err != nil {
		t.Fatalf("building cmd/rally: %v\n%s", err, out)
	}
	const seconds = 3
	shot := filepath.Join(dir, "rally.png")
	outs, errs := runTogether(t, bin, 2, func(i int) []string {
		args := []string{"-server", srv.URL, "-key", srv.ServerKey, "-players", "2", "-seconds", fmt.Sprint(seconds), "-bot", "-quit"}
		if i == 0 {
			args = append(args, "-screenshot", shot)
		}
		return args
	})
	want := fmt.Sprintf("%d ticks checked against the server's checksum", seconds*hz)
	for i, out := range outs {
		if errs[i] != nil || !strings.Contains(out, want) {
			t.Errorf("window %d: %v; want %q in its output:\n%s", i+1, errs[i], want, out)
		}
	}
	colors, b := pictureColors(t, shot)
	ball := color.RGBA{0xf0, 0xe0, 0x60, 0xff}
	if colors[ball] == 0 || colors[color.RGBA{0xff, 0xff, 0xff, 0xff}] == 0 {
		t.Errorf("the picture (%v, %d colours) shows no ball or no white paddle of its own", b, len(colors))
	}
}

// Players who ask for a match at once are seated together: of five asking
// at the same moment for a match of two, two pairs share a match each and
// the fifth gets a match of its own, though Nakama's listing does not yet
// show the matches the first askers made.
func TestFind(t *testing.T) {
	t.Parallel()
	srv := nakamatest.Start(t)
	ctx := context.Background()
	ids := make([]string, 5)
	errs := make([]error, 5)
	var wg sync.WaitGroup
	for i := range ids {
		c := dial(t, srv, fmt.Sprint("find-", i))
		wg.Go(func() { ids[i], errs[i] = c.Find(ctx, game, 2, 5) })
	}
	wg.Wait()
	seated := map[string]int{}
	for i, id := range ids {
		if errs[i] != nil {
			t.Fatal(errs[i])
		}
		seated[id]++
	}
	var sizes []int
	for _, n := range seated {
		sizes = append(sizes, n)
	}
	slices.Sort(sizes)
	if !slices.Equal(sizes, []int{1, 2, 2}) {
		t.Errorf("five players asking at once for a match of two were given matches of %v players", sizes)
	}
	// A game the server does not serve is named as such.
	other := &lockstep.Game{Name: "pinball", Version: "1", MaxPlayers: 2, Hz: 60}
	if _, err := dial(t, srv, "find-other").Find(ctx, other, 2, 5); err == nil ||
		!strings.Contains(err.Error(), "this server does not serve pinball (it has no RPC pinball_find)") {
		t.Errorf("finding a match of a game the server does not serve: %v", err)
	}
}

// A player whose socket closed mid-match comes back to it as the same
// user: it is sent every tick so far, simulates them to catch up with
// every checksum checked, and plays on to the end; meanwhile the match
// went on without it.
func TestComeBack(t *testing.T) {
	t.Parallel()
	srv := nakamatest.Start(t)
	const seconds, dropAt, backAt = 12, 3 * hz, 6 * hz
	type back struct {
		res client.Result
		err error
	}
	came := make(chan back, 1)
	ctx, onTick := progress(t, 20*time.Second)
	results, errs := playMatch(t, srv, "back", 2, seconds, func(seat int, c *client.Client, m *client.Match) (client.Play, bool) {
		switch seat {
		case 0:
			return client.Play{OnTick: func(tick int64) {
				onTick(tick) // the match's progress until the player is back
				if tick != backAt {
					return
				}
				go func() {
					var b back
					defer func() { came <- b }()
					c, err := client.Dial(ctx, srv.URL, client.Options{ServerKey: srv.ServerKey, Device: "e2e-device-back-1"})
					if b.err = err; err != nil {
						return
					}
					defer c.Close()
					again, err := c.Join(ctx, game, m.ID())
					if b.err = err; err != nil {
						return
					}
					b.res, b.err = again.Play(ctx, client.Play{OnTick: onTick})
				}()
			}}, false
		default:
			return dropOut(c, dropAt), true
		}
	})
	checkEveryTick(t, results[:1], seconds)
	if errs[1] == nil || results[1].Ticks >= backAt {
		t.Errorf("the client that dropped out at tick %d played to tick %d: %v", dropAt, results[1].Ticks, errs[1])
	}
	b := <-came
	if b.err != nil {
		t.Fatalf("coming back: %v", b.err)
	}
	checkEveryTick(t, []client.Result{results[0], b.res}, seconds)
	if r := b.res.Start.Resumed; r < backAt {
		t.Errorf("came back after tick %d, asked to at tick %d", r, backAt)
	}
	if b.res.Sent == 0 {
		t.Error("the player who came back sent no input")
	}
	stats := serverStats(t, results[0].End)
	if p := stats.Players[1]; p.Left || p.Back != 1 {
		t.Errorf("the server's seat of the player who came back: %+v", p)
	}
	checkFromState(t, b.res)
	t.Logf("came back after tick %d; began from the state of tick %d (%d bytes), caught up with %d ticks, then played %d", b.res.Start.Resumed,
		b.res.From, b.res.StateBytes, b.res.Start.Resumed-b.res.From, b.res.Ticks-b.res.Start.Resumed)
}

// checkFromState fails unless a player who joined a match under way began
// from the server's state, at most match.SnapshotEvery before it joined.
func checkFromState(t *testing.T, r client.Result) {
	t.Helper()
	if every := int64(match.SnapshotEvery.Seconds() * hz); r.From < 1 || r.StateBytes == 0 || r.Start.Resumed-r.From >= every {
		t.Errorf("joined after tick %d: began from the state of tick %d (%d bytes); want one of the last %d ticks", r.Start.Resumed, r.From, r.StateBytes, every)
	}
}

// A player drops out; its seat stays its own for SeatHeld, and then a
// newcomer looking for a match of two (the find RPC) is given the match
// under way, takes the seat over, catches up on the ticks so far with
// every checksum checked, and plays to the end.
func TestNewcomer(t *testing.T) {
	t.Parallel()
	srv := nakamatest.Start(t)
	held := int(match.SeatHeld / time.Second)
	// The find RPC sees a label's change once Nakama's match listing is
	// next updated (a second at most), so the newcomer asks 3 s after the
	// seat opens; it has 12 s more to catch up (on a busy machine, under
	// the race detector, that takes a while) and play.
	seconds := 2 + held + 3 + 12
	dropAt, findAt := int64(2*hz), int64((2+held+3)*hz)
	type newcomer struct {
		res  client.Result
		user string
		err  error
	}
	came := make(chan newcomer, 1)
	ctx, onTick := progress(t, 20*time.Second)
	results, _ := playMatch(t, srv, "newcomer", 2, seconds, func(seat int, c *client.Client, m *client.Match) (client.Play, bool) {
		if seat == 1 {
			return dropOut(c, dropAt), true
		}
		return client.Play{OnTick: func(tick int64) {
			onTick(tick) // the match's progress until the newcomer plays
			if tick != findAt {
				return
			}
			go func() {
				var n newcomer
				defer func() { came <- n }()
				c, err := client.Dial(ctx, srv.URL, client.Options{ServerKey: srv.ServerKey, Device: "e2e-device-newcomer"})
				if n.err = err; err != nil {
					return
				}
				defer c.Close()
				n.user, _ = c.User()
				id, err := c.Find(ctx, game, 2, 0)
				if n.err = err; err != nil {
					return
				}
				if id != m.ID() {
					n.err = fmt.Errorf("the find RPC gave match %s, not the one under way with a free seat (%s)", id, m.ID())
					return
				}
				joined, err := c.Join(ctx, game, id)
				if n.err = err; err != nil {
					return
				}
				n.res, n.err = joined.Play(ctx, client.Play{OnTick: onTick})
			}()
		}}, false
	})
	n := <-came
	if n.err != nil {
		t.Fatalf("the newcomer: %v", n.err)
	}
	checkEveryTick(t, []client.Result{results[0], n.res}, seconds)
	if r := n.res.Start.Resumed; r < findAt {
		t.Errorf("the newcomer started after tick %d, before it asked (tick %d)", r, findAt)
	}
	if n.res.Sent == 0 {
		t.Error("the newcomer sent no input")
	}
	stats := serverStats(t, results[0].End)
	if p := stats.Players[1]; p.Left || p.Newcomers != 1 || p.User != n.user {
		t.Errorf("the server's seat the newcomer took: %+v (the newcomer: %s)", p, n.user)
	}
	checkFromState(t, n.res)
	t.Logf("the newcomer took seat 2 after tick %d (its player left at tick %d), began from the state of tick %d, caught up, then played %d ticks",
		n.res.Start.Resumed, dropAt, n.res.From, n.res.Ticks-n.res.Start.Resumed)
}

// The demo plays the server's Arena (-server): two headless demos find a
// match of two together, play it to its end with their autopilots, and
// check every tick against the server's checksum; one's recording of the
// match replays alone, every checksum matching, and so does the match the
// server kept, played again by the demo (-watch); a demo in a window (under
// the test's display) plays a match of one and draws it.
func TestDemo(t *testing.T) {
	t.Parallel()
	srv := nakamatest.Start(t)
	dir := t.TempDir()
	bin := buildDemo(t, dir)
	const seconds = 5
	online := []string{"-server", srv.URL, "-server-key", srv.ServerKey, "-seconds", fmt.Sprint(seconds), "-autopilot"}
	rec := filepath.Join(dir, "match.input")
	outs, errs := runTogether(t, bin, 2, func(i int) []string {
		args := slices.Concat([]string{"-headless", "-players", "2"}, online)
		if i == 0 {
			args = append(args, "-record", rec)
		}
		return args
	})
	want := fmt.Sprintf("%d ticks checked against the server's checksum", seconds*hz)
	for i, out := range outs {
		if errs[i] != nil || !strings.Contains(out, want) || !strings.Contains(out, " of 2 in match ") {
			t.Errorf("demo %d: %v; want %q in its output:\n%s", i+1, errs[i], want, out)
		}
	}
	// The match's recording replays alone, every checksum matching.
	out, err := exec.Command(bin, "-headless", "-replay", rec).CombinedOutput()
	replayed := fmt.Sprintf("every checksum matched (%d checked)", seconds*hz)
	if err != nil || !strings.Contains(string(out), replayed) {
		t.Errorf("replaying the match: %v; want %q in:\n%s", err, replayed, out)
	}
	// The server kept it: the demo plays it again (-watch), every tick
	// checked against the server's checksum, and records it for -replay.
	id := regexp.MustCompile(`in match (\S+);`).FindStringSubmatch(outs[0])
	if id == nil {
		t.Fatalf("no match id in:\n%s", outs[0])
	}
	watched := filepath.Join(dir, "watched.input")
	out, err = exec.Command(bin, "-headless", "-server", srv.URL, "-server-key", srv.ServerKey, "-watch", id[1], "-record", watched).CombinedOutput()
	if again := fmt.Sprintf("played again; %d ticks checked against the server's checksum", seconds*hz); err != nil || !strings.Contains(string(out), again) {
		t.Errorf("the demo playing the kept match again: %v; want %q in:\n%s", err, again, out)
	}
	out, err = exec.Command(bin, "-headless", "-replay", watched).CombinedOutput()
	if err != nil || !strings.Contains(string(out), replayed) {
		t.Errorf("replaying the kept match's recording: %v; want %q in:\n%s", err, replayed, out)
	}

	if os.Getenv("DISPLAY") == "" {
		t.Skip("no display (DISPLAY is empty) for the window: make test runs this under Xvfb")
	}
	shot := filepath.Join(dir, "demo.png")
	out, err = exec.Command(bin, slices.Concat([]string{"-players", "1", "-screenshot", shot, "-screenshot-at", "1:90"}, online)...).CombinedOutput()
	if err != nil || !strings.Contains(string(out), "online: player 1 of 1 in match ") {
		t.Fatalf("the demo in a window: %v\n%s", err, out)
	}
	colors, b := pictureColors(t, shot)
	floor := color.RGBA{34, 40, 52, 255}
	if n := b.Dx() * b.Dy() / 4; colors[floor] < n/2 || len(colors) < 20 {
		t.Errorf("the picture (%v) has %d pixels of the floor of %d sampled and %d colours: the Arena is not drawn", b, colors[floor], n, len(colors))
	}
}

// dropOut is the play of a player whose socket closes at tick at.
func dropOut(c *client.Client, at int64) client.Play {
	return client.Play{OnTick: func(tick int64) {
		if tick == at {
			go c.Close()
		}
	}}
}

// buildDemo builds cmd/demo into dir and returns its path.
func buildDemo(t testing.TB, dir string) string {
	t.Helper()
	bin := filepath.Join(dir, "demo")
	build := exec.Command("go", "build", "-o", bin, "./cmd/demo")
	build.Dir = "../.." // the engine's module, with its own go.sum
	if out, err := build.CombinedOutput(); err != nil {
		t.Fatalf("building cmd/demo: %v\n%s", err, out)
	}
	return bin
}

// Demos (-server) find a match under way whose players left SeatHeld
// before, take their seats over, and begin from the server's state of a
// recent tick (onlinemode.Mode.FromState; the window's Arena dresses the
// entities of the server's state, which has no sprites) rather than
// simulate the match so far: a headless one plays to the match's end,
// every tick after the state checked against the server's; a window (with
// a display) shows the Arena's sprites a second after it joined. One that
// records (-record) simulates every tick from the first instead, so that
// its recording replays the match whole.
func TestDemoNewcomer(t *testing.T) {
	t.Parallel()
	srv := nakamatest.Start(t)
	bin := buildDemo(t, t.TempDir())
	held := int(match.SeatHeld / time.Second)
	seconds := 2 + held + 3 + 8
	dropAt, joinAt := int64(2*hz), int64((2+held+3)*hz) // 3 s for the match listing to show the free seats
	dir := t.TempDir()
	shot, rec := filepath.Join(dir, "newcomer.png"), filepath.Join(dir, "newcomer.input")
	newcomers := [][]string{{"-headless"}, {"-headless", "-seconds", "0", "-record", rec}} // to the match's end, and so its recording
	if os.Getenv("DISPLAY") != "" {                                                        // a window, which stops once it saved its picture
		newcomers = append(newcomers, []string{"-screenshot", shot, "-screenshot-at", fmt.Sprintf("1:%d", joinAt+hz)})
	}
	outs := make([]string, len(newcomers))
	errs := make([]error, len(newcomers))
	var wg sync.WaitGroup
	ctx, onTick := progress(t, 20*time.Second)
	playMatch(t, srv, "demo-newcomer", 4, seconds, func(seat int, c *client.Client, m *client.Match) (client.Play, bool) {
		if seat > 0 {
			return dropOut(c, dropAt), true
		}
		// Blind, the first player hears each tick as the server runs it,
		// and starts the newcomers on the server's time: one that simulated
		// (under the race detector, on a busy machine) fell seconds behind.
		return client.Play{Blind: true, Idle: true, OnTick: func(tick int64) {
			onTick(tick)
			if tick == joinAt {
				for i, args := range newcomers {
					args = append(args, "-autopilot", "-players", "4", "-server", srv.URL, "-server-key", srv.ServerKey)
					wg.Go(func() {
						out, err := exec.CommandContext(ctx, bin, args...).CombinedOutput()
						outs[i], errs[i] = string(out), err
					})
				}
			}
		}}, false
	})
	wg.Wait()
	for i, out := range outs {
		number := func(re string) int64 {
			if m := regexp.MustCompile(re).FindStringSubmatch(out); m != nil {
				n, _ := strconv.ParseInt(m[1], 10, 64)
				return n
			}
			return -1
		}
		checked, seated := number(`(\d+) ticks checked against the server's checksum`), number(`player (\d) of 4 in match `)
		switch i {
		case 0: // played to the match's end, every tick after the state's checked
			from := number(`begun from the match's state after tick (\d+) `)
			if errs[i] != nil || from <= dropAt || from > joinAt+5*hz || checked != int64(seconds*hz)-from || seated < 2 {
				t.Errorf("the demo joining the match under way at tick %d: %v; want it a newcomer's player, begun from the server's "+
					"state of a tick after %d, with every tick after it checked to tick %d, in:\n%s", joinAt, errs[i], dropAt, seconds*hz, out)
			}
			continue
		case 1: // every tick from the first, and a recording of them
			if errs[i] != nil || checked != int64(seconds*hz) || seated < 2 {
				t.Errorf("the demo joining the match under way with -record: %v; want it a newcomer's player, with every tick from the "+
					"first checked (%d), in:\n%s", errs[i], seconds*hz, out)
			}
			out, err := exec.Command(bin, "-headless", "-replay", rec).CombinedOutput()
			if replayed := fmt.Sprintf("every checksum matched (%d checked)", seconds*hz); err != nil || !strings.Contains(string(out), replayed) {
				t.Errorf("replaying the newcomer's recording: %v; want %q in:\n%s", err, replayed, out)
			}
			continue
		}
		if errs[i] != nil || checked < 1 || checked >= joinAt || seated < 2 { // its picture a second after it joined, fewer ticks than from the first
			t.Errorf("the demo's window joining the match under way at tick %d: %v; want it a newcomer's player, the ticks since the "+
				"server's state checked to tick %d (%d from the first tick), in:\n%s", joinAt, errs[i], joinAt+hz, joinAt+hz, out)
			continue
		}
		colors, b := pictureColors(t, shot) // the sprites cover some 12% of the floor, the HUD's text 1%
		floor := color.RGBA{34, 40, 52, 255}
		if n := b.Dx() * b.Dy() / 4; colors[floor] > n*95/100 || len(colors) < 100 {
			t.Errorf("the window's picture (%v) has %d pixels of the floor of %d sampled and %d colours: the Arena's sprites are not drawn",
				b, colors[floor], n, len(colors))
		}
	}
}

// runTogether starts n processes of bin at once, the i'th with args(i),
// and returns what each printed and how each exited once all have.
func runTogether(t testing.TB, bin string, n int, args func(i int) []string) ([]string, []error) {
	t.Helper()
	bufs := make([]bytes.Buffer, n)
	errs := make([]error, n)
	var wg sync.WaitGroup
	for i := range n {
		cmd := exec.Command(bin, args(i)...)
		cmd.Stdout, cmd.Stderr = &bufs[i], &bufs[i]
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		wg.Go(func() { errs[i] = cmd.Wait() })
	}
	wg.Wait()
	outs := make([]string, n)
	for i := range bufs {
		outs[i] = bufs[i].String()
	}
	return outs, errs
}

// pictureColors counts the colours of every other pixel of every other row
// of the PNG at path, and returns its bounds.
func pictureColors(t *testing.T, path string) (map[color.RGBA]int, image.Rectangle) {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	img, err := png.Decode(f)
	if err != nil {
		t.Fatal(err)
	}
	colors := map[color.RGBA]int{}
	b := img.Bounds()
	for y := b.Min.Y; y < b.Max.Y; y += 2 {
		for x := b.Min.X; x < b.Max.X; x += 2 {
			r, g, bl, a := img.At(x, y).RGBA()
			colors[color.RGBA{uint8(r >> 8), uint8(g >> 8), uint8(bl >> 8), uint8(a >> 8)}]++
		}
	}
	return colors, b
}
