package main

import (
	"syscall"
	"time"
	"unsafe"
)

// threadTime returns the CPU time the calling OS thread has used
// (CLOCK_THREAD_CPUTIME_ID): time it ran, not time it waited while other
// processes had the CPU. The scene's goroutine stays on one thread (locked
// headless by measure, and in a window by ebiten's main thread), so the
// difference between two readings is its own work in between, the garbage
// collector's assists included, its stop-the-world pauses not.
func threadTime() time.Duration {
	const clockThreadCPUTimeID = 3
	var ts syscall.Timespec
	if _, _, errno := syscall.Syscall(syscall.SYS_CLOCK_GETTIME, clockThreadCPUTimeID, uintptr(unsafe.Pointer(&ts)), 0); errno != 0 {
		return 0
	}
	return time.Duration(ts.Nano())
}
