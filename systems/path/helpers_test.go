package path_test

import (
	"fmt"
	"hash/fnv"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/fixedstep/fixedstep/systems/path"
	"github.com/fixedstep/fixedstep/third_party/cp"
)

// randomGrid returns a w x h grid of unit cells with each cell blocked with
// probability density, drawn from a PCG seeded by seed.
func randomGrid(w, h int, density float64, seed uint64) *path.Grid {
	g := path.NewGrid(w, h, 1, cp.Vector{})
	rng := rand.New(rand.NewPCG(seed, 1))
	for y := range h {
		for x := range w {
			if rng.Float64() < density {
				g.Set(path.Cell{X: x, Y: y}, true)
			}
		}
	}
	return g
}

// mazeGrid returns a 100 x 100 grid holding a perfect maze dug by a
// seeded depth-first search: its rooms are the cells with odd X and Y up
// to 97, and the only way between two rooms is through the maze's
// corridors. Rows and columns 98 and 99 are walls.
func mazeGrid(seed uint64) *path.Grid {
	const n = 100
	g := path.NewGrid(n, n, 1, cp.Vector{})
	for y := range n {
		for x := range n {
			g.Set(path.Cell{X: x, Y: y}, true)
		}
	}
	rng := rand.New(rand.NewPCG(seed, 2))
	const rooms = 49 // rooms 0..48 a side, at cells 1, 3, ..., 97
	seen := make([]bool, rooms*rooms)
	stack := []path.Cell{{}}
	seen[0] = true
	g.Set(path.Cell{X: 1, Y: 1}, false)
	dirs := []path.Cell{{X: 1}, {X: -1}, {Y: 1}, {Y: -1}}
	for len(stack) > 0 {
		c := stack[len(stack)-1]
		var open []path.Cell
		for _, d := range dirs {
			nx, ny := c.X+d.X, c.Y+d.Y
			if nx >= 0 && ny >= 0 && nx < rooms && ny < rooms && !seen[ny*rooms+nx] {
				open = append(open, path.Cell{X: nx, Y: ny})
			}
		}
		if len(open) == 0 {
			stack = stack[:len(stack)-1]
			continue
		}
		next := open[rng.IntN(len(open))]
		seen[next.Y*rooms+next.X] = true
		g.Set(path.Cell{X: 2*next.X + 1, Y: 2*next.Y + 1}, false)
		g.Set(path.Cell{X: c.X + next.X + 1, Y: c.Y + next.Y + 1}, false) // the wall between
		stack = append(stack, next)
	}
	return g
}

// checkPath fails t unless p is a path on g from from: each cell a step
// from the one before, no step cutting a corner, every cell strictly
// between the ends free. It returns the path's cost.
func checkPath(t testing.TB, g *path.Grid, p []path.Cell, from path.Cell) uint64 {
	t.Helper()
	if len(p) == 0 || p[0] != from {
		t.Fatalf("path %v does not start at %v", head(p), from)
	}
	cost := uint64(0)
	for i := 1; i < len(p); i++ {
		a, b := p[i-1], p[i]
		dx, dy := b.X-a.X, b.Y-a.Y
		if dx < -1 || dx > 1 || dy < -1 || dy > 1 || dx == 0 && dy == 0 {
			t.Fatalf("step %d of the path, %v to %v, is not to a neighbour", i, a, b)
		}
		if i < len(p)-1 && g.Blocked(b) {
			t.Fatalf("cell %d of the path, %v, is blocked", i, b)
		}
		if !g.In(b) {
			t.Fatalf("cell %d of the path, %v, is outside the grid", i, b)
		}
		if dx != 0 && dy != 0 {
			if g.Blocked(path.Cell{X: a.X + dx, Y: a.Y}) || g.Blocked(path.Cell{X: a.X, Y: a.Y + dy}) {
				t.Fatalf("step %d of the path, %v to %v, cuts a corner", i, a, b)
			}
			cost += path.DiagonalCost
		} else {
			cost += path.StraightCost
		}
	}
	return cost
}

func head(p []path.Cell) []path.Cell { return p[:min(len(p), 8)] }

// hashCells adds cells to a running FNV-1a hash.
type cellHash struct {
	h interface{ Write([]byte) (int, error) }
}

func newCellHash() (*cellHash, func() uint64) {
	h := fnv.New64a()
	return &cellHash{h}, h.Sum64
}

func (c *cellHash) add(cells ...path.Cell) {
	for _, x := range cells {
		fmt.Fprintf(c.h, "%d,%d;", x.X, x.Y)
	}
}

// picture draws g as text: # blocked, . free, and marks at cells.
func picture(g *path.Grid, marks map[path.Cell]byte) string {
	var b strings.Builder
	for y := range g.Height() {
		for x := range g.Width() {
			c := path.Cell{X: x, Y: y}
			switch m, ok := marks[c]; {
			case ok:
				b.WriteByte(m)
			case g.Blocked(c):
				b.WriteByte('#')
			default:
				b.WriteByte('.')
			}
		}
		b.WriteByte('\n')
	}
	return b.String()
}

// parseGrid makes a grid of unit cells from lines of # (blocked) and
// anything else (free), and returns the cells of the letters in it.
func parseGrid(rows ...string) (*path.Grid, map[byte]path.Cell) {
	g := path.NewGrid(len(rows[0]), len(rows), 1, cp.Vector{})
	at := map[byte]path.Cell{}
	for y, r := range rows {
		for x := range len(r) {
			switch c := r[x]; {
			case c == '#':
				g.Set(path.Cell{X: x, Y: y}, true)
			case c >= 'A' && c <= 'Z':
				at[c] = path.Cell{X: x, Y: y}
			}
		}
	}
	return g, at
}
