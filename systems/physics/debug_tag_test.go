//go:build debug

package physics_test

// debugBuild: cp's asserts are on (-tags debug); their variadic
// arguments allocate in every step.
const debugBuild = true
