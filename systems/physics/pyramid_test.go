package physics_test

import (
	"math"
	"strconv"
	"testing"

	"github.com/fixedstep/fixedstep/internal/racetest"
	"github.com/fixedstep/fixedstep/third_party/cp"
)

// pyramidScene builds Chipmunk2D's PyramidStack demo scaled to rows rows
// (rows 14 is the demo: 105 boxes): a pyramid of 30x30 boxes with rounded
// corners on a static floor, gravity -100, 30 solver iterations. Sleeping
// stays off (cp's default), so that every step solves the whole stack.
func pyramidScene(space *cp.Space, rows int, add func(body *cp.Body, shape *cp.Shape)) {
	space.Iterations = 30
	space.SetGravity(cp.Vector{X: 0, Y: -100})
	space.SetCollisionSlop(0.5)
	floor := space.AddShape(cp.NewSegment(space.StaticBody, cp.Vector{X: -2000, Y: -240}, cp.Vector{X: 2000, Y: -240}, 0))
	floor.SetElasticity(1)
	floor.SetFriction(1)
	top := -240 + 15 + float64(rows-1)*32
	for i := range rows {
		for j := 0; j <= i; j++ {
			body := cp.NewBody(1, cp.MomentForBox(1, 30, 30))
			body.SetPosition(cp.Vector{X: float64(j*32 - i*16), Y: top - float64(i*32)})
			shape := cp.NewBox(body, 30, 30, 0.5)
			shape.SetElasticity(0)
			shape.SetFriction(0.8)
			add(body, shape)
		}
	}
}

// physicsBench is a physics scene the benchmarks run through the engine and
// through raw cp: SimpleTerrainCircles_N or a box pyramid.
type physicsBench struct {
	name   string // the benchmark's sub-name: bodies=N or pyramid=N
	bodies int
	build  func(space *cp.Space, add func(body *cp.Body, shape *cp.Shape))
}

func circlesScene(n int) physicsBench {
	return physicsBench{name: "bodies=" + strconv.Itoa(n), bodies: n,
		build: func(s *cp.Space, add func(*cp.Body, *cp.Shape)) { terrainScene(s, n, 1, add) }}
}

func boxPyramid(rows int) physicsBench {
	n := rows * (rows + 1) / 2
	return physicsBench{name: "pyramid=" + strconv.Itoa(n), bodies: n,
		build: func(s *cp.Space, add func(*cp.Body, *cp.Shape)) { pyramidScene(s, rows, add) }}
}

// physicsBenches are the scenes of BenchmarkPhysics and BenchmarkPhysicsOverhead.
var physicsBenches = []physicsBench{circlesScene(100), circlesScene(1000), circlesScene(5000), boxPyramid(14), boxPyramid(45)}

// skipLarge skips a benchmark of more than 2,000 bodies under -short (make
// bench): settling 5,000 bodies takes most of a minute on a 2-core machine,
// more than the measurement; make bench-full runs them. The scenes of 1,000
// circles and of 1,035 boxes stay.
func skipLarge(b *testing.B, bodies int) {
	if testing.Short() && bodies > 2000 {
		b.Skip("more than 2,000 bodies: not under -short (make bench-full runs it)")
	}
}

// skipShort skips, under -short (make bench), a benchmark whose figures
// BENCHMARKS.md reports in a section of its own, measured by hand or by
// make bench-full.
func skipShort(b *testing.B) {
	if testing.Short() {
		b.Skip("a section of its own in BENCHMARKS.md: not under -short (make bench-full runs it)")
	}
}

// The benchmark's pyramids stand: after 10 s the top box has settled by
// less than 3 px per row (the stack's compression) and moved sideways by less
// than half a box, so the scene measured is a stack, not a heap.
func TestBoxPyramidStands(t *testing.T) {
	racetest.Long(t)
	for _, rows := range []int{14, 45} {
		space, bodies := rawSceneOf(boxPyramid(rows))
		start := bodies[0].Position()
		for range 600 {
			space.Step(1.0 / 60)
		}
		end := bodies[0].Position()
		if drop, side := start.Y-end.Y, math.Abs(end.X-start.X); drop < 0 || drop > 3*float64(rows) || side > 15 {
			t.Errorf("%d rows: the top box went from %v to %v", rows, start, end)
		}
	}
}
