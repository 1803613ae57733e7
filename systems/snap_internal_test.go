package systems

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
// the sixteenths, on whole and negative numbers, and at random.
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
	for _, x := range xs {
		if got, want := snap(x), ebitenSnap(x); got != want {
			t.Fatalf("snap(%v) = %v, ebiten's = %v", x, got, want)
		}
	}
}
