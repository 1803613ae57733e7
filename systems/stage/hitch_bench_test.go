package stage_test

import (
	"fmt"
	"image/color"
	"slices"
	"testing"
	"time"

	"github.com/fixedstep/fixedstep/components"
	"github.com/fixedstep/fixedstep/engine"
	"github.com/fixedstep/fixedstep/systems/stage"
	"github.com/fixedstep/fixedstep/third_party/donburi"
	"github.com/fixedstep/fixedstep/third_party/donburi/filter"
)

// BenchmarkChecksumHitch is what a state checksum every second costs the
// tick it falls in: a stage with 10,000 and 50,000 sprite entities that
// drift every tick (a cheap tick), run headless for 20 s of game time,
// recorded with no checksum (engine.NoChecksums: a window run that records
// nothing to a file) and with one every 60 ticks (what such a run took
// before). It reports the tick's p50, p99 and max in milliseconds: the
// checksum shows in the p99 (one tick in 60) and the max.
func BenchmarkChecksumHitch(b *testing.B) {
	if testing.Short() {
		b.Skip("a section of its own in BENCHMARKS.md: not under -short (make bench-full runs it)")
	}
	for _, n := range []int{10_000, 50_000} {
		for _, every := range []int{engine.NoChecksums, 60} {
			name := "checksum=none"
			if every != engine.NoChecksums {
				name = fmt.Sprintf("checksum=every-%d", every)
			}
			b.Run(fmt.Sprintf("entities=%d/%s", n, name), func(b *testing.B) {
				var ticks []float64
				for b.Loop() {
					ticks = append(ticks, hitchRun(b, n, every)...)
				}
				slices.Sort(ticks)
				at := func(q float64) float64 { return ticks[int(q*float64(len(ticks)-1))] }
				b.ReportMetric(at(0.5), "tick-p50-ms")
				b.ReportMetric(at(0.99), "tick-p99-ms")
				b.ReportMetric(ticks[len(ticks)-1], "tick-max-ms")
			})
		}
	}
}

// hitchRun runs the scene once and returns each tick's time in ms, from
// its Update event to the next event (the checksum is taken in between).
func hitchRun(b *testing.B, n, every int) []float64 {
	var ticks []float64
	var start time.Time
	timing := false
	scene := engine.NewScene("Hitch", func(loop *engine.Loop) (engine.Scene, error) {
		st, err := stage.New(loop, stage.Options{NoDevKeys: true})
		if err != nil {
			return nil, err
		}
		defer st.Release()
		sp := st.Rect(4, 4, color.White)
		for i := range n {
			st.SpawnSprite(float64(i%640), float64(i/640), sp)
		}
		q := donburi.NewQuery(filter.Contains(components.TransformC))
		st.Sched.AddUpdate(0, "drift", func(w donburi.World, ev engine.Event) {
			for e := range q.Iter(w) {
				tr := components.TransformC.Get(e)
				p := tr.Cur
				p.X += 0.5
				tr.Set(p)
			}
		})
		return st.Run()
	})
	onEvent := func(loop *engine.Loop, ev engine.Event) {
		if timing {
			ticks = append(ticks, float64(time.Since(start).Microseconds())/1000)
			timing = false
		}
		if ev.Kind == engine.Update && ev.Tick > 60 {
			start, timing = time.Now(), true
		}
	}
	err := engine.Run(scene, &engine.Options{Headless: &engine.Headless{}, OnEvent: []engine.EventHook{onEvent}, StopAt: 20 * time.Second,
		Record: &engine.InputLog{ChecksumEvery: every}})
	if err != nil {
		b.Fatal(err)
	}
	return ticks
}
