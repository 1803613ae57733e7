package path

import (
	"math"

	"github.com/fixedstep/fixedstep/third_party/cp"
)

// maxBandLines bounds the lines Walkable follows on each side of a wide
// body's way.
const maxBandLines = 64

// Walkable reports whether a body of the given radius can go in a straight
// line from a to b without passing over a blocked cell. It looks at the
// cells crossed by the segment ab, by the segments beside it, parallel, at
// most radius away on either side and at most a cell apart (up to 64 a
// side), and by the segment across the way at b, of length 2·radius; every
// one of them must be free. For a radius of up to 64 cells that finds every
// cell the body's band (the rectangle ab widened by radius) crosses, but
// for cells the body at a already overlaps, which only the lines find; and
// the cells that hold a and b are not looked at: an agent, or its target,
// that touches a wall may stand in a wall's cell. A line that passes
// exactly through a corner of four cells needs the two cells beside its way
// free too (no corner is cut). A segment leaving the grid (more than a
// cell), points that are not finite, or a radius that is negative or not
// finite, are not walkable. No allocation; the cost grows with the cells
// crossed.
func (g *Grid) Walkable(a, b cp.Vector, radius float64) bool {
	if !finite(a.X) || !finite(a.Y) || !finite(b.X) || !finite(b.Y) || !(radius >= 0) || math.IsInf(radius, 0) {
		return false
	}
	ca, cb := g.CellAt(a), g.CellAt(b)
	if !g.ray(a, b, ca, cb) {
		return false
	}
	d := cp.Vector{X: b.X - a.X, Y: b.Y - a.Y}
	l := math.Sqrt(dot(d, d))
	if radius == 0 || !(l > 0) || math.IsInf(l, 0) {
		return true
	}
	n := cp.Vector{X: -d.Y / l, Y: d.X / l} // the unit normal
	across := cp.Vector{X: float64(n.X * radius), Y: float64(n.Y * radius)}
	if !g.ray(cp.Vector{X: b.X - across.X, Y: b.Y - across.Y}, cp.Vector{X: b.X + across.X, Y: b.Y + across.Y}, ca, cb) {
		return false
	}
	lines := maxBandLines
	if k := math.Ceil(radius / g.size); k < maxBandLines {
		lines = int(k) //detcheck:ok in [1, maxBandLines)
	}
	for j := 1; j <= lines; j++ {
		o := float64(radius*float64(j)) / float64(lines)
		off := cp.Vector{X: float64(n.X * o), Y: float64(n.Y * o)}
		if !g.ray(cp.Vector{X: a.X + off.X, Y: a.Y + off.Y}, cp.Vector{X: b.X + off.X, Y: b.Y + off.Y}, ca, cb) ||
			!g.ray(cp.Vector{X: a.X - off.X, Y: a.Y - off.Y}, cp.Vector{X: b.X - off.X, Y: b.Y - off.Y}, ca, cb) {
			return false
		}
	}
	return true
}

// ray reports whether every cell the segment pq crosses is free or is one
// of skipA and skipB, walking the cells in order (Amanatides and Woo's
// traversal), both cells beside a corner the segment passes through
// included.
func (g *Grid) ray(p, q cp.Vector, skipA, skipB Cell) bool {
	s := g.size
	x0, y0 := (p.X-g.origin.X)/s, (p.Y-g.origin.Y)/s
	x1, y1 := (q.X-g.origin.X)/s, (q.Y-g.origin.Y)/s
	w, h := float64(g.w), float64(g.h)
	for _, v := range [4][3]float64{{x0, -1, w + 1}, {x1, -1, w + 1}, {y0, -1, h + 1}, {y1, -1, h + 1}} {
		if !(v[0] >= v[1] && v[0] <= v[2]) { // NaN too
			return false
		}
	}
	free := func(c Cell) bool { return c == skipA || c == skipB || !g.Blocked(c) }
	c := Cell{cellIndex(x0), cellIndex(y0)}
	end := Cell{cellIndex(x1), cellIndex(y1)}
	if !free(c) {
		return false
	}
	stepX, deltaX, nextX := axis(x0, x1, c.X)
	stepY, deltaY, nextY := axis(y0, y1, c.Y)
	for c != end {
		switch {
		case c.X == end.X:
			c.Y += stepY
		case c.Y == end.Y:
			c.X += stepX
		case nextX < nextY:
			c.X += stepX
			nextX += deltaX
		case nextY < nextX:
			c.Y += stepY
			nextY += deltaY
		default: // through a corner
			if !free(Cell{c.X + stepX, c.Y}) || !free(Cell{c.X, c.Y + stepY}) {
				return false
			}
			c.X += stepX
			c.Y += stepY
			nextX += deltaX
			nextY += deltaY
		}
		if !free(c) {
			return false
		}
	}
	return true
}

// axis returns, for a segment from v0 to v1 (cell coordinates) starting in
// cell index c, the way it steps along this axis (-1, 0 or 1), the length
// of a cell along the segment (as a fraction of it), and where along the
// segment (as a fraction) it first crosses a cell edge on this axis.
func axis(v0, v1 float64, c int) (step int, delta, next float64) {
	d := v1 - v0
	switch {
	case d > 0:
		delta = 1 / d
		return 1, delta, float64((float64(c+1) - v0) * delta)
	case d < 0:
		delta = -1 / d
		return -1, delta, float64((v0 - float64(c)) * delta)
	}
	return 0, math.Inf(1), math.Inf(1)
}
