package gfx

import (
	"image"

	"github.com/hajimehoshi/ebiten/v2"

	"github.com/fixedstep/fixedstep/engine/state"
)

// How the state hasher (package engine/state) reads the ebiten values a
// Sprite holds, whose state is behind unexported fields, and the names it
// knows their types by.
func init() {
	state.Summarize("ebiten.Image", summarizeImage)
	state.Summarize("ebiten.ColorScale", summarizeColorScale)
	state.Summarize("ebiten.GeoM", summarizeGeoM)
}

// summarizeImage: an ebiten image's bounds, which for a sub-image of an
// atlas is its rectangle in the atlas: the same in every process, and
// different when a sprite switches to another frame of its atlas. Not its
// pixels (reading them needs the GPU, and costs a transfer), so two images
// of equal bounds cut from different atlases look the same. A disposed
// image is written as such.
func summarizeImage(img *ebiten.Image, w *state.Writer) {
	r, ok := imageBounds(img)
	if !ok {
		w.Text("Disposed", "disposed")
		return
	}
	w.Int("Bounds.Min.X", int64(r.Min.X))
	w.Int("Bounds.Min.Y", int64(r.Min.Y))
	w.Int("Bounds.Max.X", int64(r.Max.X))
	w.Int("Bounds.Max.Y", int64(r.Max.Y))
}

// imageBounds returns img.Bounds(), or false when img is disposed (ebiten
// then panics, and gives no other way to ask).
func imageBounds(img *ebiten.Image) (r image.Rectangle, ok bool) {
	defer func() {
		if recover() != nil {
			ok = false
		}
	}()
	return img.Bounds(), true
}

// summarizeColorScale: the four scales, as R, G, B, A return them (the
// zero value is 1, 1, 1, 1).
func summarizeColorScale(c *ebiten.ColorScale, w *state.Writer) {
	w.Float32("R", c.R())
	w.Float32("G", c.G())
	w.Float32("B", c.B())
	w.Float32("A", c.A())
}

// summarizeGeoM: the six elements of the matrix [[A B Tx] [C D Ty]], as
// Element returns them (the zero value is the identity).
func summarizeGeoM(g *ebiten.GeoM, w *state.Writer) {
	w.Float64("A", g.Element(0, 0))
	w.Float64("B", g.Element(0, 1))
	w.Float64("Tx", g.Element(0, 2))
	w.Float64("C", g.Element(1, 0))
	w.Float64("D", g.Element(1, 1))
	w.Float64("Ty", g.Element(1, 2))
}
