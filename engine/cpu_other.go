//go:build !unix

package engine

import "time"

// cpuTime: the process's CPU time cannot be read here (a browser).
func cpuTime() (time.Duration, bool) { return 0, false }
