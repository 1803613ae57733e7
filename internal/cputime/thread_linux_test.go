package cputime_test

import (
	"runtime"
	"testing"
	"time"

	"github.com/fixedstep/fixedstep/internal/cputime"
)

// Thread reads the thread's CPU clock on Linux: work on the thread
// moves it forward, by no more than the wall-clock time the work took.
func TestThreadCPUTime(t *testing.T) {
	runtime.LockOSThread()
	defer runtime.UnlockOSThread()
	before, ok := cputime.Thread()
	start := time.Now()
	x := 0
	for time.Since(start) < 5*time.Millisecond {
		x++
	}
	after, ok2 := cputime.Thread()
	wall := time.Since(start)
	if !ok || !ok2 || after <= before || after-before > wall+time.Millisecond || x == 0 {
		t.Fatalf("thread CPU time %v then %v (%v, %v) over %v of wall clock", before, after, ok, ok2, wall)
	}
}
