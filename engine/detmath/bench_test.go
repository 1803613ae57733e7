package detmath_test

import (
	"math"
	"testing"

	"github.com/fixedstep/fixedstep/engine/detmath"
)

var sink float64

// BenchmarkFunctions times detmath's functions beside math's, over 1024
// arguments of the range a game uses them in (ns/op is for one call).
func BenchmarkFunctions(b *testing.B) {
	const n = 1024
	var xs, ys [n]float64
	state := uint64(1)
	for i := range n {
		xs[i] = random(&state, span{-4, 4, true})
		ys[i] = random(&state, span{-4, 4, true})
	}
	for _, f := range []struct {
		name     string
		det, std func(x, y float64) float64
	}{
		{"Sin", func(x, _ float64) float64 { return detmath.Sin(x) }, func(x, _ float64) float64 { return math.Sin(x) }},
		{"Atan2", detmath.Atan2, math.Atan2},
		{"Exp", func(x, _ float64) float64 { return detmath.Exp(x) }, func(x, _ float64) float64 { return math.Exp(x) }},
		{"Log", func(x, _ float64) float64 { return detmath.Log(math.Abs(x)) }, func(x, _ float64) float64 { return math.Log(math.Abs(x)) }},
		{"Pow", func(x, y float64) float64 { return detmath.Pow(math.Abs(x), y) }, func(x, y float64) float64 { return math.Pow(math.Abs(x), y) }},
		{"Hypot", detmath.Hypot, math.Hypot},
	} {
		for _, impl := range []struct {
			name string
			f    func(x, y float64) float64
		}{{"detmath", f.det}, {"math", f.std}} {
			b.Run(f.name+"/"+impl.name, func(b *testing.B) {
				i := 0
				for b.Loop() {
					sink = impl.f(xs[i%n], ys[i%n])
					i++
				}
			})
		}
	}
}
