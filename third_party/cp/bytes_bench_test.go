package cp_test

import (
	"fmt"
	"testing"
	"time"

	"github.com/fixedstep/fixedstep/third_party/cp"
)

// BenchmarkSpaceBytes writes Chipmunk's SimpleTerrainCircles scene
// (bodies=N, settled for 5 s) as bytes, reads them into a space set up the
// same way, and steps the scene once, each timed, every iteration. It
// reports each one's median time, their ratios to the step's, and the
// bytes' length.
func BenchmarkSpaceBytes(b *testing.B) {
	for _, n := range []int{100, 1000} {
		b.Run(fmt.Sprintf("bodies=%d", n), func(b *testing.B) {
			l := &forkLib{}
			terrainCircles(l, n, false)
			for range 300 {
				l.step(1.0 / 60)
			}
			into := &forkLib{}
			terrainCircles(into, n, false)
			var w cp.SpaceWriter
			var r cp.SpaceReader
			var buf []byte
			var appendNs, readNs, stepNs []float64
			b.ReportAllocs()
			for b.Loop() {
				t0 := time.Now()
				var err error
				buf, err = w.Append(buf[:0], l.s)
				if err != nil {
					b.Fatal(err)
				}
				t1 := time.Now()
				if _, err := r.Read(buf, into.s); err != nil {
					b.Fatal(err)
				}
				t2 := time.Now()
				l.s.Step(1.0 / 60)
				t3 := time.Now()
				appendNs = append(appendNs, float64(t1.Sub(t0)))
				readNs = append(readNs, float64(t2.Sub(t1)))
				stepNs = append(stepNs, float64(t3.Sub(t2)))
			}
			step := median(stepNs)
			b.ReportMetric(median(appendNs), "ns/append")
			b.ReportMetric(median(readNs), "ns/read")
			b.ReportMetric(step, "ns/step")
			b.ReportMetric(median(appendNs)/step, "append/step")
			b.ReportMetric(median(readNs)/step, "read/step")
			b.ReportMetric(float64(len(buf)), "bytes")
		})
	}
}
