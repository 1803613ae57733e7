//go:build !linux

package engine

import "time"

// sleep blocks for d.
func sleep(d time.Duration) { time.Sleep(d) }
