//go:build !linux

package cputime

import "time"

// Thread: the thread CPU clock is read on Linux only; elsewhere it
// returns 0, false.
func Thread() (time.Duration, bool) { return 0, false }
