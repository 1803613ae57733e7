//go:build !((amd64 && !amd64.v3) || 386 || wasm)

package render

// exactSines is false here: Go fuses multiplications and additions into
// one rounding (FMA: arm64, amd64 with GOAMD64=v3 and higher, and others),
// and where it fuses in sines' steps and in math.Sincos differ, so sines
// calls math.Sincos.
const exactSines = false
