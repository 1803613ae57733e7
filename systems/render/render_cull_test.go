package render_test

import (
	"fmt"
	"math"
	"math/rand/v2"
	"testing"

	"github.com/hajimehoshi/ebiten/v2"

	"github.com/fixedstep/fixedstep/components"
	"github.com/fixedstep/fixedstep/components/gfx"
	"github.com/fixedstep/fixedstep/engine"
	"github.com/fixedstep/fixedstep/internal/ebitentest"
	"github.com/fixedstep/fixedstep/systems/render"
	"github.com/fixedstep/fixedstep/third_party/donburi"
)

// A sprite wholly off the screen is culled and one that covers a pixel of
// it is drawn: 8x8 squares a pixel beyond each edge are culled; a pixel
// over each edge, they are drawn there.
func TestRenderCullsOffScreenSprites(t *testing.T) {
	var frame ebitentest.Frame
	var drawn, culled int
	ebitentest.OnGame(t, func() {
		atlas := newTestAtlas()
		w := donburi.NewWorld()
		for _, p := range [][2]float64{{-8, 40}, {screenW, 40}, {90, -8}, {90, screenH}} { // off
			addSprite(w, components.NewTransform(components.Pose{X: p[0], Y: p[1]}), gfx.Sprite{Image: atlas.red})
		}
		for _, p := range [][2]float64{{-7, 40}, {screenW - 1, 60}, {40, -7}, {150, screenH - 1}} { // a pixel in
			addSprite(w, components.NewTransform(components.Pose{X: p[0], Y: p[1]}), gfx.Sprite{Image: atlas.red})
		}
		r := render.New(w)
		frame = drawFrame(r, w, ebiten.NewImage(screenW, screenH), 0)
		drawn, culled = r.Drawn(), r.Culled()
	})
	if drawn != 4 || culled != 4 {
		t.Errorf("%d drawn, %d culled; want 4 and 4", drawn, culled)
	}
	for _, p := range [][2]int{{0, 44}, {screenW - 1, 64}, {44, 0}, {154, screenH - 1}} {
		if c := frame.At(p[0], p[1]); c != red {
			t.Errorf("pixel %v is %v, want red: a sprite a pixel over the edge", p, c)
		}
	}
}

// No sprite that shows is culled: a thousand sprites near the screen's
// edges, of random sizes, origins, scales (flipped too) and angles (a
// third upright), through random cameras (zoomed, turned), each drawn alone by Render and
// by a plain DrawImage with the same transform: whenever DrawImage leaves
// a pixel, Render drew the sprite.
func TestRenderCullsOnlyWhatDoesNotShow(t *testing.T) {
	var wrong []string
	var culledN, shown int
	ebitentest.OnGame(t, func() {
		atlas := newTestAtlas()
		dst := ebiten.NewImage(screenW, screenH)
		rng := rand.New(rand.NewPCG(5, 6))
		for i := range 1000 {
			img := []*ebiten.Image{atlas.red, atlas.bar}[i%2]
			sp := gfx.Sprite{Image: img, OriginX: rng.Float64() * 16, OriginY: rng.Float64() * 8,
				ScaleX: (rng.Float64()*3 + 0.2) * float64(1-2*rng.IntN(2)), ScaleY: rng.Float64()*3 + 0.2}
			edge := rng.IntN(4)
			p := components.Pose{X: rng.Float64() * screenW, Y: rng.Float64() * screenH, Angle: rng.Float64() * 2 * math.Pi}
			d := rng.Float64()*60 - 30 // from 30 px inside to 30 px outside the edge
			switch edge {
			case 0:
				p.X = -d
			case 1:
				p.X = screenW + d
			case 2:
				p.Y = -d
			case 3:
				p.Y = screenH + d
			}
			if i%3 == 0 { // upright: tested by its rectangle
				p.Angle = 0
			}
			cam := components.Camera{Zoom: rng.Float64()*1.5 + 0.5}
			camPose := components.Pose{X: screenW/2 + rng.Float64()*10 - 5, Y: screenH/2 + rng.Float64()*10 - 5, Angle: rng.Float64() * 0.5}
			w := donburi.NewWorld()
			addSprite(w, components.NewTransform(p), sp)
			addCamera(w, components.NewTransform(camPose), cam)
			r := render.New(w)
			drawFrame(r, w, dst, 0)
			culled := r.Culled() == 1

			dst.Clear()
			var g ebiten.GeoM
			g.Translate(-sp.OriginX, -sp.OriginY)
			g.Scale(sp.ScaleX, sp.ScaleY)
			g.Rotate(p.Angle)
			g.Translate(p.X, p.Y)
			g.Concat(gfx.View(&cam, camPose, dst.Bounds()))
			dst.DrawImage(img, &ebiten.DrawImageOptions{GeoM: g})
			f := ebitentest.ReadFrame(dst)
			shows := false
			for k := 3; k < len(f.Pix) && !shows; k += 4 {
				shows = f.Pix[k] != 0
			}
			if culled {
				culledN++
			}
			if shows {
				shown++
			}
			if shows && culled {
				wrong = append(wrong, fmt.Sprintf("%+v at %+v through %+v at %+v", sp, p, cam, camPose))
			}
		}
	})
	if len(wrong) > 0 {
		t.Errorf("%d sprites culled that show, the first: %s", len(wrong), wrong[0])
	}
	if culledN == 0 || shown == 0 {
		t.Errorf("%d of 1000 culled, %d show: the cases miss one side", culledN, shown)
	}
	t.Logf("%d of 1000 culled, %d show", culledN, shown)
}

// The render benchmarks' scenes are what they say: every sprite on the
// screen, or 90% of them culled.
func TestRenderBenchScenesOnScreen(t *testing.T) {
	for _, c := range benchCases {
		if c.n > 1000 && c.offscreen == 0 {
			continue
		}
		var drawn, culled int
		ebitentest.OnGame(t, func() {
			s := newBenchScene(c.n, c.turning, c.layers, c.offscreen)
			s.r.Draw(s.world, engine.Event{Kind: engine.Render, Alpha: s.alpha, Screen: s.dst})
			drawn, culled = s.r.Drawn(), s.r.Culled()
		})
		if want := c.n * c.offscreen / 100; culled != want || drawn != c.n-want {
			t.Errorf("%s: %d drawn, %d culled; want %d culled", c.name, drawn, culled, want)
		}
	}
}
