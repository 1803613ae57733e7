//go:build amd64 && !purego

package render

import (
	"github.com/hajimehoshi/ebiten/v2"
	"golang.org/x/sys/cpu"
)

// vectorQuads is whether build gives turned sprites their corners with
// turnedQuads: where the CPU has AVX2.
var vectorQuads = hasVectorQuads

// hasVectorQuads is whether the CPU has AVX2.
var hasVectorQuads = cpu.X86.HasAVX2

// turnedQuadsAVX2 computes the corners of the first n sprites of in, four
// at a time, into out: their sines and cosines, transforms and snapped
// vertices, with exactly sines', quads' and snap's operations. It
// returns a bit for each sprite whose corners it could not give exactly
// (a coordinate of 2^23 or more, or NaN), whose row in out is to be
// ignored. n may be up to chunk; the lanes past it are computed and
// their bits are to be ignored.
//
//go:noescape
func turnedQuadsAVX2(in *turnedIn, view *[6][4]float64, n int, out *[chunk][4]ebiten.Vertex) (bad uint64)
