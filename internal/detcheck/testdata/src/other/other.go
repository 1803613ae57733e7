// Package other holds what detcheck finds besides products (each line's
// "want" comment names what it finds there).
package other

import (
	crand "crypto/rand"
	"maps"
	"math"
	"math/rand/v2"
	"slices"
	"sort"
	"time"
)

// Math calls functions of math that give the same bits everywhere, and
// some that do not.
func Math(x float64) float64 {
	a := math.Sqrt(x) + math.Floor(x) + math.Abs(x) + math.Max(x, 1) + math.Mod(x, 2) + math.Pi
	b := math.Sin(x)   // want math
	f := math.Exp      // want math
	c := math.Gamma(x) // want math
	return a + b + f(x) + c
}

// Maps ranges over a map in ways whose order matters and does not.
func Maps(m map[string]int) (int, []string) {
	n := 0
	for _, v := range m { // want maprange
		n += v
	}
	var keys []string
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	var ks []string
	for k := range m {
		ks = append(ks, k)
	}
	slices.Sort(ks)
	var unsorted []string
	for k := range m { // want maprange
		unsorted = append(unsorted, k)
	}
	for k := range maps.Keys(m) { // want maprange
		n += len(k)
	}
	sorted := slices.Sorted(maps.Keys(m))
	return n, append(append(unsorted, sorted...), keys...)
}

// Clock reads the wall clock.
func Clock() time.Duration {
	t := time.Now()      // want clock
	return time.Since(t) // want clock
}

// Rand uses a generator of its own, and the global ones.
func Rand() float64 {
	r := rand.New(rand.NewPCG(1, 2))
	var b [4]byte
	crand.Read(b[:])                    // want rand
	return r.Float64() + rand.Float64() // want rand
}

// Go starts a goroutine.
func Go(f func()) {
	go f() // want go
}

// Convert converts floats to integers.
func Convert(x float64, y float32) (int, uint8, int64) {
	const c = 2.5
	return int(x), uint8(y), int64(c * 2) // want float2int float2int
}

// Markers has a marker with no reason and one that marks nothing.
func Markers(x float64) int {
	//detcheck:ok
	a := int(x) // want float2int
	//detcheck:ok nothing to mark here
	b := 1
	return a + b
}
