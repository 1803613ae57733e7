package e2e

import (
	"context"
	"flag"
	"fmt"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/fixedstep/fixedstep/engine/online/client"
	"github.com/fixedstep/fixedstep/server/internal/nakamatest"
	"github.com/fixedstep/fixedstep/server/match"
)

var catchUpMinutes = flag.String("catchup.minutes", "1", "BenchmarkCatchUp: how far into a match players come back, in minutes (a list: 1,10)")

// BenchmarkCatchUp measures what a player who comes back to a match under
// way waits before it plays: a match of three of the Arena (their bots
// playing, the demo's autopilot) on a real server; players 2 and 3 drop out
// 2 s before the minute given (-catchup.minutes, a list), and come back
// half a second before it (the server's state then SnapshotEvery less that
// old: about the most ticks since to simulate), player 2 from the server's state of a recent tick and the ticks since
// (client.Join), player 3 from every tick of the match (client.JoinTicks).
// It reports, for each, the time from the join to its simulation's reaching
// the tick the match was at when it came back (catch-up-ms), and the ticks
// it simulated to get there. Each minute's match is played in real time:
// 10 minutes take 10.
func BenchmarkCatchUp(b *testing.B) {
	for _, m := range strings.Split(*catchUpMinutes, ",") {
		minutes, err := strconv.Atoi(strings.TrimSpace(m))
		if err != nil || minutes < 1 {
			b.Fatalf("-catchup.minutes %q", *catchUpMinutes)
		}
		b.Run(fmt.Sprintf("minutes=%d", minutes), func(b *testing.B) {
			for b.Loop() {
				state, ticks := catchUp(b, minutes)
				for _, c := range []struct {
					name string
					r    cameBack
				}{{"state", state}, {"ticks", ticks}} {
					b.ReportMetric(float64(c.r.wait)/1e6, c.name+"-catch-up-ms")
					b.ReportMetric(float64(c.r.simulated), c.name+"-ticks-simulated")
					b.Logf("%s at minute %d: joined after tick %d, began from tick %d (%d bytes of state), caught up in %v",
						c.name, minutes, c.r.res.Start.Resumed, c.r.res.From, c.r.res.StateBytes, c.r.wait)
				}
			}
		})
	}
}

// cameBack is a player who came back: how long it took to catch up, and
// the ticks it simulated to.
type cameBack struct {
	res       client.Result
	wait      time.Duration
	simulated int64
}

// catchUp plays BenchmarkCatchUp's match once.
func catchUp(b *testing.B, minutes int) (state, ticks cameBack) {
	srv := nakamatest.Start(b)
	at := int64(minutes*60*hz - hz/2) // the state kept then is of SnapshotEvery less half a second before
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	var clients []*client.Client
	for i := range 3 {
		c, err := client.Dial(ctx, srv.URL, client.Options{ServerKey: srv.ServerKey, Device: fmt.Sprintf("e2e-device-catchup-%d", i)})
		if err != nil {
			b.Fatal(err)
		}
		defer c.Close()
		clients = append(clients, c)
	}
	id, err := clients[0].Create(ctx, game, match.Params{Players: 3, Seconds: minutes*60 + 10, Seed: 42, Settings: map[string]string{"undying": "true", "length": fmt.Sprint(minutes*60 + 10)}})
	if err != nil {
		b.Fatal(err)
	}
	var wg sync.WaitGroup
	var back [2]cameBack
	var backErr [2]error
	come := func(i int) {
		defer wg.Done()
		c, err := client.Dial(ctx, srv.URL, client.Options{ServerKey: srv.ServerKey, Device: fmt.Sprintf("e2e-device-catchup-%d", i+1)})
		if backErr[i] = err; err != nil {
			return
		}
		defer c.Close()
		join := c.Join
		if i == 1 {
			join = c.JoinTicks
		}
		began := time.Now()
		m, err := join(ctx, game, id)
		if backErr[i] = err; err != nil {
			return
		}
		done := false
		back[i].res, backErr[i] = m.Play(ctx, client.Play{OnTick: func(tick int64) {
			if !done && tick >= at {
				done, back[i].wait, back[i].simulated = true, time.Since(began), tick
			}
		}})
	}
	for i, c := range clients {
		m, err := c.Join(ctx, game, id)
		if err != nil {
			b.Fatal(err)
		}
		wg.Add(1)
		go func() {
			defer wg.Done()
			var opts client.Play
			switch i {
			case 0:
				opts.OnTick = func(tick int64) {
					if tick == at {
						wg.Add(2)
						go come(0)
						go come(1)
					}
				}
			default:
				opts = dropOut(c, at-2*hz)
			}
			m.Play(ctx, opts)
		}()
	}
	wg.Wait()
	for i, err := range backErr {
		if err != nil {
			b.Fatalf("player %d coming back: %v", i+2, err)
		}
	}
	back[0].simulated -= back[0].res.From
	return back[0], back[1]
}
