package cp_test

import (
	"fmt"
	"testing"
	"time"
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

// BenchmarkStepLockstep steps one scene through this copy and through
// upstream cp in turns (which one goes first alternates), one step each
// per iteration, and reports each one's time per step and their ratio:
// both see the same machine load, so the ratio holds while the absolute
// times wander. The scenes are SimpleTerrainCircles at 100, 1,000 and
// 5,000 awake balls, settled 5 s, with cp's default index (a bounding box
// tree) and with its spatial hash (hash: cells of two radii, ten cells a
// ball, as the engine's Stress scene sets it), and PyramidStack.
func BenchmarkStepLockstep(b *testing.B) {
	type scene struct {
		name  string
		build func(physicsLib)
	}
	var scenes []scene
	for _, n := range []int{100, 1000, 5000} {
		scenes = append(scenes,
			scene{fmt.Sprintf("circles=%d", n), func(l physicsLib) { terrainCircles(l, n, false) }},
			scene{fmt.Sprintf("circles=%d/hash", n), func(l physicsLib) {
				terrainCircles(l, n, false)
				useSpatialHash(l, 10, 10*max(n, 1000))
			}})
	}
	scenes = append(scenes, scene{"pyramid=105", func(l physicsLib) { pyramidStack(l, 14) }})
	for _, sc := range scenes {
		b.Run(sc.name, func(b *testing.B) {
			libs := [2]physicsLib{&forkLib{}, &upstreamLib{}}
			for _, l := range libs {
				sc.build(l)
				for range 300 {
					l.step(1.0 / 60)
				}
			}
			var spent [2]time.Duration
			i := 0
			for b.Loop() {
				for k := range 2 {
					j := (i + k) % 2
					start := time.Now()
					libs[j].step(1.0 / 60)
					spent[j] += time.Since(start)
				}
				i++
			}
			b.ReportMetric(float64(spent[0].Nanoseconds())/float64(i), "copy-ns/step")
			b.ReportMetric(float64(spent[1].Nanoseconds())/float64(i), "upstream-ns/step")
			b.ReportMetric(float64(spent[0])/float64(spent[1]), "copy/upstream")
		})
	}
}

// useSpatialHash moves l's shapes into a spatial hash of count cells of
// size dim.
func useSpatialHash(l physicsLib, dim float64, count int) {
	switch l := l.(type) {
	case *forkLib:
		l.s.UseSpatialHash(dim, count)
	case *upstreamLib:
		l.s.UseSpatialHash(dim, count)
	default:
		panic(fmt.Sprintf("useSpatialHash: %T", l))
	}
}
