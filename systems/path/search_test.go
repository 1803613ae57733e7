package path_test

import (
	"testing"

	"github.com/fixedstep/fixedstep/systems/path"
)

// A path round a wall: the cheapest, no corner cut, every cell free.
func TestFindGoesRoundAWall(t *testing.T) {
	g, at := parseGrid(
		"..........",
		"....#.....",
		".A..#..B..",
		"....#.....",
		"..........",
	)
	var s path.Search
	p, st := s.Find(g, at['A'], at['B'], nil)
	if st != path.Reached || p[len(p)-1] != at['B'] {
		t.Fatalf("status %v, path %v", st, p)
	}
	// Round the wall's end: two diagonals up to row 0, two steps along,
	// two diagonals down: 4 x 14 + 2 x 10.
	if cost := checkPath(t, g, p, at['A']); cost != 76 {
		marks := map[path.Cell]byte{}
		for _, c := range p {
			marks[c] = '*'
		}
		t.Errorf("cost %d, want 76:\n%s", cost, picture(g, marks))
	}
}

// Two walls meeting at a corner cannot be passed diagonally.
func TestFindCutsNoCorner(t *testing.T) {
	g, at := parseGrid(
		"A#..",
		"#...",
		"...B",
	)
	var s path.Search
	if p, st := s.Find(g, at['A'], at['B'], nil); st != path.Unreachable || len(p) != 1 || p[0] != at['A'] {
		t.Fatalf("through a corner: status %v, path %v", st, p)
	}
	g, at = parseGrid(
		"A#..",
		"....",
		"...B",
	)
	p, st := s.Find(g, at['A'], at['B'], nil)
	if st != path.Reached || p[1] != (path.Cell{X: 0, Y: 1}) {
		t.Fatalf("past a corner: status %v, path %v", st, p)
	}
	checkPath(t, g, p, at['A'])
}

// The ends may be blocked (a body touching a wall); the cells between may
// not.
func TestFindFromAndToBlockedCells(t *testing.T) {
	g, at := parseGrid(
		"A....",
		".###.",
		".#B#.",
		".#.#.",
		".....",
	)
	g.Set(at['A'], true)
	g.Set(at['B'], true)
	var s path.Search
	p, st := s.Find(g, at['A'], at['B'], nil)
	if st != path.Reached || p[len(p)-1] != at['B'] {
		t.Fatalf("status %v, path %v", st, p)
	}
	if cost := checkPath(t, g, p, at['A']); cost != 80 {
		t.Errorf("cost %d, path %v", cost, p)
	}
}

// An unreachable goal gives the path to the reachable cell nearest it;
// one outside the grid too; a start outside the grid, no path.
func TestFindUnreachableAndOutside(t *testing.T) {
	g, at := parseGrid(
		"A...#...",
		"....#.B.",
		"....#...",
	)
	var s path.Search
	p, st := s.Find(g, at['A'], at['B'], nil)
	if st != path.Unreachable || p[len(p)-1] != (path.Cell{X: 3, Y: 1}) {
		t.Fatalf("status %v, path %v", st, p)
	}
	checkPath(t, g, p, at['A'])
	p, st = s.Find(g, at['A'], path.Cell{X: -5, Y: 2}, p)
	if st != path.Unreachable || p[len(p)-1] != (path.Cell{X: 0, Y: 2}) {
		t.Fatalf("to outside: status %v, path %v", st, p)
	}
	p, st = s.Find(g, path.Cell{X: 8, Y: 0}, at['A'], p)
	if st != path.Outside || len(p) != 0 {
		t.Fatalf("from outside: status %v, path %v", st, p)
	}
	if p, st = s.Find(g, at['B'], at['B'], p); st != path.Reached || len(p) != 1 || p[0] != at['B'] {
		t.Fatalf("to itself: status %v, path %v", st, p)
	}
}

// MaxExpanded bounds the search: the path leads to the expanded cell
// nearest the goal, and no more cells are expanded.
func TestFindBounded(t *testing.T) {
	g := mazeGrid(1)
	from, to := path.Cell{X: 1, Y: 1}, path.Cell{X: 97, Y: 97}
	s := path.Search{MaxExpanded: 100}
	p, st := s.Find(g, from, to, nil)
	if st != path.Bounded || s.Expanded != 100 {
		t.Fatalf("status %v, expanded %d", st, s.Expanded)
	}
	checkPath(t, g, p, from)
	s.MaxExpanded = 0
	p, st = s.Find(g, from, to, p)
	if st != path.Reached || s.Expanded <= 100 {
		t.Fatalf("unbounded: status %v, expanded %d", st, s.Expanded)
	}
	checkPath(t, g, p, from)
}

// On random grids every path is valid and as cheap as the flow field says
// the cheapest way is: A* and Dijkstra agree on every pair tried.
func TestFindIsCheapest(t *testing.T) {
	var s path.Search
	var f path.Field
	var p []path.Cell
	reached := 0
	for seed := range uint64(20) {
		g := randomGrid(40, 30, 0.3, seed)
		for k := range 20 {
			from := path.Cell{X: (k*7 + int(seed)) % 40, Y: (k * 5) % 30}
			to := path.Cell{X: (k*13 + 3) % 40, Y: (k*11 + int(seed)) % 30}
			f.Build(g, to)
			var st path.Status
			p, st = s.Find(g, from, to, p)
			cost := checkPath(t, g, p, from)
			d := f.Dist(from)
			switch {
			case st == path.Reached:
				reached++
				if p[len(p)-1] != to || uint64(d) != cost && !g.Blocked(from) {
					t.Fatalf("seed %d, %v to %v: cost %d, the field says %d", seed, from, to, cost, d)
				}
			case st == path.Unreachable:
				if d != path.Unreached && !g.Blocked(from) {
					t.Fatalf("seed %d, %v to %v: unreachable, the field says %d", seed, from, to, d)
				}
			default:
				t.Fatalf("seed %d: status %v", seed, st)
			}
		}
	}
	if reached < 200 {
		t.Errorf("only %d of 400 searches reached their goal", reached)
	}
}

// The same grid and cells give the same path, whatever was searched
// before, on every run: the paths of a set of searches hash to a value
// fixed here.
func TestFindIsDeterministic(t *testing.T) {
	g := randomGrid(100, 100, 0.3, 7)
	pairs := make([][2]path.Cell, 50)
	for i := range pairs {
		pairs[i] = [2]path.Cell{{X: i * 2 % 100, Y: i * 37 % 100}, {X: 99 - i*3%100, Y: i * 53 % 100}}
	}
	run := func(s *path.Search, order []int) uint64 {
		h, sum := newCellHash()
		paths := make([][]path.Cell, len(pairs))
		for _, i := range order {
			p, st := s.Find(g, pairs[i][0], pairs[i][1], nil)
			paths[i] = append(p, path.Cell{X: int(st)})
		}
		for _, p := range paths {
			h.add(p...)
		}
		return sum()
	}
	forward := make([]int, len(pairs))
	backward := make([]int, len(pairs))
	for i := range pairs {
		forward[i], backward[i] = i, len(pairs)-1-i
	}
	var warm path.Search
	a := run(new(path.Search), forward)
	b := run(&warm, backward)
	c := run(&warm, forward)
	const want = 0x771dbccd88ade247
	if a != b || a != c {
		t.Fatalf("paths differ with the order of the searches: %x %x %x", a, b, c)
	}
	if a != want {
		t.Errorf("paths hash to %#x, want %#x", a, uint64(want))
	}
}

// A warm search allocates nothing.
func TestFindAllocatesNothing(t *testing.T) {
	g := mazeGrid(3)
	var s path.Search
	p, _ := s.Find(g, path.Cell{X: 1, Y: 1}, path.Cell{X: 97, Y: 97}, nil)
	allocs := testing.AllocsPerRun(20, func() {
		p, _ = s.Find(g, path.Cell{X: 1, Y: 1}, path.Cell{X: 97, Y: 97}, p)
		p, _ = s.Find(g, path.Cell{X: 97, Y: 1}, path.Cell{X: 1, Y: 97}, p)
	})
	if allocs != 0 {
		t.Errorf("%v allocations a search", allocs/2)
	}
}

// BenchmarkFind is a path across a 100 x 100 grid: a perfect maze (about
// every cell expanded), and 30% random obstacles, corner to corner.
func BenchmarkFind(b *testing.B) {
	for _, bc := range []struct {
		name     string
		g        *path.Grid
		from, to path.Cell
	}{
		{"maze100", mazeGrid(1), path.Cell{X: 1, Y: 1}, path.Cell{X: 97, Y: 97}},
		{"random100", randomGrid(100, 100, 0.3, 7), path.Cell{X: 0, Y: 0}, path.Cell{X: 99, Y: 99}},
		{"open100", randomGrid(100, 100, 0, 0), path.Cell{X: 0, Y: 0}, path.Cell{X: 99, Y: 99}},
	} {
		b.Run(bc.name, func(b *testing.B) {
			bc.g.Set(bc.from, false)
			bc.g.Set(bc.to, false)
			var s path.Search
			p, st := s.Find(bc.g, bc.from, bc.to, nil)
			if st != path.Reached {
				b.Fatalf("status %v", st)
			}
			b.ReportAllocs()
			for b.Loop() {
				p, _ = s.Find(bc.g, bc.from, bc.to, p)
			}
			b.ReportMetric(float64(s.Expanded), "expanded")
			b.ReportMetric(float64(len(p)), "cells")
		})
	}
}
