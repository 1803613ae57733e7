package path

import "slices"

// The cost of a step: 10 along an axis, 14 on a diagonal (√2 ≈ 1.4), in
// integers, so that every sum is exact and the same on every CPU.
const (
	StraightCost = 10
	DiagonalCost = 14
)

// The eight steps, straight ones first. A step's index is its direction in
// a Field.
var steps = [8]struct {
	dx, dy int
	cost   uint32
}{
	{1, 0, StraightCost}, {-1, 0, StraightCost}, {0, 1, StraightCost}, {0, -1, StraightCost},
	{1, 1, DiagonalCost}, {-1, 1, DiagonalCost}, {1, -1, DiagonalCost}, {-1, -1, DiagonalCost},
}

// Estimate returns the cost of the cheapest way from a to b on a grid with
// no walls: 10 a straight step, 14 a diagonal one. It is the heuristic of
// [Search.Find], and never more than the cost of a path that Find returns.
func Estimate(a, b Cell) uint64 {
	dx, dy := absDiff(a.X, b.X), absDiff(a.Y, b.Y)
	return StraightCost*max(dx, dy) + (DiagonalCost-StraightCost)*min(dx, dy)
}

func absDiff(a, b int) uint64 {
	if a > b {
		return uint64(a - b)
	}
	return uint64(b - a)
}

// Status is how a search ended.
type Status uint8

const (
	// Reached: the path ends at the goal, and is a cheapest one.
	Reached Status = iota
	// Unreachable: no path leads to the goal (or the goal is outside the
	// grid); the path ends at the reachable cell nearest the goal.
	Unreachable
	// Bounded: Search.MaxExpanded cells were expanded before the goal was
	// reached; the path ends at the expanded cell nearest the goal.
	Bounded
	// Outside: the start is outside the grid; the path is empty.
	Outside
)

func (s Status) String() string {
	switch s {
	case Reached:
		return "Reached"
	case Unreachable:
		return "Unreachable"
	case Bounded:
		return "Bounded"
	case Outside:
		return "Outside"
	}
	return "Status(?)"
}

// Search finds paths on a [Grid] with A*: 8-connected, no corner cut (a
// diagonal step needs both cells beside it free), integer costs
// ([StraightCost], [DiagonalCost]) and the octile heuristic ([Estimate]).
// Its buffers are kept from one search to the next, so that once they have
// grown to the grid's size (and the path buffer to the path's length) a
// search allocates nothing (TestFindAllocatesNothing).
//
// Ties are broken the same way every time, on every CPU: of the open cells,
// the one with the least estimated total cost is expanded first, then the
// one nearest the goal by [Estimate], then the one with the lowest index
// (row-major); a cell's parent is the first expanded neighbour that
// reaches it at its least cost. So the same grid and cells give the same
// path, whatever searches came before.
//
// The zero value is ready to use. A Search is not safe for concurrent use.
type Search struct {
	// MaxExpanded bounds the cells a search expands (a search's cost is
	// about proportional to it); 0 or less: no bound. A bounded search
	// returns the path to the expanded cell nearest the goal, with status
	// Bounded.
	MaxExpanded int

	// Expanded is the number of cells the last search expanded.
	Expanded int

	gen    uint32   // this search's mark in seen and closed
	seen   []uint32 // gen: g and parent hold this search's values
	closed []uint32 // gen: expanded in this search
	g      []uint32 // cost from the start
	parent []int32  // the cell reached from, -1 for the start
	open   []node   // a binary heap
}

// node is an open cell: its estimated total cost f, and its estimate h to
// the goal and its index i as one key, h<<24 | i (an estimate is less than
// 2^35: cells are within 2^30 of the grid, 14 a step; an index less than
// MaxCells, 2^24).
type node struct {
	f, hi uint64
}

func makeNode(f, h uint64, i int32) node { return node{f: f, hi: h<<24 | uint64(i)} }

func (n node) h() uint64 { return n.hi >> 24 }
func (n node) i() int32  { return int32(n.hi & (MaxCells - 1)) }

func (a node) less(b node) bool { return a.f < b.f || a.f == b.f && a.hi < b.hi }

// Find appends to dst[:0] the cells of a path on g from cell from to cell
// to, from first and the path's end last, and returns it with how the
// search ended (see [Status]). Each cell of the path is a step from the one
// before it (one of the eight neighbours), no step cuts a corner, and every
// cell strictly between the two ends is free. The ends may be blocked: an
// agent or its target that touches a wall may stand in a wall's cell. From
// equal to to gives [from]. The path ends at to when it is Reached,
// otherwise at the cell nearest to (see [Status]).
func (s *Search) Find(g *Grid, from, to Cell, dst []Cell) ([]Cell, Status) {
	dst = dst[:0]
	s.Expanded = 0
	if !g.In(from) {
		return dst, Outside
	}
	s.reset(len(g.blocked))
	goal := int32(-1)
	if g.In(to) {
		goal = int32(to.Y*g.w + to.X)
	}
	start := int32(from.Y*g.w + from.X)
	s.open = s.open[:0]
	s.visit(start, 0, -1)
	h0 := Estimate(from, to)
	s.push(makeNode(h0, h0, start))
	best, bestH, bestG := start, h0, uint32(0)
	status := Unreachable
	for len(s.open) > 0 {
		n := s.pop()
		ni, nh := n.i(), n.h()
		if s.closed[ni] == s.gen {
			continue // a stale entry: the cell was reached more cheaply since
		}
		if ni == goal {
			best, status = ni, Reached
			break
		}
		if s.MaxExpanded > 0 && s.Expanded >= s.MaxExpanded {
			status = Bounded
			break
		}
		s.closed[ni] = s.gen
		s.Expanded++
		gi := s.g[ni]
		if nh < bestH || nh == bestH && (gi < bestG || gi == bestG && ni < best) {
			best, bestH, bestG = ni, nh, gi
		}
		x, y := int(ni)%g.w, int(ni)/g.w
		for k := range steps {
			if !g.canStep(int(ni), k, int(goal)) {
				continue
			}
			j := ni + int32(g.offset[k])
			ng := gi + steps[k].cost
			if s.closed[j] == s.gen || s.seen[j] == s.gen && ng >= s.g[j] {
				continue
			}
			s.visit(j, ng, ni)
			h := Estimate(Cell{x + steps[k].dx, y + steps[k].dy}, to)
			s.push(makeNode(uint64(ng)+h, h, j))
		}
	}
	return s.appendPath(g, best, dst), status
}

// reset readies the buffers for a search over n cells.
func (s *Search) reset(n int) {
	if len(s.seen) != n {
		s.seen = make([]uint32, n)
		s.closed = make([]uint32, n)
		s.g = make([]uint32, n)
		s.parent = make([]int32, n)
		s.gen = 0
	}
	s.gen++
	if s.gen == 0 { // wrapped: marks of 2^32 searches ago would read as new
		clear(s.seen)
		clear(s.closed)
		s.gen = 1
	}
}

func (s *Search) visit(i int32, g uint32, parent int32) {
	s.seen[i], s.g[i], s.parent[i] = s.gen, g, parent
}

// appendPath appends the path from the start to cell end, following the
// parents back.
func (s *Search) appendPath(g *Grid, end int32, dst []Cell) []Cell {
	n := 0
	for i := end; i >= 0; i = s.parent[i] {
		n++
	}
	dst = slices.Grow(dst, n)[:n]
	for i, k := end, n-1; i >= 0; i, k = s.parent[i], k-1 {
		dst[k] = Cell{int(i) % g.w, int(i) / g.w}
	}
	return dst
}

func (s *Search) push(n node) {
	s.open = append(s.open, n)
	h := s.open
	i := len(h) - 1
	for i > 0 {
		p := (i - 1) / 2
		if !h[i].less(h[p]) {
			break
		}
		h[i], h[p] = h[p], h[i]
		i = p
	}
}

func (s *Search) pop() node {
	h := s.open
	top := h[0]
	last := len(h) - 1
	h[0] = h[last]
	h = h[:last]
	i := 0
	for {
		l := 2*i + 1
		if l >= len(h) {
			break
		}
		m := l
		if r := l + 1; r < len(h) && h[r].less(h[l]) {
			m = r
		}
		if !h[m].less(h[i]) {
			break
		}
		h[i], h[m] = h[m], h[i]
		i = m
	}
	s.open = h
	return top
}
