// Package racetest tells a test whether the race detector is on, so that a
// long simulation on one goroutine (an hour of the Arena, a pyramid of a
// thousand boxes, a game saved and loaded ten times) runs once, without
// it: the detector finds nothing in code that shares no memory between
// goroutines, and makes such a run 5 to 20 times slower. make test runs
// every test under -race first, then the packages that hold such tests
// again without it (and with cp's debug asserts), where [Long] lets them
// run.
package racetest

import "testing"

// Enabled reports whether the test binary was built with -race.
const Enabled = enabled

// Long skips t under the race detector, saying so: t is a long simulation
// on one goroutine, which make test runs in its pass without -race.
func Long(t testing.TB) {
	t.Helper()
	if Enabled {
		t.Skip("a long simulation on one goroutine: it runs without -race (make test's pass with -tags debug)")
	}
}
