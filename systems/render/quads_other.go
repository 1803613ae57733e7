//go:build !amd64 || purego

package render

import "github.com/hajimehoshi/ebiten/v2"

// vectorQuads is false: turnedQuads needs amd64's AVX2.
var vectorQuads = false

const hasVectorQuads = false

func turnedQuadsAVX2(in *turnedIn, view *[6][4]float64, n int, out *[chunk][4]ebiten.Vertex) (bad uint64) {
	panic("render: no vector quads on this architecture")
}
