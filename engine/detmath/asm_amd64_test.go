package detmath_test

import (
	"fmt"
	"math"
	"testing"

	"golang.org/x/sys/cpu"

	"github.com/fixedstep/fixedstep/engine/detmath/internal/portable"
)

// On amd64, math runs assembly for Exp, Log and Hypot (and so for Pow,
// Log10, Log2, Sinh, Cosh and Tanh) whose results can differ from Go's
// portable code, which detmath follows; Exp's assembly takes another path
// on a CPU with FMA. This logs, per function and range of arguments, how
// many differ and the first few (it fails on nothing: it documents why
// detmath does not call math here).
func TestAssemblyDiffers(t *testing.T) {
	if compilerFuses {
		t.Skip("the compiler fuses here: the portable code is not amd64 v1's")
	}
	t.Logf("this CPU has FMA: %v (math.Exp's assembly uses it if so)", cpu.X86.HasFMA)
	const n = 1 << 16
	state := uint64(1)
	uniform := func(lo, hi float64) float64 { // lo + (hi-lo)*[0, 1), rounded as it goes
		return lo + float64((hi-lo)*(float64(splitmix(&state)>>11)*0x1p-53))
	}
	normal := func() float64 { return random(&state, span{-1022, 1023, false}) }
	subnormal := func() float64 { return math.Float64frombits(splitmix(&state) >> 12) }
	cases := []struct {
		name      string
		asm, port func(x, y float64) float64
		args      func() (float64, float64)
	}{
		{"Exp on [-700, 700)", unary(math.Exp), unary(portable.Exp), func() (float64, float64) { return uniform(-700, 700), 0 }},
		{"Exp on [-1, 1)", unary(math.Exp), unary(portable.Exp), func() (float64, float64) { return uniform(-1, 1), 0 }},
		{"Log of normal numbers", unary(math.Log), unary(portable.Log), func() (float64, float64) { return normal(), 0 }},
		{"Log of subnormal numbers", unary(math.Log), unary(portable.Log), func() (float64, float64) { return subnormal(), 0 }},
		{"Log10 of normal numbers", unary(math.Log10), unary(portable.Log10), func() (float64, float64) { return normal(), 0 }},
		{"Log2 of normal numbers", unary(math.Log2), unary(portable.Log2), func() (float64, float64) { return normal(), 0 }},
		{"Pow on [0, 2) x [-2, 2)", math.Pow, portable.Pow, func() (float64, float64) { return uniform(0, 2), uniform(-2, 2) }},
		{"Hypot on [-500, 500)^2", math.Hypot, portable.Hypot, func() (float64, float64) { return uniform(-500, 500), uniform(-500, 500) }},
		{"Sinh on [-20, 20)", unary(math.Sinh), unary(portable.Sinh), func() (float64, float64) { return uniform(-20, 20), 0 }},
		{"Cosh on [-20, 20)", unary(math.Cosh), unary(portable.Cosh), func() (float64, float64) { return uniform(-20, 20), 0 }},
		{"Tanh on [-5, 5)", unary(math.Tanh), unary(portable.Tanh), func() (float64, float64) { return uniform(-5, 5), 0 }},
	}
	for _, c := range cases {
		differ := 0
		var samples []string
		for range n {
			x, y := c.args()
			a, p := c.asm(x, y), c.port(x, y)
			if !same(a, p) {
				if differ++; differ <= 2 {
					samples = append(samples, fmt.Sprintf("(%v, %v): math %v, portable %v", x, y, a, p))
				}
			}
		}
		t.Logf("%s: math's assembly differs from Go's portable code for %d of %d arguments (%.1f%%) %v", c.name, differ, n, float64(100*differ)/n, samples)
	}
	// Over the golden test's arguments.
	for _, f := range functions {
		if f.port == nil {
			continue
		}
		differ := 0
		args := f.args()
		for _, a := range args {
			s, _ := f.std(a[0], a[1])
			p, _ := f.port(a[0], a[1])
			if !same(s, p) {
				differ++
			}
		}
		t.Logf("%s over TestGolden's arguments: %d of %d differ", f.name, differ, len(args))
	}
}

func unary(f func(float64) float64) func(x, y float64) float64 {
	return func(x, _ float64) float64 { return f(x) }
}
