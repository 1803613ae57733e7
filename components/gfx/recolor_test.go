package gfx_test

import (
	"fmt"
	"image"
	"image/color"
	"testing"

	"github.com/fixedstep/fixedstep/components/gfx"
)

// A recolour turns every shade of the key colour into the same shade of
// the other, keeping alpha, and leaves greys and other hues as drawn.
func TestRecolor(t *testing.T) {
	src := image.NewNRGBA(image.Rect(0, 0, 5, 1))
	src.Set(0, 0, color.NRGBA{0x4a, 0xc8, 0xf0, 0xff}) // the key, cyan
	src.Set(1, 0, color.NRGBA{0x00, 0x4a, 0x70, 0x80}) // a dark, half-transparent cyan: a rim
	src.Set(2, 0, color.NRGBA{0x80, 0x80, 0x80, 0xff}) // grey
	src.Set(3, 0, color.NRGBA{0xff, 0x00, 0x00, 0xff}) // red
	dst := gfx.Recolor{From: gfx.SeatColors[0], To: gfx.SeatColors[1]}.Apply(src, src.Bounds())
	at := func(x int) color.NRGBA { return color.NRGBAModel.Convert(dst.At(x, 0)).(color.NRGBA) }
	if c, want := at(0), gfx.SeatColors[1]; absDiff(c.R, want.R) > 2 || absDiff(c.G, want.G) > 2 || absDiff(c.B, want.B) > 2 || c.A != 0xff {
		t.Errorf("the key became %v, want the seat's colour %v", c, gfx.SeatColors[1])
	}
	if c := at(1); !(c.R > c.B && c.B > c.G && c.R < 0x80) || c.A != 0x80 {
		t.Errorf("the dark rim became %v, want a dark magenta at half alpha", c)
	}
	if at(2) != (color.NRGBA{0x80, 0x80, 0x80, 0xff}) || at(3) != (color.NRGBA{0xff, 0, 0, 0xff}) || at(4) != (color.NRGBA{}) {
		t.Errorf("grey, red and transparent changed: %v %v %v", at(2), at(3), at(4))
	}
	sub := gfx.Recolor{From: gfx.SeatColors[0], To: gfx.SeatColors[2]}.Apply(src, image.Rect(1, 0, 3, 1))
	if sub.Bounds() != image.Rect(1, 0, 3, 1) {
		t.Errorf("a part's copy has bounds %v", sub.Bounds())
	}
}

func absDiff(a, b uint8) int { return max(int(a), int(b)) - min(int(a), int(b)) }

// A player's sprite in each seat's colour: the cyan of player 1's sprite
// becomes the seat's hue, its saturation and lightness kept (seat 4's violet
// comes out as bright as the cyan).
func ExampleRecolor() {
	sprite := image.NewNRGBA(image.Rect(0, 0, 1, 1))
	sprite.Set(0, 0, gfx.SeatColors[0])
	for seat, c := range gfx.SeatColors {
		got := gfx.Recolor{From: gfx.SeatColors[0], To: c}.Apply(sprite, sprite.Bounds()).At(0, 0).(color.RGBA)
		fmt.Printf("seat %d: #%02x%02x%02x\n", seat+1, got.R, got.G, got.B)
	}
	// Output:
	// seat 1: #4ac8f0
	// seat 2: #f04ad0
	// seat 3: #8af04a
	// seat 4: #c84af0
}
