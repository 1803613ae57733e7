// Package systems holds the engine's systems (physics, AI, rendering,
// overlay), one file each, with its tests and benchmark beside it.
package systems
