package systems

import (
	"cmp"
	"image"
	"math"
	"slices"

	"github.com/hajimehoshi/ebiten/v2"

	"github.com/fixedstep/fixedstep/components"
	"github.com/fixedstep/fixedstep/engine"
	"github.com/fixedstep/fixedstep/engine/window"
	"github.com/fixedstep/fixedstep/third_party/donburi"
	"github.com/fixedstep/fixedstep/third_party/donburi/filter"
)

// Render draws sprites: every entity with a [components.Transform] and a
// [components.Sprite], at its pose interpolated at the frame's alpha
// ([components.Transform.At]: positions blended linearly, angles along the
// shortest arc), lowest [components.Sprite.Layer] first, through the camera.
//
// The camera is the first entity with a [components.Camera] and a Transform,
// interpolated at the same alpha (see [components.Camera.View]). Without one,
// world coordinates are screen pixels, with the origin at the screen's
// top-left corner.
//
// Render batches sprites itself: it turns each sprite into a quad (four
// vertices, tinted with its ColorScale) and draws each run of consecutive
// sprites that share a source image with one DrawTriangles32 call. The
// source is the sprite's [components.Sprite.Atlas] when set, so a whole
// scene drawn from one atlas is one call, whatever its layers; without Atlas
// it is the sprite's Image. The pixels are those of a DrawImage per sprite
// with the same transform and ColorScale: the same vertices (snapped to the
// destination's pixels as DrawImage snaps them), the same nearest filter,
// source-over blend and shader, so ebiten merges the calls of the two kinds
// into the same GPU draw commands.
//
// A sprite wholly off the screen is culled: a bounds test (an upright
// sprite's quad; a turned one's circle around its origin, before its sine
// and cosine), without its sort or its vertices (Culled counts them). One that
// covers any pixel of the screen is always drawn.
//
// Sprites of equal layers are drawn in query order (the order they were
// created in, until entities are removed). Draw sorts only when the layers
// met are out of order, and then by counting (see sortByLayer); it allocates
// nothing once its buffers have grown to the number of sprites.
//
// Its cost per sprite is a fraction of a plain loop of DrawImage calls over
// the same sprites with their transforms computed beforehand
// (BenchmarkRenderOverhead times the two in lockstep). Beside one
// DrawTriangles32 call with every vertex computed beforehand, its work is
// the query, interpolation, sine and cosine, layer sort and vertices
// (BenchmarkRenderOverheadTriangles). TestRenderDrawCommands counts the GPU
// draw commands ebiten makes of a frame: one for a thousand sprites from one
// atlas, as for the DrawImage loop.
type Render struct {
	sprites   *donburi.Query
	cameras   *donburi.Query
	items     []drawItem // this frame's sprites, in drawing order
	spare     []drawItem // the counting sort's other buffer
	counts    []int      // the counting sort's counts, one per layer
	vertices  []ebiten.Vertex
	indices   []uint32 // 0, 1, 2, 1, 2, 3, then the same 4 higher per quad
	opts      ebiten.DrawTrianglesOptions
	drawn     int
	culled    int
	drawCalls int
}

// maxBatch is the most sprites Draw submits in one DrawTriangles32 call.
// ebiten takes up to [ebiten.MaxVertexCount] vertices a call (2^32-1 on
// 64-bit systems, some 2^28 on 32-bit ones), far more than this; the limit
// only keeps the vertex buffer, and ebiten's copy of it, in the CPU's cache.
const maxBatch = min(4096, ebiten.MaxVertexCount/4)

// drawItem is one sprite to draw this frame: its source image, its
// rectangle there, its transform to the screen and its colour scale, in the
// float32s ebiten's vertices take.
type drawItem struct {
	src                *ebiten.Image // the Atlas, or else the Image
	sx0, sy0, sx1, sy1 float32       // the Image's bounds, in src's coordinates
	a, b, c, d, tx, ty float32       // the transform, as DrawImage rounds a GeoM
	r, g, bl, al       float32       // the colour scale, premultiplied
	layer              int
}

// sortByLayer orders r.items by layer, stably; lo and hi are the lowest and
// highest layers among them. When the layers span no more values than there
// are items (plus a little), it counting-sorts them: one pass to count, one
// to copy into a spare buffer, O(n). Wider spans (layers used as depth keys,
// say) are merge-sorted in place. Neither allocates once the buffers have
// grown.
func (r *Render) sortByLayer(lo, hi int) {
	items := r.items
	span := uint(hi-lo) + 1 // hi >= lo: the difference fits in a uint
	if span == 0 || span > uint(len(items))+256 {
		slices.SortStableFunc(items, byLayer)
		return
	}
	counts := slices.Grow(r.counts[:0], int(span))[:span]
	clear(counts)
	for i := range items {
		counts[items[i].layer-lo]++
	}
	start := 0
	for k, c := range counts {
		counts[k], start = start, start+c
	}
	sorted := slices.Grow(r.spare[:0], len(items))[:len(items)]
	for i := range items {
		k := items[i].layer - lo
		sorted[counts[k]] = items[i]
		counts[k]++
	}
	r.items, r.spare, r.counts = sorted, items, counts
}

func byLayer(a, b drawItem) int { return cmp.Compare(a.layer, b.layer) }

// NewRender returns a render system for the world w. The queries are
// evaluated for w at once, so that the first frame does not pay for it; w may
// be nil.
func NewRender(w donburi.World) *Render {
	r := &Render{
		sprites: donburi.NewQuery(filter.Contains(components.TransformC, components.SpriteC)),
		cameras: donburi.NewQuery(filter.Contains(components.CameraC, components.TransformC)),
		// The vertices carry a ColorScale's components, which are premultiplied.
		opts: ebiten.DrawTrianglesOptions{ColorScaleMode: ebiten.ColorScaleModePremultipliedAlpha},
	}
	if w != nil {
		r.sprites.Count(w)
		r.cameras.Count(w)
	}
	return r
}

// Drawn returns the number of sprites the last Draw drew.
func (r *Render) Drawn() int { return r.drawn }

// Culled returns the number of sprites the last Draw left out because they
// were wholly off the screen.
func (r *Render) Culled() int { return r.culled }

// DrawCalls returns the number of DrawTriangles32 calls the last Draw made:
// one per run of consecutive sprites, in drawing order, that share a source
// image (see [components.Sprite.Atlas]), and one more for every maxBatch
// (4096) sprites of a run. ebiten may merge calls further into one GPU draw
// command.
func (r *Render) DrawCalls() int { return r.drawCalls }

// Draw draws the world's sprites on the event's screen at ev.Alpha. It is an
// [engine.System] for the render phase: sched.AddRender(layer, "render",
// r.Draw). With no screen (headless) it returns at once. Hidden sprites and
// sprites without an image are skipped.
func (r *Render) Draw(w donburi.World, ev engine.Event) {
	r.drawn, r.culled, r.drawCalls = 0, 0, 0
	screen := window.Screen(ev)
	if screen == nil {
		return
	}
	var v [6]float64 // the view: a, b, c, d, tx, ty
	if e, ok := r.cameras.First(w); ok {
		g := components.CameraC.Get(e).View(components.TransformC.Get(e).At(ev.Alpha), screen.Bounds())
		v = [6]float64{g.Element(0, 0), g.Element(0, 1), g.Element(1, 0), g.Element(1, 1), g.Element(0, 2), g.Element(1, 2)}
	} else {
		v = [6]float64{1, 0, 0, 1, 0, 0}
	}

	// The screen, for culling, and how much the view stretches a length.
	sb := screen.Bounds()
	clip := [4]float32{float32(sb.Min.X), float32(sb.Min.Y), float32(sb.Max.X), float32(sb.Max.Y)}
	stretch := maxStretch(&v)

	// Collect: each sprite's pose at alpha, and its quad on the screen.
	items := r.items[:0]
	sorted := true
	last, lo, hi := math.MinInt, math.MaxInt, math.MinInt
	for e := range r.sprites.IterStable(w) { // draws, and adds or removes no entity
		s := components.SpriteC.Get(e)
		if s.Hidden || s.Image == nil {
			continue
		}
		p := components.TransformC.Get(e).At(ev.Alpha)
		bounds := s.Image.Bounds()
		if p.Angle != 0 && turnedOffScreen(s, p, bounds, &v, stretch, &clip) { // before its sine and cosine
			r.culled++
			continue
		}
		items = append(items, drawItem{})
		it := &items[len(items)-1]
		spriteItem(it, s, p, bounds, &v)
		if p.Angle == 0 && it.offScreen(&clip) { // by its quad, which cost no sine and cosine
			items = items[:len(items)-1]
			r.culled++
			continue
		}
		if s.Layer < last {
			sorted = false
		}
		last = s.Layer
		lo, hi = min(lo, s.Layer), max(hi, s.Layer)
	}
	r.items = items
	if !sorted {
		r.sortByLayer(lo, hi)
		items = r.items
	}
	r.drawn = len(items)
	if len(items) == 0 {
		return
	}

	// Draw: the quads of each run of one source image, maxBatch at a time.
	r.grow(min(len(items), maxBatch))
	vs := r.vertices
	n := 0 // quads in vs
	src := items[0].src
	for i := range items {
		it := &items[i]
		if it.src != src || n == maxBatch {
			r.submit(screen, src, n)
			src, n = it.src, 0
		}
		quad((*[4]ebiten.Vertex)(vs[4*n:4*n+4]), it)
		n++
	}
	r.submit(screen, src, n)
}

// grow makes room for n quads in r.vertices and r.indices.
func (r *Render) grow(n int) {
	if len(r.vertices) < 4*n {
		r.vertices = make([]ebiten.Vertex, 4*n)
	}
	if k := len(r.indices) / 6; k < n {
		r.indices = slices.Grow(r.indices, 6*(n-k))
		for q := uint32(k); q < uint32(n); q++ {
			r.indices = append(r.indices, 4*q, 4*q+1, 4*q+2, 4*q+1, 4*q+2, 4*q+3)
		}
	}
}

// submit draws the first n quads of r.vertices from src on dst.
func (r *Render) submit(dst, src *ebiten.Image, n int) {
	dst.DrawTriangles32(r.vertices[:4*n], r.indices[:6*n], src, &r.opts)
	r.drawCalls++
}

// quad sets the four vertices of it's quad as DrawImage makes them
// (ebiten's internal graphics.QuadVerticesFromSrcAndMatrix, and its order):
// the corners of the source rectangle, top-left, top-right, bottom-left,
// bottom-right, each carried to the screen and snapped by snap.
func quad(q *[4]ebiten.Vertex, it *drawItem) {
	w, h := it.sx1-it.sx0, it.sy1-it.sy0
	ax, by, cx, dy := it.a*w, it.b*h, it.c*w, it.d*h
	q[0].DstX, q[0].DstY = snap(it.tx), snap(it.ty)
	q[1].DstX, q[1].DstY = snap(ax+it.tx), snap(cx+it.ty)
	q[2].DstX, q[2].DstY = snap(by+it.tx), snap(dy+it.ty)
	q[3].DstX, q[3].DstY = snap(ax+by+it.tx), snap(cx+dy+it.ty)
	q[0].SrcX, q[0].SrcY = it.sx0, it.sy0
	q[1].SrcX, q[1].SrcY = it.sx1, it.sy0
	q[2].SrcX, q[2].SrcY = it.sx0, it.sy1
	q[3].SrcX, q[3].SrcY = it.sx1, it.sy1
	for k := range q {
		q[k].ColorR, q[k].ColorG, q[k].ColorB, q[k].ColorA = it.r, it.g, it.bl, it.al
	}
}

// snap moves a destination coordinate off the centre of a pixel, to the
// nearest of 0, 5/16, 11/16 or 1 of the way across it, as DrawImage does
// (ebiten's internal graphics.adjustDestinationPixel: sampling at a
// pixel's centre is unstable between GPUs, ebiten issues #929 and #1171).
// It gives the same results as ebiten's switch on the fraction, without its
// branches, which random fractions would mispredict: frac < 3/16 exactly
// when int(frac*16) < 3, since multiplying by 16 is exact. (The fraction
// rounds to 1 for a tiny negative x, hence the 17th entry; NaN and
// infinities, which draw nothing, take it too rather than panic.)
func snap(x float32) float32 {
	ix := float32(int(x))
	if ix > x { // x < 0 and not whole: int rounded it up
		ix--
	}
	return ix + snapTo[min(uint(int((x-ix)*16)), 16)]
}

// snapTo is where snap moves a coordinate whose fraction is in [k/16, (k+1)/16).
var snapTo = [17]float32{
	0, 0, 0,
	5.0 / 16, 5.0 / 16, 5.0 / 16, 5.0 / 16, 5.0 / 16,
	11.0 / 16, 11.0 / 16, 11.0 / 16, 11.0 / 16, 11.0 / 16,
	1, 1, 1, 1,
}

// spriteItem sets it to draw s at pose p through the view v (a, b, c, d,
// tx, ty): Translate(-origin), Scale, Rotate(p.Angle), Translate(p.X, p.Y),
// then the view, composed directly in float64 and rounded to float32 as
// DrawImage rounds its GeoM.
func spriteItem(it *drawItem, s *components.Sprite, p components.Pose, bounds image.Rectangle, v *[6]float64) {
	sx, sy := s.ScaleX, s.ScaleY
	if sx == 0 {
		sx = 1
	}
	if sy == 0 {
		sy = 1
	}
	sin, cos := 0.0, 1.0
	if p.Angle != 0 {
		sin, cos = math.Sincos(p.Angle)
	}
	a, b := cos*sx, -sin*sy
	c, d := sin*sx, cos*sy
	tx := p.X - (a*s.OriginX + b*s.OriginY)
	ty := p.Y - (c*s.OriginX + d*s.OriginY)
	// A GeoM holds a-1 and d-1, and DrawImage rounds those to float32.
	it.a = float32(v[0]*a+v[1]*c-1) + 1
	it.b = float32(v[0]*b + v[1]*d)
	it.c = float32(v[2]*a + v[3]*c)
	it.d = float32(v[2]*b+v[3]*d-1) + 1
	it.tx = float32(v[0]*tx + v[1]*ty + v[4])
	it.ty = float32(v[2]*tx + v[3]*ty + v[5])

	it.sx0, it.sy0 = float32(bounds.Min.X), float32(bounds.Min.Y)
	it.sx1, it.sy1 = float32(bounds.Max.X), float32(bounds.Max.Y)
	it.src = s.Atlas
	if it.src == nil {
		it.src = s.Image
	}
	it.r, it.g, it.bl, it.al = s.Color.R(), s.Color.G(), s.Color.B(), s.Color.A()
	it.layer = s.Layer
}

// turnedOffScreen reports whether turned sprite s, its image's rectangle
// bounds, at pose p through the view v, covers no pixel of clip (x0, y0,
// x1, y1), without its sine and cosine: by the circle around its origin
// that holds its rectangle at any angle, its radius times stretch, the
// most the view stretches a length. The snapping of vertices moves them by
// less than half a pixel, so a quad whose extent ends on the clip's edge
// covers none of its pixels' centres.
func turnedOffScreen(s *components.Sprite, p components.Pose, bounds image.Rectangle, v *[6]float64, stretch float64, clip *[4]float32) bool {
	sx, sy := s.ScaleX, s.ScaleY
	if sx == 0 {
		sx = 1
	}
	if sy == 0 {
		sy = 1
	}
	w, h := float64(bounds.Dx()), float64(bounds.Dy())
	ex := max(math.Abs(s.OriginX*sx), math.Abs((w-s.OriginX)*sx))
	ey := max(math.Abs(s.OriginY*sy), math.Abs((h-s.OriginY)*sy))
	rr := (ex*ex + ey*ey) * stretch * stretch // the radius, squared: no square root
	x := v[0]*p.X + v[1]*p.Y + v[4]
	y := v[2]*p.X + v[3]*p.Y + v[5]
	dx := max(float64(clip[0])-x, x-float64(clip[2]), 0) // how far the origin is beside the clip, or 0
	dy := max(float64(clip[1])-y, y-float64(clip[3]), 0)
	return dx*dx >= rr && dx > 0 || dy*dy >= rr && dy > 0
}

// offScreen reports whether it's quad covers no pixel of clip: the box
// around its four corners (before snapping, which moves them by less than
// half a pixel) lies beyond an edge.
func (it *drawItem) offScreen(clip *[4]float32) bool {
	w, h := it.sx1-it.sx0, it.sy1-it.sy0
	ax, by, cx, dy := it.a*w, it.b*h, it.c*w, it.d*h
	x0, x1 := it.tx+min(ax, 0)+min(by, 0), it.tx+max(ax, 0)+max(by, 0)
	y0, y1 := it.ty+min(cx, 0)+min(dy, 0), it.ty+max(cx, 0)+max(dy, 0)
	return x1 <= clip[0] || x0 >= clip[2] || y1 <= clip[1] || y0 >= clip[3]
}

// maxStretch returns the most the linear part of view v (a, b, c, d)
// lengthens a vector: its largest singular value.
func maxStretch(v *[6]float64) float64 {
	t := v[0]*v[0] + v[1]*v[1] + v[2]*v[2] + v[3]*v[3]
	d := v[0]*v[3] - v[1]*v[2]
	return math.Sqrt((t + math.Sqrt(max(t*t-4*d*d, 0))) / 2)
}
