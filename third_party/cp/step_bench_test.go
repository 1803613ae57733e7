package cp_test

import (
	"fmt"
	"testing"
)

// BenchmarkStep steps Chipmunk's SimpleTerrainCircles scene (bodies=N
// awake balls, settled 5 s) through this copy and through upstream cp, for
// their time and their garbage (-benchmem: allocations per step; divide by
// N for per ball).
func BenchmarkStep(b *testing.B) {
	for _, n := range []int{1000, 2000} {
		for _, lib := range []struct {
			name string
			make func() physicsLib
		}{{"copy", func() physicsLib { return &forkLib{} }}, {"upstream", func() physicsLib { return &upstreamLib{} }}} {
			b.Run(fmt.Sprintf("bodies=%d/%s", n, lib.name), func(b *testing.B) {
				l := lib.make()
				terrainCircles(l, n, false)
				for range 300 {
					l.step(1.0 / 60)
				}
				b.ReportAllocs()
				for b.Loop() {
					l.step(1.0 / 60)
				}
			})
		}
	}
}
