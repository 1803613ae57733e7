package gfx_test

import (
	"math"
	"testing"

	"github.com/hajimehoshi/ebiten/v2"

	"github.com/fixedstep/fixedstep/components/gfx"
	"github.com/fixedstep/fixedstep/systems/physics"
	"github.com/fixedstep/fixedstep/third_party/cp"
	"github.com/fixedstep/fixedstep/third_party/donburi"
)

// corners returns where the image's top-left and bottom-right corners land
// in the entity's coordinates, unturned.
func corners(s *gfx.Sprite) (x0, y0, x1, y1 float64) {
	b := s.Image.Bounds()
	sx, sy := s.Scale()
	x0, y0 = -s.OriginX*sx, -s.OriginY*sy
	x1, y1 = (float64(b.Dx())-s.OriginX)*sx, (float64(b.Dy())-s.OriginY)*sy
	return x0, y0, x1, y1
}

// Each fit puts the image's corners where it says, in a box off the
// entity's centre too; a flipped sprite stays flipped.
func TestFitRect(t *testing.T) {
	img := ebiten.NewImage(20, 10)
	for _, c := range []struct {
		fit                    gfx.Fit
		bx0, by0, bx1, by1     float64 // the box
		wx0, wy0, wx1, wy1, sx float64 // the image's corners, its scale
	}{
		{gfx.Stretch, -5, -5, 5, 15, -5, -5, 5, 15, 0.5},
		{gfx.Contain, -5, -5, 5, 15, -5, 2.5, 5, 7.5, 0.5},
		{gfx.Feet, -5, -5, 5, 15, -5, 10, 5, 15, 0.5},
		{gfx.Contain, 10, 0, 50, 40, 10, 10, 50, 30, 2},
		{gfx.Feet, 10, 0, 50, 40, 10, 20, 50, 40, 2},
	} {
		s := gfx.Sprite{Image: img}
		s.FitRect(c.bx0, c.by0, c.bx1, c.by1, c.fit)
		x0, y0, x1, y1 := corners(&s)
		if x0 != c.wx0 || y0 != c.wy0 || x1 != c.wx1 || y1 != c.wy1 || s.ScaleX != c.sx {
			t.Errorf("%v in (%v, %v)-(%v, %v): the image at (%v, %v)-(%v, %v), scale %v; want (%v, %v)-(%v, %v), %v",
				c.fit, c.bx0, c.by0, c.bx1, c.by1, x0, y0, x1, y1, s.ScaleX, c.wx0, c.wy0, c.wx1, c.wy1, c.sx)
		}
	}
	s := gfx.Sprite{Image: img, ScaleX: -1}
	s.FitBox(40, 20, gfx.Feet)
	if s.ScaleX != -2 || s.ScaleY != 2 || s.OriginX != 10 || s.OriginY != 5 {
		t.Errorf("flipped: scale %v, %v, origin %v, %v; want -2, 2, 10, 5", s.ScaleX, s.ScaleY, s.OriginX, s.OriginY)
	}
}

// FitRect refuses a sprite without an image, an empty or infinite box, an
// unknown fit; a spawn refuses a fitted look without an image.
func TestFitRectPanics(t *testing.T) {
	img := ebiten.NewImage(4, 4)
	for name, f := range map[string]func(){
		"no image":  func() { (&gfx.Sprite{}).FitBox(1, 1, gfx.Stretch) },
		"empty box": func() { (&gfx.Sprite{Image: img}).FitBox(0, 1, gfx.Stretch) },
		"inf box":   func() { (&gfx.Sprite{Image: img}).FitRect(0, 0, math.Inf(1), 1, gfx.Stretch) },
		"bad fit":   func() { (&gfx.Sprite{Image: img}).FitBox(1, 1, gfx.Fit(9)) },
		"spawn": func() {
			physics.New(donburi.NewWorld(), physics.Config{}).SpawnBox(1, 1, &physics.BodyOptions{Sprite: (&gfx.Sprite{}).Fitted(gfx.Feet)})
		},
	} {
		func() {
			defer func() {
				if recover() == nil {
					t.Errorf("%s: no panic", name)
				}
			}()
			f()
		}()
	}
}

// A fitted look measures the body's shapes: a circle's box is 2r across,
// a segment's is around its capsule (off the body's centre), and a line
// with no height keeps the image centred and unscaled.
func TestFittedMeasuresShapes(t *testing.T) {
	w := donburi.NewWorld()
	phys := physics.New(w, physics.Config{})
	star := &gfx.Sprite{Image: ebiten.NewImage(32, 32)}
	look := &physics.BodyOptions{Kind: physics.Static, Sprite: star.Fitted(gfx.Contain)}
	circle := gfx.SpriteC.Get(w.Entry(phys.SpawnCircle(6, look)))
	if x0, y0, x1, y1 := corners(circle); x0 != -6 || y0 != -6 || x1 != 6 || y1 != 6 {
		t.Errorf("circle of radius 6: the image at (%v, %v)-(%v, %v)", x0, y0, x1, y1)
	}
	look.Sprite = star.Fitted(gfx.Stretch)
	seg := gfx.SpriteC.Get(w.Entry(phys.SpawnSegment(cp.Vector{X: 10}, cp.Vector{X: 30}, 2, look)))
	if x0, y0, x1, y1 := corners(seg); x0 != 8 || y0 != -2 || x1 != 32 || y1 != 2 {
		t.Errorf("segment (10, 0)-(30, 0) of radius 2: the image at (%v, %v)-(%v, %v)", x0, y0, x1, y1)
	}
	line := gfx.SpriteC.Get(w.Entry(phys.SpawnSegment(cp.Vector{}, cp.Vector{X: 30}, 0, look)))
	if line.OriginX != 16 || line.OriginY != 16 || line.ScaleX != 0 {
		t.Errorf("a line: origin %v, %v, scale %v; want the image's centre, unscaled", line.OriginX, line.OriginY, line.ScaleX)
	}
	if star.ScaleX != 0 || star.OriginX != 0 {
		t.Errorf("the sprite given was changed: %+v", *star)
	}
}
