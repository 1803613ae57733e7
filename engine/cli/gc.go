package cli

import (
	"fmt"
	"runtime/debug"
)

// CollectNearLimit makes the garbage collector run only when the heap nears
// limit bytes, for the rest of the process: GOGC off with a memory limit,
// as GOGC=off GOMEMLIMIT=limit in the environment would set them
// (debug.SetGCPercent(-1), debug.SetMemoryLimit(limit)). Call it at the
// start of main; it returns a function that puts the previous settings
// back. A limit of 0 or less is an error and changes nothing.
//
// It trades memory for fewer collections: the heap grows to the limit
// before each one, so choose a limit the machine can spare (a limit below
// what the game keeps alive makes the collector run all the time, at up
// to half the CPU). Whether it helps depends on the machine and on how
// much the game allocates: cmd/stutter measures the tick and frame
// percentiles of the Stress scene under GOGC=100, GOGC=400 and this
// setting (BENCHMARKS.md, "Stutter"), and the results differed between
// two VMs of the same size. Since the physics step stopped allocating, the
// engine's own ticks make almost no garbage and the default (GOGC=100) is
// what the engine recommends: this is for a game that allocates much per
// tick itself.
func CollectNearLimit(limit int64) (restore func(), err error) {
	if limit <= 0 {
		return nil, fmt.Errorf("engine: CollectNearLimit(%d): the limit must be a positive number of bytes", limit)
	}
	oldLimit := debug.SetMemoryLimit(limit)
	oldPercent := debug.SetGCPercent(-1)
	return func() {
		debug.SetGCPercent(oldPercent)
		debug.SetMemoryLimit(oldLimit)
	}, nil
}
