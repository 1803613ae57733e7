//go:build !linux

package engine

import "time"

// ThreadCPUTime: the thread CPU clock is read on Linux only; elsewhere it
// returns 0, false.
func ThreadCPUTime() (time.Duration, bool) { return 0, false }
