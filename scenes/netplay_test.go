package scenes

import (
	"context"
	"errors"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/fixedstep/fixedstep/engine"
	"github.com/fixedstep/fixedstep/engine/netplay"
)

// Two players' Arenas in one process over UDP on 127.0.0.1, one of them
// with another damping of the floor from tick 100 on (a changed
// constant): both runs end at the first tick whose states differ, each
// with both reports, naming the physics system in the tick after the
// change and the bodies (cp integrates positions before it damps
// velocities: in that tick only the velocities differ).
func TestDesyncNamesSystemAndComponents(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	cfg := netplay.Config{Addr: "127.0.0.1:0", Game: "demo", Version: "test", Players: 2, Seed: 4}
	lobby, err := netplay.Listen(cfg)
	if err != nil {
		t.Fatal(err)
	}
	errs := make([]error, 2)
	var wg sync.WaitGroup
	for i := range 2 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			var s *netplay.Session
			var err error
			if i == 0 {
				s, err = lobby.Wait(ctx)
			} else {
				c := cfg
				c.Addr = lobby.Addr().String()
				s, err = netplay.Join(ctx, c)
			}
			if err != nil {
				errs[i] = err
				return
			}
			opts := &Options{Seed: 4, Seconds: 20, Autopilot: true, Player: s.Player()}
			if i == 1 {
				opts.drift.Tick, opts.drift.Damping = 100, 0.61
			}
			errs[i] = engine.Run(&Arena{opts: opts}, &engine.Options{Session: s, Headless: &engine.Headless{Realtime: true},
				StopAt: 20 * time.Second})
			s.Close()
		}()
	}
	wg.Wait()
	for i, err := range errs {
		var de *netplay.DesyncError
		if !errors.As(err, &de) {
			t.Fatalf("player %d: %v, want a desync", i+1, err)
		}
		if de.Tick != 101 || de.System != "physics" || de.SystemTick != 101 || de.Group != "physics" ||
			!slices.Equal(de.Components, []string{"Body"}) {
			t.Fatalf("player %d: %v; want the physics system in tick 101, and Body", i+1, err)
		}
		if !strings.Contains(string(de.Report.Dump), "Transform") || !strings.Contains(string(de.OtherReport.Dump), "Transform") {
			t.Fatalf("player %d: the reports hold no worlds", i+1)
		}
		t.Logf("player %d: found %d ticks after: %v", i+1, de.Found-de.Tick, err)
	}
}
