// Package detmath has the functions of package math whose results differ
// from one CPU to another, written so that every CPU gives the same bits:
// a simulation calls them instead of math's to compute one state on
// amd64 (any GOAMD64), 386, arm64, riscv64 and WebAssembly.
//
//	angle := detmath.Atan2(dy, dx)
//	s, c := detmath.Sincos(angle)
//	x += float64(speed*c) // a product rounded: see below
//
// # Why math is not enough
//
// The Go compiler may fuse a float product and a sum, x*y + z, into one
// multiply-add instruction that skips the product's rounding: on arm64,
// riscv64, ppc64, s390x and loong64 always, on amd64 from GOAMD64=v3. The
// spec allows it, across statements and inlined calls; an explicit
// conversion, float64(x*y), forbids it. Package math's Go code is compiled
// like any other, so math.Sin gives other bits on arm64 than on amd64. And
// some functions run assembly whose results differ from the Go code's:
// Exp, Log and Hypot on amd64 (amd64's Exp picks its path by the CPU it
// runs on), Exp on arm64 and s390x; Pow, Log10, Log2, Sinh, Cosh and Tanh
// call Exp or Log.
//
// # What this package is
//
// Each function is Go's portable code for it, from src/math of Go 1.26.8
// (each file names the one it comes from; Go's licence in LICENSE), with
// the dispatch to assembly taken out and every float product rounded by a
// conversion (cmd/detcheck -fix did it). Nothing else is changed, so where
// the compiler does not fuse (amd64 with GOAMD64 v1 or v2, 386, wasm) each
// function gives the bits of math's Go code: the same as math's function
// wherever math runs no assembly, and for the functions above on amd64
// the bits of math's portable code rather than its assembly's (which
// differ for a share of arguments; TestAssemblyDiffers measures it on the
// CPU it runs on). On every CPU the results are those of amd64 v1:
// TestGolden compares hashes of many results with testdata/golden.txt.
//
// The functions of math that this package lacks give the same bits on
// every CPU already, and a simulation calls them from math: Sqrt, Floor,
// Ceil, Trunc, Round, RoundToEven, Abs, Copysign, Signbit, Inf, NaN,
// IsInf, IsNaN, Max, Min, Dim, FMA, Frexp, Ldexp, Modf, Nextafter, Ilogb,
// Logb and the bits conversions. Mod and Remainder are here too, as in
// math, whose results they equal everywhere.
//
// Code that calls these functions must still round its own products:
// cmd/detcheck finds them.
//
// # Cost
//
// A function here costs what math's Go code costs (a conversion that
// rounds is free where the compiler would not fuse, and costs the
// multiply-add it forbids where it would). Against math's assembly on
// amd64, Exp takes about 1.5 times as long and Pow about 1.1 times; Sin,
// Atan2, Log and Hypot take about as long as math's (BenchmarkFunctions
// compares).
package detmath
