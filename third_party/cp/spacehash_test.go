package cp

import (
	"math"
	"math/rand/v2"
	"testing"
)

// cellHash gives hashFunc's cell, for tables of every size the spatial
// hash is given (small, prime, powers of two and their neighbours, up to
// the largest an int holds on every CPU) and every hash value: random ones
// and the edges.
func TestCellHashIsHashFunc(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	sizes := []int{1, 2, 3, 5, 7, 1000, 1024, 1031, 10000, 65535, 65536, 65537, 1 << 20, 1<<31 - 1}
	for range 200 {
		sizes = append(sizes, 1+rng.IntN(1<<24))
	}
	coords := []int{0, 1, -1, 2, -2, math.MaxInt32, math.MinInt32, math.MaxInt, math.MinInt}
	for range 200 {
		coords = append(coords, int(rng.Int64()), rng.IntN(2001)-1000)
	}
	for _, n := range sizes {
		c := newCellHash(n)
		for _, x := range coords {
			for _, y := range coords[:40] {
				if got, want := c.of(HashValue(x), HashValue(y)), hashFunc(HashValue(x), HashValue(y), HashValue(n)); got != want {
					t.Fatalf("%d cells: cell (%d, %d) is %d, hashFunc's %d", n, x, y, got, want)
				}
			}
		}
	}
}
