package netplay_test

import (
	"context"
	"errors"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/fixedstep/fixedstep/engine"
	"github.com/fixedstep/fixedstep/engine/netplay"
	"github.com/fixedstep/fixedstep/engine/netplay/netsim"
)

// A spectator that joins a session under way begins from the host's
// state: it simulates none of the ticks before it, and ends on the
// players' state.
func TestSpectatorJoinsUnderWayFromState(t *testing.T) {
	link := &netsim.Link{Latency: 20 * time.Millisecond, Jitter: 5 * time.Millisecond, Loss: 0.02, Seed: 10}
	runs := play(t, setup{players: 2, link: link, realtime: true, seconds: 6, lateAt: 200, lateFromState: true})
	late := runs[len(runs)-1]
	for i, r := range runs {
		if r.err != nil {
			t.Fatalf("peer %d: %v", i+1, r.err)
		}
		if r.final != runs[0].final {
			t.Fatalf("peer %d ended on %x, the host on %x", i+1, r.final, runs[0].final)
		}
	}
	info, err := engine.ParseStateInfo(late.session.State())
	if err != nil || info.Tick < 200 || late.session.Player() != -1 || late.stats.Rollbacks != 0 {
		t.Fatalf("the late spectator: player %d, %+v, its state: %+v, %v: want a spectator from a state after tick 200",
			late.session.Player(), late.stats, info, err)
	}
	t.Logf("the late spectator began from tick %d (%d bytes, %d in the file)", info.Tick, info.Bytes, info.FileBytes)
}

// rejoinRun is one peer's run in a rejoin test.
type rejoinRun struct {
	s     *netplay.Session
	final uint64
	first int64 // the first tick it ran
	rec   *engine.InputLog
	err   error
}

// rejoin plays a session of three in real time through a bad link: player
// 2 vanishes (no goodbye) at tick 120, and once the host has found it
// silent a new run joins in its place, from the host's state or (fromStart)
// from the first tick. It returns the host's run, player 3's, the
// rejoiner's and the host's log.
func rejoin(t *testing.T, fromStart bool) (host, third, back *rejoinRun, log string) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	var hostLog syncLog
	cfg := netplay.Config{Addr: "127.0.0.1:0", Game: "arena", Version: "1", Players: 3, Seed: 5, Timeout: time.Second,
		Link: &netsim.Link{Latency: 20 * time.Millisecond, Jitter: 5 * time.Millisecond, Loss: 0.02, Seed: 11}}
	hcfg := cfg
	hcfg.SeatWait, hcfg.Log = 20*time.Second, &hostLog
	lobby, err := netplay.Listen(hcfg)
	if err != nil {
		t.Fatal(err)
	}
	cfg.Addr, cfg.Log = lobby.Addr().String(), testLog{t}
	const seconds = 8
	run := func(r *rejoinRun, stopAt int64) {
		opts := &engine.Options{Session: r.s, TickInput: pilot(r.s.Player()), Game: arenaGame, Record: r.rec, FromState: r.s.State(),
			Headless: &engine.Headless{Realtime: true}, StopAt: seconds * time.Second}
		if opts.FromState != nil {
			opts.Record = nil
		}
		opts.AfterUpdate = []engine.EventHook{func(l *engine.Loop, ev engine.Event) {
			if ev.Group == 0 && r.first == 0 {
				r.first = ev.Tick
			}
			if ev.Group == 0 && ev.Tick == stopAt && !l.Session().Resimulating() {
				r.s.Vanish()
				l.Stop()
			}
		}}
		r.err = engine.Run(game(&r.final), opts)
		if stopAt == 0 {
			if err := r.s.Close(); r.err == nil {
				r.err = err
			}
		}
	}
	host, third, back = &rejoinRun{}, &rejoinRun{}, &rejoinRun{rec: &engine.InputLog{}}
	gone := make(chan struct{})
	var wg sync.WaitGroup
	wg.Add(4)
	go func() {
		defer wg.Done()
		if host.s, host.err = lobby.Wait(ctx); host.err == nil {
			run(host, 0)
		}
	}()
	for i, r := range []*rejoinRun{{}, third} {
		go func() {
			defer wg.Done()
			time.Sleep(time.Duration(i) * 100 * time.Millisecond) // player 2 first
			if r.s, r.err = netplay.Join(ctx, cfg); r.err != nil {
				return
			}
			if i == 0 {
				run(r, 120)
				close(gone)
				return
			}
			run(r, 0)
		}()
	}
	go func() {
		defer wg.Done()
		<-gone
		for !strings.Contains(hostLog.String(), "seat waits") {
			time.Sleep(20 * time.Millisecond)
		}
		c := cfg
		c.FromFirstTick = fromStart
		if back.s, back.err = netplay.Join(ctx, c); back.err == nil {
			run(back, 0)
		}
	}()
	wg.Wait()
	return host, third, back, hostLog.String()
}

// syncLog is a log written by one goroutine and read by another.
type syncLog struct {
	mu sync.Mutex
	b  strings.Builder
}

func (l *syncLog) Write(b []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.Write(b)
}

func (l *syncLog) String() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.String()
}

// A player who vanishes from a session of three, its seat kept for it by
// the host (Config.SeatWait), joins it again and takes the seat back:
// from the host's state, or from the first tick with every input. The
// others play on meanwhile, its input empty; every run ends on the same
// state, and a rejoiner's recording from the first tick replays to it.
func TestRejoin(t *testing.T) {
	for _, fromStart := range []bool{false, true} {
		host, third, back, log := rejoin(t, fromStart)
		for name, r := range map[string]*rejoinRun{"the host": host, "player 3": third, "the rejoiner": back} {
			if r.err != nil {
				t.Fatalf("from the first tick %v: %s: %v\nthe host's log:\n%s", fromStart, name, r.err, log)
			}
		}
		if third.final != host.final || back.final != host.final {
			t.Fatalf("from the first tick %v: the host ended on %x, player 3 on %x, the rejoiner on %x", fromStart, host.final, third.final, back.final)
		}
		if back.s.Player() != 1 {
			t.Fatalf("the rejoiner took player %d's seat, want player 2's", back.s.Player()+1)
		}
		for _, says := range []string{"player 2's seat waits", "player 2 joined again"} {
			if !strings.Contains(log, says) {
				t.Errorf("from the first tick %v: the host's log says nothing of %q:\n%s", fromStart, says, log)
			}
		}
		if fromStart {
			if back.s.State() != nil || back.first != 1 {
				t.Fatalf("from the first tick: the rejoiner has a state, and its first tick was %d", back.first)
			}
			if got := replay(t, back.rec); got != back.final {
				t.Fatalf("the rejoiner's recording replays to %x, it ended on %x", got, back.final)
			}
			continue
		}
		info, err := engine.ParseStateInfo(back.s.State())
		if err != nil || info.Tick < 100 || back.first != info.Tick+1 { // a state of about when player 2 vanished, at tick 120
			t.Fatalf("the rejoiner's state: %+v, %v; its first tick %d", info, err, back.first)
		}
		t.Logf("the rejoiner began from the state of tick %d (%d bytes)", info.Tick, info.FileBytes)
	}
}

// A seat that waits in vain ends the session once Config.SeatWait has
// passed, naming the player and how long its seat waited; the host plays
// on meanwhile.
func TestSeatWaitsInVain(t *testing.T) {
	var ran int64
	runs := play(t, setup{players: 2, seconds: 30, timeout: 500 * time.Millisecond, realtime: true, seatWait: time.Second,
		afterUpdate: func(i int, r *peerRun, l *engine.Loop, ev engine.Event) {
			if i == 0 && ev.Group == 0 {
				ran = ev.Tick
			}
			if i == 1 && ev.Group == 0 && ev.Tick == 60 && !l.Session().Resimulating() {
				r.session.Vanish()
				r.vanished = true
				l.Stop()
			}
		}})
	var pe *netplay.PeerError
	if err := runs[0].err; !errors.As(err, &pe) || pe.Player != 1 || !strings.Contains(err.Error(), "its seat waited 1s") {
		t.Fatalf("the host: %v, want player 2's seat to have waited 1s", err)
	}
	if ran < 60+30 {
		t.Fatalf("the host ran to tick %d: it did not play on while the seat waited", ran)
	}
}
