package path

import (
	"math"

	"github.com/fixedstep/fixedstep/third_party/cp"
)

// Unreached is the distance of a cell from which no path leads to a
// field's goal.
const Unreached = ^uint32(0)

// noStep is a cell's step in a field when it has none: the goal, and the
// cells that cannot reach it.
const noStep = -1

// Field is a flow field: for every cell of a grid, the cost of the cheapest
// way to one goal cell (the integration field, found by Dijkstra's
// algorithm over the same steps and costs as [Search]: 8-connected, no
// corner cut) and the step to take towards it. Every agent chasing the same
// target reads the one field, at the cost of a look-up each.
//
// A cell's step leads to the neighbour with the least cost of the step plus
// that neighbour's distance (for a free cell, a step along a cheapest
// path), ties going to the neighbour nearer the goal, then to the first in
// the order +x, -x, +y, -y, +x+y, -x+y, +x-y, -x-y.
// Following the steps from any cell that can reach the goal gets there,
// every step lowering the distance (TestFieldLeadsEveryCellToTheGoal). A
// blocked cell (an agent that touches a wall may stand in one) has a step
// too, out to the free neighbour that is cheapest through it, but no
// distance of its own.
//
// The field is a function of the grid's cells and the goal alone. Build
// computes it; Update computes it again only when the goal or the grid
// changed. Both allocate nothing once the field has been built on a grid of
// the same size (TestFieldAllocatesNothing). The zero value is an empty
// field: every cell Unreached. A Field is not safe for concurrent use.
type Field struct {
	grid    *Grid
	version uint64
	goal    Cell
	dist    []uint32
	step    []int8
	buckets [DiagonalCost + 1][]int32 // Dial's queue: bucket d mod 15 holds the cells at distance d
}

// Build computes the field of grid g towards cell goal. A goal outside the
// grid leaves every cell Unreached; a blocked goal is the end of every way
// as a free one is.
func (f *Field) Build(g *Grid, goal Cell) {
	f.grid, f.version, f.goal = g, g.version, goal
	n := len(g.blocked)
	if len(f.dist) != n {
		f.dist = make([]uint32, n)
		f.step = make([]int8, n)
	}
	for i := range f.dist {
		f.dist[i] = Unreached
		f.step[i] = noStep
	}
	if !g.In(goal) {
		return
	}
	gi := goal.Y*g.w + goal.X
	for b := range f.buckets {
		f.buckets[b] = f.buckets[b][:0]
	}
	f.dist[gi] = 0
	f.buckets[0] = append(f.buckets[0], int32(gi))
	queued := 1
	for d := uint32(0); queued > 0; d++ {
		b := &f.buckets[d%uint32(len(f.buckets))]
		// Steps cost 10 or 14, so cells found from this bucket go to
		// others: it does not grow while it is read.
		for _, i := range *b {
			queued--
			if f.dist[i] != d {
				continue // reached more cheaply after it was queued
			}
			for k := range steps {
				// The steps are their own reverses, and allowed both ways
				// between free cells: a neighbour that may step here.
				if !g.canStep(int(i), k, -1) {
					continue
				}
				j := int(i) + g.offset[k]
				back := reverse[k] // the step from j to i
				switch nd := d + steps[k].cost; {
				case nd < f.dist[j]:
					f.dist[j], f.step[j] = nd, back
					q := &f.buckets[nd%uint32(len(f.buckets))]
					*q = append(*q, int32(j))
					queued++
				case nd == f.dist[j]:
					// As cheap as the step j has: the tie goes as in
					// bestStep. Every neighbour that j's cheapest steps
					// lead to is nearer the goal, so it is read before j.
					if p := f.dist[j+g.offset[f.step[j]]]; d < p || d == p && back < f.step[j] {
						f.step[j] = back
					}
				}
			}
		}
		*b = (*b)[:0]
	}
	// The steps of free cells were set above; blocked cells have theirs
	// from their neighbours.
	for i, blocked := range g.blocked {
		if blocked && i != gi {
			f.step[i] = f.bestStep(i, gi)
		}
	}
}

// reverse is the index of each step's reverse.
var reverse = [8]int8{1, 0, 3, 2, 7, 6, 5, 4}

// bestStep returns the step a walker in cell i takes towards the goal
// (cell gi), or noStep.
func (f *Field) bestStep(i, gi int) int8 {
	g := f.grid
	best, bestCost, bestDist := int8(noStep), uint64(Unreached), Unreached
	for k := range steps {
		if !g.canStep(i, k, gi) {
			continue
		}
		d := f.dist[i+g.offset[k]]
		if d == Unreached {
			continue
		}
		if c := uint64(d) + uint64(steps[k].cost); c < bestCost || c == bestCost && d < bestDist {
			best, bestCost, bestDist = int8(k), c, d
		}
	}
	return best
}

// Update builds the field of g towards goal (see [Field.Build]) unless it
// already is that field: the same grid, unchanged since, and the same goal.
// It reports whether it built.
func (f *Field) Update(g *Grid, goal Cell) bool {
	if f.grid == g && f.version == g.version && f.goal == goal && f.dist != nil {
		return false
	}
	f.Build(g, goal)
	return true
}

// Goal returns the cell the field leads to.
func (f *Field) Goal() Cell { return f.goal }

// Grid returns the grid the field was built on, nil before the first
// Build.
func (f *Field) Grid() *Grid { return f.grid }

// Dist returns the cost of the cheapest way from cell c to the goal (10 a
// straight step, 14 a diagonal one), or [Unreached] for a cell that cannot
// reach it, a blocked cell other than the goal, or a cell outside the grid.
func (f *Field) Dist(c Cell) uint32 {
	if f.grid == nil || !f.grid.In(c) {
		return Unreached
	}
	return f.dist[c.Y*f.grid.w+c.X]
}

// Next returns the neighbour of c to step to on the way to the goal, and
// true; or c and false for the goal itself, a cell that cannot reach it,
// or a cell outside the grid.
func (f *Field) Next(c Cell) (Cell, bool) {
	if f.grid == nil || !f.grid.In(c) {
		return c, false
	}
	k := f.step[c.Y*f.grid.w+c.X]
	if k == noStep {
		return c, false
	}
	return Cell{c.X + steps[k].dx, c.Y + steps[k].dy}, true
}

// Dir returns the direction of cell c's step as a vector of length 1 (in
// the grid's axes), or zero where there is no step (see [Field.Next]).
func (f *Field) Dir(c Cell) cp.Vector {
	n, ok := f.Next(c)
	if !ok {
		return cp.Vector{}
	}
	dx, dy := float64(n.X-c.X), float64(n.Y-c.Y)
	if dx != 0 && dy != 0 {
		return cp.Vector{X: math.Copysign(diagonalUnit, dx), Y: math.Copysign(diagonalUnit, dy)}
	}
	return cp.Vector{X: dx, Y: dy}
}

// diagonalUnit is 1/√2, the sides of a unit diagonal.
const diagonalUnit = 0.70710678118654752440084436210484903928483593768847
