package cli_test

import (
	"math"
	"runtime/debug"
	"strings"
	"testing"

	"github.com/fixedstep/fixedstep/engine/cli"
)

// gcSettings reads GOGC and the memory limit without changing them.
func gcSettings() (percent int, limit int64) {
	percent = debug.SetGCPercent(-1)
	debug.SetGCPercent(percent)
	return percent, debug.SetMemoryLimit(-1)
}

// CollectNearLimit turns GOGC off and sets the limit; restore puts back
// what was there; a limit of 0 or less is an error that changes nothing.
func TestCollectNearLimit(t *testing.T) {
	percent0, limit0 := gcSettings()
	restore, err := cli.CollectNearLimit(1 << 30)
	if err != nil {
		t.Fatal(err)
	}
	if p, l := gcSettings(); p != -1 || l != 1<<30 {
		t.Errorf("after CollectNearLimit(1 GiB): GOGC %d, limit %d; want -1 (off), %d", p, l, 1<<30)
	}
	restore()
	if p, l := gcSettings(); p != percent0 || l != limit0 {
		t.Errorf("after restore: GOGC %d, limit %d; want %d, %d", p, l, percent0, limit0)
	}
	for _, bad := range []int64{0, -1, math.MinInt64} {
		if r, err := cli.CollectNearLimit(bad); err == nil || r != nil || !strings.Contains(err.Error(), "positive") {
			t.Errorf("CollectNearLimit(%d) = %v, %v; want an error", bad, r != nil, err)
		}
		if p, l := gcSettings(); p != percent0 || l != limit0 {
			t.Errorf("a refused limit changed GOGC to %d, the limit to %d", p, l)
		}
	}
}

// Example: a game that trades memory for steadier ticks.
func ExampleCollectNearLimit() {
	restore, err := cli.CollectNearLimit(1 << 30) // collect only near 1 GiB of heap
	if err != nil {
		panic(err)
	}
	defer restore()
	// ... engine.Run(first, opts)
}
