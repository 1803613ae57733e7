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

// recordedFrame returns a function that runs one frame of a recorded run:
// one 60 Hz tick of BenchmarkFrame's ten no-op systems, its input recorded
// and a state checksum (a small hand-written one) recorded every tick,
// into rec.
func recordedFrame(b *testing.B, rec *engine.InputLog) func() {
	noop := func(donburi.World, engine.Event) {}
	s := engine.NewScheduler(donburi.NewWorld(), engine.Group{Name: "physics", Hz: 60})
	for i := range 10 {
		if i < 7 {
			s.AddUpdate(0, "update", noop)
		} else {
			s.AddRender(i, "draw", noop)
		}
	}
	var x, v uint64 = 1, 3
	s.AddUpdate(0, "move", func(_ donburi.World, ev engine.Event) { x, v = x+v, v^uint64(ev.Tick) })
	h := engine.Headless{FPS: 60}
	loop, err := engine.NewHeadlessLoop(engine.Config{}, &h, &engine.Options{Record: rec})
	if err != nil {
		b.Fatal(err)
	}
	loop.Recording().SetChecksum(func() uint64 { return x*0x9e3779b97f4a7c15 ^ v })
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
		b.Fatal("the loop stopped")
	}
}

// BenchmarkRunChecksumOverhead is what keeping the run checksum (every
// tick's state checksum chained: InputLog.RunChecksum) costs a recorded
// run: batches of 256 frames of one tick each of a run whose recording
// chains every checksum, and of the same run recorded without the chain
// (the recording as it was before it), alternating which goes first, each
// batch timed. It reports the medians per tick and the median of the
// per-pair ratios, minus one, in percent. The run is the smallest there
// is (ten no-op systems, a checksum of two words), so that the chain's
// cost shows: in a game, whose state checksum alone takes microseconds, it
// is a smaller share.
func BenchmarkRunChecksumOverhead(b *testing.B) {
	chained := recordedFrame(b, &engine.InputLog{})
	plain := recordedFrame(b, engine.UnchainedLog())
	const batch = 256
	timeBatch := func(frame func(), into *[]float64) {
		t := time.Now()
		for range batch {
			frame()
		}
		*into = append(*into, float64(time.Since(t))/batch)
	}
	for range 4 { // warm up both: their first frames run no tick
		timeBatch(chained, new([]float64))
		timeBatch(plain, new([]float64))
	}
	var chainNs, plainNs []float64
	i := 0
	for b.Loop() {
		if i++; i%2 == 0 {
			timeBatch(chained, &chainNs)
			timeBatch(plain, &plainNs)
		} else {
			timeBatch(plain, &plainNs)
			timeBatch(chained, &chainNs)
		}
	}
	ratios := make([]float64, len(chainNs))
	for i := range chainNs {
		ratios[i] = chainNs[i] / plainNs[i]
	}
	b.ReportMetric(median(chainNs), "engine-ns/tick")
	b.ReportMetric(median(plainNs), "raw-ns/tick")
	b.ReportMetric((median(ratios)-1)*100, "overhead-%")
}
