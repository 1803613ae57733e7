package engine

import (
	"fmt"
	"runtime/debug"
)

// CollectNearLimit makes the garbage collector run only when the heap nears
// limit bytes, for the rest of the process: GOGC off with a memory limit,
// as GOGC=off GOMEMLIMIT=limit in the environment would set them
// (debug.SetGCPercent(-1), debug.SetMemoryLimit(limit)). Call it at the
// start of main; it returns a function that puts the previous settings
// back.
//
// Why: cp allocates every step (about 4,000 objects a step for
// SimpleTerrainCircles_1000, BenchmarkPhysics), so at Go's default
// (GOGC=100) the collector runs several times a second, and its work lands
// in the ticks it overlaps.
// Measured with cmd/stutter on the demo's Stress scene, 2,000 balls awake,
// headless, 6 runs of each setting (BENCHMARKS.md): the physics tick's p99
// went from 7.5 ms at GOGC=100 (127 collections in 30 s) to 4.8 ms with a
// 1 GiB limit (1 collection), 0.64x (95% interval 0.60-0.75); GOGC=400 gave
// 0.95x (0.89-1.02), no clear change. A second run on another VM gave 0.75x
// (0.49-0.95) for the limit and 0.85x (0.62-0.97) for GOGC=400. In a window under Xvfb, where the
// software renderer sets the frame time, the change was not clear either
// (0.86x, 0.71-1.08).
//
// The price is memory: the heap grows to the limit before each collection
// (976 MiB with 1 GiB), so choose a limit the machine can spare. A limit
// below what the game keeps alive makes the collector run all the time (Go
// caps it at about half the CPU). A limit of 0 or less is an error and
// changes nothing.
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
