package cp

import (
	"fmt"
	"math/rand/v2"
	"testing"
)

// BenchmarkBroadPhase measures the broad phase alone: a pile of balls=N
// awake balls in a bin (settled 2 s) whose dynamic index, the BBTree or
// the spatial hash (cells of a ball's diameter, 10 cells per ball), finds
// its colliding pairs again and again with the bodies still, reporting
// them to a callback that only counts them (the narrow phase, arbiters and
// solver, which a step adds, are left out).
func BenchmarkBroadPhase(b *testing.B) {
	for _, index := range []string{"tree", "hash"} {
		for _, n := range []int{100, 1000, 5000} {
			b.Run(fmt.Sprintf("index=%s/balls=%d", index, n), func(b *testing.B) {
				space := ballPile(n, index == "hash")
				for range 120 {
					space.Step(1.0 / 60)
				}
				pairs := 0
				count := func(obj any, other *Shape, collisionId uint32, data any) uint32 {
					pairs++
					return collisionId
				}
				for b.Loop() {
					space.dynamicShapes.class.ReindexQuery(count, nil)
				}
				b.ReportMetric(float64(pairs)/float64(b.N), "pairs/op")
			})
		}
	}
}

// ballPile is n balls of radius 5 dropped in rows into a bin as wide as
// a pile of them 20 deep.
func ballPile(n int, hash bool) *Space {
	s := NewSpace()
	s.SetGravity(Vector{Y: -100})
	if hash {
		s.UseSpatialHash(10, 10*n)
	}
	cols := max(n/20, 10)
	w := float64(cols*10 + 10)
	for _, seg := range [][2]Vector{{{0, 0}, {w, 0}}, {{0, 0}, {0, 1e4}}, {{w, 0}, {w, 1e4}}} {
		s.AddShape(NewSegment(s.StaticBody, seg[0], seg[1], 1)).SetFriction(1)
	}
	rng := rand.New(rand.NewPCG(1, 0))
	for i := range n {
		body := s.AddBody(NewBody(1, MomentForCircle(1, 0, 5, Vector{})))
		body.SetPosition(Vector{X: float64(10+i%cols*10) + rng.Float64(), Y: float64(10 + i/cols*12)})
		s.AddShape(NewCircle(body, 5, Vector{})).SetFriction(0.9)
	}
	return s
}
