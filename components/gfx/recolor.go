package gfx

import (
	"image"
	"image/color"
	"math"
)

// SeatColors are the players' colours, by seat (player 1 first): cyan,
// the engine's player sprite's own, then magenta, green and violet, far
// apart in hue so that players tell their bodies apart at a glance (and
// from the demo's orange agents and yellow stars). stage.Stage.SeatSprite
// draws a player's sprite in its seat's colour. A game with a palette of
// its own recolours with gfx.Recolor (stage.Stage.RecolorSprite).
var SeatColors = [4]color.RGBA{
	{0x4a, 0xc8, 0xf0, 0xff},
	{0xf0, 0x4a, 0xd0, 0xff},
	{0x8a, 0xf0, 0x4a, 0xff},
	{0xd0, 0x6a, 0xf0, 0xff},
}

// A Recolor is a colour swap, a palette swap for one colour: every pixel
// of From's hue (within Within degrees of it; 0 means 40) that has some
// colour in it (saturation above a tenth) takes To's hue instead, as far
// off it as it was off From's, and keeps its saturation, lightness and
// alpha. A sprite drawn in shades of one colour (a gradient, shading, an
// anti-aliased rim) is the same sprite in another colour, where
// multiplying by a tint only darkens channels (a cyan sprite can never
// turn orange); greys, black, white and the other hues stay as drawn.
type Recolor struct {
	From, To color.Color
	Within   float64
}

// Apply returns a copy of src's pixels within r, recoloured, with bounds
// r. It allocates the new image, once: recolour a sprite when a scene
// loads, not every frame.
func (rc Recolor) Apply(src image.Image, r image.Rectangle) *image.RGBA {
	r = r.Intersect(src.Bounds())
	dst := image.NewRGBA(r)
	fromH, _, _ := hsl(color.NRGBAModel.Convert(rc.From).(color.NRGBA))
	toH, _, _ := hsl(color.NRGBAModel.Convert(rc.To).(color.NRGBA))
	within := rc.Within
	if within <= 0 {
		within = 40
	}
	for y := r.Min.Y; y < r.Max.Y; y++ {
		for x := r.Min.X; x < r.Max.X; x++ {
			c := color.NRGBAModel.Convert(src.At(x, y)).(color.NRGBA)
			if h, s, l := hsl(c); c.A > 0 && s > 0.1 {
				if d := hueDiff(h, fromH); math.Abs(d) <= within {
					c = fromHSL(toH+d, s, l, c.A)
				}
			}
			dst.Set(x, y, c)
		}
	}
	return dst
}

// hueDiff is h - from, in (-180, 180] degrees.
func hueDiff(h, from float64) float64 {
	d := math.Mod(h-from+540, 360) - 180
	if d == -180 {
		d = 180
	}
	return d
}

// hsl returns c's hue (degrees), saturation and lightness (0 to 1).
func hsl(c color.NRGBA) (h, s, l float64) {
	r, g, b := float64(c.R)/255, float64(c.G)/255, float64(c.B)/255
	hi, lo := max(r, g, b), min(r, g, b)
	l = (hi + lo) / 2
	if hi == lo {
		return 0, 0, l
	}
	d := hi - lo
	if l > 0.5 {
		s = d / (2 - hi - lo)
	} else {
		s = d / (hi + lo)
	}
	switch hi {
	case r:
		h = (g - b) / d
		if g < b {
			h += 6
		}
	case g:
		h = (b-r)/d + 2
	default:
		h = (r-g)/d + 4
	}
	return float64(h * 60), s, l
}

// fromHSL is the colour of hue h (degrees, any), saturation s and
// lightness l, with alpha a.
func fromHSL(h, s, l float64, a uint8) color.NRGBA {
	h = math.Mod(math.Mod(h, 360)+360, 360) / 360
	var q float64
	if l < 0.5 {
		q = float64(l * (1 + s))
	} else {
		q = l + s - float64(l*s)
	}
	p := 2*l - q
	ch := func(t float64) uint8 {
		t = math.Mod(t+1, 1)
		var v float64
		switch {
		case t < 1.0/6:
			v = p + float64((q-p)*6*t)
		case t < 0.5:
			v = q
		case t < 2.0/3:
			v = p + float64((q-p)*(2.0/3-t)*6)
		default:
			v = p
		}
		if !(v > 0) { // NaN too
			v = 0
		}
		return uint8(math.Round(float64(min(v, 1) * 255))) //detcheck:ok v is in [0, 1]
	}
	return color.NRGBA{ch(h + 1.0/3), ch(h), ch(h - 1.0/3), a}
}
