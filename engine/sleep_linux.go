package engine

import (
	"syscall"
	"time"
)

// sleep blocks for d. On Linux it calls nanosleep(2) on the goroutine's
// thread rather than time.Sleep: the Go runtime's timers wake from epoll,
// whose timeouts are whole milliseconds, so time.Sleep can wake most of a
// millisecond late, where nanosleep is late by the kernel's timer slack and
// the scheduler's latency. A game's -realtime run (engine/cli) reports both,
// measured in the same run. The thread is blocked meanwhile; the runtime
// runs other goroutines on others.
func sleep(d time.Duration) {
	ts := syscall.NsecToTimespec(int64(d))
	for {
		err := syscall.Nanosleep(&ts, &ts) // on EINTR, ts holds the time left
		if err != syscall.EINTR {
			return
		}
	}
}
