//go:build (amd64 && !amd64.v3) || 386 || wasm

package render

// exactSines is whether sines' own arithmetic gives math.Sincos's bits:
// here, where Go fuses no multiplication and addition into one rounding,
// it does.
const exactSines = true
