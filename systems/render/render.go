package render

import (
	"cmp"
	"image"
	"math"
	"math/bits"
	"slices"
	"unsafe"

	"github.com/hajimehoshi/ebiten/v2"

	"github.com/fixedstep/fixedstep/components"
	"github.com/fixedstep/fixedstep/components/gfx"
	"github.com/fixedstep/fixedstep/engine"
	"github.com/fixedstep/fixedstep/engine/window"
	"github.com/fixedstep/fixedstep/third_party/donburi"
	"github.com/fixedstep/fixedstep/third_party/donburi/filter"
)

// Sprites is the render system of sprites: it draws every entity with a
// [components.Transform] and a [gfx.Sprite], at its pose interpolated at the frame's alpha
// ([components.Transform.At]: positions blended linearly, angles along the
// shortest arc), lowest [gfx.Sprite.Layer] first, through the camera.
//
// The camera is the first entity with a [components.Camera] and a Transform,
// interpolated at the same alpha (see [gfx.View]). Without one,
// world coordinates are screen pixels, with the origin at the screen's
// top-left corner.
//
// Sprites batches sprites itself: it turns each sprite into a quad (four
// vertices, tinted with its ColorScale) and draws each run of consecutive
// sprites that share a source image with one DrawTriangles32 call. The
// source is the sprite's [gfx.Sprite.Atlas] when set, so a whole
// scene drawn from one atlas is one call, whatever its layers; without Atlas
// it is the sprite's Image. The pixels are those of a DrawImage per sprite
// with the same transform and ColorScale: the same vertices (snapped to the
// destination's pixels as DrawImage snaps them), the same nearest filter,
// source-over blend and shader, so ebiten merges the calls of the two kinds
// into the same GPU draw commands.
//
// It draws fills too ([gfx.Fill]: the segments and boxes of an entity
// with a Transform, a [components.Shape] and a Fill, such as the walls of
// physics.SpawnWalls), a quad a part (nine for a nine-slice), in their
// layers among the sprites, under the sprites of their own layer; Filled
// counts them. Their shapes are read, never changed.
//
// A sprite wholly off the screen is culled: a bounds test (an upright
// sprite's quad; a turned one's circle around its origin, before its sine
// and cosine), without its vertices (Culled counts them). One that covers
// any pixel of the screen is always drawn.
//
// Sprites of equal layers are drawn in query order (the order they were
// created in, until entities are removed). Draw reads the sprites an
// archetype at a time ([donburi.Columns2]) and writes each one's vertices
// once, straight into its layer's span of the frame's vertex buffer, in
// layer order: each layer's span is as long as the layer was in the last
// frame, so that layers met out of order need no sort. When a layer has
// grown, its extra sprites wait in a spill list and the frame's spans are
// merged with it once, in one copy (and a layer that shrank, or a sprite
// culled, leaves a gap the spans after it close up, in one copy each); the
// highest layer's span grows in place. Draw allocates nothing once its
// buffers have grown to the number of sprites.
//
// On amd64 with AVX2 (and without the purego build tag), Draw makes the
// quads of turned sprites, and of upright ones whose origin is on the
// screen, four at a time in vector registers (quads_amd64.s): their sines
// and cosines, transforms, snapped corners and vertices, with the same
// operations in the same order as the scalar way, so the same vertices to
// the bit, and the same sprites culled (TestVectorQuadsAsTheScalarWay).
// A sprite whose angle or coordinates are beyond the vector way's range
// (an angle of 2^29 or more, a vertex 2^23 pixels away, NaNs and
// infinities) goes the scalar way. Elsewhere (the browser, arm64, and
// amd64 built with GOAMD64=v3 or higher, where Go fuses multiply-adds)
// every quad goes the scalar way.
//
// Its cost per sprite is a fraction of a plain loop of DrawImage calls over
// the same sprites with their transforms computed beforehand
// (BenchmarkRenderOverhead times the two in lockstep). Beside one
// DrawTriangles32 call with every vertex computed beforehand, its work is
// the query, interpolation, sine and cosine and vertices
// (BenchmarkRenderOverheadTriangles; BENCHMARKS.md has the ratios).
// TestRenderDrawCommands counts the GPU draw commands ebiten makes of a
// frame: one for a thousand sprites from one atlas, as for the DrawImage
// loop.
type Sprites struct {
	sprites   *donburi.Query
	cameras   *donburi.Query
	fillQuery *donburi.Query
	white     *ebiten.Image // a white pixel, for fills without an image (fill.go)

	// The frame's quads, four vertices a slot, and each slot's source
	// image: the spans' slots, in layer order.
	vertices []ebiten.Vertex
	srcs     []*ebiten.Image
	spans    []layerSpan // by layer, from slot 0 on without gaps
	spill    []spilled   // sprites whose span was full, in query order
	// spanAt[i] is the index in spans of layer spanLo+i, or -1; empty when
	// the spans' layers are too far apart (spanOf searches then).
	spanAt []int32
	spanLo int
	// The other buffers of a merge, swapped with the ones above.
	spareVertices []ebiten.Vertex
	spareSrcs     []*ebiten.Image
	spareSpans    []layerSpan
	spillOrder    []spillKey

	// A chunk's sprites, and their quads, for vectorQuads.
	vector    vectorIn
	vectorOut [chunk][4]ebiten.Vertex

	indices   []uint32 // 0, 1, 2, 1, 2, 3, then the same 4 higher per quad
	opts      ebiten.DrawTrianglesOptions
	drawn     int
	filled    int
	culled    int
	drawCalls int
}

// maxBatch is the most sprites Draw submits in one DrawTriangles32 call.
// ebiten takes up to [ebiten.MaxVertexCount] vertices a call (2^32-1 on
// 64-bit systems, some 2^28 on 32-bit ones), far more than this; the limit
// keeps the index buffer, and each call's copy in ebiten, small.
const maxBatch = min(4096, ebiten.MaxVertexCount/4)

// layerSpan is one layer's run of slots in Sprites.vertices: size slots from
// start, the layer's count in the last frame drawn; n of them written this
// frame.
type layerSpan struct {
	layer          int
	start, size, n int
}

func byLayer(s layerSpan, layer int) int { return cmp.Compare(s.layer, layer) }

// maxSpanTable is the widest range of layers spanOf looks up in a table.
const maxSpanTable = 4096

// chunk is how many sprites Draw takes at a time through each of its
// steps: their poses, their sines and cosines, their vertices. Each step's
// loop does the same independent work for each sprite, so that the CPU
// overlaps the sprites' memory loads and long chains of arithmetic (a
// sine and a cosine are some 60 dependent operations), which one loop
// doing all of a sprite's work at once keeps in sequence.
const chunk = 64

// A chunk's sprites are bits of a uint64 (vectorQuads, quads): chunk is
// at most 64.
var _ = [1]int{}[chunk/65]

// prefetchAhead is how many sprites ahead of the one it takes build asks
// the CPU for the components of, eight at a time (prefetch): after a flush
// they are mostly out of the caches, and the hardware's own prefetching
// does not follow donburi's pointers. BENCHMARKS.md has the distances
// tried.
const prefetchAhead = 32

// pending is a sprite taken into a chunk: its pose at the frame's alpha
// and the sine and cosine of its angle (0 and 1 upright).
type pending struct {
	s        *gfx.Sprite
	p        components.Pose
	sin, cos float64
}

// vectorIn is what quadsAVX2 reads of a chunk's sprites, an array a value
// (the offsets in quads_amd64.s follow this layout): their poses, scales
// and origins, their images' sizes, source rectangles and colours, and
// the clip; and what it keeps between its steps: their sines and cosines,
// and their transforms.
type vectorIn struct {
	angle, x, y      [chunk]float64
	scaleX, scaleY   [chunk]float64
	originX, originY [chunk]float64
	w, h             [chunk]float32

	sin, cos                 [chunk]float64
	ga, gb, gc, gd, gtx, gty [chunk]float32

	src   [chunk][4]float32 // the image's rectangle in its source: x0, y0, x1, y1
	color [chunk][4]float32 // the ColorScale's r, g, b, a
	clip  [4]float32        // x0, y0, x1, y1
}

// spilled is a sprite's quad that found its layer's span full (or no span
// for its layer) this frame.
type spilled struct {
	quad  [4]ebiten.Vertex
	src   *ebiten.Image
	layer int
}

// spillKey orders the spill list by layer, stably, without moving its quads.
type spillKey struct {
	layer int
	i     int
}

// New returns a render system for the world w. The queries are
// evaluated for w at once, so that the first frame does not pay for it; w may
// be nil.
func New(w donburi.World) *Sprites {
	r := &Sprites{
		sprites:   donburi.NewQuery(filter.Contains(components.TransformC, gfx.SpriteC)),
		cameras:   donburi.NewQuery(filter.Contains(components.CameraC, components.TransformC)),
		fillQuery: donburi.NewQuery(filter.Contains(components.TransformC, components.ShapeC, gfx.FillC)),
		// The vertices carry a ColorScale's components, which are premultiplied.
		opts: ebiten.DrawTrianglesOptions{ColorScaleMode: ebiten.ColorScaleModePremultipliedAlpha},
	}
	if w != nil {
		r.sprites.Count(w)
		r.cameras.Count(w)
		r.fillQuery.Count(w)
	}
	return r
}

// Drawn returns the number of sprites the last Draw drew.
func (r *Sprites) Drawn() int { return r.drawn }

// Filled returns the number of quads the last Draw drew for fills
// ([gfx.Fill]): one a part, up to nine for a nine-slice.
func (r *Sprites) Filled() int { return r.filled }

// Culled returns the number of sprites, and of fills' parts, the last Draw
// left out because they were wholly off the screen.
func (r *Sprites) Culled() int { return r.culled }

// DrawCalls returns the number of DrawTriangles32 calls the last Draw made:
// one per run of consecutive sprites, in drawing order, that share a source
// image (see [gfx.Sprite.Atlas]), and one more for every maxBatch
// (4096) sprites of a run. ebiten may merge calls further into one GPU draw
// command.
func (r *Sprites) DrawCalls() int { return r.drawCalls }

// Draw draws the world's sprites on the event's screen at ev.Alpha. It is an
// [engine.System] for the render phase: sched.AddRender(layer, "render",
// r.Draw). With no screen (headless) it returns at once. Hidden sprites and
// sprites without an image are skipped.
func (r *Sprites) Draw(w donburi.World, ev engine.Event) {
	r.drawn, r.filled, r.culled, r.drawCalls = 0, 0, 0, 0
	screen := window.Screen(ev)
	if screen == nil {
		return
	}
	n := r.build(w, ev.Alpha, screen.Bounds())
	r.drawn = n - r.filled
	r.submit(screen, n)
}

// submit draws the n slots build wrote on screen: each run of one source
// image, maxBatch quads at a time.
func (r *Sprites) submit(screen *ebiten.Image, n int) {
	if n == 0 {
		return
	}
	r.grow(min(n, maxBatch))
	start, src := 0, r.srcs[0]
	for i := 1; i <= n; i++ {
		if i < n && r.srcs[i] == src && i-start < maxBatch {
			continue
		}
		screen.DrawTriangles32(r.vertices[4*start:4*i], r.indices[:6*(i-start)], src, &r.opts)
		r.drawCalls++
		if i < n {
			start, src = i, r.srcs[i]
		}
	}
}

// build writes the vertices of the world's sprites at alpha, seen through
// the camera on a screen of bounds sb, into slots 0..n of r.vertices and
// r.srcs, in layer order, and returns n: everything Draw does but its
// DrawTriangles32 calls (BenchmarkBuild times it alone).
func (r *Sprites) build(w donburi.World, alpha float64, sb image.Rectangle) int {
	var v [6]float64 // the view: a, b, c, d, tx, ty
	if e, ok := r.cameras.First(w); ok {
		g := gfx.View(components.CameraC.Get(e), components.TransformC.Get(e).At(alpha), sb)
		v = [6]float64{g.Element(0, 0), g.Element(0, 1), g.Element(1, 0), g.Element(1, 1), g.Element(0, 2), g.Element(1, 2)}
	} else {
		v = [6]float64{1, 0, 0, 1, 0, 0}
	}

	// The screen, for culling, and how much the view stretches a length.
	clip := [4]float32{float32(sb.Min.X), float32(sb.Min.Y), float32(sb.Max.X), float32(sb.Max.Y)}
	stretch := maxStretch(&v)
	var view [6][4]float64 // v in four lanes each, for vectorQuads
	for i, x := range v {
		view[i] = [4]float64{x, x, x, x}
	}
	r.vector.clip = clip

	// The fills' quads first, each in its layer's span; then each sprite's
	// pose at alpha, its quad on the screen, its vertices in its layer's
	// span, a chunk of sprites at a time.
	r.begin()
	r.filled = r.fills(w, alpha, &v, &clip)
	var batch [chunk]pending
	for cols := range donburi.Columns2(r.sprites, w, components.TransformC, gfx.SpriteC) {
		entities, transforms, sprites := cols.Entities, cols.A, cols.B
		for from := 0; from < len(entities); from += chunk {
			to := min(from+chunk, len(entities))
			// The poses: Transform.At, written out (a call would cost
			// more than its arithmetic), and turned sprites culled.
			m, turned := 0, false
			var onClip uint64 // the sprites whose origin is on the clip, by index in batch
			for i := from; i < to; i++ {
				if (i-from)&7 == 0 && i+prefetchAhead+8 <= len(entities) {
					prefetch((*unsafe.Pointer)(unsafe.Pointer(&transforms[i+prefetchAhead])),
						(*unsafe.Pointer)(unsafe.Pointer(&sprites[i+prefetchAhead])), 8)
				}
				s := sprites[i]
				if !entities[i].IsReady() || s.Hidden || s.Image == nil {
					continue
				}
				t := transforms[i]
				turn := t.Cur.Angle - t.Prev.Angle
				if !(-math.Pi <= turn && turn < math.Pi) {
					turn = components.AngleDiff(t.Prev.Angle, t.Cur.Angle)
				}
				p := components.Pose{
					X:     t.Prev.X + (t.Cur.X-t.Prev.X)*alpha,
					Y:     t.Prev.Y + (t.Cur.Y-t.Prev.Y)*alpha,
					Angle: t.Prev.Angle + turn*alpha,
				}
				x := v[0]*p.X + v[1]*p.Y + v[4]
				y := v[2]*p.X + v[3]*p.Y + v[5]
				on := x >= float64(clip[0]) && x <= float64(clip[2]) && y >= float64(clip[1]) && y <= float64(clip[3])
				if p.Angle != 0 {
					// A turned sprite off the screen, before its sine
					// and cosine: one whose origin is on the screen is
					// not.
					turned = true
					if !on && turnedOffScreen(s, p, s.Image.Bounds(), &v, stretch, &clip) {
						r.culled++
						continue
					}
				}
				if on {
					onClip |= 1 << m
				}
				batch[m] = pending{s: s, p: p, sin: 0, cos: 1}
				m++
			}
			// The quads: vectorQuads makes those of the turned sprites and
			// of the upright ones whose origin is on the clip (the others
			// are culled cheaper by quads); quads, the rest.
			var made, culled uint64
			switch {
			case useVector:
				made, culled = r.vectorQuads(batch[:m], onClip, &view)
			case turned:
				sines(batch[:m])
			}
			r.quads(batch[:m], made, culled, &v, &clip)
		}
	}
	return r.end()
}

// begin readies the spans for a frame: nothing written, room for every
// slot they reserve.
func (r *Sprites) begin() {
	total := 0
	for k := range r.spans {
		r.spans[k].n = 0
		total = r.spans[k].start + r.spans[k].size
	}
	r.ensure(total)
	r.spill = r.spill[:0]
	r.spanAt = r.spanAt[:0]
	if k := len(r.spans); k > 0 && uint(r.spans[k-1].layer-r.spans[0].layer) < maxSpanTable {
		r.spanLo = r.spans[0].layer
		r.spanAt = slices.Grow(r.spanAt, r.spans[k-1].layer-r.spanLo+1)[:r.spans[k-1].layer-r.spanLo+1]
		for i := range r.spanAt {
			r.spanAt[i] = -1
		}
		for k, sp := range r.spans {
			r.spanAt[sp.layer-r.spanLo] = int32(k)
		}
	}
}

// ensure makes room for n slots in r.vertices and r.srcs.
func (r *Sprites) ensure(n int) {
	if n > len(r.srcs) {
		n = max(n, 2*len(r.srcs))
		r.vertices = slices.Grow(r.vertices[:0], 4*n)[:4*n]
		r.srcs = slices.Grow(r.srcs[:0], n)[:n]
	}
}

// slot returns where the vertices of a sprite of the given layer go, and
// notes its source image there: the next slot of its layer's span; the
// highest layer's span grows; a sprite that finds its span full, or none
// for its layer, goes to the spill list.
func (r *Sprites) slot(layer int, src *ebiten.Image) *[4]ebiten.Vertex {
	k := r.spanOf(layer)
	if k >= 0 {
		sp := &r.spans[k]
		if sp.n < sp.size || k == len(r.spans)-1 {
			i := sp.start + sp.n
			sp.n++
			if i >= len(r.srcs) { // the highest span, grown
				r.growKeep(i + 1)
			}
			r.srcs[i] = src
			return (*[4]ebiten.Vertex)(r.vertices[4*i : 4*i+4])
		}
	}
	r.spill = append(r.spill, spilled{src: src, layer: layer})
	return &r.spill[len(r.spill)-1].quad
}

// growKeep makes room for n slots, keeping what the slots hold.
func (r *Sprites) growKeep(n int) {
	n = max(n, 2*len(r.srcs))
	r.vertices = slices.Grow(r.vertices, 4*n-len(r.vertices))[:4*n]
	r.srcs = slices.Grow(r.srcs, n-len(r.srcs))[:n]
}

// spanOf returns the index of the span of layer, or -1: from the table
// when there is one, else by binary search.
func (r *Sprites) spanOf(layer int) int {
	if len(r.spanAt) > 0 {
		if i := uint(layer - r.spanLo); i < uint(len(r.spanAt)) {
			return int(r.spanAt[i])
		}
		return -1
	}
	k, found := slices.BinarySearchFunc(r.spans, layer, byLayer)
	if !found {
		return -1
	}
	return k
}

// end puts the frame's quads in slots 0..n, in layer order, and sizes the
// spans for the next frame by this one's counts; it returns n. When no
// sprite spilled, the spans move down over the gaps of those that were
// not filled (one copy each, none when every span is full); otherwise
// the spans and the spill list are merged into the spare buffers.
func (r *Sprites) end() int {
	if len(r.spill) > 0 {
		return r.merge()
	}
	n, j := 0, 0
	for _, sp := range r.spans {
		if sp.n == 0 {
			continue
		}
		if sp.start != n {
			copy(r.vertices[4*n:4*(n+sp.n)], r.vertices[4*sp.start:4*(sp.start+sp.n)])
			copy(r.srcs[n:n+sp.n], r.srcs[sp.start:sp.start+sp.n])
		}
		r.spans[j] = layerSpan{layer: sp.layer, start: n, size: sp.n}
		n += sp.n
		j++
	}
	r.spans = r.spans[:j]
	return n
}

// merge puts the spans' quads and the spilled ones in the spare buffers, in
// layer order (each layer's spilled quads after its span's, which came
// first in query order), makes those the frame's, and returns their count.
func (r *Sprites) merge() int {
	keys := r.spillOrder[:0]
	for i := range r.spill {
		keys = append(keys, spillKey{layer: r.spill[i].layer, i: i})
	}
	slices.SortStableFunc(keys, func(a, b spillKey) int { return cmp.Compare(a.layer, b.layer) })
	r.spillOrder = keys
	total := len(keys)
	for _, sp := range r.spans {
		total += sp.n
	}
	if total > len(r.spareSrcs) {
		r.spareVertices = slices.Grow(r.spareVertices[:0], 4*total)[:4*total]
		r.spareSrcs = slices.Grow(r.spareSrcs[:0], total)[:total]
	}
	vs, srcs, spans := r.spareVertices, r.spareSrcs, r.spareSpans[:0]
	n, i, j := 0, 0, 0
	for i < len(r.spans) || j < len(keys) {
		layer := 0
		switch {
		case i == len(r.spans):
			layer = keys[j].layer
		case j == len(keys):
			layer = r.spans[i].layer
		default:
			layer = min(r.spans[i].layer, keys[j].layer)
		}
		start := n
		if i < len(r.spans) && r.spans[i].layer == layer {
			sp := r.spans[i]
			copy(vs[4*n:4*(n+sp.n)], r.vertices[4*sp.start:4*(sp.start+sp.n)])
			copy(srcs[n:n+sp.n], r.srcs[sp.start:sp.start+sp.n])
			n += sp.n
			i++
		}
		for ; j < len(keys) && keys[j].layer == layer; j++ {
			s := &r.spill[keys[j].i]
			copy(vs[4*n:4*n+4], s.quad[:])
			srcs[n] = s.src
			n++
		}
		if n > start {
			spans = append(spans, layerSpan{layer: layer, start: start, size: n - start})
		}
	}
	r.vertices, r.spareVertices = vs, r.vertices
	r.srcs, r.spareSrcs = srcs, r.srcs
	r.spans, r.spareSpans = spans, r.spans
	clear(r.spill) // drop the images it points to
	r.spill = r.spill[:0]
	return n
}

// grow makes room for n quads in r.indices.
func (r *Sprites) grow(n int) {
	if k := len(r.indices) / 6; k < n {
		r.indices = slices.Grow(r.indices, 6*(n-k))
		for q := uint32(k); q < uint32(n); q++ {
			r.indices = append(r.indices, 4*q, 4*q+1, 4*q+2, 4*q+1, 4*q+2, 4*q+3)
		}
	}
}

// quads turns the sprites of a chunk into vertices in their layers' spans:
// each one's transform to the screen, the bounds test of an upright one,
// its four vertices. It is one loop with no call for a sprite on the usual
// path (the compiler inlines none of it as functions: each would spill the
// float registers around its call). The sprites in made (bit j for
// batch[j]) have their quads in r.vectorOut, which it copies to their
// slots; those in culled, vectorQuads found off the clip.
//
// The transform is Translate(-origin), Scale, Rotate (by the sine and
// cosine in b), Translate(p.X, p.Y), then the view v (a, b, c, d, tx, ty),
// composed directly in float64 and rounded to float32 as DrawImage rounds
// its GeoM (which holds a-1 and d-1). The vertices are the four DrawImage
// makes (ebiten's internal graphics.QuadVerticesFromSrcAndMatrix, and its
// order): the corners of the image's rectangle in its source, top-left,
// top-right, bottom-left, bottom-right, each carried to the screen and
// snapped by snap, tinted by the sprite's colour scale. An upright quad (b
// and c zero, so that by and cx are zeros too) has two distinct x and two
// distinct y: it snaps those four, which give the same vertices as eight.
// An upright sprite is culled when the box around its corners (before
// snapping, which moves them by less than half a pixel) lies beyond an edge
// of clip; by and cx, zeros, add nothing to it that a comparison sees.
func (r *Sprites) quads(batch []pending, made, culled uint64, v *[6]float64, clip *[4]float32) {
	for j := range batch {
		if culled>>j&1 != 0 {
			r.culled++
			continue
		}
		p := &batch[j]
		s := p.s
		var x0, x1, x2, x3, y0, y1, y2, y3 float32
		var sx0, sy0, sx1, sy1 float32 // the image's rectangle in its source
		if made>>j&1 == 0 {
			bounds := s.Image.Bounds()
			sx0, sy0 = float32(bounds.Min.X), float32(bounds.Min.Y)
			sx1, sy1 = float32(bounds.Max.X), float32(bounds.Max.Y)
			sx, sy := s.Scale()
			a, b := p.cos*sx, -p.sin*sy
			c, d := p.sin*sx, p.cos*sy
			tx := p.p.X - (a*s.OriginX + b*s.OriginY)
			ty := p.p.Y - (c*s.OriginX + d*s.OriginY)
			ga := float32(v[0]*a+v[1]*c-1) + 1
			gb := float32(v[0]*b + v[1]*d)
			gc := float32(v[2]*a + v[3]*c)
			gd := float32(v[2]*b+v[3]*d-1) + 1
			gtx := float32(v[0]*tx + v[1]*ty + v[4])
			gty := float32(v[2]*tx + v[3]*ty + v[5])
			w, h := sx1-sx0, sy1-sy0
			ax, by, cx, dy := ga*w, gb*h, gc*w, gd*h
			upright := gb == 0 && gc == 0
			if p.p.Angle == 0 { // culled by its quad, which cost no sine and cosine
				var x0, x1, y0, y1 float32
				if upright {
					x0, x1 = gtx+min(ax, 0), gtx+max(ax, 0)
					y0, y1 = gty+min(dy, 0), gty+max(dy, 0)
				} else {
					x0, x1 = gtx+min(ax, 0)+min(by, 0), gtx+max(ax, 0)+max(by, 0)
					y0, y1 = gty+min(cx, 0)+min(dy, 0), gty+max(cx, 0)+max(dy, 0)
				}
				if x1 <= clip[0] || x0 >= clip[2] || y1 <= clip[1] || y0 >= clip[3] {
					r.culled++
					continue
				}
			}
			if upright {
				x0, x1 = snap(gtx), snap(ax+gtx)
				y0, y2 = snap(gty), snap(dy+gty)
				x2, x3, y1, y3 = x0, x1, y0, y2
			} else {
				x0, y0 = snap(gtx), snap(gty)
				x1, y1 = snap(ax+gtx), snap(cx+gty)
				x2, y2 = snap(by+gtx), snap(dy+gty)
				x3, y3 = snap(ax+by+gtx), snap(cx+dy+gty)
			}
		}
		src := s.Atlas
		if src == nil {
			src = s.Image
		}
		var q *[4]ebiten.Vertex // the next slot of the layer's span: a table lookup, or slot
		if i := uint(s.Layer - r.spanLo); i < uint(len(r.spanAt)) {
			if k := r.spanAt[i]; k >= 0 {
				sp := &r.spans[k]
				if n := sp.start + sp.n; sp.n < sp.size && n < len(r.srcs) {
					sp.n++
					r.srcs[n] = src
					q = (*[4]ebiten.Vertex)(r.vertices[4*n : 4*n+4])
				}
			}
		}
		if q == nil {
			q = r.slot(s.Layer, src)
		}
		if made>>j&1 != 0 {
			*q = r.vectorOut[j]
			continue
		}
		cr, cg, cb, ca := s.Color.R(), s.Color.G(), s.Color.B(), s.Color.A()
		setVertex(&q[0], x0, y0, sx0, sy0, cr, cg, cb, ca)
		setVertex(&q[1], x1, y1, sx1, sy0, cr, cg, cb, ca)
		setVertex(&q[2], x2, y2, sx0, sy1, cr, cg, cb, ca)
		setVertex(&q[3], x3, y3, sx1, sy1, cr, cg, cb, ca)
	}
}

// vectorQuads makes the quads of a chunk's turned sprites and of the
// upright ones in want (bit j for batch[j]) with quadsAVX2, four at a
// time, each sprite's in r.vectorOut at its index in batch. It returns a
// bit for each sprite whose quad it made, and one for each upright sprite
// it found off the clip (by its box, as quads culls). It gathers the
// sprites' poses, scales, origins, sizes, source rectangles and colours;
// the lanes of the sprites it leaves are computed and dropped. A turned
// sprite the vector way cannot do exactly (an angle of 2^29 or more, a
// coordinate of 2^23 or more, NaNs and infinities) is left to quads, with
// its sine and cosine from math.Sincos; an upright one, as it is. view is
// the view's six numbers, each in four lanes.
func (r *Sprites) vectorQuads(batch []pending, want uint64, view *[6][4]float64) (made, culled uint64) {
	in := &r.vector
	var upright uint64
	for j := range batch {
		b := &batch[j]
		angle := b.p.Angle
		switch {
		case angle == 0:
			if want>>j&1 == 0 {
				continue
			}
			angle = 0 // not -0, whose sine quadsAVX2 would take as -0
			upright |= 1 << j
		case !(math.Abs(angle) < 1<<29):
			b.sin, b.cos = math.Sincos(angle)
			continue
		}
		s := b.s
		sx, sy := s.Scale()
		bounds := s.Image.Bounds()
		sx0, sy0 := float32(bounds.Min.X), float32(bounds.Min.Y)
		sx1, sy1 := float32(bounds.Max.X), float32(bounds.Max.Y)
		in.angle[j], in.x[j], in.y[j] = angle, b.p.X, b.p.Y
		in.scaleX[j], in.scaleY[j] = sx, sy
		in.originX[j], in.originY[j] = s.OriginX, s.OriginY
		in.w[j], in.h[j] = sx1-sx0, sy1-sy0
		in.src[j] = [4]float32{sx0, sy0, sx1, sy1}
		in.color[j] = [4]float32{s.Color.R(), s.Color.G(), s.Color.B(), s.Color.A()}
		made |= 1 << j
	}
	if made == 0 {
		return 0, 0
	}
	bad, off := quadsAVX2(in, view, len(batch), &r.vectorOut)
	bad &= made
	for rest := bad &^ upright; rest != 0; rest &= rest - 1 {
		b := &batch[bits.TrailingZeros64(rest)]
		b.sin, b.cos = math.Sincos(b.p.Angle)
	}
	made &^= bad
	return made, off & made & upright
}

// setVertex writes a vertex's position, source and colour. Its Custom
// fields are left alone: zero in every slot, as the buffers were allocated
// and as every vertex was written, and a whole Vertex is a third more bytes
// to store.
func setVertex(v *ebiten.Vertex, dx, dy, sx, sy, r, g, b, a float32) {
	v.DstX, v.DstY, v.SrcX, v.SrcY = dx, dy, sx, sy
	v.ColorR, v.ColorG, v.ColorB, v.ColorA = r, g, b, a
}

// snap moves a destination coordinate off the centre of a pixel, to the
// nearest of 0, 5/16, 11/16 or 1 of the way across it, as DrawImage does
// (ebiten's internal graphics.adjustDestinationPixel: sampling at a
// pixel's centre is unstable between GPUs, ebiten issues #929 and #1171).
// It gives the same results as ebiten's switch on the fraction, without its
// branches, which random fractions would mispredict. For x in [0, 2^59),
// every coordinate on the screen, k = int(16x) holds both parts: the whole
// part is k>>4 and the sixteenths of the fraction k&15, since multiplying
// by 16 is exact; snapOther takes the rest.
func snap(x float32) float32 {
	if x >= 0 && x < 1<<59 {
		k := int64(x * 16)
		return float32(k>>4) + snapTo[k&15]
	}
	return snapOther(x)
}

// snapOther is snap for any x: frac < 3/16 exactly when int(frac*16) < 3.
// (The fraction rounds to 1 for a tiny negative x, hence the 17th entry of
// snapTo; NaN and infinities, which draw nothing, take it too rather than
// panic.)
func snapOther(x float32) float32 {
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

// turnedOffScreen reports whether turned sprite s, its image's rectangle
// bounds, at pose p through the view v, covers no pixel of clip (x0, y0,
// x1, y1), without its sine and cosine: by the circle around its origin
// that holds its rectangle at any angle, its radius times stretch, the
// most the view stretches a length. A sprite whose origin is on the clip
// is not off it, whatever its radius: that is known first. The snapping of
// vertices moves them by less than half a pixel, so a quad whose extent
// ends on the clip's edge covers none of its pixels' centres.
func turnedOffScreen(s *gfx.Sprite, p components.Pose, bounds image.Rectangle, v *[6]float64, stretch float64, clip *[4]float32) bool {
	x := v[0]*p.X + v[1]*p.Y + v[4]
	y := v[2]*p.X + v[3]*p.Y + v[5]
	dx := max(float64(clip[0])-x, x-float64(clip[2]), 0) // how far the origin is beside the clip, or 0
	dy := max(float64(clip[1])-y, y-float64(clip[3]), 0)
	if !(dx > 0 || dy > 0) {
		return false
	}
	sx, sy := s.Scale()
	w, h := float64(bounds.Dx()), float64(bounds.Dy())
	ex := max(math.Abs(s.OriginX*sx), math.Abs((w-s.OriginX)*sx))
	ey := max(math.Abs(s.OriginY*sy), math.Abs((h-s.OriginY)*sy))
	rr := (ex*ex + ey*ey) * stretch * stretch // the radius, squared: no square root
	return dx*dx >= rr && dx > 0 || dy*dy >= rr && dy > 0
}

// maxStretch returns the most the linear part of view v (a, b, c, d)
// lengthens a vector: its largest singular value.
func maxStretch(v *[6]float64) float64 {
	t := v[0]*v[0] + v[1]*v[1] + v[2]*v[2] + v[3]*v[3]
	d := v[0]*v[3] - v[1]*v[2]
	return math.Sqrt((t + math.Sqrt(max(t*t-4*d*d, 0))) / 2)
}
