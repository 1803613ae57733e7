//go:build amd64 && !purego

package render

import (
	"github.com/hajimehoshi/ebiten/v2"
	"golang.org/x/sys/cpu"
)

// haveVector is whether the CPU has AVX2, which quadsAVX2 needs.
var haveVector = cpu.X86.HasAVX2

// useVector is whether build makes quads with vectorQuads: where the CPU
// has AVX2 (a test turns it off to compare the two ways).
var useVector = haveVector

// quadsAVX2 makes the quads of the first n sprites of in, four at a time,
// into out (each sprite's four vertices at its index): their sines and
// cosines, transforms, corners snapped and vertices, with exactly the
// operations of sines, quads and snap. It returns a bit for each sprite
// whose quad it could not make exactly (a coordinate of 2^23 or more, or
// a NaN), whose quad in out is not to be used, and a bit for each sprite
// whose box lies beyond an edge of in.clip, as quads culls an upright
// sprite. n is at most chunk; the lanes past it are computed and their
// bits are not to be used.
//
//go:noescape
func quadsAVX2(in *vectorIn, view *[6][4]float64, n int, out *[chunk][4]ebiten.Vertex) (bad, culled uint64)
