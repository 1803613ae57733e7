package physics

import (
	"math"

	"github.com/fixedstep/fixedstep/engine/detmath"
	"github.com/fixedstep/fixedstep/third_party/cp"
)

// Geometry of the shapes the spawn helpers make and the queries test: cp
// builds a poly shape of radius r as the Minkowski sum of its polygon and a
// disc of radius r (a segment shape likewise, a capsule), but its mass
// functions leave the rounding out of the moment of inertia (MomentForPoly
// ignores r; a segment's moment is that of a (length+2r) x 2r box). These
// compute the real thing.

// roundedMass returns the area of the convex polygon verts rounded by r (one
// vertex: a disc; two: a capsule), its centroid, and its moment of inertia
// about that centroid per unit of mass (the mean of |x-c|² over the shape).
// The vertices are in order, either winding. A capsule of radius 0 (a line)
// has no area; its moment is that of a thin rod.
//
// The shape is cut into the polygon, a rectangle of depth r on each edge and
// a circular sector at each vertex, whose angles add up to a full turn.
func roundedMass(verts []cp.Vector, r float64) (area float64, centroid cp.Vector, perMass float64) {
	n := len(verts)
	if n == 2 && r == 0 {
		l := verts[0].Distance(verts[1])
		return 0, verts[0].Lerp(verts[1], 0.5), l * l / 12
	}
	var first cp.Vector // sum of area × centroid over the pieces
	var second float64  // sum of the pieces' polar second moments about the origin
	add := func(a float64, c cp.Vector, aboutC float64) {
		area += a
		first = first.Add(c.Mult(a))
		second += aboutC + float64(a*c.LengthSq())
	}
	winding := 1.0 // the polygon's orientation (cross products > 0: counter-clockwise with y up)
	if n >= 3 {
		var cross2, aboutOrigin12 float64
		var sum cp.Vector
		for i := range n {
			v1, v2 := verts[i], verts[(i+1)%n]
			c := v1.Cross(v2)
			cross2 += c
			sum = sum.Add(v1.Add(v2).Mult(c))
			aboutOrigin12 += float64(c * (v1.Dot(v1) + v1.Dot(v2) + v2.Dot(v2)))
		}
		if cross2 < 0 {
			winding = -1
		}
		a := math.Abs(cross2) / 2
		c := sum.Mult(1 / (3 * cross2))
		add(a, c, math.Abs(aboutOrigin12)/12-float64(a*c.LengthSq()))
	}
	if r > 0 {
		normal := func(i int) cp.Vector { // outward unit normal of edge i (verts[i] to verts[i+1])
			d := verts[(i+1)%n].Sub(verts[i])
			return cp.Vector{X: d.Y, Y: -d.X}.Mult(winding / d.Length())
		}
		for i := range n {
			if n == 1 {
				break
			}
			v1, v2 := verts[i], verts[(i+1)%n]
			l := v1.Distance(v2)
			a := float64(l * r)
			add(a, v1.Lerp(v2, 0.5).Add(normal(i).Mult(r/2)), a*(float64(l*l)+float64(r*r))/12)
		}
		for i := range n {
			theta, bisector := 2*math.Pi, cp.Vector{}
			switch n {
			case 1: // a disc
			case 2: // a capsule's end: half a disc, facing away from the other end
				theta, bisector = math.Pi, verts[i].Sub(verts[1-i]).Normalize()
			default:
				prev, next := normal((i+n-1)%n), normal(i)
				theta = math.Abs(detmath.Atan2(prev.Cross(next), prev.Dot(next)))
				bisector = prev.Add(next).Normalize()
			}
			if theta < 1e-12 { // collinear edges: no corner
				continue
			}
			a := theta * r * r / 2
			d := 4 * r * detmath.Sin(theta/2) / (3 * theta) // the sector's centroid, from its apex
			aboutApex := a * r * r / 2
			add(a, verts[i].Add(bisector.Mult(d)), aboutApex-float64(a*d*d))
		}
	}
	centroid = first.Mult(1 / area)
	return area, centroid, (second - float64(area*centroid.LengthSq())) / area
}

// insetPolygon returns the convex polygon verts (in order, either winding)
// with every edge moved inwards by r: rounded by r, it has the outline of
// verts with rounded corners. It returns false when r is too large for the
// polygon (an edge would vanish or turn round).
func insetPolygon(verts []cp.Vector, r float64) ([]cp.Vector, bool) {
	n := len(verts)
	out := make([]cp.Vector, n)
	if r == 0 {
		copy(out, verts)
		return out, true
	}
	var cross2 float64
	for i := range n {
		cross2 += verts[i].Cross(verts[(i+1)%n])
	}
	inward := func(i int) cp.Vector { // the inward unit normal of edge i
		d := verts[(i+1)%n].Sub(verts[i])
		nrm := cp.Vector{X: -d.Y, Y: d.X}.Normalize()
		if cross2 < 0 {
			nrm = nrm.Neg()
		}
		return nrm
	}
	for i := range n {
		// vertex i lies on the moved lines of edges i-1 and i
		j := (i + n - 1) % n
		p, d := verts[j].Add(inward(j).Mult(r)), verts[i].Sub(verts[j])
		q, e := verts[i].Add(inward(i).Mult(r)), verts[(i+1)%n].Sub(verts[i])
		den := d.Cross(e)
		if den == 0 {
			return nil, false
		}
		out[i] = p.Add(d.Mult(q.Sub(p).Cross(e) / den))
	}
	for i := range n {
		before := verts[(i+1)%n].Sub(verts[i])
		after := out[(i+1)%n].Sub(out[i])
		if after.Dot(before) <= float64(1e-9*before.LengthSq()) {
			return nil, false
		}
	}
	return out, true
}

// convexHull returns the convex hull of points in cp's order (a new slice),
// with collinear and repeated points dropped.
func convexHull(points []cp.Vector) []cp.Vector {
	hull := append([]cp.Vector(nil), points...)
	n := cp.ConvexHull(len(hull), hull, nil, 0)
	return hull[:n]
}

// distanceToBB returns the distance from p to bb (0 inside).
func distanceToBB(p cp.Vector, bb cp.BB) float64 {
	dx := max(bb.L-p.X, 0, p.X-bb.R)
	dy := max(bb.B-p.Y, 0, p.Y-bb.T)
	return detmath.Hypot(dx, dy)
}

// segmentToBB returns the distance from the segment a-b to bb (0 when they
// meet). Apart, the closest pair of points has an end of the segment or a
// corner of the box in it.
func segmentToBB(a, b cp.Vector, bb cp.BB) float64 {
	if bb.IntersectsSegment(a, b) {
		return 0
	}
	d := min(distanceToBB(a, bb), distanceToBB(b, bb))
	for _, c := range [4]cp.Vector{{X: bb.L, Y: bb.B}, {X: bb.R, Y: bb.B}, {X: bb.R, Y: bb.T}, {X: bb.L, Y: bb.T}} {
		d = min(d, c.Distance(c.ClosestPointOnSegment(a, b)))
	}
	return d
}

// shapeTouchesBB reports whether shape s, where the last step (or
// ReindexShape) left it, overlaps bb: its real outline, rounding included,
// not its bounding box.
func shapeTouchesBB(s *cp.Shape, bb cp.BB) bool {
	switch g := s.Class.(type) {
	case *cp.Circle:
		return distanceToBB(g.TransformC(), bb) <= g.Radius()
	case *cp.Segment:
		return segmentToBB(g.TransformA(), g.TransformB(), bb) <= g.Radius()
	case *cp.PolyShape:
		n, r := g.Count(), g.Radius()
		for i := range n {
			if segmentToBB(g.TransformVert(i), g.TransformVert((i+1)%n), bb) <= r {
				return true
			}
		}
		// no edge near the box: the box is inside the polygon, or apart
		c := bb.Center()
		var sign float64
		for i := range n {
			cr := g.TransformVert((i + 1) % n).Sub(g.TransformVert(i)).Cross(c.Sub(g.TransformVert(i)))
			if sign == 0 {
				sign = cr
			} else if float64(cr*sign) < 0 {
				return false
			}
		}
		return true
	}
	return s.BB().Intersects(bb)
}
