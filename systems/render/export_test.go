package render

import (
	"image"

	"github.com/hajimehoshi/ebiten/v2"

	"github.com/fixedstep/fixedstep/third_party/donburi"
)

// Build is Sprites.build for the external tests: Draw's work without its
// DrawTriangles32 calls.
func (r *Sprites) Build(w donburi.World, alpha float64, screen image.Rectangle) int {
	return r.build(w, alpha, screen)
}

// Submit is Sprites.submit for the external tests: Draw's DrawTriangles32
// calls of the n slots Build wrote.
func (r *Sprites) Submit(screen *ebiten.Image, n int) { r.submit(screen, n) }

// SetVectorQuads turns the AVX2 way of making quads on or off (on only
// where it can run), and reports whether it can run here.
func SetVectorQuads(on bool) (available bool) {
	useVector = on && haveVector
	return haveVector
}

// Vertices returns the first n quads' vertices Build wrote.
func (r *Sprites) Vertices(n int) []ebiten.Vertex { return r.vertices[:4*n] }
