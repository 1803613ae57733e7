package render

import (
	"math"
	"math/rand/v2"
	"testing"
)

// ebitenSnap is ebiten v2.10's internal graphics.adjustDestinationPixel, as
// it is written there.
func ebitenSnap(x float32) float32 {
	ix := float32(int(x))
	if x < 0 && x != ix {
		ix -= 1
	}
	frac := x - ix
	switch {
	case frac < 3.0/16.0:
		return ix
	case frac < 8.0/16.0:
		return ix + 5.0/16.0
	case frac < 13.0/16.0:
		return ix + 11.0/16.0
	default:
		return ix + 16.0/16.0
	}
}

// snap places vertices exactly where DrawImage places them: at the edges of
// the sixteenths, on whole and negative numbers, at random, where its fast
// way for [0, 2^59) ends, and over a sweep of float32s of every magnitude.
// (Every one of the 2^32 float32s was checked against the way snap had
// before the fast one, once: 17 s, too long for every run.)
func TestSnapIsEbitens(t *testing.T) {
	xs := []float32{0, 1, -1, 0.5, -0.5, 1e6, -1e6, 1 << 23, -(1 << 23), math.Nextafter32(0, 1), math.Nextafter32(0, -1)}
	for i := -64; i <= 64; i++ {
		x := float32(i) / 16
		xs = append(xs, x, math.Nextafter32(x, 10), math.Nextafter32(x, -10))
	}
	rng := rand.New(rand.NewPCG(3, 4))
	for range 100_000 {
		xs = append(xs, float32(rng.NormFloat64()*1000))
	}
	for _, x := range []float32{float32(math.NaN()), float32(math.Inf(1)), float32(math.Inf(-1))} {
		snap(x) // does not panic
	}
	// Where the fast way ends, and every float32 of a sweep over their bits.
	for _, x := range []float32{1 << 58, 1 << 59, 1 << 60, 1 << 62} {
		xs = append(xs, x, math.Nextafter32(x, 0), math.Nextafter32(x, 1<<63), -x)
	}
	var sweep []float32
	for b := uint32(0); b < 1<<31; b += 4093 {
		sweep = append(sweep, math.Float32frombits(b), math.Float32frombits(b|1<<31))
	}
	for _, x := range append(xs, sweep...) {
		if math.Abs(float64(x)) >= 1<<62 || x != x {
			// ebiten's int(x) overflows: snap is then as its slow way.
			if got, want := snap(x), snapOther(x); math.Float32bits(got) != math.Float32bits(want) {
				t.Fatalf("snap(%v) = %v, its slow way %v", x, got, want)
			}
			continue
		}
		if got, want := snap(x), ebitenSnap(x); got != want {
			t.Fatalf("snap(%v) = %v, ebiten's = %v", x, got, want)
		}
	}
}
