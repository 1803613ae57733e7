package render_test

import (
	"bytes"
	"cmp"
	"fmt"
	"image"
	"image/color"
	"math"
	"math/rand/v2"
	"slices"
	"testing"
	"time"

	"github.com/hajimehoshi/ebiten/v2"

	"github.com/fixedstep/fixedstep/components"
	"github.com/fixedstep/fixedstep/components/gfx"
	"github.com/fixedstep/fixedstep/engine"
	"github.com/fixedstep/fixedstep/internal/ebitentest"
	"github.com/fixedstep/fixedstep/systems/render"
	"github.com/fixedstep/fixedstep/third_party/donburi"
)

const screenW, screenH = 200, 100

var (
	red   = color.RGBA{255, 0, 0, 255}
	green = color.RGBA{0, 255, 0, 255}
	blue  = color.RGBA{0, 0, 255, 255}
	white = color.RGBA{255, 255, 255, 255}
)

// testAtlas is one source image with the test sprites as sub-images, so that
// they batch as a game's atlas does.
type testAtlas struct {
	img                   *ebiten.Image
	red, green, blue, bar *ebiten.Image // 8x8 squares and a 16x4 red bar
	white                 *ebiten.Image // 8x8, for tinting
}

// newTestAtlas builds the atlas; it must run on the game (onGame).
func newTestAtlas() *testAtlas {
	src := image.NewRGBA(image.Rect(0, 0, 64, 64))
	fill := func(r image.Rectangle, c color.RGBA) {
		for y := r.Min.Y; y < r.Max.Y; y++ {
			for x := r.Min.X; x < r.Max.X; x++ {
				src.SetRGBA(x, y, c)
			}
		}
	}
	rects := []image.Rectangle{
		image.Rect(0, 0, 8, 8), image.Rect(8, 0, 16, 8), image.Rect(16, 0, 24, 8),
		image.Rect(0, 16, 16, 20), image.Rect(24, 0, 32, 8),
	}
	for i, c := range []color.RGBA{red, green, blue, red, white} {
		fill(rects[i], c)
	}
	img := ebiten.NewImageFromImage(src)
	sub := func(r image.Rectangle) *ebiten.Image { return img.SubImage(r).(*ebiten.Image) }
	return &testAtlas{img: img, red: sub(rects[0]), green: sub(rects[1]), blue: sub(rects[2]),
		bar: sub(rects[3]), white: sub(rects[4])}
}

// addSprite creates an entity with a transform and a sprite and returns it.
func addSprite(w donburi.World, t components.Transform, s gfx.Sprite) donburi.Entity {
	e := w.Create(components.TransformC, gfx.SpriteC)
	entry := w.Entry(e)
	components.TransformC.SetValue(entry, t)
	gfx.SpriteC.SetValue(entry, s)
	return e
}

// addCamera creates a camera entity.
func addCamera(w donburi.World, t components.Transform, c components.Camera) donburi.Entity {
	e := w.Create(components.CameraC, components.TransformC)
	entry := w.Entry(e)
	components.TransformC.SetValue(entry, t)
	components.CameraC.SetValue(entry, c)
	return e
}

// drawFrame clears dst, draws the world on it at alpha and reads it back. It
// must run on the game (onGame).
func drawFrame(r *render.Sprites, w donburi.World, dst *ebiten.Image, alpha float64) ebitentest.Frame {
	dst.Clear()
	r.Draw(w, engine.Event{Kind: engine.Render, Alpha: alpha, Screen: dst})
	return ebitentest.ReadFrame(dst)
}

// span returns the first and last column of c, or -1, -1.
func span(xs []int) (int, int) {
	if len(xs) == 0 {
		return -1, -1
	}
	return xs[0], xs[len(xs)-1]
}

// A sprite between two ticks is drawn at the interpolated position: at x=10
// for alpha 0, at x=20 for alpha 0.5, between Prev x=10 and Cur x=30.
func TestRenderInterpolates(t *testing.T) {
	var at0, atHalf ebitentest.Frame
	var drawn int
	ebitentest.OnGame(t, func() {
		atlas := newTestAtlas()
		w := donburi.NewWorld()
		tr := components.NewTransform(components.Pose{X: 10, Y: 40})
		tr.Set(components.Pose{X: 30, Y: 40})
		addSprite(w, tr, gfx.Sprite{Image: atlas.red})
		addSprite(w, tr, gfx.Sprite{Image: atlas.blue, Hidden: true})
		addSprite(w, tr, gfx.Sprite{}) // no image
		r := render.New(w)
		dst := ebiten.NewImage(screenW, screenH)
		at0 = drawFrame(r, w, dst, 0)
		atHalf = drawFrame(r, w, dst, 0.5)
		drawn = r.Drawn()
	})
	if first, last := span(at0.Columns(red)); first != 10 || last != 17 {
		t.Errorf("alpha 0: red in columns %d..%d, want 10..17", first, last)
	}
	if first, last := span(atHalf.Columns(red)); first != 20 || last != 27 {
		t.Errorf("alpha 0.5: red in columns %d..%d, want 20..27", first, last)
	}
	if xs := atHalf.Columns(blue); len(xs) != 0 {
		t.Errorf("a hidden sprite was drawn in columns %v", xs)
	}
	if drawn != 1 {
		t.Errorf("Drawn() = %d, want 1 (hidden and image-less sprites skipped)", drawn)
	}
}

// A teleported sprite appears only at its new place, never in between.
func TestRenderTeleport(t *testing.T) {
	var f ebitentest.Frame
	ebitentest.OnGame(t, func() {
		atlas := newTestAtlas()
		w := donburi.NewWorld()
		tr := components.NewTransform(components.Pose{X: 10, Y: 40})
		tr.Set(components.Pose{X: 30, Y: 40})
		tr.Teleport(components.Pose{X: 100, Y: 40})
		addSprite(w, tr, gfx.Sprite{Image: atlas.red})
		f = drawFrame(render.New(w), w, ebiten.NewImage(screenW, screenH), 0.5)
	})
	if first, last := span(f.Columns(red)); first != 100 || last != 107 {
		t.Errorf("teleported: red in columns %v, want only 100..107", f.Columns(red))
	}
}

// A sprite wrapped across the right edge of a 200-wide world is drawn moving
// on past the edge, never streaking back across the screen.
func TestRenderWrapNoStreak(t *testing.T) {
	var fs []ebitentest.Frame
	var wrapped bool
	ebitentest.OnGame(t, func() {
		atlas := newTestAtlas()
		w := donburi.NewWorld()
		tr := components.NewTransform(components.Pose{X: 190, Y: 40})
		tr.Set(components.Pose{X: 205, Y: 40}) // moving right by 15 a tick, past the edge
		wrapped = tr.Wrap(0, 0, screenW, screenH)
		addSprite(w, tr, gfx.Sprite{Image: atlas.red})
		r := render.New(w)
		dst := ebiten.NewImage(screenW, screenH)
		for _, alpha := range []float64{0, 0.25, 0.5, 0.75} {
			fs = append(fs, drawFrame(r, w, dst, alpha))
		}
	})
	if !wrapped {
		t.Fatal("Transform.Wrap did not wrap")
	}
	// Prev is now x=-10 (off screen, left), Cur x=5: from alpha 0.5 on, the
	// sprite shows at the left edge.
	for i, f := range fs {
		xs := f.Columns(red)
		if i >= 2 && len(xs) == 0 {
			t.Errorf("frame %d: the sprite is not drawn", i)
		}
		for _, x := range xs {
			if x >= 20 && x < screenW-20 {
				t.Errorf("frame %d: red in the middle of the screen (columns %v): a streak", i, xs)
				break
			}
		}
	}
}

// The camera is interpolated like any entity: a static sprite moves on screen
// by the camera's interpolated offset. Zoom scales about the screen's centre
// and the camera's angle turns the world the other way.
func TestRenderCamera(t *testing.T) {
	var at0, atHalf, zoomed, turned ebitentest.Frame
	ebitentest.OnGame(t, func() {
		atlas := newTestAtlas()
		w := donburi.NewWorld()
		addSprite(w, components.NewTransform(components.Pose{X: 50, Y: 40}), gfx.Sprite{Image: atlas.red})
		// The camera at the screen's centre draws the world as it is.
		camTr := components.NewTransform(components.Pose{X: screenW / 2, Y: screenH / 2})
		camTr.Set(components.Pose{X: screenW/2 + 20, Y: screenH / 2})
		addCamera(w, camTr, components.Camera{})
		r := render.New(w)
		dst := ebiten.NewImage(screenW, screenH)
		at0 = drawFrame(r, w, dst, 0)
		atHalf = drawFrame(r, w, dst, 0.5)

		w2 := donburi.NewWorld()
		addSprite(w2, components.NewTransform(components.Pose{X: 100, Y: 50}), gfx.Sprite{Image: atlas.red})
		addCamera(w2, components.NewTransform(components.Pose{X: 100, Y: 50}), components.Camera{Zoom: 2})
		r2 := render.New(w2)
		zoomed = drawFrame(r2, w2, dst, 0)

		// A sprite 20 units right of a camera turned by a quarter turn shows
		// 20 pixels above the centre.
		w3 := donburi.NewWorld()
		addSprite(w3, components.NewTransform(components.Pose{X: 120, Y: 50}), gfx.Sprite{Image: atlas.red})
		addCamera(w3, components.NewTransform(components.Pose{X: 100, Y: 50, Angle: math.Pi / 2}), components.Camera{})
		turned = drawFrame(render.New(w3), w3, dst, 0)
	})
	if first, last := span(at0.Columns(red)); first != 50 || last != 57 {
		t.Errorf("camera at alpha 0: red in columns %d..%d, want 50..57", first, last)
	}
	if first, last := span(atHalf.Columns(red)); first != 40 || last != 47 {
		t.Errorf("camera at alpha 0.5 (moved 10 right): red in columns %d..%d, want 40..47", first, last)
	}
	if first, last := span(zoomed.Columns(red)); first != 100 || last != 115 {
		t.Errorf("zoom 2: red in columns %d..%d, want 100..115", first, last)
	}
	if c := turned.At(103, 26); c != red {
		t.Errorf("turned camera: pixel (103, 26) is %v, want red (the sprite 20 px above the centre)", c)
	}
	if xs := turned.Columns(red); len(xs) == 0 || xs[0] < 95 || xs[len(xs)-1] > 110 {
		t.Errorf("turned camera: red in columns %v, want about 100..108", xs)
	}
}

// Layers: a higher layer is drawn over a lower one whatever the creation
// order; equal layers keep their query (creation) order. Both sorts: small
// layer numbers (counted) and layers far apart (merge-sorted).
func TestRenderLayers(t *testing.T) {
	for _, scale := range []int{1, 1_000_000} {
		t.Run(fmt.Sprintf("layers*%d", scale), func(t *testing.T) {
			var f ebitentest.Frame
			ebitentest.OnGame(t, func() {
				atlas := newTestAtlas()
				w := donburi.NewWorld()
				at := func(x float64) components.Transform { return components.NewTransform(components.Pose{X: x, Y: 40}) }
				addSprite(w, at(50), gfx.Sprite{Image: atlas.green, Layer: 2 * scale})
				addSprite(w, at(50), gfx.Sprite{Image: atlas.red, Layer: 1 * scale})
				addSprite(w, at(54), gfx.Sprite{Image: atlas.blue, Layer: 2 * scale})
				addSprite(w, at(80), gfx.Sprite{Image: atlas.white, Layer: -1 * scale, Color: tint(0, 1, 1)})
				addSprite(w, at(82), gfx.Sprite{Image: atlas.red, Layer: -2 * scale})
				f = drawFrame(render.New(w), w, ebiten.NewImage(screenW, screenH), 0)
			})
			if c := f.At(51, 43); c != green {
				t.Errorf("pixel (51, 43) is %v, want green (layer 2 over red layer 1)", c)
			}
			if c := f.At(56, 43); c != blue {
				t.Errorf("pixel (56, 43) is %v, want blue (layer 2, created after green)", c)
			}
			if c := f.At(82, 43); c != (color.RGBA{0, 255, 255, 255}) {
				t.Errorf("pixel (82, 43) is %v, want cyan (white tinted by its ColorScale, over red layer -2)", c)
			}
			if xs := f.Columns(red); len(xs) != 2 || xs[0] != 88 || xs[1] != 89 {
				t.Errorf("red shows in columns %v, want only 88 and 89 (layer 1 covered; layer -2 under cyan)", xs)
			}
		})
	}
}

func tint(r, g, b float32) ebiten.ColorScale {
	var c ebiten.ColorScale
	c.Scale(r, g, b, 1)
	return c
}

// Angles are interpolated along the shortest arc: from 350 degrees to 10, half
// way is 0 degrees (a bar pointing right), not 180 (pointing left).
func TestRenderAngleShortestArc(t *testing.T) {
	deg := math.Pi / 180
	tr := components.NewTransform(components.Pose{X: 100, Y: 50, Angle: 350 * deg})
	tr.Set(components.Pose{X: 100, Y: 50, Angle: 10 * deg})
	if a := math.Remainder(tr.At(0.5).Angle, 2*math.Pi); math.Abs(a) > 1e-9 {
		t.Errorf("At(0.5).Angle = %v rad, want 0 modulo 2 pi", a)
	}
	var f ebitentest.Frame
	ebitentest.OnGame(t, func() {
		atlas := newTestAtlas()
		w := donburi.NewWorld()
		// The bar's origin is the middle of its left end: at angle 0 it
		// points right from (100, 50).
		addSprite(w, tr, gfx.Sprite{Image: atlas.bar, OriginX: 0, OriginY: 2})
		f = drawFrame(render.New(w), w, ebiten.NewImage(screenW, screenH), 0.5)
	})
	if c := f.At(110, 49); c != red {
		t.Errorf("pixel (110, 49) is %v, want red: the bar points right", c)
	}
	if c := f.At(90, 49); c == red {
		t.Error("pixel (90, 49) is red: the bar points left (interpolated the long way round)")
	}
}

// Draw makes one DrawTriangles32 call per run of consecutive sprites (in
// drawing order) that share a source image: the Atlas when set, the Image
// when not; and one more every 4096 sprites of a run.
func TestRenderDrawCalls(t *testing.T) {
	cases := []struct {
		name      string
		n         int
		layers    int  // sprite i in layer i%layers
		atlases   int  // sprite i from atlas i%atlases
		setAtlas  bool // Sprite.Atlas set
		wantCalls int
	}{
		{"one atlas, 4 images, 4 layers", 1000, 4, 1, true, 1},
		{"no Atlas field, 4 images", 1000, 1, 1, false, 1000},
		{"two atlases, one a layer", 1000, 2, 2, true, 2},
		{"two atlases alternating in one layer", 10, 1, 2, true, 10},
		{"one atlas, over a batch", 4097, 1, 1, true, 2},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			var drawn, calls int
			ebitentest.OnGame(t, func() {
				atlases := []*testAtlas{newTestAtlas(), newTestAtlas()}
				w := donburi.NewWorld()
				for i := range c.n {
					a := atlases[i%c.atlases]
					s := gfx.Sprite{Image: []*ebiten.Image{a.red, a.green, a.blue, a.white}[i%4], Layer: i % c.layers}
					if c.setAtlas {
						s.Atlas = a.img
					}
					addSprite(w, components.NewTransform(components.Pose{X: float64(i % screenW), Y: 40}), s)
				}
				r := render.New(w)
				dst := ebiten.NewImage(screenW, screenH)
				r.Draw(w, engine.Event{Kind: engine.Render, Screen: dst})
				drawn, calls = r.Drawn(), r.DrawCalls()
			})
			if drawn != c.n || calls != c.wantCalls {
				t.Errorf("Drawn() = %d, DrawCalls() = %d; want %d, %d", drawn, calls, c.n, c.wantCalls)
			}
		})
	}
}

// Headless, Draw returns at once: no screen, nothing drawn, no game needed.
func TestRenderHeadless(t *testing.T) {
	w := donburi.NewWorld()
	addSprite(w, components.NewTransform(components.Pose{}), gfx.Sprite{})
	r := render.New(w)
	r.Draw(w, engine.Event{Kind: engine.Render, Alpha: 0.5})
	if r.Drawn() != 0 {
		t.Fatalf("Drawn() = %d without a screen", r.Drawn())
	}
	if n := testing.AllocsPerRun(100, func() { r.Draw(w, engine.Event{Kind: engine.Render}) }); n != 0 {
		t.Errorf("headless Draw allocates %v times", n)
	}
}

// Render.Draw allocates nothing per frame, with a camera, with layers in
// order and out of order. (Not checked under -race: see raceEnabled.)
func TestRenderAllocatesNothing(t *testing.T) {
	for _, layerScale := range []int{0, 1, 1_000_000} { // one layer, counted, merge-sorted
		t.Run(fmt.Sprintf("layers*%d", layerScale), func(t *testing.T) {
			var allocs float64
			var drawn, culled int
			ebitentest.OnGame(t, func() {
				atlas := newTestAtlas()
				w := donburi.NewWorld()
				rng := rand.New(rand.NewPCG(1, 2))
				for i := range 100 {
					layer := (3 - i%4) * layerScale
					tr := components.NewTransform(components.Pose{X: rng.Float64() * screenW, Y: rng.Float64() * screenH})
					tr.Set(components.Pose{X: rng.Float64() * screenW, Y: rng.Float64() * screenH, Angle: rng.Float64()})
					addSprite(w, tr, gfx.Sprite{Image: atlas.red, Layer: layer, OriginX: 4, OriginY: 4})
				}
				addCamera(w, components.NewTransform(components.Pose{X: 100, Y: 50, Angle: 0.1}), components.Camera{Zoom: 1.5})
				r := render.New(w)
				dst := ebiten.NewImage(screenW, screenH)
				ev := engine.Event{Kind: engine.Render, Alpha: 0.3, Screen: dst}
				allocs = testing.AllocsPerRun(100, func() { r.Draw(w, ev) })
				drawn, culled = r.Drawn(), r.Culled()
			})
			if drawn < 50 || drawn+culled != 100 {
				t.Errorf("Drawn() = %d, Culled() = %d, want most of 100 drawn and the rest culled", drawn, culled)
			}
			if ebitentest.RaceEnabled() {
				t.Logf("-race: %v allocations a frame not checked (ebiten's sync.Pool)", allocs)
			} else if allocs != 0 {
				t.Errorf("Render.Draw with 100 sprites allocates %v times a frame", allocs)
			}
		})
	}
}

// benchScene is what both render benchmarks draw: n sprites from one atlas,
// moving between two ticks, tinted, seen through a camera.
type benchScene struct {
	atlas *testAtlas
	dst   *ebiten.Image
	flush *ebiten.Image // a pixel of dst, read to flush ebiten's queue
	pixel []byte
	world donburi.World
	r     *render.Sprites
	alpha float64

	raw []rawSprite // the same sprites in drawing order, their final transforms precomputed
	op  ebiten.DrawImageOptions

	// The same sprites again as one DrawTriangles32 call's vertices and
	// indices, precomputed: the floor of any batching renderer.
	rawVertices []ebiten.Vertex
	rawIndices  []uint32
	triOp       ebiten.DrawTrianglesOptions
}

// drawRawTriangles draws s.rawVertices from the atlas with one
// DrawTriangles32 call, and returns the number of calls (1).
func (s *benchScene) drawRawTriangles() int {
	s.dst.DrawTriangles32(s.rawVertices, s.rawIndices, s.atlas.img, &s.triOp)
	return 1
}

// drawRaw draws s.raw with a plain loop of DrawImage calls, one a sprite,
// through one reused DrawImageOptions, and returns the number of calls.
func (s *benchScene) drawRaw() int {
	op := &s.op
	for i := range s.raw {
		sp := &s.raw[i]
		op.GeoM = sp.geoM
		op.ColorScale = sp.color
		s.dst.DrawImage(sp.img, op)
	}
	return len(s.raw)
}

type rawSprite struct {
	img   *ebiten.Image
	geoM  ebiten.GeoM
	color ebiten.ColorScale
	layer int
}

const benchW, benchH = 640, 480

// benchCases are the render benchmarks' scenes, all seen through a zoomed
// camera: turning sprites (and a turned camera) need a sine and a cosine per
// sprite per frame and a full matrix; upright ones (under an unturned camera)
// need neither.
var benchCases = []struct {
	name      string
	n         int
	turning   bool
	layers    int // 0 or 1: one layer; more: sprite i in layer i%layers, to sort
	offscreen int // percent of the sprites placed off the screen
}{
	{"sprites=1000/turning/layers=4", 1000, true, 4, 0},
	{"sprites=1000/upright/layers=4", 1000, false, 4, 0},
	{"sprites=10000/turning/layers=4", 10000, true, 4, 0},
	{"sprites=10000/upright/layers=4", 10000, false, 4, 0},
	{"sprites=10000/upright", 10000, false, 0, 0},
	{"sprites=10000/turning/layers=4/offscreen=90%", 10000, true, 4, 90},
}

// newBenchScene builds n sprites moving between two ticks; turning ones also
// rotate, and the camera is turned. offscreen percent of them (spread
// among the others) are placed beyond the screen's right edge; the rest
// wholly on it.
func newBenchScene(n int, turning bool, layers, offscreen int) *benchScene {
	atlas := newTestAtlas()
	s := &benchScene{atlas: atlas, world: donburi.NewWorld(), alpha: 0.37, pixel: make([]byte, 4)}
	// The destination is a texture of its own, as the screen is.
	s.dst = ebiten.NewImageWithOptions(image.Rect(0, 0, benchW, benchH), &ebiten.NewImageOptions{Unmanaged: true})
	s.flush = s.dst.SubImage(image.Rect(0, 0, 1, 1)).(*ebiten.Image)
	imgs := []*ebiten.Image{atlas.red, atlas.green, atlas.blue, atlas.white}
	rng := rand.New(rand.NewPCG(uint64(n), 7))
	camPose := components.Pose{X: benchW / 2, Y: benchH / 2}
	if turning {
		camPose.Angle = 0.05
	}
	cam := components.Camera{Zoom: 1.25}
	addCamera(s.world, components.NewTransform(camPose), cam)
	view := gfx.View(&cam, camPose, s.dst.Bounds())
	for i := range n {
		// The camera (zoom 1.25 at the centre) shows about x 64..576 and y
		// 48..432 (less at the corners when it is turned): 30 px in from
		// those, every sprite is wholly on the screen.
		p := components.Pose{X: 94 + rng.Float64()*(512-60), Y: 78 + rng.Float64()*(384-60)}
		if i%100 < offscreen {
			p.X += 600
		}
		turn := 0.0
		if turning {
			p.Angle, turn = rng.Float64()*2*math.Pi, 0.1
		}
		tr := components.NewTransform(p)
		tr.Set(components.Pose{X: p.X + 2, Y: p.Y - 1, Angle: p.Angle + turn})
		sp := gfx.Sprite{Image: imgs[i%len(imgs)], Atlas: atlas.img, OriginX: 4, OriginY: 4, Color: tint(1, 0.8, 0.6)}
		if layers > 1 {
			sp.Layer = i % layers
		}
		addSprite(s.world, tr, sp)

		at := tr.At(s.alpha)
		var g ebiten.GeoM
		g.Translate(-sp.OriginX, -sp.OriginY)
		g.Rotate(at.Angle)
		g.Translate(at.X, at.Y)
		g.Concat(view)
		s.raw = append(s.raw, rawSprite{img: sp.Image, geoM: g, color: sp.Color, layer: sp.Layer})
	}
	slices.SortStableFunc(s.raw, func(a, b rawSprite) int { return cmp.Compare(a.layer, b.layer) })
	for i := range s.raw {
		s.rawVertices = appendQuad(s.rawVertices, &s.raw[i])
		q := uint32(4 * i)
		s.rawIndices = append(s.rawIndices, q, q+1, q+2, q+1, q+2, q+3)
	}
	s.triOp.ColorScaleMode = ebiten.ColorScaleModePremultipliedAlpha
	s.r = render.New(s.world)
	return s
}

// appendQuad appends the four vertices DrawImage would make of sp: the
// corners of its image's rectangle in the atlas, carried by its GeoM (in
// float32) and snapped off the pixels' centres as ebiten does (its internal
// graphics.QuadVerticesFromSrcAndMatrix and adjustDestinationPixel), tinted
// with its premultiplied ColorScale.
func appendQuad(vs []ebiten.Vertex, sp *rawSprite) []ebiten.Vertex {
	g := &sp.geoM
	a, b := float32(g.Element(0, 0)-1)+1, float32(g.Element(0, 1))
	c, d := float32(g.Element(1, 0)), float32(g.Element(1, 1)-1)+1
	tx, ty := float32(g.Element(0, 2)), float32(g.Element(1, 2))
	r := sp.img.Bounds()
	u0, v0, u1, v1 := float32(r.Min.X), float32(r.Min.Y), float32(r.Max.X), float32(r.Max.Y)
	w, h := u1-u0, v1-v0
	snap := func(x float32) float32 {
		ix := float32(math.Floor(float64(x)))
		switch f := x - ix; {
		case f < 3.0/16:
			return ix
		case f < 8.0/16:
			return ix + 5.0/16
		case f < 13.0/16:
			return ix + 11.0/16
		}
		return ix + 1
	}
	cr, cg, cb, ca := sp.color.R(), sp.color.G(), sp.color.B(), sp.color.A()
	vertex := func(x, y, u, v float32) ebiten.Vertex {
		return ebiten.Vertex{DstX: snap(x), DstY: snap(y), SrcX: u, SrcY: v, ColorR: cr, ColorG: cg, ColorB: cb, ColorA: ca}
	}
	return append(vs,
		vertex(tx, ty, u0, v0),
		vertex(a*w+tx, c*w+ty, u1, v0),
		vertex(b*h+tx, d*h+ty, u0, v1),
		vertex(a*w+b*h+tx, c*w+d*h+ty, u1, v1))
}

// The raw benchmark draws what the engine draws: the same sprites at the same
// places, in the same order (up to rounding at the edges of pixels: the two
// compose the same transforms in different orders).
func TestRenderBenchmarkDrawsTheSame(t *testing.T) {
	for _, c := range benchCases {
		if c.n > 1000 && c.layers == 0 {
			continue
		}
		t.Run(c.name, func(t *testing.T) {
			var engineFrame, rawFrame, triFrame ebitentest.Frame
			ebitentest.OnGame(t, func() {
				s := newBenchScene(c.n, c.turning, c.layers, c.offscreen)
				read := func() ebitentest.Frame {
					f := ebitentest.ReadFrame(s.dst)
					s.dst.Clear()
					return f
				}
				s.r.Draw(s.world, engine.Event{Kind: engine.Render, Alpha: s.alpha, Screen: s.dst})
				engineFrame = read()
				s.drawRaw()
				rawFrame = read()
				s.drawRawTriangles()
				triFrame = read()
			})
			compare := func(name string, f ebitentest.Frame) (differ, drawn int) {
				for i := 0; i < len(rawFrame.Pix); i += 4 {
					if rawFrame.Pix[i+3] != 0 {
						drawn++
					}
					if !bytes.Equal(f.Pix[i:i+4], rawFrame.Pix[i:i+4]) {
						differ++
					}
				}
				t.Logf("%s: %d of %d drawn pixels differ from the DrawImage loop's", name, differ, drawn)
				return differ, drawn
			}
			if differ, drawn := compare("engine", engineFrame); drawn == 0 || differ > drawn/100 {
				t.Errorf("%d of %d drawn pixels differ between the engine and the raw loop", differ, drawn)
			}
			// The same GeoMs: DrawTriangles32 draws exactly what DrawImage does.
			if differ, _ := compare("raw DrawTriangles32", triFrame); differ != 0 {
				t.Errorf("%d pixels differ between the raw DrawTriangles32 call and the DrawImage loop", differ)
			}
		})
	}
}

// flushUntimed executes ebiten's queued commands outside the timed region,
// at the same point in both benchmarks (DrawImage only queues).
func (s *benchScene) flushUntimed(b *testing.B) {
	b.StopTimer()
	s.flush.ReadPixels(s.pixel)
	b.StartTimer()
}

// BenchmarkRender times Render.Draw, one frame per iteration: the engine's
// ECS query, interpolation, layer sort, camera, transforms and vertices,
// and its DrawTriangles32 calls. ebiten's queue is flushed between frames,
// untimed. Compare with BenchmarkRenderRaw and BenchmarkRenderRawTriangles.
func BenchmarkRender(b *testing.B) {
	benchmarkFrames(b, func(s *benchScene, ev engine.Event) int {
		s.r.Draw(s.world, ev)
		return s.r.DrawCalls()
	})
}

// BenchmarkRenderRaw is the floor BenchmarkRender is measured against: the
// same sprites drawn by a plain loop of DrawImage over a slice, with their
// final transforms computed beforehand.
func BenchmarkRenderRaw(b *testing.B) {
	benchmarkFrames(b, func(s *benchScene, _ engine.Event) int { return s.drawRaw() })
}

// BenchmarkRenderRawTriangles is the lower floor: the same sprites as one
// DrawTriangles32 call with every vertex computed beforehand, so that the
// engine's whole work per frame is what separates it from BenchmarkRender.
func BenchmarkRenderRawTriangles(b *testing.B) {
	benchmarkFrames(b, func(s *benchScene, _ engine.Event) int { return s.drawRawTriangles() })
}

// benchmarkFrames runs draw once an iteration over each of benchCases, and
// reports ns/entity and the draw calls draw says it made a frame. Each
// frame's flush is untimed, so a second of timed frames takes up to 40 s:
// under -short (make bench) they are skipped, and the lockstep benchmarks
// (BenchmarkRenderOverhead, BenchmarkRenderOverheadTriangles) stand in.
func benchmarkFrames(b *testing.B, draw func(*benchScene, engine.Event) (calls int)) {
	if testing.Short() {
		b.Skip("frames timed apart from their baseline: not under -short (the lockstep benchmarks stand in)")
	}
	eachBenchScene(b, func(b *testing.B, s *benchScene, n int) {
		ev := engine.Event{Kind: engine.Render, Alpha: s.alpha, Screen: s.dst}
		calls := 0
		for b.Loop() {
			calls = draw(s, ev)
			s.flushUntimed(b)
		}
		b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*n), "ns/entity")
		b.ReportMetric(float64(calls), "drawcalls/frame")
	})
}

// BenchmarkBuild times Render.Draw's own work alone, one frame per
// iteration: everything but its DrawTriangles32 calls (the query, poses,
// culling, sines and cosines, vertices), with no GPU work beside it.
// BenchmarkRenderOverheadTriangles weighs the whole Draw against ebiten's
// share. Its time wanders with the machine's load: compare two versions
// of the work frame by frame in one binary, not in two runs.
func BenchmarkBuild(b *testing.B) {
	eachBenchScene(b, func(b *testing.B, s *benchScene, n int) {
		s.r.Build(s.world, s.alpha, s.dst.Bounds()) // its buffers grown, out of the figures
		for b.Loop() {
			s.r.Build(s.world, s.alpha, s.dst.Bounds())
		}
		b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*n), "ns/entity")
	})
}

// BenchmarkRenderParts splits the frame of BenchmarkRenderOverheadTriangles
// in two: each frame times the engine's own work (Build: the query, poses,
// culling, sines and cosines, vertices) and its DrawTriangles32 calls
// (Submit) apart, then the raw call, each frame followed by its flush as
// there. It reports the medians per sprite: build-ns, submit-ns and raw-ns,
// and build-over-raw, which is the engine's ratio to the raw floor less
// one when submit-ns is raw-ns. Its build runs after a flush, as in a
// game's frame, where BenchmarkBuild's runs after the last build: the
// difference is what the build pays in cache misses. A diagnostic, not
// under -short (make bench): the lockstep benchmarks give the headline.
func BenchmarkRenderParts(b *testing.B) {
	if testing.Short() {
		b.Skip("a diagnostic of the lockstep frame: not under -short")
	}
	eachBenchScene(b, func(b *testing.B, s *benchScene, n int) {
		var builds, submits, raws, ratios []float64
		for b.Loop() {
			t0 := time.Now()
			m := s.r.Build(s.world, s.alpha, s.dst.Bounds())
			t1 := time.Now()
			s.r.Submit(s.dst, m)
			t2 := time.Now()
			s.flush.ReadPixels(s.pixel)
			t3 := time.Now()
			s.drawRawTriangles()
			t4 := time.Now()
			s.flush.ReadPixels(s.pixel)
			build, raw := float64(t1.Sub(t0)), float64(t4.Sub(t3))
			builds = append(builds, build)
			submits = append(submits, float64(t2.Sub(t1)))
			raws = append(raws, raw)
			ratios = append(ratios, build/raw)
		}
		perEntity := func(ts []float64) float64 { return median(ts) / float64(n) }
		b.ReportMetric(perEntity(builds), "build-ns/entity")
		b.ReportMetric(perEntity(submits), "submit-ns/entity")
		b.ReportMetric(perEntity(raws), "raw-ns/entity")
		b.ReportMetric(median(ratios), "build/raw")
	})
}

// BenchmarkRenderOverhead alternates the engine (Render.Draw) and the raw
// DrawImage loop of BenchmarkRenderRaw, frame by frame, and reports medians
// over the frames: the engine's and the raw loop's cost per sprite, the
// engine's extra cost per sprite (the median of the per-frame differences,
// negative when the engine is faster), and its overhead in percent (of the
// per-frame ratios). Pairing frames and taking medians keeps the figures
// steady on a machine whose load changes during the run (other processes,
// GC, a stalled frame), where the plain sums of BenchmarkRender and
// BenchmarkRenderRaw wander by tens of percent. It also reports the flush
// (ebiten executing the queued frame, here read back as one pixel), which
// both pay once a frame: a whole frame's overhead is about
// (engine+flush)/(raw+flush)-1.
func BenchmarkRenderOverhead(b *testing.B) {
	benchmarkLockstep(b, func(s *benchScene) { s.drawRaw() })
}

// BenchmarkRenderOverheadTriangles is BenchmarkRenderOverhead against the
// raw DrawTriangles32 call of BenchmarkRenderRawTriangles: every vertex
// precomputed, so its raw-ns/entity is ebiten's own cost of taking the
// vertices, and the overhead is all of the engine's work.
func BenchmarkRenderOverheadTriangles(b *testing.B) {
	benchmarkLockstep(b, func(s *benchScene) { s.drawRawTriangles() })
}

// benchmarkLockstep alternates Render.Draw and raw, a frame each, each
// followed by its flush, and reports the medians (see
// BenchmarkRenderOverhead).
func benchmarkLockstep(b *testing.B, raw func(*benchScene)) {
	eachBenchScene(b, func(b *testing.B, s *benchScene, n int) {
		ev := engine.Event{Kind: engine.Render, Alpha: s.alpha, Screen: s.dst}
		var engineTimes, rawTimes, flushTimes, ratios, extras []float64
		for b.Loop() {
			t0 := time.Now()
			s.r.Draw(s.world, ev)
			t1 := time.Now()
			s.flush.ReadPixels(s.pixel)
			t2 := time.Now()
			raw(s)
			t3 := time.Now()
			s.flush.ReadPixels(s.pixel)
			t4 := time.Now()
			e, r := float64(t1.Sub(t0)), float64(t3.Sub(t2))
			engineTimes = append(engineTimes, e)
			rawTimes = append(rawTimes, r)
			flushTimes = append(flushTimes, float64(t2.Sub(t1)), float64(t4.Sub(t3)))
			ratios = append(ratios, e/r)
			extras = append(extras, e-r)
		}
		perEntity := func(ts []float64) float64 { return median(ts) / float64(n) }
		b.ReportMetric(perEntity(engineTimes), "engine-ns/entity")
		b.ReportMetric(perEntity(rawTimes), "raw-ns/entity")
		b.ReportMetric(perEntity(flushTimes), "flush-ns/entity")
		b.ReportMetric(perEntity(extras), "extra-ns/entity")
		b.ReportMetric(100*(median(ratios)-1), "overhead-%")
	})
}

// eachBenchScene runs bench as a sub-benchmark for each of benchCases, on
// ebiten's goroutine, with the scene built and its sprite count n.
func eachBenchScene(b *testing.B, bench func(b *testing.B, s *benchScene, n int)) {
	for _, c := range benchCases {
		b.Run(c.name, func(b *testing.B) {
			ebitentest.OnGame(b, func() { bench(b, newBenchScene(c.n, c.turning, c.layers, c.offscreen), c.n) })
		})
	}
}

// median returns the median of xs, reordering them.
func median(xs []float64) float64 {
	if len(xs) == 0 {
		return 0
	}
	slices.Sort(xs)
	return xs[len(xs)/2]
}
