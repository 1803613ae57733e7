package render_test

import (
	"image"
	"image/color"
	"testing"

	"github.com/hajimehoshi/ebiten/v2"

	"github.com/fixedstep/fixedstep/internal/ebitentest"
	"github.com/fixedstep/fixedstep/systems/render"
)

// Fill leaves the pixels Image.Fill leaves, for opaque and translucent
// colours (a translucent fill replaces what was there, it does not blend),
// on a whole image and on a sub-image (its bounds only), and allocates
// nothing.
func TestFillAsImageFill(t *testing.T) {
	type result struct{ got, want ebitentest.Frame }
	colours := []color.Color{
		color.RGBA{34, 40, 52, 255},
		color.Black,
		color.NRGBA{200, 100, 50, 128},
		color.Transparent,
	}
	sub := image.Rect(5, 7, 40, 30)
	var whole, part []result
	var allocs float64
	ebitentest.OnGame(t, func() {
		got, want := ebiten.NewImage(screenW, screenH), ebiten.NewImage(screenW, screenH)
		for _, c := range colours {
			for _, img := range []*ebiten.Image{got, want} {
				img.Fill(color.RGBA{0, 0, 255, 255}) // what a translucent fill must replace
			}
			render.Fill(got, c)
			want.Fill(c)
			whole = append(whole, result{ebitentest.ReadFrame(got), ebitentest.ReadFrame(want)})

			for _, img := range []*ebiten.Image{got, want} {
				img.Fill(color.RGBA{0, 0, 255, 255})
			}
			render.Fill(got.SubImage(sub).(*ebiten.Image), c)
			want.SubImage(sub).(*ebiten.Image).Fill(c)
			part = append(part, result{ebitentest.ReadFrame(got), ebitentest.ReadFrame(want)})
		}
		bg := color.Color(color.RGBA{1, 2, 3, 255})
		allocs = testing.AllocsPerRun(100, func() { render.Fill(got, bg) })
	})
	for i, c := range colours {
		for _, r := range []struct {
			name string
			res  result
		}{{"whole image", whole[i]}, {"sub-image " + sub.String(), part[i]}} {
			if n, x, y := differ(&r.res.got, &r.res.want); n > 0 {
				t.Errorf("%v on the %s: %d pixels differ from Image.Fill's, the first at (%d, %d): %v, want %v",
					c, r.name, n, x, y, r.res.got.At(x, y), r.res.want.At(x, y))
			}
		}
	}
	if want := (color.RGBA{34, 40, 52, 255}); whole[0].got.At(screenW-1, screenH-1) != want {
		t.Errorf("the last pixel is %v, want %v", whole[0].got.At(screenW-1, screenH-1), want)
	}
	if ebitentest.RaceEnabled() {
		t.Logf("-race: %v allocations a fill not checked (ebiten's sync.Pool)", allocs)
	} else if allocs != 0 {
		t.Errorf("Fill allocates %v times a call", allocs)
	}
}

// differ returns how many pixels of a and b differ, and the first one.
func differ(a, b *ebitentest.Frame) (n, x0, y0 int) {
	for y := range screenH {
		for x := range screenW {
			if a.At(x, y) != b.At(x, y) {
				if n == 0 {
					x0, y0 = x, y
				}
				n++
			}
		}
	}
	return n, x0, y0
}
