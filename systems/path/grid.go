package path

import (
	"fmt"
	"math"

	"github.com/fixedstep/fixedstep/third_party/cp"
)

// Cell is a grid cell: X counts columns, Y rows, from 0 at the grid's
// origin. A cell outside the grid is valid as a value and blocked.
type Cell struct{ X, Y int }

// MaxCells is the most cells a [Grid] may have.
const MaxCells = 1 << 24

// Grid is a map of square cells, each free or blocked, laid over the world:
// cell (x, y) covers the world's points from Origin + (x, y)·Size up to,
// not including, Origin + (x+1, y+1)·Size. Cells outside the grid are
// blocked. The axes are the world's: the grid neither knows nor cares
// whether y points up or down.
//
// A grid is built with the scene (NewGrid and the Block methods, or
// FromTiled) and read by [Search], [Field] and [Router]. It is not saved
// with the world: a grid the game changes during play is game state, which
// the game must restore itself with its snapshots (by changing it back
// through Set when a restore happens, or by rebuilding it from entities).
// Every change goes through its methods, which count them ([Grid.Version]),
// so that fields and routers built on it notice.
type Grid struct {
	w, h    int
	size    float64
	origin  cp.Vector
	blocked []bool
	moves   []uint8 // per cell: bit k set when step k stays in the grid and cuts no corner
	offset  [8]int  // step k's change of index
	version uint64
}

// NewGrid returns a grid of w by h free cells of the given size (world
// units), cell (0, 0) having its corner of least coordinates at origin. It
// panics on a size or origin that is not finite, a size that is not
// positive, or a w or h that is not positive or makes more than [MaxCells]
// cells: a grid is made when a scene is built, and a panic there comes back
// from engine.Run as the scene's error.
func NewGrid(w, h int, size float64, origin cp.Vector) *Grid {
	if w <= 0 || h <= 0 || w > MaxCells || h > MaxCells || w*h > MaxCells {
		panic(fmt.Sprintf("path: NewGrid: %d x %d cells (at least 1 x 1, at most %d cells)", w, h, MaxCells))
	}
	if !(size > 0) || math.IsInf(size, 0) {
		panic(fmt.Sprintf("path: NewGrid: cell size %v is not positive and finite", size))
	}
	if !finite(origin.X) || !finite(origin.Y) {
		panic(fmt.Sprintf("path: NewGrid: origin %v is not finite", origin))
	}
	g := &Grid{w: w, h: h, size: size, origin: origin, blocked: make([]bool, w*h), moves: make([]uint8, w*h), version: 1}
	for k, s := range steps {
		g.offset[k] = s.dy*w + s.dx
	}
	for y := range h {
		for x := range w {
			g.moves[y*w+x] = g.movesOf(x, y)
		}
	}
	return g
}

// movesOf returns the steps a walker in cell (x, y) may take, wherever the
// walls are but beside a diagonal: those that stay in the grid, and of the
// diagonal ones, those with both cells beside them free.
func (g *Grid) movesOf(x, y int) uint8 {
	var m uint8
	for k, s := range steps {
		nx, ny := x+s.dx, y+s.dy
		if uint(nx) >= uint(g.w) || uint(ny) >= uint(g.h) {
			continue
		}
		if s.dx != 0 && s.dy != 0 && (g.blocked[y*g.w+nx] || g.blocked[ny*g.w+x]) {
			continue
		}
		m |= 1 << k
	}
	return m
}

// canStep reports whether a walker in cell i may take step k: the cell it
// steps to is in the grid and free (or is cell goal, which may be blocked;
// -1 for none), and a diagonal step has both cells beside it free (no
// corner is cut).
func (g *Grid) canStep(i, k, goal int) bool {
	if g.moves[i]&(1<<k) == 0 {
		return false
	}
	j := i + g.offset[k]
	return !g.blocked[j] || j == goal
}

// Width returns the number of columns of cells.
func (g *Grid) Width() int { return g.w }

// Height returns the number of rows of cells.
func (g *Grid) Height() int { return g.h }

// Size returns the side of a cell in world units.
func (g *Grid) Size() float64 { return g.size }

// Origin returns the world position of cell (0, 0)'s corner of least
// coordinates.
func (g *Grid) Origin() cp.Vector { return g.origin }

// Version returns a number that changes whenever a cell changes: equal
// versions of one grid mean equal cells.
func (g *Grid) Version() uint64 { return g.version }

// In reports whether c is a cell of the grid.
func (g *Grid) In(c Cell) bool { return uint(c.X) < uint(g.w) && uint(c.Y) < uint(g.h) }

// Blocked reports whether c is blocked: a wall's, or outside the grid.
func (g *Grid) Blocked(c Cell) bool { return !g.In(c) || g.blocked[c.Y*g.w+c.X] }

// Set makes c blocked or free; a cell outside the grid stays as it is
// (blocked).
func (g *Grid) Set(c Cell, blocked bool) {
	if g.In(c) {
		g.set(c.Y*g.w+c.X, blocked)
	}
}

func (g *Grid) set(i int, blocked bool) {
	if g.blocked[i] == blocked {
		return
	}
	g.blocked[i] = blocked
	g.version++
	// The diagonal steps beside this cell are those of the cells next to
	// it along the axes.
	x, y := i%g.w, i/g.w
	for _, c := range [4]Cell{{x - 1, y}, {x + 1, y}, {x, y - 1}, {x, y + 1}} {
		if g.In(c) {
			g.moves[c.Y*g.w+c.X] = g.movesOf(c.X, c.Y)
		}
	}
}

// Clear makes every cell free.
func (g *Grid) Clear() {
	for i := range g.blocked {
		g.set(i, false)
	}
}

// Count returns how many of the grid's cells are blocked.
func (g *Grid) Count() int {
	n := 0
	for _, b := range g.blocked {
		if b {
			n++
		}
	}
	return n
}

// CellAt returns the cell that holds world point p, inside the grid or not.
// A coordinate more than 2^30 cells away, or not a number, gives the
// outermost cell on that side (-2^30 for NaN), the same on every CPU.
func (g *Grid) CellAt(p cp.Vector) Cell {
	return Cell{X: cellIndex((p.X - g.origin.X) / g.size), Y: cellIndex((p.Y - g.origin.Y) / g.size)}
}

// Center returns the world position of the centre of cell c.
func (g *Grid) Center(c Cell) cp.Vector {
	return cp.Vector{
		X: g.origin.X + float64((float64(c.X)+0.5)*g.size),
		Y: g.origin.Y + float64((float64(c.Y)+0.5)*g.size),
	}
}

// Bounds returns the world rectangle the grid covers.
func (g *Grid) Bounds() cp.BB {
	return cp.BB{L: g.origin.X, B: g.origin.Y,
		R: g.origin.X + float64(float64(g.w)*g.size), T: g.origin.Y + float64(float64(g.h)*g.size)}
}

// cellIndex is the cell of a coordinate in cells: floor(v), bounded to
// ±2^30 so that it fits an int of any CPU, NaN at the low end.
func cellIndex(v float64) int {
	const far = 1 << 30
	switch {
	case v >= far:
		return far
	case !(v > -far):
		return -far
	}
	return int(math.Floor(v)) //detcheck:ok within ±2^30
}

// cellRange returns the columns (or rows) lo..hi, within [0, n), whose
// cells a span from a to b of cell coordinates overlaps: their open
// interiors when open, their closed squares otherwise. Empty when hi < lo.
func cellRange(a, b float64, n int, open bool) (lo, hi int) {
	if !(a <= b) || open && a == b { // NaN, or no interior
		return 0, -1
	}
	if open { // x < b and x+1 > a
		lo, hi = cellIndex(a), cellIndex(math.Ceil(b))-1
	} else { // x <= b and x+1 >= a
		lo, hi = cellIndex(math.Ceil(a))-1, cellIndex(b)
	}
	return max(lo, 0), min(hi, n-1)
}

// BlockBox blocks the cells whose interior overlaps the interior of bb:
// a box whose sides lie on cell edges blocks exactly the cells inside it,
// as a level's tiles do. Either order of L and R, and of B and T, will do
// (a y-down world's top may be B). A box with no area, or not a number,
// blocks nothing.
func (g *Grid) BlockBox(bb cp.BB) {
	x0, x1 := cellRange((min(bb.L, bb.R)-g.origin.X)/g.size, (max(bb.L, bb.R)-g.origin.X)/g.size, g.w, true)
	y0, y1 := cellRange((min(bb.B, bb.T)-g.origin.Y)/g.size, (max(bb.B, bb.T)-g.origin.Y)/g.size, g.h, true)
	for y := y0; y <= y1; y++ {
		for x := x0; x <= x1; x++ {
			g.set(y*g.w+x, true)
		}
	}
}

// BlockSegment blocks the cells that a segment from a to b of radius r (a
// capsule, as cp's segment shape and physics.SpawnWalls make) reaches:
// those whose square lies less than r from the segment, or touches it. A
// line of radius 0 along a cell edge blocks the cells on both sides, so
// that no path crosses it. A point (a == b) is a circle of radius r.
// Points or a radius that are not finite, or a negative radius, block
// nothing.
func (g *Grid) BlockSegment(a, b cp.Vector, r float64) {
	if !finite(a.X) || !finite(a.Y) || !finite(b.X) || !finite(b.Y) || !(r >= 0) || math.IsInf(r, 0) {
		return
	}
	s := g.size
	// Cell coordinates, in which a cell is a unit square.
	ca := cp.Vector{X: (a.X - g.origin.X) / s, Y: (a.Y - g.origin.Y) / s}
	cb := cp.Vector{X: (b.X - g.origin.X) / s, Y: (b.Y - g.origin.Y) / s}
	cr := r / s
	x0, x1 := cellRange(min(ca.X, cb.X)-cr, max(ca.X, cb.X)+cr, g.w, false)
	y0, y1 := cellRange(min(ca.Y, cb.Y)-cr, max(ca.Y, cb.Y)+cr, g.h, false)
	r2 := float64(cr * cr)
	for y := y0; y <= y1; y++ {
		for x := x0; x <= x1; x++ {
			sq := cp.BB{L: float64(x), B: float64(y), R: float64(x + 1), T: float64(y + 1)}
			if d := segmentSquareDistSq(ca, cb, sq); d == 0 || d < r2 {
				g.set(y*g.w+x, true)
			}
		}
	}
}

// BlockCircle blocks the cells whose square lies less than r from c, or
// touches it.
func (g *Grid) BlockCircle(c cp.Vector, r float64) { g.BlockSegment(c, c, r) }

// BlockShape blocks the cells that shape s covers, grown by margin (a
// moving body's radius, so that a path keeps it clear of the wall; 0 for
// none): a circle and a segment as [Grid.BlockCircle] and
// [Grid.BlockSegment], a polygon as [Grid.BlockBox] of its bounding box,
// which is exact for a box that is not turned (physics.SpawnBox's, a
// level's tiles). The shape's position is where its body was when its
// bounding box was last computed (for a static body: when it was added to
// the space, or re-indexed). A nil shape blocks nothing.
func (g *Grid) BlockShape(s *cp.Shape, margin float64) {
	if s == nil {
		return
	}
	margin = max(margin, 0)
	switch c := s.Class.(type) {
	case *cp.Circle:
		g.BlockCircle(c.TransformC(), c.Radius()+margin)
	case *cp.Segment:
		g.BlockSegment(c.TransformA(), c.TransformB(), c.Radius()+margin)
	default:
		bb := s.BB()
		g.BlockBox(cp.BB{L: bb.L - margin, B: bb.B - margin, R: bb.R + margin, T: bb.T + margin})
	}
}

// BlockStatic blocks the cells covered by every shape of a static body in
// space that is not a sensor (the walls physics.SpawnWalls, SpawnBox and
// SpawnSegment make with Kind Static, and the boxes level.Build makes of a
// level's solid tiles and objects), each grown by margin (see
// [Grid.BlockShape]). The result does not depend on the order cp keeps
// its shapes in. Not for a space that is being stepped.
func (g *Grid) BlockStatic(space *cp.Space, margin float64) {
	space.EachShape(func(s *cp.Shape) {
		if b := s.Body(); b != nil && b.GetType() == cp.BODY_STATIC && !s.Sensor() {
			g.BlockShape(s, margin)
		}
	})
}

// segmentSquareDistSq returns the squared distance between the segment ab
// and the closed square sq: 0 when they meet.
func segmentSquareDistSq(a, b cp.Vector, sq cp.BB) float64 {
	if segmentMeetsBox(a, b, sq) {
		return 0
	}
	// Apart, the nearest points are an end of the segment and the square,
	// or a corner of the square and the segment.
	d := min(pointBoxDistSq(a, sq), pointBoxDistSq(b, sq))
	for _, c := range [4]cp.Vector{{X: sq.L, Y: sq.B}, {X: sq.R, Y: sq.B}, {X: sq.R, Y: sq.T}, {X: sq.L, Y: sq.T}} {
		d = min(d, pointSegmentDistSq(c, a, b))
	}
	return d
}

// segmentMeetsBox reports whether segment ab and the closed box bb share a
// point: no axis of the box's and none across the segment separates them.
func segmentMeetsBox(a, b cp.Vector, bb cp.BB) bool {
	if max(a.X, b.X) < bb.L || min(a.X, b.X) > bb.R || max(a.Y, b.Y) < bb.B || min(a.Y, b.Y) > bb.T {
		return false
	}
	n := cp.Vector{X: b.Y - a.Y, Y: a.X - b.X}
	at := dot(n, a)
	below, above := false, false
	for _, c := range [4]cp.Vector{{X: bb.L, Y: bb.B}, {X: bb.R, Y: bb.B}, {X: bb.R, Y: bb.T}, {X: bb.L, Y: bb.T}} {
		d := dot(n, c)
		below = below || d <= at
		above = above || d >= at
	}
	return below && above
}

// pointBoxDistSq returns the squared distance from p to the closed box bb.
func pointBoxDistSq(p cp.Vector, bb cp.BB) float64 {
	dx := max(bb.L-p.X, 0, p.X-bb.R)
	dy := max(bb.B-p.Y, 0, p.Y-bb.T)
	return float64(dx*dx) + float64(dy*dy)
}

// pointSegmentDistSq returns the squared distance from p to segment ab.
func pointSegmentDistSq(p, a, b cp.Vector) float64 {
	ab := cp.Vector{X: b.X - a.X, Y: b.Y - a.Y}
	ap := cp.Vector{X: p.X - a.X, Y: p.Y - a.Y}
	l2 := dot(ab, ab)
	t := 0.0
	if l2 > 0 {
		t = min(max(dot(ap, ab)/l2, 0), 1)
	}
	dx, dy := ap.X-float64(t*ab.X), ap.Y-float64(t*ab.Y)
	return float64(dx*dx) + float64(dy*dy)
}

// dot is the dot product, each product rounded before the sum.
func dot(u, v cp.Vector) float64 { return float64(u.X*v.X) + float64(u.Y*v.Y) }

func finite(x float64) bool { return x-x == 0 }
