package cp_test

import (
	"fmt"
	"slices"
	"testing"
	"time"

	"github.com/fixedstep/fixedstep/third_party/cp"
)

// BenchmarkSnapshot takes a snapshot of Chipmunk's SimpleTerrainCircles
// scene (bodies=N, settled for 5 s), steps it once and restores it, each
// timed, every iteration: the world is the same at every step, so the
// three are measured on the same state in turn. It reports each one's
// median time, the snapshot's and restore's over the step's (the goal:
// less than one step together), and the snapshot's bytes.
func BenchmarkSnapshot(b *testing.B) {
	for _, n := range []int{100, 1000, 5000} {
		b.Run(fmt.Sprintf("bodies=%d", n), func(b *testing.B) {
			l := &forkLib{}
			terrainCircles(l, n, false)
			for range 300 {
				l.step(1.0 / 60)
			}
			var snap cp.Snapshot
			if err := l.s.Snapshot(&snap); err != nil {
				b.Fatal(err)
			}
			var snapNs, stepNs, restoreNs []float64
			b.ReportAllocs()
			for b.Loop() {
				t0 := time.Now()
				l.s.Snapshot(&snap)
				t1 := time.Now()
				l.s.Step(1.0 / 60)
				t2 := time.Now()
				if err := l.s.Restore(&snap); err != nil {
					b.Fatal(err)
				}
				t3 := time.Now()
				snapNs = append(snapNs, float64(t1.Sub(t0)))
				stepNs = append(stepNs, float64(t2.Sub(t1)))
				restoreNs = append(restoreNs, float64(t3.Sub(t2)))
			}
			step := median(stepNs)
			b.ReportMetric(median(snapNs), "ns/snapshot")
			b.ReportMetric(median(restoreNs), "ns/restore")
			b.ReportMetric(step, "ns/step")
			b.ReportMetric((median(snapNs)+median(restoreNs))/step, "snapshot+restore/step")
			b.ReportMetric(float64(snap.Bytes()), "bytes/snapshot")
		})
	}
}

func median(xs []float64) float64 {
	s := slices.Clone(xs)
	slices.Sort(s)
	return s[len(s)/2]
}
