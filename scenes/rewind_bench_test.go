package scenes

import (
	"fmt"
	"testing"
	"time"

	"github.com/fixedstep/fixedstep/engine"
)

// BenchmarkArenaRewind is what a step back costs in the Arena (headless,
// the autopilot playing): the game pauses at tick N and steps back one tick,
// which re-runs the Arena from its start to tick N-1. It reports the time of
// that re-run and the ticks it re-simulates a second; a step back is instant
// (under a 60 Hz frame) while N-1 ticks take less than 16.7 ms at that rate.
func BenchmarkArenaRewind(b *testing.B) {
	for _, at := range []int64{600, 3600} {
		b.Run(fmt.Sprintf("at-tick-%d", at), func(b *testing.B) {
			var total time.Duration
			for b.Loop() {
				opts := &Options{Seed: 3, Autopilot: true, Seconds: 120}
				var asked time.Time
				var took time.Duration
				rewound := false
				hook := func(loop *engine.Loop, ev engine.Event) {
					switch {
					case !rewound && ev.Kind == engine.Update && ev.Group == 0 && ev.Tick == at:
						loop.SetPaused(true)
					case !rewound && ev.Kind == engine.Input && loop.Paused():
						rewound = true
						asked = time.Now()
						if err := loop.Rewind(1); err != nil {
							b.Fatal(err)
						}
					case rewound && ev.Kind == engine.Render && !loop.Rewinding() && took == 0:
						took = time.Since(asked)
						loop.Stop()
					}
				}
				err := engine.Run(&Arena{opts: opts}, &engine.Options{Headless: &engine.Headless{}, OnEvent: hook,
					Record: &engine.InputLog{}, Restart: func() (engine.Scene, error) { return &Arena{opts: opts}, nil }})
				if err != nil || took == 0 {
					b.Fatalf("%v, the rewind took %v", err, took)
				}
				total += took
			}
			per := total / time.Duration(b.N)
			b.ReportMetric(float64(per.Microseconds())/1000, "ms/rewind")
			b.ReportMetric(float64(at-1)/per.Seconds(), "ticks/s")
		})
	}
}
