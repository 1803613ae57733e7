//go:build !debug

package path_test

// debugBuild: cp's asserts are on (-tags debug); their variadic
// arguments allocate.
const debugBuild = false
