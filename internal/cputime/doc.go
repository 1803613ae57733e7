// Package cputime reads CPU time: the process's (for the real-time
// report of engine/cli) and the calling thread's (for benchmarks that time
// a tick on a shared machine, where other processes' time must not count).
package cputime
