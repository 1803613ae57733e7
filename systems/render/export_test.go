package render

import (
	"image"

	"github.com/fixedstep/fixedstep/third_party/donburi"
)

// Build is Sprites.build for the external tests: Draw's work without its
// DrawTriangles32 calls.
func (r *Sprites) Build(w donburi.World, alpha float64, screen image.Rectangle) int {
	return r.build(w, alpha, screen)
}
