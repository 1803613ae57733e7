package scenes

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"sync"
	"testing"
	"time"

	"github.com/fixedstep/fixedstep/engine"
	"github.com/fixedstep/fixedstep/engine/netplay"
	"github.com/fixedstep/fixedstep/engine/netplay/netsim"
)

// netRun is what one peer of a networked Arena measured.
type netRun struct {
	err    error
	stats  engine.SessionStats
	net    netplay.Stats
	frames []time.Duration // the work of each frame that ran ticks, none simulated again: from its Input event to the end of its Render
	rolled []time.Duration // the same of each frame that simulated ticks again (a rollback)
	waited int64           // frames that waited for a remote input
	wall   time.Duration
	found  int64         // a desync's: ticks from it to when it was found
	took   time.Duration // and from then to the reports' exchange's end
}

// playArena plays the Arena headless in real time with n players in one
// process over UDP on 127.0.0.1, each peer's packets through link, for
// seconds of game time; drift, when positive, changes the second player's
// floor damping at that tick (a desync).
func playArena(tb testing.TB, n int, link netsim.Link, seconds float64, drift int64) []*netRun {
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
	defer cancel()
	cfg := netplay.Config{Addr: "127.0.0.1:0", Game: "demo", Version: "bench", Players: n, Seed: 8}
	linkOf := func(i int) *netsim.Link { // each peer's sends go through the link, its own seed
		l := link
		l.Seed = uint64(i + 1)
		return &l
	}
	hc := cfg
	hc.Link = linkOf(0)
	lobby, err := netplay.Listen(hc)
	if err != nil {
		tb.Fatal(err)
	}
	runs := make([]*netRun, n)
	var wg sync.WaitGroup
	for i := range n {
		runs[i] = &netRun{}
		wg.Add(1)
		go func() {
			defer wg.Done()
			r := runs[i]
			c := cfg
			c.Link = linkOf(i)
			var s *netplay.Session
			if i == 0 {
				s, r.err = lobby.Wait(ctx)
			} else {
				c.Addr = lobby.Addr().String()
				s, r.err = netplay.Join(ctx, c)
			}
			if r.err != nil {
				return
			}
			opts := &Options{Seed: 8, Seconds: seconds, Autopilot: true, Player: s.Player()}
			if drift > 0 && i == 1 {
				opts.drift.Tick, opts.drift.Damping = drift, 0.61
			}
			var frameStart time.Time
			var ticked, resim bool
			began := time.Now()
			r.err = engine.Run(&Arena{opts: opts}, &engine.Options{Session: s, Headless: &engine.Headless{Realtime: true},
				StopAt: time.Duration(seconds * float64(time.Second)),
				OnEvent: []engine.EventHook{func(l *engine.Loop, ev engine.Event) {
					switch {
					case ev.Kind == engine.Input:
						frameStart, ticked, resim = time.Now(), false, false
					case ev.Kind == engine.Update && l.Session().Resimulating():
						resim = true
					case ev.Kind == engine.Update:
						ticked = true
					}
				}},
				AfterFrame: []engine.EventHook{func(*engine.Loop, engine.Event) {
					switch d := time.Since(frameStart); {
					case resim:
						r.rolled = append(r.rolled, d)
					case ticked:
						r.frames = append(r.frames, d)
					}
				}},
				OnFinish: []engine.FinishHook{func(l *engine.Loop) { r.stats = l.Session().Stats() }}})
			r.wall = time.Since(began)
			s.Close()
			r.net = s.Stats()
			var de *netplay.DesyncError
			if errors.As(r.err, &de) {
				r.found, r.took = de.Found-de.Tick, de.Took
			}
		}()
	}
	wg.Wait()
	return runs
}

// quantile returns the q-quantile of ds (sorted in place).
func quantile(ds []time.Duration, q float64) time.Duration {
	if len(ds) == 0 {
		return 0
	}
	slices.Sort(ds)
	return ds[min(len(ds)-1, int(q*float64(len(ds))))]
}

// BenchmarkNetplay plays the Arena with two peers, each by its autopilot,
// in one process over UDP on 127.0.0.1 through the link conditioner at
// round trips of 0, 50, 100 and 150 ms (half each way), 2% loss and 10 ms of
// jitter (none at 0 ms), 20 game seconds in real time, and reports per
// peer: rollbacks a second, ticks simulated again per tick, frames a
// second that waited for a remote input, bytes sent a second, and the p99
// of a frame's work (from its Input event to the end of its Render) over
// the frames that ran ticks without a rollback and over those with one
// (the rollbacks' re-simulated ticks in them). Real time: it takes 20 s a
// round trip, and -short skips it.
func BenchmarkNetplay(b *testing.B) {
	if testing.Short() {
		b.Skip("20 s of real time a round trip")
	}
	for _, rtt := range []time.Duration{0, 50 * time.Millisecond, 100 * time.Millisecond, 150 * time.Millisecond} {
		b.Run(fmt.Sprintf("rtt=%v", rtt), func(b *testing.B) {
			link := netsim.Link{Latency: rtt / 2, Loss: 0.02}
			if rtt > 0 {
				link.Jitter = 10 * time.Millisecond
			}
			var runs []*netRun
			for range b.N {
				runs = playArena(b, 2, link, 20, 0)
			}
			var rollbacks, resim, waited, bytes int64
			var wall time.Duration
			var plain, rolled []time.Duration
			for i, r := range runs {
				if r.err != nil {
					b.Fatalf("peer %d: %v", i+1, r.err)
				}
				rollbacks += r.stats.Rollbacks
				resim += r.stats.Resimulated
				waited += r.stats.Waited
				bytes += r.net.BytesSent
				wall += r.wall
				plain, rolled = append(plain, r.frames...), append(rolled, r.rolled...)
			}
			secs, ticks := wall.Seconds(), float64(len(runs))*20*60
			b.ReportMetric(float64(rollbacks)/secs, "rollbacks/s")
			b.ReportMetric(float64(resim)/ticks, "resim-ticks/tick")
			b.ReportMetric(float64(waited)/secs, "waited-frames/s")
			b.ReportMetric(float64(bytes)/secs, "B/s/player")
			b.ReportMetric(float64(quantile(plain, 0.99).Microseconds())/1000, "frame-p99-ms")
			b.ReportMetric(float64(quantile(rolled, 0.99).Microseconds())/1000, "rollback-frame-p99-ms")
		})
	}
}

// BenchmarkDesyncFound plays the Arena with two peers as BenchmarkNetplay
// does, the second with another damping of its floor from tick 120, and
// reports how many ticks after the first tick whose states differ each
// peer found it, and how long the two reports' exchange took after that
// (the run holds its ticks meanwhile), the longest of the two peers'.
func BenchmarkDesyncFound(b *testing.B) {
	if testing.Short() {
		b.Skip("seconds of real time a round trip")
	}
	for _, rtt := range []time.Duration{0, 50 * time.Millisecond, 150 * time.Millisecond} {
		b.Run(fmt.Sprintf("rtt=%v", rtt), func(b *testing.B) {
			link := netsim.Link{Latency: rtt / 2, Loss: 0.02}
			if rtt > 0 {
				link.Jitter = 10 * time.Millisecond
			}
			var found int64
			var took time.Duration
			for range b.N {
				for i, r := range playArena(b, 2, link, 10, 120) {
					var de *netplay.DesyncError
					if !errors.As(r.err, &de) || de.System == "" {
						b.Fatalf("peer %d: %v, want a desync naming its system", i+1, r.err)
					}
					found, took = max(found, r.found), max(took, r.took)
				}
			}
			b.ReportMetric(float64(found), "ticks-to-found")
			b.ReportMetric(float64(took.Microseconds())/1000, "ms-to-report")
		})
	}
}
