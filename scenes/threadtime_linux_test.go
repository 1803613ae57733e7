package scenes

import (
	"syscall"
	"time"
	"unsafe"
)

// threadTime returns the CPU time the calling OS thread has used
// (CLOCK_THREAD_CPUTIME_ID): time it ran, not time it waited while other
// processes had the CPU. The caller locks its goroutine to its thread
// (runtime.LockOSThread), so this is the goroutine's own work, GC assists
// included, and not the garbage collector's background work on other
// threads.
func threadTime() time.Duration {
	const clockThreadCPUTimeID = 3
	var ts syscall.Timespec
	if _, _, errno := syscall.Syscall(syscall.SYS_CLOCK_GETTIME, clockThreadCPUTimeID, uintptr(unsafe.Pointer(&ts)), 0); errno != 0 {
		panic("clock_gettime(CLOCK_THREAD_CPUTIME_ID): " + errno.Error())
	}
	return time.Duration(ts.Nano())
}

// threadTimeKind names what threadTime measures, for reports.
const threadTimeKind = "thread CPU time"
