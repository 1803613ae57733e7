package scenes

import (
	"slices"
	"testing"
	"time"

	"github.com/fixedstep/fixedstep/engine"
	"github.com/fixedstep/fixedstep/systems/stage"
)

// BenchmarkStateBytes writes the state of a demo scene as bytes and reads
// it back into the scene (core.Stage.AppendState, ReadState) at a tick of
// its game: the Arena at 10 s (the autopilot playing), the Stress scene
// with 1,000 balls 2 s in and with 5,000 balls 5 s in, once all are poured
// (awake, falling into the pile). An op is
// one write and one read; beside it, in the same run, the scene's median
// tick (every system, the physics step most of it), so that
// append/tick and read/tick are ratios to a tick. B/state is the state's
// bytes, B/file the state file a save holds (zstd-compressed, with its
// header: Recording.AppendState).
func BenchmarkStateBytes(b *testing.B) {
	for _, c := range []struct {
		name  string
		at    int64
		scene func(*Options) (engine.Scene, func() *stage.Stage)
		opts  Options
	}{
		{"Arena", 600, func(o *Options) (engine.Scene, func() *stage.Stage) {
			a := &Arena{opts: o}
			return a, func() *stage.Stage { return a.st }
		}, Options{Seed: 3, Autopilot: true, Undying: true, Seconds: 30}},
		{"Stress/balls=1000", 120, func(o *Options) (engine.Scene, func() *stage.Stage) {
			s := &Stress{opts: o}
			return s, func() *stage.Stage { return s.st }
		}, Options{Seed: 3, Bodies: 1000, Seconds: 10}},
		{"Stress/balls=5000", 300, func(o *Options) (engine.Scene, func() *stage.Stage) {
			s := &Stress{opts: o}
			return s, func() *stage.Stage { return s.st }
		}, Options{Seed: 3, Bodies: 5000, Seconds: 10}},
	} {
		b.Run(c.name, func(b *testing.B) {
			opts := c.opts
			scene, stageOf := c.scene(&opts)
			var ticks []time.Duration
			var tickStart time.Time
			before := func(_ *engine.Loop, ev engine.Event) {
				if ev.Kind == engine.Update && ev.Group == 0 {
					tickStart = time.Now()
				}
			}
			var err error
			after := func(loop *engine.Loop, ev engine.Event) {
				if ev.Group != 0 {
					return
				}
				if ev.Tick < c.at {
					if ev.Tick > c.at-120 {
						ticks = append(ticks, time.Since(tickStart))
					}
					return
				}
				loop.Stop()
				st := stageOf()
				var buf []byte
				var app, read time.Duration
				for b.Loop() {
					t0 := time.Now()
					if buf, err = st.AppendState(buf[:0]); err != nil {
						return
					}
					t1 := time.Now()
					if err = st.ReadState(buf); err != nil {
						return
					}
					app, read = app+t1.Sub(t0), read+time.Since(t1)
				}
				file, ferr := loop.Recording().AppendState(nil)
				if err = ferr; err != nil {
					return
				}
				slices.Sort(ticks)
				tick := float64(ticks[len(ticks)/2])
				b.ReportMetric(float64(len(buf)), "B/state")
				b.ReportMetric(float64(len(file)), "B/file")
				b.ReportMetric(float64(app)/float64(b.N)/tick, "append/tick")
				b.ReportMetric(float64(read)/float64(b.N)/tick, "read/tick")
				b.ReportMetric(tick/1e6, "ms/tick")
				bodies, _ := st.Physics.Bodies()
				b.ReportMetric(float64(bodies), "bodies")
			}
			if rerr := engine.Run(scene, &engine.Options{Headless: &engine.Headless{},
				OnEvent: []engine.EventHook{before}, AfterUpdate: []engine.EventHook{after}}); rerr != nil || err != nil {
				b.Fatal(rerr, err)
			}
		})
	}
}
