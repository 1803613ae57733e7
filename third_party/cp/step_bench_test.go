package cp_test

import (
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"testing"
	"time"

	"github.com/fixedstep/fixedstep/engine/detmath"
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
// per iteration, and reports each one's time per step and their ratio
// (copy/upstream: of the total times; copy/upstream-median: the median of
// the iterations' ratios, which a burst of load on the machine moves
// less): both see the same machine load, so the ratio holds while the
// absolute times wander. The scenes are SimpleTerrainCircles at 100, 1,000
// and 5,000 awake balls, settled 5 s (see wideTerrainCircles), with cp's
// default index (a bounding box tree) and with its spatial hash (hash:
// cells of two radii, ten cells a ball, as the engine's Stress scene sets
// it), and PyramidStack.
func BenchmarkStepLockstep(b *testing.B) {
	type scene struct {
		name  string
		build func(physicsLib)
	}
	var scenes []scene
	for _, n := range []int{100, 1000, 5000} {
		scenes = append(scenes,
			scene{fmt.Sprintf("circles=%d", n), func(l physicsLib) { wideTerrainCircles(l, n) }},
			scene{fmt.Sprintf("circles=%d/hash", n), func(l physicsLib) {
				wideTerrainCircles(l, n)
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
			var ratios []float64
			i := 0
			for b.Loop() {
				var took [2]time.Duration
				for k := range 2 {
					j := (i + k) % 2
					start := time.Now()
					libs[j].step(1.0 / 60)
					took[j] = time.Since(start)
				}
				spent[0], spent[1] = spent[0]+took[0], spent[1]+took[1]
				ratios = append(ratios, float64(took[0])/float64(took[1]))
				i++
			}
			slices.Sort(ratios)
			b.ReportMetric(float64(spent[0].Nanoseconds())/float64(i), "copy-ns/step")
			b.ReportMetric(float64(spent[1].Nanoseconds())/float64(i), "upstream-ns/step")
			b.ReportMetric(float64(spent[0])/float64(spent[1]), "copy/upstream")
			b.ReportMetric(ratios[len(ratios)/2], "copy/upstream-median")
		})
	}
}

// wideTerrainCircles is terrainCircles with n balls, awake, its bowl and
// the disc the balls start in widened by sqrt(n/1000) beyond 1,000 balls:
// as many balls to the bowl's area as at 1,000, which the bowl holds (at
// 5,000 the unwidened bowl overflows, and the balls that spill fall in a
// packed stream).
func wideTerrainCircles(l physicsLib, n int) {
	if n <= 1000 {
		terrainCircles(l, n, false)
		return
	}
	scale := math.Sqrt(float64(n) / 1000)
	l.setup(-100, 0.5, 10, false)
	const sides = 24
	for i := range sides {
		a0, a1 := math.Pi+float64(math.Pi*float64(i))/sides, math.Pi+float64(math.Pi*float64(i+1))/sides
		r := float64(260 * scale)
		l.segment(float64(r*detmath.Cos(a0)), float64(r*detmath.Sin(a0)), float64(r*detmath.Cos(a1)), float64(r*detmath.Sin(a1)), 1, 0)
	}
	rng := rand.New(rand.NewPCG(1, 0))
	for range n {
		a, d := float64(rng.Float64()*2*math.Pi), float64(math.Sqrt(rng.Float64())*180*scale)
		l.circle(float64(detmath.Cos(a)*d), float64(detmath.Sin(a)*d), 5, 0.9)
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
