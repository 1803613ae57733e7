package detmath_test

import (
	"bufio"
	"flag"
	"fmt"
	"math"
	"os"
	"runtime"
	"strings"
	"testing"

	"github.com/fixedstep/fixedstep/engine/detmath"
	"github.com/fixedstep/fixedstep/engine/detmath/internal/portable"
)

var update = flag.Bool("update", false, "rewrite testdata/golden.txt with this build's results (on amd64 with GOAMD64=v1)")

// span is a range of arguments: exponents of two from lo to hi, with
// every mantissa, and negative ones too when neg.
type span struct {
	lo, hi int
	neg    bool
}

// function is one function of detmath, math's, and Go's portable code
// for it where math runs assembly on amd64.
type function struct {
	name   string
	det    func(x, y float64) (float64, float64)
	std    func(x, y float64) (float64, float64)
	port   func(x, y float64) (float64, float64) // nil: math's is its portable code on amd64
	xs, ys span                                  // ys zero: one argument
}

func one(f func(float64) float64) func(x, y float64) (float64, float64) {
	return func(x, _ float64) (float64, float64) { return f(x), 0 }
}

func two(f func(float64, float64) float64) func(x, y float64) (float64, float64) {
	return func(x, y float64) (float64, float64) { return f(x, y), 0 }
}

func pair(f func(float64) (float64, float64)) func(x, y float64) (float64, float64) {
	return func(x, _ float64) (float64, float64) { return f(x) }
}

var functions = []function{
	{name: "Sin", det: one(detmath.Sin), std: one(math.Sin), xs: span{-30, 40, true}},
	{name: "Cos", det: one(detmath.Cos), std: one(math.Cos), xs: span{-30, 40, true}},
	{name: "Sincos", det: pair(detmath.Sincos), std: pair(math.Sincos), xs: span{-30, 40, true}},
	{name: "Tan", det: one(detmath.Tan), std: one(math.Tan), xs: span{-30, 40, true}},
	{name: "Asin", det: one(detmath.Asin), std: one(math.Asin), xs: span{-30, 1, true}},
	{name: "Acos", det: one(detmath.Acos), std: one(math.Acos), xs: span{-30, 1, true}},
	{name: "Atan", det: one(detmath.Atan), std: one(math.Atan), xs: span{-30, 30, true}},
	{name: "Atan2", det: two(detmath.Atan2), std: two(math.Atan2), xs: span{-20, 20, true}, ys: span{-20, 20, true}},
	{name: "Exp", det: one(detmath.Exp), std: one(math.Exp), port: one(portable.Exp), xs: span{-30, 10, true}},
	{name: "Exp2", det: one(detmath.Exp2), std: one(math.Exp2), xs: span{-30, 11, true}},
	{name: "Expm1", det: one(detmath.Expm1), std: one(math.Expm1), xs: span{-30, 10, true}},
	{name: "Log", det: one(detmath.Log), std: one(math.Log), port: one(portable.Log), xs: span{-1074, 1023, false}},
	{name: "Log2", det: one(detmath.Log2), std: one(math.Log2), port: one(portable.Log2), xs: span{-1074, 1023, false}},
	{name: "Log10", det: one(detmath.Log10), std: one(math.Log10), port: one(portable.Log10), xs: span{-1074, 1023, false}},
	{name: "Log1p", det: one(detmath.Log1p), std: one(math.Log1p), xs: span{-30, 30, false}},
	{name: "Pow", det: two(detmath.Pow), std: two(math.Pow), port: two(portable.Pow), xs: span{-10, 10, true}, ys: span{-8, 6, true}},
	{name: "Hypot", det: two(detmath.Hypot), std: two(math.Hypot), port: two(portable.Hypot), xs: span{-30, 30, true}, ys: span{-30, 30, true}},
	{name: "Mod", det: two(detmath.Mod), std: two(math.Mod), xs: span{-20, 40, true}, ys: span{-20, 20, true}},
	{name: "Remainder", det: two(detmath.Remainder), std: two(math.Remainder), xs: span{-20, 40, true}, ys: span{-20, 20, true}},
	{name: "Sinh", det: one(detmath.Sinh), std: one(math.Sinh), port: one(portable.Sinh), xs: span{-30, 10, true}},
	{name: "Cosh", det: one(detmath.Cosh), std: one(math.Cosh), port: one(portable.Cosh), xs: span{-30, 10, true}},
	{name: "Tanh", det: one(detmath.Tanh), std: one(math.Tanh), port: one(portable.Tanh), xs: span{-30, 6, true}},
	{name: "Cbrt", det: one(detmath.Cbrt), std: one(math.Cbrt), xs: span{-1074, 1023, true}},
}

// specials are arguments every function is also called with (both
// arguments of each pair, for two).
var specials = []float64{0, math.Copysign(0, -1), 1, -1, 0.5, -0.5, 2, -2, 3, -3, 10, math.Inf(1), math.Inf(-1), math.NaN(),
	math.MaxFloat64, -math.MaxFloat64, math.SmallestNonzeroFloat64, -math.SmallestNonzeroFloat64,
	0x1p-1022, math.Pi, -math.Pi, math.Pi / 2, math.Pi / 4, 1e300, -1e300, 709.78, -745.1, 1 << 29, 1 << 53, 1 << 63}

const randomArgs = 1 << 14

// args are a function's arguments: specials, then random ones made from
// integers alone (the same on every CPU).
func (f function) args() [][2]float64 {
	var out [][2]float64
	for _, x := range specials {
		if f.ys == (span{}) {
			out = append(out, [2]float64{x, 0})
			continue
		}
		for _, y := range specials {
			out = append(out, [2]float64{x, y})
		}
	}
	seed := uint64(0)
	for _, c := range f.name {
		seed = seed*31 + uint64(c)
	}
	for range randomArgs {
		x := random(&seed, f.xs)
		y := 0.0
		if f.ys != (span{}) {
			y = random(&seed, f.ys)
		}
		out = append(out, [2]float64{x, y})
	}
	return out
}

// random is a float with an exponent in s, a random mantissa and sign.
func random(state *uint64, s span) float64 {
	r := splitmix(state)
	e := s.lo + int(r%uint64(s.hi-s.lo+1))
	bits := splitmix(state)&(1<<52-1) | uint64(e+1023)<<52
	if s.neg && r>>63 == 1 {
		bits |= 1 << 63
	}
	if e < -1022 { // a subnormal
		bits = splitmix(state) >> (12 + uint(-1022-e))
	}
	return math.Float64frombits(bits)
}

func splitmix(state *uint64) uint64 {
	*state += 0x9e3779b97f4a7c15
	z := *state
	z = (z ^ z>>30) * 0xbf58476d1ce4e5b9
	z = (z ^ z>>27) * 0x94d049bb133111eb
	return z ^ z>>31
}

// same says whether two results are the same bits, any NaN being the same
// as any other (CPUs make NaNs of different bits).
func same(a, b float64) bool {
	return math.Float64bits(a) == math.Float64bits(b) || (a != a && b != b)
}

// digest hashes results (FNV-1a over their bits): canon with every NaN
// hashed as one, raw with its bits.
type digest struct{ canon, raw uint64 }

func newDigest() digest { return digest{14695981039346656037, 14695981039346656037} }

func (d *digest) add(v float64) {
	raw := math.Float64bits(v)
	canon := raw
	if v != v {
		canon = 0x7ff8000000000001
	}
	for i := 0; i < 64; i += 8 {
		d.canon = (d.canon ^ (canon >> i & 0xff)) * 1099511628211
		d.raw = (d.raw ^ (raw >> i & 0xff)) * 1099511628211
	}
}

func hashOf(f func(x, y float64) (float64, float64), args [][2]float64) digest {
	d := newDigest()
	for _, a := range args {
		r0, r1 := f(a[0], a[1])
		d.add(r0)
		d.add(r1)
	}
	return d
}

const goldenFile = "testdata/golden.txt"

// golden reads testdata/golden.txt: per function, the argument count and
// the two hashes of its results.
func golden(t *testing.T) map[string]string {
	t.Helper()
	f, err := os.Open(goldenFile)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	m := map[string]string{}
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		if line := sc.Text(); line != "" && !strings.HasPrefix(line, "#") {
			name, rest, _ := strings.Cut(line, " ")
			m[name] = rest
		}
	}
	return m
}

func line(n int, d digest) string { return fmt.Sprintf("%d %016x %016x", n, d.canon, d.raw) }

// On every CPU, every function gives the bits it gives on amd64 with
// GOAMD64=v1 (testdata/golden.txt, written by go test -run TestGolden
// -update there), over specials and many random arguments; a NaN may
// differ in its bits (logged).
func TestGolden(t *testing.T) {
	if *update {
		if runtime.GOARCH != "amd64" || compilerFuses {
			t.Fatal("write the golden file on amd64 with GOAMD64=v1 or v2")
		}
		var b strings.Builder
		b.WriteString("# detmath's results on amd64 v1: function, arguments, FNV-1a of the results' bits (every NaN as one), and of their raw bits\n")
		for _, f := range functions {
			args := f.args()
			fmt.Fprintf(&b, "%s %s\n", f.name, line(len(args), hashOf(f.det, args)))
		}
		if err := os.WriteFile(goldenFile, []byte(b.String()), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want := golden(t)
	for _, f := range functions {
		args := f.args()
		got := line(len(args), hashOf(f.det, args))
		w, ok := want[f.name]
		switch {
		case !ok:
			t.Errorf("%s: not in %s", f.name, goldenFile)
		case got[:len(got)-17] != w[:len(w)-17]:
			t.Errorf("%s on %s: %s, want %s", f.name, runtime.GOARCH, got, w)
		case got != w:
			t.Logf("%s on %s: the same results, but NaNs of other bits (%s, amd64 v1 %s)", f.name, runtime.GOARCH, got, w)
		}
	}
}

// Where the compiler fuses, math's functions do not all give amd64 v1's
// bits; this logs which differ (it fails on nothing: it shows what
// TestGolden guards against).
func TestMathDiffersWhereFused(t *testing.T) {
	if !compilerFuses {
		t.Skip("the compiler does not fuse for this CPU")
	}
	want := golden(t)
	var differ []string
	for _, f := range functions {
		args := f.args()
		got := line(len(args), hashOf(f.std, args))
		if w := want[f.name]; got[:len(got)-17] != w[:len(w)-17] {
			differ = append(differ, f.name)
		}
	}
	t.Logf("on %s, math's results differ from detmath's amd64 v1 results for %d of %d functions: %v", runtime.GOARCH, len(differ), len(functions), differ)
}

// Where the compiler does not fuse, every function gives, for every
// argument, the bits of math's Go code: math's function itself where math
// runs no assembly on this CPU, Go's portable code (package portable)
// where it does.
func TestMatchesGo(t *testing.T) {
	if compilerFuses {
		t.Skip("the compiler fuses for this CPU: math's Go code gives other bits here")
	}
	for _, f := range functions {
		ref, against := f.std, "math"
		if f.port != nil && (runtime.GOARCH == "amd64" || runtime.GOARCH == "386" && f.name == "Hypot") {
			ref, against = f.port, "Go's portable code"
		}
		differ := 0
		for _, a := range f.args() {
			d0, d1 := f.det(a[0], a[1])
			r0, r1 := ref(a[0], a[1])
			if !same(d0, r0) || !same(d1, r1) {
				if differ++; differ <= 3 {
					t.Errorf("%s(%v, %v) = %v, %v; %s: %v, %v", f.name, a[0], a[1], d0, d1, against, r0, r1)
				}
			}
		}
		if differ > 0 {
			t.Errorf("%s: %d arguments differ from %s", f.name, differ, against)
		}
	}
}
