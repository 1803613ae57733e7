// Package portable is Go's portable code for the functions of package math
// that run assembly on amd64 (Exp, Log, Hypot, and Pow, Log10, Log2, Sinh,
// Cosh and Tanh, which call Exp or Log), as it is in src/math of Go 1.26.8
// with only the assembly dispatch taken out: its products are not rounded.
// detmath's tests compare with it where they cannot compare with math.
package portable
