package devtools

import (
	"image"
	"image/color"
	"math"

	"github.com/hajimehoshi/ebiten/v2"

	"github.com/fixedstep/fixedstep/components"
	"github.com/fixedstep/fixedstep/components/gfx"
	"github.com/fixedstep/fixedstep/engine"
	"github.com/fixedstep/fixedstep/third_party/cp"
	"github.com/fixedstep/fixedstep/third_party/donburi"
)

// The outline of the picked entity: loops of points around its shapes (or
// its sprite), stroked as quads at its interpolated pose.

// outline draws the picked entity's outline at its interpolated pose.
func (i *Inspector) outline(w donburi.World, ev engine.Event, screen *ebiten.Image) {
	entry := w.Entry(i.sel)
	if !entry.HasComponent(components.TransformC) {
		return
	}
	pose := components.TransformC.Get(entry).At(ev.Alpha)
	i.pose = pose
	i.sin, i.cos = math.Sincos(pose.Angle)
	scale := viewScale(&i.view)
	const pad = 3 // pixels between the shape and its outline
	i.loops = i.loops[:0]
	i.pts = i.pts[:0]
	if entry.HasComponent(components.ShapeC) {
		for _, s := range components.ShapeC.Get(entry).Shapes {
			if s == nil {
				continue
			}
			switch c := s.Class.(type) {
			case *cp.Circle:
				i.circle(s.CenterOfGravity(), c.Radius()*scale+pad)
			case *cp.Segment:
				i.capsule(c.A(), c.B(), c.Radius()+pad/scale)
			case *cp.PolyShape:
				// Each vertex pushed out from the centroid, past the
				// rounding and the padding: the outline stays clear of the
				// shape.
				n := c.Count()
				var cx, cy float64
				for k := range n {
					v := c.Vert(k)
					cx, cy = cx+v.X/float64(n), cy+v.Y/float64(n)
				}
				grow := (c.Radius() + pad/scale) * math.Sqrt2
				for k := range n {
					v := c.Vert(k)
					dx, dy := v.X-cx, v.Y-cy
					if l := math.Hypot(dx, dy); l > 0 {
						dx, dy = dx/l*grow, dy/l*grow
					}
					i.point(v.X+dx, v.Y+dy)
				}
				i.closeLoop()
			}
		}
	}
	if len(i.loops) == 0 && entry.HasComponent(gfx.SpriteC) {
		if sp := gfx.SpriteC.Get(entry); sp.Image != nil {
			sx, sy := sp.Scale()
			b := sp.Image.Bounds()
			x0, y0 := -sp.OriginX*sx, -sp.OriginY*sy
			x1, y1 := x0+float64(b.Dx())*sx, y0+float64(b.Dy())*sy
			i.point(x0, y0)
			i.point(x1, y0)
			i.point(x1, y1)
			i.point(x0, y1)
			i.closeLoop()
		}
	}
	if len(i.loops) == 0 { // a ring of fixed size on the screen
		i.circle(cp.Vector{}, 10)
	}
	if i.white == nil {
		img := ebiten.NewImage(3, 3)
		img.Fill(color.White)
		i.white = img.SubImage(image.Rect(1, 1, 2, 2)).(*ebiten.Image)
	}
	// A dark border under a bright line: visible on light and dark ground.
	i.verts, i.idx = i.verts[:0], i.idx[:0]
	i.strokeLoops(4, color.RGBA{0, 0, 0, 255})
	i.strokeLoops(2, inspectorOutline)
	screen.DrawTriangles(i.verts, i.idx, i.white, &i.triOp)
}

// point adds a point, in the picked entity's frame, to the loop being made,
// mapped to the screen.
func (i *Inspector) point(x, y float64) {
	sx, sy := i.view.Apply(i.pose.X+x*i.cos-y*i.sin, i.pose.Y+x*i.sin+y*i.cos)
	i.pts = append(i.pts, [2]float32{float32(sx), float32(sy)})
}

// closeLoop ends the loop being made.
func (i *Inspector) closeLoop() { i.loops = append(i.loops, len(i.pts)) }

// circle adds a circle about centre (in the entity's frame) of radius r
// screen pixels.
func (i *Inspector) circle(centre cp.Vector, r float64) {
	i.point(centre.X, centre.Y)
	c := i.pts[len(i.pts)-1]
	i.pts = i.pts[:len(i.pts)-1]
	const n = 40
	for k := range n {
		sin, cos := math.Sincos(2 * math.Pi * float64(k) / n)
		i.pts = append(i.pts, [2]float32{c[0] + float32(r*cos), c[1] + float32(r*sin)})
	}
	i.closeLoop()
}

// capsule adds a hexagon around a segment from a to b of radius r (the
// entity's units): enough to see which wall is picked.
func (i *Inspector) capsule(a, b cp.Vector, r float64) {
	d := b.Sub(a)
	l := d.Length()
	if l == 0 {
		d, l = cp.Vector{X: 1}, 1
	}
	n := cp.Vector{X: -d.Y / l * r, Y: d.X / l * r}
	along := d.Mult(r / l)
	for _, p := range [...]cp.Vector{a.Add(n), b.Add(n), b.Add(along), b.Sub(n), a.Sub(n), a.Sub(along)} {
		i.point(p.X, p.Y)
	}
	i.closeLoop()
}

// strokeLoops adds the loops' edges as quads of width w pixels in colour c,
// each edge lengthened by w/2 at both ends so that corners close.
func (i *Inspector) strokeLoops(w float32, c color.RGBA) {
	r, g, b, a := float32(c.R)/255, float32(c.G)/255, float32(c.B)/255, float32(c.A)/255
	start := 0
	for _, end := range i.loops {
		loop := i.pts[start:end]
		start = end
		for k := range loop {
			p, q := loop[k], loop[(k+1)%len(loop)]
			dx, dy := q[0]-p[0], q[1]-p[1]
			l := float32(math.Hypot(float64(dx), float64(dy)))
			if l == 0 || len(i.verts)+4 > math.MaxUint16 {
				continue
			}
			ex, ey := dx/l*w/2, dy/l*w/2 // along the edge
			nx, ny := -ey, ex            // across it
			base := uint16(len(i.verts))
			for _, v := range [...][2]float32{
				{p[0] - ex + nx, p[1] - ey + ny}, {q[0] + ex + nx, q[1] + ey + ny},
				{q[0] + ex - nx, q[1] + ey - ny}, {p[0] - ex - nx, p[1] - ey - ny},
			} {
				i.verts = append(i.verts, ebiten.Vertex{DstX: v[0], DstY: v[1], SrcX: 1, SrcY: 1,
					ColorR: r, ColorG: g, ColorB: b, ColorA: a})
			}
			i.idx = append(i.idx, base, base+1, base+2, base, base+2, base+3)
		}
	}
}
