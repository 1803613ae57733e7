package render

import (
	"image"
	"math"

	"github.com/hajimehoshi/ebiten/v2"

	"github.com/fixedstep/fixedstep/components"
	"github.com/fixedstep/fixedstep/components/gfx"
	"github.com/fixedstep/fixedstep/third_party/cp"
	"github.com/fixedstep/fixedstep/third_party/donburi"
)

// fillPart is a rectangle of a fill in its body's coordinates: its centre,
// its axes (unit vectors: u along it, the image's x; v across, the image's
// y) and its half lengths along them.
type fillPart struct {
	c, u, v cp.Vector
	hu, hv  float64
}

// partOf returns the rectangle a Fill draws of shape s: a segment's, 2r
// thick and r longer at each end; a box's outline. Other shapes: false.
func partOf(s *cp.Shape) (fillPart, bool) {
	switch c := s.Class.(type) {
	case *cp.Segment:
		a, b, r := c.A(), c.B(), c.Radius()
		d := b.Sub(a)
		l := d.Length()
		if !(l > 0) {
			return fillPart{}, false
		}
		u := d.Mult(1 / l)
		return fillPart{c: a.Add(b).Mult(0.5), u: u, v: cp.Vector{X: -u.Y, Y: u.X}, hu: l/2 + r, hv: r}, r > 0
	case *cp.PolyShape:
		if c.Count() != 4 {
			return fillPart{}, false
		}
		v0, v1, v2, v3 := c.Vert(0), c.Vert(1), c.Vert(2), c.Vert(3)
		e0, e1 := v1.Sub(v0), v2.Sub(v1)
		l0, l1 := e0.Length(), e1.Length()
		// A rectangle: a parallelogram with a right angle.
		if !(l0 > 0 && l1 > 0) || v0.Add(v2).Sub(v1.Add(v3)).Length() > 1e-9*(l0+l1) ||
			math.Abs(e0.Dot(e1)) > 1e-9*l0*l1 {
			return fillPart{}, false
		}
		// u along the edge nearer the x axis, pointing to +x.
		if math.Abs(e0.X) < math.Abs(e1.X) {
			e0, e1, l0, l1 = e1, e0, l1, l0
		}
		if e0.X < 0 {
			e0 = e0.Neg()
		}
		u := e0.Mult(1 / l0)
		r := c.Radius()
		return fillPart{c: v0.Add(v2).Mult(0.5), u: u, v: cp.Vector{X: -u.Y, Y: u.X}, hu: l0/2 + r, hv: l1/2 + r}, true
	}
	return fillPart{}, false
}

// fills writes the quads of the world's fills at alpha, through view v,
// into their layers' spans (before the sprites, so that a fill is under
// the sprites of its layer), and returns how many it wrote. A part wholly
// off clip is culled.
func (r *Sprites) fills(w donburi.World, alpha float64, v *[6]float64, clip *[4]float32) int {
	n := 0
	for cols := range donburi.Columns2(r.fillQuery, w, components.TransformC, gfx.FillC) {
		for i, id := range cols.Entities {
			f := cols.B[i]
			if !id.IsReady() || f.Hidden {
				continue
			}
			n += r.fill(w.Entry(id), cols.A[i], f, alpha, v, clip)
		}
	}
	return n
}

// fill writes the quads of entity e's fill f, at its transform t at alpha,
// and returns how many.
func (r *Sprites) fill(e *donburi.Entry, t *components.Transform, f *gfx.Fill, alpha float64, v *[6]float64, clip *[4]float32) int {
	n := 0
	src, batch := f.Image, f.Atlas // the image, and the source its quads are drawn from
	if src == nil {
		src, batch = r.whitePixel(), nil
	}
	if batch == nil {
		batch = src
	}
	sb := src.Bounds()
	p := t.At(alpha)
	sin, cos := 0.0, 1.0
	if p.Angle != 0 {
		sin, cos = math.Sincos(p.Angle)
	}
	// The body's coordinates to the screen: rotate, translate, view.
	m := [6]float64{
		v[0]*cos + v[1]*sin, -v[0]*sin + v[1]*cos,
		v[2]*cos + v[3]*sin, -v[2]*sin + v[3]*cos,
		v[0]*p.X + v[1]*p.Y + v[4], v[2]*p.X + v[3]*p.Y + v[5],
	}
	for _, s := range components.ShapeC.Get(e).Shapes {
		part, ok := partOf(s)
		if !ok {
			continue
		}
		n += r.fillPart(f, &part, &m, src, batch, sb, clip)
	}
	return n
}

// fillPart writes the quads of one part of fill f, through m (body to
// screen), and returns how many: one, or up to nine for a nine-slice.
func (r *Sprites) fillPart(f *gfx.Fill, part *fillPart, m *[6]float64, src, batch *ebiten.Image, sb image.Rectangle, clip *[4]float32) int {
	// The part's corners on the screen, for culling.
	x0, y0 := float32(math.Inf(1)), float32(math.Inf(1))
	x1, y1 := float32(math.Inf(-1)), float32(math.Inf(-1))
	for _, k := range [4][2]float64{{-1, -1}, {1, -1}, {-1, 1}, {1, 1}} {
		x, y := toScreen(part, m, k[0]*part.hu, k[1]*part.hv)
		x0, y0, x1, y1 = min(x0, x), min(y0, y), max(x1, x), max(y1, y)
	}
	if x1 <= clip[0] || x0 >= clip[2] || y1 <= clip[1] || y0 >= clip[3] {
		r.culled++
		return 0
	}
	// The slices along u and v: their ends in the part and in the image.
	b := f.Border
	if f.Image == nil {
		b = gfx.Insets{}
	}
	us, uSrc, nu := slices3(part.hu, float64(max(b.Left, 0)), float64(max(b.Right, 0)), sb.Min.X, sb.Max.X)
	vs, vSrc, nv := slices3(part.hv, float64(max(b.Top, 0)), float64(max(b.Bottom, 0)), sb.Min.Y, sb.Max.Y)
	cr, cg, cb, ca := f.Color.R(), f.Color.G(), f.Color.B(), f.Color.A()
	quads := 0
	for j := range nv {
		if !(vs[j+1] > vs[j]) || vSrc[j+1] <= vSrc[j] {
			continue
		}
		for i := range nu {
			if !(us[i+1] > us[i]) || uSrc[i+1] <= uSrc[i] {
				continue
			}
			q := r.slot(f.Layer, batch)
			sx0, sx1, sy0, sy1 := uSrc[i], uSrc[i+1], vSrc[j], vSrc[j+1]
			ax, ay := toScreen(part, m, us[i], vs[j])
			bx, by := toScreen(part, m, us[i+1], vs[j])
			cx, cy := toScreen(part, m, us[i], vs[j+1])
			dx, dy := toScreen(part, m, us[i+1], vs[j+1])
			setVertex(&q[0], snap(ax), snap(ay), sx0, sy0, cr, cg, cb, ca)
			setVertex(&q[1], snap(bx), snap(by), sx1, sy0, cr, cg, cb, ca)
			setVertex(&q[2], snap(cx), snap(cy), sx0, sy1, cr, cg, cb, ca)
			setVertex(&q[3], snap(dx), snap(dy), sx1, sy1, cr, cg, cb, ca)
			quads++
		}
	}
	return quads
}

// slices3 cuts the part's length, from -h to h, into a nine-slice's three
// spans along one axis (borders lo and hi, shrunk to fit when wider than
// it), and the image's, from s0 to s1: their ends, and how many spans
// (one without borders).
func slices3(h, lo, hi float64, s0, s1 int) (ends [4]float64, src [4]float32, n int) {
	if lo == 0 && hi == 0 {
		return [4]float64{-h, h}, [4]float32{float32(s0), float32(s1)}, 1
	}
	src = [4]float32{float32(s0), float32(float64(s0) + lo), float32(float64(s1) - hi), float32(s1)}
	if k := 2 * h / (lo + hi); k < 1 { // the part's borders only: the image's stay whole
		lo, hi = lo*k, hi*k
	}
	ends = [4]float64{-h, -h + lo, h - hi, h}
	return ends, src, 3
}

// toScreen returns where the point (a, b) of the part (along u, across v)
// lands on the screen through m.
func toScreen(part *fillPart, m *[6]float64, a, b float64) (float32, float32) {
	x := part.c.X + a*part.u.X + b*part.v.X
	y := part.c.Y + a*part.u.Y + b*part.v.Y
	return float32(m[0]*x + m[1]*y + m[4]), float32(m[2]*x + m[3]*y + m[5])
}

// whitePixel returns the render system's white pixel: the middle of a 3x3
// white image (its neighbours white too, so that no other colour bleeds
// in), made at the first fill without an Image.
func (r *Sprites) whitePixel() *ebiten.Image {
	if r.white == nil {
		img := ebiten.NewImage(3, 3)
		img.Fill(image.White)
		r.white = img.SubImage(image.Rect(1, 1, 2, 2)).(*ebiten.Image)
	}
	return r.white
}
