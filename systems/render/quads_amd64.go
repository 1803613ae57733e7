//go:build amd64 && !purego && !amd64.v3

package render

import (
	"unsafe"

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

// prefetch asks the CPU to bring into its caches the first line of each
// of the n transforms, and the first two of each of the n sprites, that
// the pointers from transforms and sprites on point to (PREFETCHT0: no
// fault, no wait).
//
//go:noescape
func prefetch(transforms, sprites *unsafe.Pointer, n int)

// The offsets quads_amd64.s reads vectorIn's fields at.
var (
	_ = [1]int{}[unsafe.Offsetof(vectorIn{}.x)-512]
	_ = [1]int{}[unsafe.Offsetof(vectorIn{}.y)-1024]
	_ = [1]int{}[unsafe.Offsetof(vectorIn{}.scaleX)-1536]
	_ = [1]int{}[unsafe.Offsetof(vectorIn{}.scaleY)-2048]
	_ = [1]int{}[unsafe.Offsetof(vectorIn{}.originX)-2560]
	_ = [1]int{}[unsafe.Offsetof(vectorIn{}.originY)-3072]
	_ = [1]int{}[unsafe.Offsetof(vectorIn{}.w)-3584]
	_ = [1]int{}[unsafe.Offsetof(vectorIn{}.h)-3840]
	_ = [1]int{}[unsafe.Offsetof(vectorIn{}.sin)-4096]
	_ = [1]int{}[unsafe.Offsetof(vectorIn{}.cos)-4608]
	_ = [1]int{}[unsafe.Offsetof(vectorIn{}.ga)-5120]
	_ = [1]int{}[unsafe.Offsetof(vectorIn{}.gb)-5376]
	_ = [1]int{}[unsafe.Offsetof(vectorIn{}.gc)-5632]
	_ = [1]int{}[unsafe.Offsetof(vectorIn{}.gd)-5888]
	_ = [1]int{}[unsafe.Offsetof(vectorIn{}.gtx)-6144]
	_ = [1]int{}[unsafe.Offsetof(vectorIn{}.gty)-6400]
	_ = [1]int{}[unsafe.Offsetof(vectorIn{}.src)-6656]
	_ = [1]int{}[unsafe.Offsetof(vectorIn{}.color)-7680]
	_ = [1]int{}[unsafe.Offsetof(vectorIn{}.clip)-8704]
)
