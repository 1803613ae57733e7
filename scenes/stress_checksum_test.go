package scenes

import (
	"testing"

	"github.com/fixedstep/fixedstep/engine"
)

// BenchmarkStressChecksum is the state checksum the loop takes after every
// tick of a session (the scene's stage.Stage hasher), of the Stress scene's
// pile of rollback.balls awake balls, settled: what each of a rollback's
// ticks pays for it (BenchmarkRollbackAt). ns/ball is its time over the
// balls.
func BenchmarkStressChecksum(b *testing.B) {
	n := *rollbackBalls
	cfg := hashOnly(n)
	s := &Stress{opts: &Options{Seed: 1, Bodies: n, Physics: &cfg}}
	settled := int64((n+stressPour-1)/stressPour) + bodymarkSettle
	var sum uint64
	done := false
	onEvent := func(loop *engine.Loop, ev engine.Event) {
		if ev.Kind != engine.Render || loop.Ticks(0) < settled || done {
			return
		}
		done = true
		b.ReportAllocs()
		for b.Loop() {
			sum ^= s.st.State.Sum(s.st.World)
		}
		loop.Stop()
	}
	err := engine.Run(s, &engine.Options{
		Headless: &engine.Headless{FPS: 60, Frames: settled + 10},
		OnEvent:  []engine.EventHook{onEvent},
	})
	if err != nil {
		b.Fatal(err)
	}
	if !done {
		b.Fatalf("the Stress scene of %d balls ended before it settled", n)
	}
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*n), "ns/ball")
	_ = sum
}
