//go:build !amd64 || purego || amd64.v3

package render

import (
	"unsafe"

	"github.com/hajimehoshi/ebiten/v2"
)

// haveVector is false: quadsAVX2 is amd64's, and with GOAMD64=v3 or
// higher Go fuses multiplications and additions into FMA instructions in
// the scalar way (and in ebiten's GeoM), whose bits the vector way, which
// fuses none, would not give.
const haveVector = false

// useVector is false: build makes every quad with quads.
var useVector = false

func quadsAVX2(in *vectorIn, view *[6][4]float64, n int, out *[chunk][4]ebiten.Vertex) (bad, culled uint64) {
	panic("render: quadsAVX2 without AVX2")
}

// prefetch does nothing here: Go has no prefetch of its own.
func prefetch(transforms, sprites *unsafe.Pointer, n int) {}
