package cp_test

import (
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
// less than one step together), and the snapshot's bytes. The scene
// indexes its shapes in cp's default tree, or, for index=hash, in a
// spatial hash of 10 cells a body (cells of 20 units; the balls' radius
// is 5), as the engine's Stress scene does.
func BenchmarkSnapshot(b *testing.B) {
	cases := []struct {
		name string
		n    int
		hash bool
	}{{"bodies=100", 100, false}, {"bodies=1000", 1000, false}, {"bodies=5000", 5000, false},
		{"bodies=1000/index=hash", 1000, true}}
	for _, c := range cases {
		n := c.n
		b.Run(c.name, func(b *testing.B) {
			l := &forkLib{}
			terrainCircles(l, n, false)
			if c.hash {
				l.s.UseSpatialHash(20, 10*n)
			}
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
