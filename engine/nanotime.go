package engine

import _ "unsafe" // for go:linkname

// nanotime is the runtime's monotonic clock in nanoseconds: the clock behind
// time.Now's monotonic reading, without the wall-clock read that time.Now adds.
// The scheduler reads it around every system, so its cost is paid per system
// call (BenchmarkNanotime and BenchmarkSchedulerTiming measure it).
//
//go:linkname nanotime runtime.nanotime
func nanotime() int64
