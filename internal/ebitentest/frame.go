package ebitentest

import (
	"image/color"

	"github.com/hajimehoshi/ebiten/v2"
)

// Frame is an image's pixels, read back to look at in a test.
type Frame struct {
	Pix  []byte // RGBA, premultiplied, row by row
	W, H int
}

// ReadFrame reads img's pixels. It must run on the game (OnGame).
func ReadFrame(img *ebiten.Image) Frame {
	b := img.Bounds()
	f := Frame{Pix: make([]byte, 4*b.Dx()*b.Dy()), W: b.Dx(), H: b.Dy()}
	img.ReadPixels(f.Pix)
	return f
}

// At returns the colour at x, y, transparent black outside the frame.
func (f *Frame) At(x, y int) color.RGBA {
	if x < 0 || y < 0 || x >= f.W || y >= f.H {
		return color.RGBA{}
	}
	i := 4 * (y*f.W + x)
	return color.RGBA{f.Pix[i], f.Pix[i+1], f.Pix[i+2], f.Pix[i+3]}
}

// Columns returns the columns holding at least one pixel of colour c, in
// order.
func (f *Frame) Columns(c color.RGBA) []int {
	var xs []int
	for x := range f.W {
		for y := range f.H {
			if f.At(x, y) == c {
				xs = append(xs, x)
				break
			}
		}
	}
	return xs
}
