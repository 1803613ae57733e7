// Package assets holds the embedded images, fonts and data (go:embed) and the
// code that loads them.
package assets
