package cputime

import (
	"syscall"
	"time"
	"unsafe"
)

// Thread returns the CPU time the calling OS thread has used
// (CLOCK_THREAD_CPUTIME_ID): time it ran, not time it waited while other
// processes had the CPU; false where it cannot be read. With the goroutine
// locked to its thread (runtime.LockOSThread), the difference between two
// readings is that goroutine's own work in between, the garbage collector's
// assists included and its background work on other threads not: how the
// benchmarks time a tick on a shared machine.
func Thread() (time.Duration, bool) {
	const clockThreadCPUTimeID = 3
	var ts syscall.Timespec
	if _, _, errno := syscall.Syscall(syscall.SYS_CLOCK_GETTIME, clockThreadCPUTimeID, uintptr(unsafe.Pointer(&ts)), 0); errno != 0 {
		return 0, false
	}
	return time.Duration(ts.Nano()), true
}
