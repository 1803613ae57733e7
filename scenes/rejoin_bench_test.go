package scenes

import (
	"context"
	"fmt"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/fixedstep/fixedstep/engine"
	"github.com/fixedstep/fixedstep/engine/netplay"
)

// rejoined is what one rejoin of BenchmarkRejoin measured.
type rejoined struct {
	took       time.Duration // from the rejoiner's Join to its loop running the tick the host had run as it joined
	stateBytes int           // the state it began from; 0 from the first tick
	from       int64         // the tick it began from
}

// rejoinArena plays the Arena for two in one process over UDP on
// 127.0.0.1: as fast as the peers run up to tick at, where player 2
// quits; the host keeps its seat and plays on in real time; then a new run joins in its
// place, from the host's state or (fromStart) from the first tick, and
// is timed until its loop has run the tick the host had run as it joined.
func rejoinArena(tb testing.TB, at int64, fromStart bool) rejoined {
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
	defer cancel()
	game := engine.GameInfo{Name: "demo", Version: "bench"}
	cfg := netplay.Config{Addr: "127.0.0.1:0", Game: game.Name, Version: game.Version, Players: 2, Seed: 8, Timeout: time.Second}
	hc := cfg
	hc.SeatWait = time.Minute

	lobby, err := netplay.Listen(hc)
	if err != nil {
		tb.Fatal(err)
	}
	cfg.Addr = lobby.Addr().String()
	seconds := float64(at)/60 + 30
	var hostTick atomic.Int64
	var vanished atomic.Bool
	gone := make(chan struct{})
	var res rejoined
	errs := make([]error, 3)
	play := func(i int, s *netplay.Session, stopAt int64, onTick func(t int64)) {
		opts := &Options{Seed: 8, Seconds: seconds, Autopilot: true, Player: s.Player(), Undying: true}
		eo := &engine.Options{Session: s, Game: game, FromState: s.State(), Headless: &engine.Headless{},
			StopAt: time.Duration(seconds * float64(time.Second)),
			OnEvent: []engine.EventHook{func(l *engine.Loop, ev engine.Event) {
				if ev.Kind == engine.Input && vanished.Load() && i == 0 {
					time.Sleep(time.Second / 60) // the host keeps about real time once the seat waits
				}
			}},
			AfterUpdate: []engine.EventHook{func(l *engine.Loop, ev engine.Event) {
				if ev.Group != 0 || l.Session().Resimulating() {
					return
				}
				if onTick != nil {
					onTick(ev.Tick)
				}
				if ev.Tick == stopAt {
					l.Stop()
				}
			}}}
		errs[i] = engine.Run(&Arena{opts: opts}, eo)
		if stopAt > 0 {
			s.Quit() // it leaves, saying so: the host keeps its seat
		}
		s.Close()
	}
	var wg sync.WaitGroup
	wg.Add(3)
	go func() {
		defer wg.Done()
		s, err := lobby.Wait(ctx)
		if errs[0] = err; err == nil {
			play(0, s, 0, func(t int64) { hostTick.Store(t) })
		}
	}()
	go func() {
		defer wg.Done()
		s, err := netplay.Join(ctx, cfg)
		if errs[1] = err; err == nil {
			play(1, s, at, nil)
		}
		vanished.Store(true)
		close(gone)
	}()
	go func() {
		defer wg.Done()
		<-gone
		time.Sleep(time.Second) // the host plays on, player 2's seat empty
		c := cfg
		c.FromFirstTick = fromStart
		began := time.Now()
		target := hostTick.Load()
		s, err := netplay.Join(ctx, c)
		if errs[2] = err; err != nil {
			return
		}
		if st, err := engine.ParseStateInfo(s.State()); err == nil {
			res.stateBytes, res.from = st.FileBytes, st.Tick
		}
		play(2, s, 0, func(t int64) {
			if t >= target && res.took == 0 {
				res.took = time.Since(began)
			}
		})
	}()
	wg.Wait()
	for i, err := range errs {
		if err != nil {
			tb.Fatalf("peer %d: %v", i+1, err)
		}
	}
	if res.took == 0 {
		tb.Fatal("the rejoiner never caught up with the host")
	}
	return res
}

// BenchmarkRejoin measures a player's rejoin of a netplay Arena of two, 1
// and 10 minutes into it: from its Join to its loop running the tick the
// host had run as it joined (rejoin-ms), beginning from the host's state
// (the state's bytes: state-bytes) or simulating the session from its
// first tick. Each case plays its minutes as fast as the peers run, then
// some 30 s in real time; -short skips it.
func BenchmarkRejoin(b *testing.B) {
	if testing.Short() {
		b.Skip("half a minute of real time a case")
	}
	for _, minutes := range []int64{1, 10} {
		for _, how := range []string{"state", "first-tick"} {
			b.Run(fmt.Sprintf("minutes=%d/from=%s", minutes, how), func(b *testing.B) {
				var r rejoined
				for range b.N {
					r = rejoinArena(b, minutes*3600, how == "first-tick")
				}
				b.ReportMetric(float64(r.took.Microseconds())/1000, "rejoin-ms")
				b.ReportMetric(float64(r.stateBytes), "state-bytes")
				b.ReportMetric(0, "ns/op")
			})
		}
	}
}
