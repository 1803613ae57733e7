// Package units has a named float type for the products package to use.
package units

// Meters is a length.
type Meters float64
