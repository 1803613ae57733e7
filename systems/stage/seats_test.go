package stage_test

import (
	"image/color"
	"testing"

	"github.com/fixedstep/fixedstep/assets"
	"github.com/fixedstep/fixedstep/components/gfx"
	"github.com/fixedstep/fixedstep/engine"
	"github.com/fixedstep/fixedstep/internal/ebitentest"
	"github.com/fixedstep/fixedstep/systems/stage"
)

// A seat's sprite is the player's sprite in the seat's hue, pixel for
// pixel as gfx.Recolor makes it, with the sprite's bounds; seat 0's is
// the atlas's own, and a seat's image is made once.
func TestSeatSprite(t *testing.T) {
	var (
		hues        [4]float64
		sameImage   bool
		bounds, own bool
	)
	scene := engine.NewScene("Seats", func(loop *engine.Loop) (engine.Scene, error) {
		st, err := stage.New(loop, stage.Options{})
		if err != nil {
			return nil, err
		}
		defer st.Release()
		ebitentest.OnGame(t, func() {
			own = st.SeatSprite(assets.SpritePlayer, 0).Atlas == st.Bundle.Atlas()
			sameImage = st.SeatSprite(assets.SpritePlayer, 2).Image == st.SeatSprite(assets.SpritePlayer, 2).Image
			r, _ := st.Bundle.Data().Rect(assets.SpritePlayer)
			bounds = st.SeatSprite(assets.SpritePlayer, 1).Image.Bounds() == r
			for seat := range hues {
				sp := st.SeatSprite(assets.SpritePlayer, seat)
				f := ebitentest.ReadFrame(sp.Image)
				// the sprite's brightest opaque pixel's colour, as a hue
				best, at := -1, 0
				for i := 0; i < len(f.Pix); i += 4 {
					if v := int(f.Pix[i]) + int(f.Pix[i+1]) + int(f.Pix[i+2]); f.Pix[i+3] == 255 && v > best {
						best, at = v, i
					}
				}
				hues[seat] = hue(color.RGBA{f.Pix[at], f.Pix[at+1], f.Pix[at+2], 255})
			}
		})
		return nil, nil
	})
	if err := engine.Run(scene, &engine.Options{Headless: &engine.Headless{}}); err != nil {
		t.Fatal(err)
	}
	if !own || !sameImage || !bounds {
		t.Errorf("seat 0 the atlas's sprite: %v; one image a seat: %v; the sprite's bounds: %v", own, sameImage, bounds)
	}
	// The sprite's shades are a little off the key's hue: each seat's are
	// off its colour's by as much.
	for seat, h := range hues {
		off, want := h-hues[0], hue(gfx.SeatColors[seat])-hue(gfx.SeatColors[0])
		if d := abs(off - want); d > 3 && abs(d-360) > 3 {
			t.Errorf("seat %d's sprite is %.0f degrees of hue off seat 1's, want %.0f (%v)", seat, off, want, gfx.SeatColors[seat])
		}
	}
}

func abs(x float64) float64 { return max(x, -x) }

// hue is c's hue in degrees.
func hue(c color.RGBA) float64 {
	r, g, b := float64(c.R), float64(c.G), float64(c.B)
	hi, lo := max(r, g, b), min(r, g, b)
	if hi == lo {
		return 0
	}
	var h float64
	switch hi {
	case r:
		h = (g - b) / (hi - lo)
	case g:
		h = 2 + (b-r)/(hi-lo)
	default:
		h = 4 + (r-g)/(hi-lo)
	}
	if h < 0 {
		h += 6
	}
	return h * 60
}
