//go:build !amd64 || purego

package render

import (
	"unsafe"

	"github.com/hajimehoshi/ebiten/v2"
)

// haveVector is false: quadsAVX2 is amd64's.
const haveVector = false

// useVector is false: build makes every quad with quads.
var useVector = false

func quadsAVX2(in *vectorIn, view *[6][4]float64, n int, out *[chunk][4]ebiten.Vertex) (bad, culled uint64) {
	panic("render: quadsAVX2 without AVX2")
}

// prefetch does nothing here: Go has no prefetch of its own.
func prefetch(transforms, sprites *unsafe.Pointer, n int) {}
