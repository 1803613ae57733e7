package core

import (
	"math/rand/v2"
	"testing"

	"github.com/fixedstep/fixedstep/engine"
	"github.com/fixedstep/fixedstep/engine/input"
)

// Checking a tick-input source, around every tick it answers, allocates
// nothing: the kept values' sums, with or without the sync test's hash of
// the world.
func TestSamplerCheckAllocatesNothing(t *testing.T) {
	for _, sync := range []int{0, 4} {
		loop, err := engine.NewHeadlessLoop(engine.Config{}, &engine.Headless{}, &engine.Options{SyncTest: sync})
		if err != nil {
			t.Fatal(err)
		}
		st := New(loop, Options{})
		n, props := 3, []int{1, 2, 3}
		Keep(st, &n)
		Keep(st, rand.NewPCG(1, 2))
		KeepSlice(st, &props)
		k := &sceneState{s: st}
		src := engine.TickInputFunc(func(engine.TickInfo, *input.State) {})
		check := func() {
			k.BeforeSample()
			if err := k.AfterSample(src, engine.TickInfo{Tick: 1}); err != nil {
				t.Fatal(err)
			}
		}
		check()
		if allocs := testing.AllocsPerRun(100, check); allocs != 0 {
			t.Fatalf("synctest %d: a source's check allocates %v times", sync, allocs)
		}
	}
}
