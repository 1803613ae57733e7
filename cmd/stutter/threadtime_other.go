//go:build !linux

package main

import "time"

// threadTime is 0 where the thread CPU clock is not read: the tick CPU
// figures are then 0.
func threadTime() time.Duration { return 0 }
