package engine_test

import (
	"slices"
	"testing"
	"time"

	"github.com/fixedstep/fixedstep/engine"
	"github.com/fixedstep/fixedstep/third_party/donburi"
	"github.com/fixedstep/fixedstep/third_party/donburi/ecs"
)

// BenchmarkFrame measures one frame (input, one tick of each of two 60 Hz
// groups, render) with ten no-op systems, seven update and three render,
// through the loop and the scheduler, beside donburi's own ecs.ECS calling
// Update and Draw with the same ten systems.
func BenchmarkFrame(b *testing.B) {
	b.Run("engine", func(b *testing.B) { benchmarkFrame(b, true) })
	b.Run("engine-untimed", func(b *testing.B) { benchmarkFrame(b, false) })
	b.Run("donburi-ecs", func(b *testing.B) {
		frame := donburiFrame()
		b.ReportAllocs()
		for b.Loop() {
			frame()
		}
	})
}

func benchmarkFrame(b *testing.B, timed bool) {
	frame, loop := engineFrame(b, timed)
	b.ReportAllocs()
	for b.Loop() {
		frame()
	}
	b.ReportMetric(float64(loop.Ticks(0)+loop.Ticks(1))/float64(loop.Stats().Frames), "ticks/frame")
}

// engineFrame returns a function that runs one frame of BenchmarkFrame's
// engine case, and its loop.
func engineFrame(b *testing.B, timed bool) (func(), *engine.Loop) {
	noop := func(donburi.World, engine.Event) {}
	s := engine.NewScheduler(donburi.NewWorld(), engine.Group{Name: "physics", Hz: 60}, engine.Group{Name: "ai", Hz: 60})
	for range 4 {
		s.AddUpdate(0, "physics", noop)
	}
	for i := range 3 {
		s.AddUpdate(1, "ai", noop)
		s.AddRender(i, "draw", noop)
	}
	s.SetTiming(timed)
	h := engine.Headless{FPS: 60}
	loop, err := engine.NewHeadlessLoop(engine.Config{}, &h, nil)
	if err != nil {
		b.Fatal(err)
	}
	if err := loop.Start(s.Groups()...); err != nil {
		b.Fatal(err)
	}
	return func() {
		for loop.Next() {
			ev := loop.Event()
			s.Handle(ev)
			if ev.Kind == engine.Render {
				return
			}
		}
	}, loop
}

// donburiFrame returns a function that runs one frame of BenchmarkFrame's
// donburi-ecs case.
func donburiFrame() func() {
	type screen struct{}
	e := ecs.NewECS(donburi.NewWorld())
	for range 7 {
		e.AddSystem(func(*ecs.ECS) {})
	}
	for i := range 3 {
		e.AddRenderer(ecs.LayerID(i), func(*ecs.ECS, *screen) {})
	}
	arg := &screen{}
	return func() {
		e.Update()
		e.Draw(arg)
	}
}

// BenchmarkFrameOverhead compares BenchmarkFrame's engine frame (systems
// timed, and untimed) with donburi's ecs.ECS frame moment by moment: batches
// of 256 frames of each, alternating which goes first, each batch timed; it
// reports the medians per frame and the median of the per-pair ratios, minus
// one, in percent. This 2-core VM drifts by tens of percent between
// separately timed benchmarks; this ratio does not.
func BenchmarkFrameOverhead(b *testing.B) {
	for _, timed := range []bool{true, false} {
		name := "timed"
		if !timed {
			name = "untimed"
		}
		b.Run(name, func(b *testing.B) {
			engineRun, _ := engineFrame(b, timed)
			donburiRun := donburiFrame()
			const batch = 256
			timeBatch := func(frame func(), into *[]float64) {
				t := time.Now()
				for range batch {
					frame()
				}
				*into = append(*into, float64(time.Since(t))/batch)
			}
			var engineNs, rawNs []float64
			i := 0
			for b.Loop() {
				if i++; i%2 == 0 {
					timeBatch(engineRun, &engineNs)
					timeBatch(donburiRun, &rawNs)
				} else {
					timeBatch(donburiRun, &rawNs)
					timeBatch(engineRun, &engineNs)
				}
			}
			ratios := make([]float64, len(engineNs))
			for i := range engineNs {
				ratios[i] = engineNs[i] / rawNs[i]
			}
			b.ReportMetric(median(engineNs), "engine-ns/frame")
			b.ReportMetric(median(rawNs), "raw-ns/frame")
			b.ReportMetric((median(ratios)-1)*100, "overhead-%")
		})
	}
}

// median returns the median of xs, reordering them.
func median(xs []float64) float64 {
	slices.Sort(xs)
	return xs[len(xs)/2]
}

// BenchmarkSchedulerUpdate is the scheduler alone: one group of ten no-op
// systems, each timed.
func BenchmarkSchedulerUpdate(b *testing.B) {
	s := engine.NewScheduler(donburi.NewWorld())
	for range 10 {
		s.AddUpdate(0, "noop", func(donburi.World, engine.Event) {})
	}
	ev := engine.Event{Kind: engine.Update}
	b.ReportAllocs()
	for b.Loop() {
		s.Update(ev)
	}
}
