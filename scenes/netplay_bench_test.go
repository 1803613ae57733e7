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
	"github.com/fixedstep/fixedstep/engine/netsim"
)

// netRun is what one peer of a networked Arena measured.
type netRun struct {
	err    error
	stats  engine.SessionStats
	net    netplay.Stats
	frames []time.Duration // each frame's work: from its Input event to the end of its Render
	ticks  int64           // first-group ticks run
	wall   time.Duration
	found  int64 // a desync's: ticks from it to when it was found
}

// playArena plays the Arena headless in real time with n players in one
// process over UDP on 127.0.0.1, each peer's packets through link, for
// seconds of game time; drift, when positive, changes the second player's
// floor damping at that tick (a desync).
func playArena(tb testing.TB, n int, link netsim.Link, seconds float64, drift int64) []*netRun {
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
	defer cancel()
	cfg := netplay.Config{Addr: "127.0.0.1:0", Game: "demo", Version: "bench", Players: n, Seed: 8}
	lobby, err := netplay.Listen(cfg)
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
			l := link
			l.Seed = uint64(i + 1)
			c.Link = &l
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
				opts.drift.tick, opts.drift.damping = drift, 0.61
			}
			var frameStart time.Time
			began := time.Now()
			r.err = engine.Run(&Arena{opts: opts}, &engine.Options{Session: s, Headless: &engine.Headless{Realtime: true},
				StopAt: time.Duration(seconds * float64(time.Second)),
				OnEvent: func(_ *engine.Loop, ev engine.Event) {
					if ev.Kind == engine.Input {
						frameStart = time.Now()
					}
				},
				AfterFrame: func(*engine.Loop, engine.Event) { r.frames = append(r.frames, time.Since(frameStart)) },
				OnFinish: func(l *engine.Loop) {
					r.stats, r.ticks = l.SessionStats(), l.Ticks(0)
				}})
			r.wall = time.Since(began)
			s.Close()
			r.net = s.Stats()
			var de *netplay.DesyncError
			if errors.As(r.err, &de) {
				r.found = de.Found - de.Tick
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
// peer: rollbacks a second, ticks simulated again per frame, bytes sent a
// second, and the p50 and p99 of a frame's work (from its Input event to
// the end of its Render: the ticks, the rollbacks' re-simulated ticks, the
// checksums). Real time: it takes 20 s a round trip, and -short skips it.
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
			var rollbacks, resim, frames, bytes int64
			var wall time.Duration
			var work []time.Duration
			for i, r := range runs {
				if r.err != nil {
					b.Fatalf("peer %d: %v", i+1, r.err)
				}
				rollbacks += r.stats.Rollbacks
				resim += r.stats.Resimulated
				frames += int64(len(r.frames))
				bytes += r.net.BytesSent
				wall += r.wall
				work = append(work, r.frames...)
			}
			secs := wall.Seconds()
			b.ReportMetric(float64(rollbacks)/secs, "rollbacks/s")
			b.ReportMetric(float64(resim)/float64(frames), "resim-ticks/frame")
			b.ReportMetric(float64(bytes)/secs, "B/s/player")
			b.ReportMetric(float64(quantile(work, 0.5).Microseconds())/1000, "frame-p50-ms")
			b.ReportMetric(float64(quantile(work, 0.99).Microseconds())/1000, "frame-p99-ms")
		})
	}
}

// BenchmarkDesyncFound plays the Arena with two peers as BenchmarkNetplay
// does, the second with another damping of its floor from tick 120, and
// reports how many ticks after the first tick whose states differ each
// peer found it (the report then takes the round trip of its exchange).
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
			for range b.N {
				for i, r := range playArena(b, 2, link, 10, 120) {
					var de *netplay.DesyncError
					if !errors.As(r.err, &de) || de.System == "" {
						b.Fatalf("peer %d: %v, want a desync naming its system", i+1, r.err)
					}
					found = max(found, r.found)
				}
			}
			b.ReportMetric(float64(found), "ticks-to-found")
		})
	}
}
