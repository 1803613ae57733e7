package cp

import (
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"testing"
	"time"
)

// BenchmarkContactSolver times the contact solver alone, the part of Step
// from the cached impulses to the last iteration, on a pile of n awake
// balls settled in a bowl (with the bounding box tree: the index does not
// change the solver's work), both ways in turns on the same arbiters: the
// dense slices (contactSolver.solve) and the arbiters' own methods
// (Arbiter.ApplyCachedImpulse and ApplyImpulse, the way a space with a
// constraint class of the game's own solves). It reports each one's time
// per solve and dense/arbiters, the ratio of the medians of each one's
// solves. The solves go on adding impulses to the step's bodies, as more
// iterations would.
func BenchmarkContactSolver(b *testing.B) {
	for _, n := range []int{100, 1000, 5000} {
		b.Run(fmt.Sprintf("balls=%d", n), func(b *testing.B) {
			space := bowlPile(n)
			for range 300 {
				space.Step(1.0 / 60)
			}
			const dt = 1.0 / 60
			var took [2][]time.Duration
			i := 0
			for b.Loop() {
				for k := range 2 {
					j := (i + k) % 2
					start := time.Now()
					if j == 0 {
						space.solver.solve(space, dt, 1)
					} else {
						for _, arb := range space.arbiters {
							arb.ApplyCachedImpulse(1)
						}
						for range space.Iterations {
							for _, arb := range space.arbiters {
								arb.ApplyImpulse()
							}
						}
					}
					took[j] = append(took[j], time.Since(start))
				}
				i++
			}
			med := func(ds []time.Duration) float64 {
				ds = slices.Clone(ds)
				slices.Sort(ds)
				return float64(ds[len(ds)/2])
			}
			b.ReportMetric(med(took[0]), "dense-ns/solve")
			b.ReportMetric(med(took[1]), "arbiters-ns/solve")
			b.ReportMetric(med(took[0])/med(took[1]), "dense/arbiters")
			b.ReportMetric(float64(len(space.arbiters)), "arbiters")
		})
	}
}

// bowlPile is SimpleTerrainCircles in outline (as the package's external
// tests build it): n balls of radius 5 dropped from a disc into a bowl of
// segments, widened beyond 1,000 balls so that it holds them.
func bowlPile(n int) *Space {
	space := NewSpace()
	space.SetGravity(Vector{Y: -100})
	space.SetCollisionSlop(0.5)
	scale := math.Sqrt(max(float64(n)/1000, 1))
	const sides = 24
	for i := range sides {
		a0, a1 := math.Pi+float64(math.Pi*float64(i))/sides, math.Pi+float64(math.Pi*float64(i+1))/sides
		r := float64(260 * scale)
		seg := space.AddShape(NewSegment(space.StaticBody, Vector{float64(r * math.Cos(a0)), float64(r * math.Sin(a0))}, Vector{float64(r * math.Cos(a1)), float64(r * math.Sin(a1))}, 0))
		seg.SetFriction(1)
	}
	rng := rand.New(rand.NewPCG(1, 0))
	for range n {
		a, d := float64(rng.Float64()*2*math.Pi), float64(math.Sqrt(rng.Float64())*180*scale)
		body := space.AddBody(NewBody(1, MomentForCircle(1, 0, 5, Vector{})))
		body.SetPosition(Vector{float64(math.Cos(a) * d), float64(math.Sin(a) * d)})
		space.AddShape(NewCircle(body, 5, Vector{})).SetFriction(0.9)
	}
	return space
}

// maxZero and clamp give the bits of max(x, 0) and Clamp for every
// argument: signed zeros, infinities, subnormals and NaNs (of either sign,
// with payloads) among them.
func TestMaxZeroAndClamp(t *testing.T) {
	values := []float64{0, math.Copysign(0, -1), 1, -1, 0.5, -0.5, 5e-324, -5e-324, math.MaxFloat64, -math.MaxFloat64,
		math.Inf(1), math.Inf(-1), math.NaN(), math.Float64frombits(0xfff8000000000001), math.Float64frombits(0x7ff0000000000001)}
	rng := rand.New(rand.NewPCG(1, 2))
	for range 20 {
		values = append(values, float64(rng.NormFloat64()*10))
	}
	for _, x := range values {
		if got, want := maxZero(x), max(x, 0); math.Float64bits(got) != math.Float64bits(want) {
			t.Errorf("maxZero(%v) = %#x, max(x, 0) = %#x", x, math.Float64bits(got), math.Float64bits(want))
		}
		for _, lo := range values {
			for _, hi := range values {
				if got, want := clamp(x, lo, hi), Clamp(x, lo, hi); math.Float64bits(got) != math.Float64bits(want) {
					t.Errorf("clamp(%v, %v, %v) = %#x, Clamp %#x", x, lo, hi, math.Float64bits(got), math.Float64bits(want))
				}
			}
		}
	}
}

// A space read from bytes keeps the reading space's contact solver, so
// that a snapshot taken before its first step holds one: a restore of it
// would otherwise leave the space without, and every step after a
// rollback would make the solver's slices again.
func TestReadKeepsTheSolver(t *testing.T) {
	space := bowlPile(50)
	for range 30 {
		space.Step(1.0 / 60)
	}
	b, err := (&SpaceWriter{}).Append(nil, space)
	if err != nil {
		t.Fatal(err)
	}
	read := NewSpace()
	solver := read.solver
	if _, err := (&SpaceReader{}).Read(b, read); err != nil {
		t.Fatal(err)
	}
	if read.solver == nil || read.solver != solver {
		t.Fatalf("the space read has solver %p, the reading space had %p", read.solver, solver)
	}
}
