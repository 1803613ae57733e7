//go:build debug

package cp_test

// debugBuild: cp's asserts are on (-tags debug); their variadic
// arguments allocate, so the allocation tests do not hold.
const debugBuild = true
