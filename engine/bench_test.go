package engine_test

import (
	"testing"

	"github.com/yohamta/donburi"
	"github.com/yohamta/donburi/ecs"

	"github.com/fixedstep/fixedstep/engine"
)

// BenchmarkFrame measures one frame (input, one tick of each of two 60 Hz
// groups, render) with ten no-op systems, seven update and three render,
// through the loop and the scheduler, beside donburi's own ecs.ECS calling
// Update and Draw with the same ten systems.
func BenchmarkFrame(b *testing.B) {
	b.Run("engine", func(b *testing.B) { benchmarkFrame(b, true) })
	b.Run("engine-untimed", func(b *testing.B) { benchmarkFrame(b, false) })
	b.Run("donburi-ecs", func(b *testing.B) {
		type screen struct{}
		e := ecs.NewECS(donburi.NewWorld())
		for range 7 {
			e.AddSystem(func(*ecs.ECS) {})
		}
		for i := range 3 {
			e.AddRenderer(ecs.LayerID(i), func(*ecs.ECS, *screen) {})
		}
		arg := &screen{}
		b.ReportAllocs()
		for b.Loop() {
			e.Update()
			e.Draw(arg)
		}
	})
}

func benchmarkFrame(b *testing.B, timed bool) {
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
	b.ReportAllocs()
	for b.Loop() {
		for loop.Next() {
			ev := loop.Event()
			s.Handle(ev)
			if ev.Kind == engine.Render {
				break
			}
		}
	}
	b.ReportMetric(float64(loop.Ticks(0)+loop.Ticks(1))/float64(loop.Stats().Frames), "ticks/frame")
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
