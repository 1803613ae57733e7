package cp_test

import (
	"fmt"
	"slices"
	"testing"
	"time"
)

// BenchmarkBroadLockstep steps Chipmunk's SimpleTerrainCircles scene
// (balls=N awake balls, settled 2 s) with each of cp's spatial indexes (the
// BBTree, cp's default, and the spatial hash: cells of a ball's diameter,
// 10 cells per ball) through this copy and through upstream cp in turns,
// as BenchmarkStepLockstep does, and reports each one's median time per
// step and their ratio: the broad phase's share of a step grows with N.
func BenchmarkBroadLockstep(b *testing.B) {
	for _, index := range []string{"tree", "hash"} {
		for _, n := range []int{100, 1000, 5000} {
			b.Run(fmt.Sprintf("index=%s/balls=%d", index, n), func(b *testing.B) {
				build := func(l physicsLib) { terrainCircles(l, n, false) }
				if index == "hash" {
					build = hashed(build, n)
				}
				libs := [2]physicsLib{&forkLib{}, &upstreamLib{}}
				for _, l := range libs {
					build(l)
					for range 120 {
						l.step(1.0 / 60)
					}
				}
				var spent [2][]time.Duration
				i := 0
				for b.Loop() {
					for k := range 2 {
						j := (i + k) % 2
						start := time.Now()
						libs[j].step(1.0 / 60)
						spent[j] = append(spent[j], time.Since(start))
					}
					i++
				}
				// Medians: a step that another process delayed moves
				// them little, where it moves a sum much.
				med := func(d []time.Duration) float64 {
					slices.Sort(d)
					return float64(d[len(d)/2])
				}
				copyNs, upNs := med(spent[0]), med(spent[1])
				b.ReportMetric(copyNs, "copy-ns/step")
				b.ReportMetric(upNs, "upstream-ns/step")
				b.ReportMetric(copyNs/upNs, "copy/upstream")
			})
		}
	}
}
