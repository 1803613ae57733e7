package detmath_test

import (
	"fmt"
	"testing"

	"golang.org/x/sys/cpu"
)

// On amd64, math runs assembly for Exp, Log and Hypot (and so for Pow,
// Log10, Log2, Sinh, Cosh and Tanh) whose results differ from Go's
// portable code, which detmath follows, for a share of arguments; Exp's
// assembly takes another path on a CPU with FMA. This logs, per function,
// how many of the test's arguments differ and the first few (it fails on
// nothing: it documents why detmath does not call math here).
func TestAssemblyDiffers(t *testing.T) {
	if compilerFuses {
		t.Skip("the compiler fuses here: the portable code is not amd64 v1's")
	}
	t.Logf("this CPU has FMA: %v (math.Exp's assembly uses it if so)", cpu.X86.HasFMA)
	for _, f := range functions {
		if f.port == nil {
			continue
		}
		args := f.args()
		differ := 0
		var samples []string
		for _, a := range args {
			s, _ := f.std(a[0], a[1])
			p, _ := f.port(a[0], a[1])
			if !same(s, p) {
				if differ++; differ <= 3 {
					samples = append(samples, sample(f, a, s, p))
				}
			}
		}
		t.Logf("%s: math's assembly differs from Go's portable code for %d of %d arguments %v", f.name, differ, len(args), samples)
	}
}

func sample(f function, a [2]float64, asm, port float64) string {
	if f.ys == (span{}) {
		return fmt.Sprintf("%s(%v): math %v, portable %v", f.name, a[0], asm, port)
	}
	return fmt.Sprintf("%s(%v, %v): math %v, portable %v", f.name, a[0], a[1], asm, port)
}
