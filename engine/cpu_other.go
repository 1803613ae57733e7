//go:build !unix

package engine

import "time"

// cpuTime is 0 where the process's CPU time cannot be read (a browser).
func cpuTime() time.Duration { return 0 }
