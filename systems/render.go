package systems

import (
	"cmp"
	"math"
	"slices"

	"github.com/hajimehoshi/ebiten/v2"
	"github.com/yohamta/donburi"
	"github.com/yohamta/donburi/filter"

	"github.com/fixedstep/fixedstep/components"
	"github.com/fixedstep/fixedstep/engine"
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
// Each sprite is one DrawImage call, tinted with a ColorScale (never a
// ColorM), through one reused DrawImageOptions: when the sprites' images are
// sub-images of one atlas, ebiten batches the whole layer into one draw call.
// Sprites of equal layers are drawn in query order (the order they were
// created in, until entities are removed). Draw sorts only when the layers
// met are out of order, and then by counting (see sortByLayer); it allocates
// nothing once its buffers have grown to the number of sprites.
//
// Its own work per sprite (the query, interpolation, transform, layer check)
// is a few tens of nanoseconds beside the few hundred of ebiten's DrawImage:
// BenchmarkRenderOverhead compares it with a plain DrawImage loop over the
// same sprites with their transforms computed beforehand.
type Render struct {
	sprites *donburi.Query
	cameras *donburi.Query
	items   []drawItem // this frame's sprites, in drawing order
	spare   []drawItem // the counting sort's other buffer
	counts  []int      // the counting sort's counts, one per layer
	op      ebiten.DrawImageOptions
	drawn   int
}

// drawItem is one sprite to draw this frame, ready for DrawImage.
type drawItem struct {
	img   *ebiten.Image
	geoM  ebiten.GeoM
	color ebiten.ColorScale
	layer int
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
	}
	if w != nil {
		r.sprites.Count(w)
		r.cameras.Count(w)
	}
	return r
}

// Drawn returns the number of sprites (DrawImage calls) the last Draw drew.
func (r *Render) Drawn() int { return r.drawn }

// Draw draws the world's sprites on ev.Screen at ev.Alpha. It is an
// [engine.System] for the render phase: sched.AddRender(layer, "render",
// r.Draw). With no screen (headless) it returns at once. Hidden sprites and
// sprites without an image are skipped.
func (r *Render) Draw(w donburi.World, ev engine.Event) {
	r.drawn = 0
	if ev.Screen == nil {
		return
	}
	var v [6]float64 // the view: a, b, c, d, tx, ty
	if e, ok := r.cameras.First(w); ok {
		g := components.CameraC.Get(e).View(components.TransformC.Get(e).At(ev.Alpha), ev.Screen.Bounds())
		v = [6]float64{g.Element(0, 0), g.Element(0, 1), g.Element(1, 0), g.Element(1, 1), g.Element(0, 2), g.Element(1, 2)}
	} else {
		v = [6]float64{1, 0, 0, 1, 0, 0}
	}

	// Collect: each sprite's pose at alpha, and its transform to the screen.
	items := r.items[:0]
	sorted := true
	last, lo, hi := math.MinInt, math.MaxInt, math.MinInt
	for e := range r.sprites.Iter(w) {
		s := components.SpriteC.Get(e)
		if s.Hidden || s.Image == nil {
			continue
		}
		if s.Layer < last {
			sorted = false
		}
		last = s.Layer
		lo, hi = min(lo, s.Layer), max(hi, s.Layer)
		items = append(items, drawItem{img: s.Image, color: s.Color, layer: s.Layer})
		spriteGeoM(&items[len(items)-1].geoM, s, components.TransformC.Get(e).At(ev.Alpha), &v)
	}
	r.items = items
	if !sorted {
		r.sortByLayer(lo, hi)
		items = r.items
	}

	// Draw: a plain DrawImage loop.
	op := &r.op
	for i := range items {
		it := &items[i]
		op.GeoM = it.geoM
		op.ColorScale = it.color
		ev.Screen.DrawImage(it.img, op)
	}
	r.drawn = len(items)
}

// spriteGeoM sets g to the transform that draws s at pose p through the view
// v (a, b, c, d, tx, ty): Translate(-origin), Scale, Rotate(p.Angle),
// Translate(p.X, p.Y), then the view, composed directly.
func spriteGeoM(g *ebiten.GeoM, s *components.Sprite, p components.Pose, v *[6]float64) {
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
	ga, gb := v[0]*a+v[1]*c, v[0]*b+v[1]*d
	gc, gd := v[2]*a+v[3]*c, v[2]*b+v[3]*d
	gx, gy := v[0]*tx+v[1]*ty+v[4], v[2]*tx+v[3]*ty+v[5]
	if gb == 0 && gc == 0 { // upright sprite, unturned camera: GeoM's inlined methods are cheaper
		g.Reset()
		g.Scale(ga, gd)
		g.Translate(gx, gy)
		return
	}
	g.SetElement(0, 0, ga)
	g.SetElement(0, 1, gb)
	g.SetElement(1, 0, gc)
	g.SetElement(1, 1, gd)
	g.SetElement(0, 2, gx)
	g.SetElement(1, 2, gy)
}
