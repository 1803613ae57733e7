package path_test

import (
	"math"
	"testing"

	"github.com/fixedstep/fixedstep/systems/path"
	"github.com/fixedstep/fixedstep/third_party/cp"
)

// checkField fails t unless following f's steps from every cell of g that
// can reach the goal gets there, every step allowed (no wall entered but
// the goal, no corner cut) and lowering the distance by its cost; cells
// that cannot reach it have no step, and neither has the goal. It returns
// how many cells reach the goal.
func checkField(t testing.TB, g *path.Grid, f *path.Field, goal path.Cell) int {
	t.Helper()
	reach := 0
	for y := range g.Height() {
		for x := range g.Width() {
			c := path.Cell{X: x, Y: y}
			d := f.Dist(c)
			next, ok := f.Next(c)
			switch {
			case c == goal:
				if d != 0 || ok {
					t.Fatalf("the goal %v: distance %d, step %v %v", c, d, next, ok)
				}
				reach++
				continue
			case g.Blocked(c):
				if d != path.Unreached {
					t.Fatalf("blocked %v has distance %d", c, d)
				}
				if want := bruteStep(g, f, c, goal); next != want {
					t.Fatalf("blocked %v steps to %v (%v), want %v", c, next, ok, want)
				}
				continue
			case d == path.Unreached:
				if ok {
					t.Fatalf("%v cannot reach the goal but steps to %v", c, next)
				}
				continue
			}
			reach++
			if want := bruteStep(g, f, c, goal); next != want {
				t.Fatalf("%v steps to %v, want %v", c, next, want)
			}
			// Walk it.
			walk := []path.Cell{c}
			for at := c; at != goal; {
				n, ok := f.Next(at)
				if !ok {
					t.Fatalf("from %v the walk stops at %v, short of %v", c, at, goal)
				}
				cost := uint32(path.StraightCost)
				if n.X != at.X && n.Y != at.Y {
					cost = path.DiagonalCost
				}
				if f.Dist(n)+cost != f.Dist(at) {
					t.Fatalf("the step %v (%d) to %v (%d) costs %d", at, f.Dist(at), n, f.Dist(n), cost)
				}
				walk = append(walk, n)
				at = n
			}
			if cost := checkPath(t, g, walk, c); cost != uint64(d) {
				t.Fatalf("the walk from %v costs %d, its distance is %d", c, cost, d)
			}
		}
	}
	return reach
}

// bruteStep is the step the Field's doc gives cell c: to the neighbour it
// may step to with the least distance plus cost, then the least distance,
// then the first in the order +x, -x, +y, -y, +x+y, -x+y, +x-y, -x-y.
func bruteStep(g *path.Grid, f *path.Field, c, goal path.Cell) path.Cell {
	best, bestCost, bestDist := c, uint64(math.MaxUint64), uint32(path.Unreached)
	for _, d := range [8][2]int{{1, 0}, {-1, 0}, {0, 1}, {0, -1}, {1, 1}, {-1, 1}, {1, -1}, {-1, -1}} {
		n := path.Cell{X: c.X + d[0], Y: c.Y + d[1]}
		if !g.In(n) || g.Blocked(n) && n != goal || f.Dist(n) == path.Unreached {
			continue
		}
		cost := uint64(path.StraightCost)
		if d[0] != 0 && d[1] != 0 {
			if g.Blocked(path.Cell{X: n.X, Y: c.Y}) || g.Blocked(path.Cell{X: c.X, Y: n.Y}) {
				continue
			}
			cost = path.DiagonalCost
		}
		if tc := uint64(f.Dist(n)) + cost; tc < bestCost || tc == bestCost && f.Dist(n) < bestDist {
			best, bestCost, bestDist = n, tc, f.Dist(n)
		}
	}
	return best
}

// On a maze and on random grids, every cell that can reach the goal is led
// there by the field, along a cheapest way.
func TestFieldLeadsEveryCellToTheGoal(t *testing.T) {
	var f path.Field
	g := mazeGrid(5)
	goal := path.Cell{X: 49, Y: 49}
	f.Build(g, goal)
	if n, free := checkField(t, g, &f, goal), g.Width()*g.Height()-g.Count(); n != free {
		t.Errorf("%d cells reach the goal, of %d free in a perfect maze", n, free)
	}
	reach := 0
	for seed := range uint64(10) {
		g := randomGrid(60, 40, 0.35, seed)
		goal := path.Cell{X: int(seed) * 5, Y: int(seed) * 3}
		f.Build(g, goal)
		reach += checkField(t, g, &f, goal)
	}
	if reach < 5000 {
		t.Errorf("%d cells of 10 random grids reach their goals", reach)
	}
}

// Directions: unit vectors along the step, zero at the goal.
func TestFieldDir(t *testing.T) {
	g, at := parseGrid(
		"A...",
		"....",
		"...G",
	)
	var f path.Field
	f.Build(g, at['G'])
	if d := f.Dir(at['A']); d != (cp.Vector{X: math.Sqrt2 / 2, Y: math.Sqrt2 / 2}) {
		t.Errorf("Dir at A = %v", d)
	}
	if d := f.Dir(path.Cell{X: 3, Y: 0}); d != (cp.Vector{Y: 1}) {
		t.Errorf("Dir above the goal = %v", d)
	}
	if d := f.Dir(at['G']); d != (cp.Vector{}) {
		t.Errorf("Dir at the goal = %v", d)
	}
	if d := f.Dir(path.Cell{X: -1}); d != (cp.Vector{}) {
		t.Errorf("Dir outside = %v", d)
	}
}

// A body standing in a blocked cell (touching a wall) steps out to a free
// one on the way; a blocked goal is reached; a goal outside the grid leaves
// every cell unreached.
func TestFieldFromBlockedCells(t *testing.T) {
	g, at := parseGrid(
		"....#....",
		".A..#..G.",
		"....#....",
		".........",
	)
	g.Set(at['A'], true)
	g.Set(at['G'], true)
	var f path.Field
	f.Build(g, at['G'])
	checkField(t, g, &f, at['G'])
	n, ok := f.Next(at['A'])
	if !ok || g.Blocked(n) || f.Dist(n) == path.Unreached {
		t.Fatalf("from the blocked cell A: %v %v", n, ok)
	}
	if d := f.Dist(path.Cell{X: 6, Y: 1}); d != path.StraightCost {
		t.Errorf("beside the blocked goal: distance %d", d)
	}
	f.Build(g, path.Cell{X: 20, Y: 1})
	if checkField(t, g, &f, path.Cell{X: 20, Y: 1}) != 0 {
		t.Errorf("a goal outside the grid is reached")
	}
}

// Update builds only when the goal or the grid changed.
func TestFieldUpdate(t *testing.T) {
	g := randomGrid(20, 20, 0.2, 1)
	var f path.Field
	goal := path.Cell{X: 3, Y: 3}
	g.Set(goal, false)
	if !f.Update(g, goal) || f.Update(g, goal) {
		t.Fatal("Update built an empty field not once, or a built one again")
	}
	if !f.Update(g, path.Cell{X: 4, Y: 3}) {
		t.Fatal("Update kept the field of another goal")
	}
	g.Set(path.Cell{X: 10, Y: 10}, !g.Blocked(path.Cell{X: 10, Y: 10}))
	if !f.Update(g, path.Cell{X: 4, Y: 3}) || f.Goal() != (path.Cell{X: 4, Y: 3}) || f.Grid() != g {
		t.Fatal("Update kept the field of a grid that changed")
	}
	g2 := randomGrid(20, 20, 0.2, 1)
	if !f.Update(g2, path.Cell{X: 4, Y: 3}) {
		t.Fatal("Update kept the field of another grid")
	}
	var empty path.Field
	if d := empty.Dist(goal); d != path.Unreached {
		t.Errorf("the zero field: distance %d", d)
	}
	if _, ok := empty.Next(goal); ok {
		t.Errorf("the zero field has a step")
	}
}

// A warm field builds without allocating.
func TestFieldAllocatesNothing(t *testing.T) {
	g := randomGrid(100, 100, 0.3, 7)
	var f path.Field
	f.Build(g, path.Cell{X: 50, Y: 50})
	allocs := testing.AllocsPerRun(10, func() {
		f.Build(g, path.Cell{X: 10, Y: 90})
		f.Update(g, path.Cell{X: 60, Y: 20})
	})
	if allocs != 0 {
		t.Errorf("%v allocations", allocs)
	}
}

// BenchmarkField builds the flow field of a 100 x 100 grid, a maze and 30%
// random obstacles, towards its middle.
func BenchmarkField(b *testing.B) {
	for _, bc := range []struct {
		name string
		g    *path.Grid
	}{
		{"maze100", mazeGrid(1)},
		{"random100", randomGrid(100, 100, 0.3, 7)},
		{"open100", randomGrid(100, 100, 0, 0)},
	} {
		b.Run(bc.name, func(b *testing.B) {
			goal := path.Cell{X: 49, Y: 49}
			var f path.Field
			f.Build(bc.g, goal)
			b.ReportAllocs()
			for b.Loop() {
				f.Build(bc.g, goal)
			}
		})
	}
}
