package render_test

import (
	"fmt"
	"math"
	"math/rand/v2"
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

// The vector way of making quads (AVX2, where the CPU has it) writes the
// vertices the scalar way does, bit for bit, and culls the same sprites:
// worlds of random turned and upright sprites, of every size of image,
// scale (flipped, zero, huge, NaN), origin (far from the image too),
// position (across the screen and beyond it, negative too, on whole
// pixels) and angle (tiny, past math's reduction, infinite, NaN), through
// random cameras, each built both ways.
func TestVectorQuadsAsTheScalarWay(t *testing.T) {
	if !render.SetVectorQuads(true) {
		t.Skip("no vector quads on this machine (amd64 with AVX2 only)")
	}
	defer render.SetVectorQuads(true)
	rng := rand.New(rand.NewPCG(7, 8))
	pick := func(xs ...float64) float64 { return xs[rng.IntN(len(xs))] }
	culled := 0
	var failure string // the first difference, reported off ebiten's goroutine
	ebitentest.OnGame(t, func() {
		atlas := newTestAtlas()
		images := []*ebiten.Image{atlas.red, atlas.green, atlas.bar, atlas.white, atlas.img}
		bounds := ebiten.NewImage(screenW, screenH).Bounds()
		worlds := 60
		if testing.Short() {
			worlds = 20
		}
		for world := range worlds {
			w := donburi.NewWorld()
			if world%3 != 0 {
				zoom := math.Ldexp(0.5+rng.Float64(), rng.IntN(5)-2)
				addCamera(w, components.NewTransform(components.Pose{
					X: rng.Float64() * screenW, Y: rng.Float64() * screenH, Angle: rng.Float64()*8 - 4}),
					components.Camera{Zoom: zoom})
			}
			for i := range 300 {
				angle := (rng.Float64()*2 - 1) * math.Pi * 3
				switch rng.IntN(12) {
				case 0:
					angle = 0
				case 1:
					angle = pick(math.NaN(), math.Inf(1), math.Inf(-1), 1e10, -(1 << 29), math.Nextafter(1<<29, 0), 1e-300)
				case 2:
					angle = float64(rng.IntN(17)-8) * math.Pi / 4
				}
				x, y := rng.Float64()*1.4*screenW-0.2*screenW, rng.Float64()*1.4*screenH-0.2*screenH
				origin := func() float64 { return rng.Float64()*16 - 4 }
				if i%7 == 0 { // far from the image: an origin on the screen, a quad off it
					origin = func() float64 { return rng.Float64()*200 - 100 }
				}
				if i%5 == 0 { // whole pixels: corners on the snap's edges
					x, y = float64(rng.IntN(screenW)), float64(rng.IntN(screenH))
					origin = func() float64 { return float64(rng.IntN(9)) }
				}
				scale := func() float64 {
					switch rng.IntN(10) {
					case 0:
						return 0
					case 1:
						return pick(1e7, -1e7, 1<<20, math.NaN(), 1e-30)
					}
					return (rng.Float64()*4 - 2)
				}
				pose := components.Pose{X: x, Y: y, Angle: angle}
				prev := pose
				prev.X -= rng.Float64() * 3
				prev.Angle = angle - rng.Float64()*0.1
				if angle == 0 || rng.IntN(3) == 0 {
					prev.Angle = angle
				}
				addSprite(w, components.Transform{Prev: prev, Cur: pose}, gfx.Sprite{
					Image:   images[rng.IntN(len(images))],
					Layer:   rng.IntN(3),
					OriginX: origin(), OriginY: origin(),
					ScaleX: scale(), ScaleY: scale(),
				})
			}
			if world%3 == 0 { // no camera: upright quads whose box ends on an edge of the screen, outside and in
				for _, edge := range []struct{ x, y, ox, oy float64 }{
					{50, 50, 58, 0}, {50, 50, -150, 0}, {50, 50, 0, 58}, {50, 50, 0, -50},
					{50, 50, 57, 0}, {50, 50, -149, 0}, {50, 50, 0, 57}, {50, 50, 0, -49},
				} {
					addSprite(w, components.NewTransform(components.Pose{X: edge.x, Y: edge.y}),
						gfx.Sprite{Image: atlas.red, OriginX: edge.ox, OriginY: edge.oy})
				}
			}
			alpha := rng.Float64()
			build := func(vector bool) ([]ebiten.Vertex, int) {
				render.SetVectorQuads(vector)
				r := render.New(w)
				n := r.Build(w, alpha, bounds)
				return append([]ebiten.Vertex(nil), r.Vertices(n)...), r.Culled()
			}
			scalar, scalarCulled := build(false)
			vector, vectorCulled := build(true)
			if len(scalar) != len(vector) || scalarCulled != vectorCulled {
				failure = fmt.Sprintf("world %d: %d vertices and %d culled the scalar way, %d and %d the vector way",
					world, len(scalar), scalarCulled, len(vector), vectorCulled)
				return
			}
			culled += scalarCulled
			for i := range scalar {
				if !sameBits(scalar[i], vector[i]) {
					failure = fmt.Sprintf("world %d, vertex %d: %+v the scalar way, %+v the vector way", world, i, scalar[i], vector[i])
					return
				}
			}
		}
	})
	if failure != "" {
		t.Fatal(failure)
	}
	if culled == 0 {
		t.Error("no sprite culled: the worlds do not test culling")
	}
}

// sameBits reports whether two vertices are the same to the bit.
func sameBits(a, b ebiten.Vertex) bool {
	fa := []float32{a.DstX, a.DstY, a.SrcX, a.SrcY, a.ColorR, a.ColorG, a.ColorB, a.ColorA}
	fb := []float32{b.DstX, b.DstY, b.SrcX, b.SrcY, b.ColorR, b.ColorG, b.ColorB, b.ColorA}
	for i := range fa {
		if math.Float32bits(fa[i]) != math.Float32bits(fb[i]) {
			return false
		}
	}
	return true
}

// BenchmarkRenderVector weighs the vector way of making quads against the
// scalar way in one binary, frame by frame: each frame draws the scene
// with Render.Draw the vector way and the scalar way (each first in half
// the frames), then the raw DrawTriangles32 call of
// BenchmarkRenderOverheadTriangles, each followed by its flush. It reports the medians over the frames of each way's
// ratio to the raw call of its frame (vector-x, scalar-x) and of the
// scalar way's time over the vector way's (speedup). Without AVX2 it is
// skipped, and under -short (make bench): BENCHMARKS.md has its figures
// in a section of their own.
func BenchmarkRenderVector(b *testing.B) {
	if testing.Short() {
		b.Skip("a comparison with a section of its own in BENCHMARKS.md: not under -short (make bench)")
	}
	if !render.SetVectorQuads(true) {
		b.Skip("no vector quads on this machine (amd64 with AVX2 only)")
	}
	defer render.SetVectorQuads(true)
	eachBenchScene(b, func(b *testing.B, s *benchScene, n int) {
		ev := engine.Event{Kind: engine.Render, Alpha: s.alpha, Screen: s.dst}
		var vectors, scalars, speedups []float64
		timed := func(draw func()) float64 {
			t0 := time.Now()
			draw()
			t := float64(time.Since(t0))
			s.flush.ReadPixels(s.pixel)
			return t
		}
		frame := 0
		for b.Loop() {
			var vector, scalar float64
			drawVector := func() { render.SetVectorQuads(true); vector = timed(func() { s.r.Draw(s.world, ev) }) }
			drawScalar := func() { render.SetVectorQuads(false); scalar = timed(func() { s.r.Draw(s.world, ev) }) }
			if frame%2 == 0 { // each way first in half the frames
				drawVector()
				drawScalar()
			} else {
				drawScalar()
				drawVector()
			}
			frame++
			raw := timed(func() { s.drawRawTriangles() })
			vectors = append(vectors, vector/raw)
			scalars = append(scalars, scalar/raw)
			speedups = append(speedups, scalar/vector)
		}
		b.ReportMetric(median(vectors), "vector-x")
		b.ReportMetric(median(scalars), "scalar-x")
		b.ReportMetric(median(speedups), "speedup")
	})
}
