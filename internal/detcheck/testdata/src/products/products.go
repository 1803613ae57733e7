// Package products holds float products that detcheck must find (each
// line's "want" comment names what it finds there) and products it must
// leave alone.
package products

import "github.com/fixedstep/fixedstep/internal/detcheck/testdata/src/units"

// Scalar is a named float type.
type Scalar float64

// Vec is a vector.
type Vec struct{ X, Y float64 }

// Dot has two products, each of which may fuse with the sum.
func Dot(a, b Vec) float64 {
	return a.X*b.X + a.Y*b.Y // want product product
}

// AcrossStatements writes a product in one statement and adds it in the
// next: the compiler may fuse them.
func AcrossStatements(a, b, c float64) float64 {
	p := a * b // want product
	return p + c
}

// mul is small enough to be inlined: its product may fuse with the
// caller's sum.
func mul(a, b float64) float64 {
	return a * b // want product
}

// Inlined adds to a product made by an inlined call.
func Inlined(a, b, c float64) float64 { return mul(a, b) + c }

// Scale is a method of a named float type.
func (s Scalar) Scale(k Scalar) Scalar {
	return s * k // want product
}

// MethodValue calls Scale through a method value and adds to its result.
func MethodValue(s, t, u Scalar) Scalar {
	f := s.Scale
	return f(t) + u
}

// Named multiplies values of another package's named float type.
func Named(a, b, c units.Meters) units.Meters {
	return a*b + c // want product
}

// Float32 fuses as float64 does.
func Float32(a, b, c float32) float32 { return a*b + c } // want product

// Generic multiplies values of a type parameter that may be a float.
func Generic[T ~float32 | ~float64](a, b, c T) T { return a*b + c } // want product

// Int multiplies integers: nothing to find.
func Int(a, b, c int) int { return a*b + c }

// Exact has products that fusion cannot change: by zero and powers of two
// (either sign), constants, products a conversion rounds, products that
// are operands of products (the outer one is found) and of quotients.
func Exact(a, b float64) float64 {
	const k = 3.0
	x := a*2 + b*0.5 - 0.25*a - a*-4 + a*0 // exact: these may fuse, to the same bits
	y := k * 1.5
	z := float64(a*b) + b
	w := a * b * a // want product
	v := b / (a * b)
	n := int(a * b) // want float2int
	return x + y + z + w + v + float64(n)
}

// Assign has products written with *=.
func Assign(a, b float64, s []float64, m map[string]Scalar, f func() int) float64 {
	a *= b     // want product
	a *= b + 1 // want product
	a *= 4
	a *= (a * b) // want product
	s[0] *= a    // want product
	m["k"] *= 3  // want product
	s[f()] *= a  // want product
	return a
}

// Complex multiplies and divides complex numbers.
func Complex(a, b complex128) complex128 {
	a *= b           // want complex
	return a*b + a/b // want complex complex
}

// Marked has products reviewed and marked.
func Marked(a, b float64) float64 {
	//detcheck:ok the test keeps this one fused
	x := a*b + 1
	y := a*b + 2 //detcheck:ok and this one
	return x + y
}
