package path_test

import (
	"math"
	"math/rand/v2"
	"testing"

	"github.com/fixedstep/fixedstep/systems/path"
	"github.com/fixedstep/fixedstep/third_party/cp"
)

func TestWalkable(t *testing.T) {
	g, _ := parseGrid(
		"##########",
		"#........#",
		"#####.####",
		"#........#",
		"#.#......#",
		"##.......#",
		"##########",
	)
	v := func(x, y float64) cp.Vector { return cp.Vector{X: x, Y: y} }
	for _, tc := range []struct {
		a, b   cp.Vector
		radius float64
		want   bool
	}{
		{v(1.5, 1.5), v(8.5, 1.5), 0, true},
		{v(1.5, 1.5), v(8.5, 1.5), 0.49, true},
		{v(1.5, 1.5), v(8.5, 1.5), 0.51, false}, // the band reaches the walls
		{v(5.5, 1.5), v(5.5, 3.5), 0.4, true},   // down the gap
		{v(5.5, 1.5), v(5.5, 3.5), 0.6, false},
		{v(1.5, 1.5), v(1.5, 3.5), 0, false},  // through the wall
		{v(1.5, 3.5), v(3, 6), 0, false},      // through (2, 4)
		{v(1.5, 4.5), v(2.5, 5.5), 0, false},  // through the corner where (1, 5) and (2, 4) meet
		{v(0.5, 1.5), v(2.5, 1.5), 0, true},   // from a blocked cell: its own cell is not looked at
		{v(0.5, 0.5), v(1.5, 1.5), 0, false},  // but the cells beside the corner it leaves by are
		{v(1.5, 1.5), v(0.5, 1.5), 0, true},   // to one
		{v(1.5, 1.5), v(-0.5, 1.5), 0, false}, // out of the grid
		{v(1.5, 1.5), v(-5, 1.5), 0, false},   // far out
		{v(1.5, 1.5), v(math.NaN(), 1.5), 0, false},
		{v(1.5, 1.5), v(2.5, 1.5), -1, false},
		{v(1.5, 1.5), v(2.5, 1.5), math.Inf(1), false},
		{v(3.5, 3.5), v(3.5, 3.5), 5, true}, // no way to go
	} {
		if got := g.Walkable(tc.a, tc.b, tc.radius); got != tc.want {
			t.Errorf("Walkable(%v, %v, %v) = %v, want %v", tc.a, tc.b, tc.radius, got, tc.want)
		}
	}
}

// Walkable against points sampled along the way: when it says walkable,
// no sample of the band lies in a blocked cell (other than the ends', and
// those the body at the start overlaps); for
// a line, when no sample does, it says walkable but for a sliver missed
// between samples.
func TestWalkableAgainstSamples(t *testing.T) {
	g := randomGrid(30, 20, 0.15, 3)
	g2 := path.NewGrid(30, 20, 4, cp.Vector{X: -60, Y: 10}) // the same cells, scaled and moved
	for y := range 20 {
		for x := range 30 {
			g2.Set(path.Cell{X: x, Y: y}, g.Blocked(path.Cell{X: x, Y: y}))
		}
	}
	rng := rand.New(rand.NewPCG(9, 9))
	point := func() cp.Vector { return cp.Vector{X: float64(30 * rng.Float64()), Y: float64(20 * rng.Float64())} }
	sampledFree := func(a, b cp.Vector, radius float64) bool {
		ca, cb := g.CellAt(a), g.CellAt(b)
		d := b.Sub(a)
		l := d.Length()
		n := cp.Vector{X: -d.Y / l, Y: d.X / l}
		const along, across = 3000, 9
		for i := range along + 1 {
			p := a.Add(d.Mult(float64(i) / along))
			for j := range across {
				q := p
				if across > 1 && radius > 0 {
					q = p.Add(n.Mult(radius * (2*float64(j)/(across-1) - 1)))
				}
				if c := g.CellAt(q); c != ca && c != cb && g.Blocked(c) && !overlaps(g, c, a, radius) {
					return false
				}
			}
		}
		return true
	}
	disagree, walkable := 0, 0
	for i := range 2000 {
		a, b := point(), point()
		radius := 0.0
		if i%2 == 1 {
			radius = float64(0.8 * rng.Float64())
		}
		got := g.Walkable(a, b, radius)
		scaled := g2.Walkable(cp.Vector{X: float64(4*a.X) - 60, Y: float64(4*a.Y) + 10}, cp.Vector{X: float64(4*b.X) - 60, Y: float64(4*b.Y) + 10}, 4*radius)
		if got != scaled {
			t.Fatalf("%v to %v (%v): %v on unit cells, %v on cells of 4", a, b, radius, got, scaled)
		}
		free := sampledFree(a, b, radius)
		if got && !free {
			t.Fatalf("Walkable(%v, %v, %v) but a sample lies in a blocked cell", a, b, radius)
		}
		if got {
			walkable++
		}
		if radius == 0 && free && !got {
			disagree++
		}
	}
	if disagree > 10 || walkable < 100 {
		t.Errorf("%d lines sampled free not walkable; %d walkable of 2000", disagree, walkable)
	}
}

func TestWalkableAllocatesNothing(t *testing.T) {
	g := randomGrid(100, 100, 0.05, 1)
	allocs := testing.AllocsPerRun(100, func() {
		g.Walkable(cp.Vector{X: 1.5, Y: 2.5}, cp.Vector{X: 90.5, Y: 70.2}, 0.7)
	})
	if allocs != 0 {
		t.Errorf("%v allocations", allocs)
	}
}

// overlaps reports whether cell c of g comes less than radius from p.
func overlaps(g *path.Grid, c path.Cell, p cp.Vector, radius float64) bool {
	lo := g.Center(c).Sub(cp.Vector{X: g.Size() / 2, Y: g.Size() / 2})
	dx := max(lo.X-p.X, 0, p.X-lo.X-g.Size())
	dy := max(lo.Y-p.Y, 0, p.Y-lo.Y-g.Size())
	return math.Hypot(dx, dy) < radius
}
