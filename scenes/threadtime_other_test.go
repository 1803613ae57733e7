//go:build !linux

package scenes

import "time"

var threadStart = time.Now()

// threadTime falls back to the monotonic wall clock where the thread CPU
// clock is not read (see the Linux version).
func threadTime() time.Duration { return time.Since(threadStart) }

const threadTimeKind = "wall-clock time"
