//go:build !unix

package cputime

import "time"

// Process: the process's CPU time cannot be read here (a browser).
func Process() (time.Duration, bool) { return 0, false }
