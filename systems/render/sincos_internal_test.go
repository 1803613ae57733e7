package render

import (
	"math"
	"math/rand/v2"
	"testing"

	"github.com/fixedstep/fixedstep/components/gfx"
)

// TestSines holds sines to math.Sincos, bit for bit: random angles of
// every magnitude, up to past math's reduction threshold, both signs, the
// octants' edges and the special values, in chunks of every length, among
// upright sprites, which it leaves alone.
func TestSines(t *testing.T) {
	var angles []float64
	for _, x := range []float64{math.Copysign(0, -1), math.Inf(1), math.NaN(), math.SmallestNonzeroFloat64,
		math.MaxFloat64, 1 << 29, math.Nextafter(1<<29, 0), 1 << 40} {
		angles = append(angles, x, -x)
	}
	for k := range 64 { // the octants' edges, and a few ulps either side
		x := float64(k) * math.Pi / 4
		for range 4 {
			angles = append(angles, x, -x)
			x = math.Nextafter(x, math.Inf(1))
		}
	}
	rng := rand.New(rand.NewPCG(1, 2))
	n := 2_000_000
	if testing.Short() {
		n = 200_000
	}
	for i := range n {
		// Up to 2π most of the time, else any magnitude to 2^31.
		x := rng.Float64() * 2 * math.Pi
		if i%4 == 0 {
			x = math.Ldexp(rng.Float64(), rng.IntN(62)-30)
		}
		if i%2 == 1 {
			x = -x
		}
		angles = append(angles, x)
	}

	var batch [chunk]pending
	var sprite gfx.Sprite
	for len(angles) > 0 {
		m := 1 + rng.IntN(chunk)
		for j := range batch[:m] {
			b := &batch[j]
			*b = pending{s: &sprite, sin: -2, cos: -2}
			if rng.IntN(8) != 0 && len(angles) > 0 { // else upright
				b.p.Angle, angles = angles[0], angles[1:]
			}
		}
		sines(batch[:m])
		for _, b := range batch[:m] {
			if b.p.Angle == 0 {
				if b.sin != -2 || b.cos != -2 {
					t.Fatalf("sines set the sine and cosine of an upright sprite: %v", b)
				}
				continue
			}
			ms, mc := math.Sincos(b.p.Angle)
			if !same(b.sin, ms) || !same(b.cos, mc) {
				t.Fatalf("sines gives %v and %v for angle %v; math.Sincos gives %v and %v", b.sin, b.cos, b.p.Angle, ms, mc)
			}
		}
	}
}

// same reports whether x and y have the same bits, or are both NaN.
func same(x, y float64) bool {
	return math.Float64bits(x) == math.Float64bits(y) || math.IsNaN(x) && math.IsNaN(y)
}
