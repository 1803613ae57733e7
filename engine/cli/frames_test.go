package cli_test

import (
	"regexp"
	"testing"
	"time"

	"github.com/fixedstep/fixedstep/engine/cli"
)

// The frames line times each frame from its input to its drawing done,
// and from one frame's start to the next's; timing a frame allocates
// nothing, and a run that drew no frame has no line.
func TestFrameProbe(t *testing.T) {
	var p cli.FrameProbe
	if line := p.Line(); line != "" {
		t.Errorf("no frame drawn: line %q, want none", line)
	}
	if allocs := testing.AllocsPerRun(20, func() { p.Frame(0) }); allocs != 0 {
		t.Errorf("timing a frame allocates %v times, want 0", allocs)
	}
	p = cli.FrameProbe{}
	for range 10 {
		p.Frame(2 * time.Millisecond)
	}
	m := regexp.MustCompile(`^frames: 10 timed; a frame's work \(its input to its drawing done\) p50 (\S+), p99 (\S+), max (\S+); ` +
		`from a frame's start to the next's p50 (\S+), p99 (\S+), max (\S+)$`).FindStringSubmatch(p.Line())
	if m == nil {
		t.Fatalf("line %q", p.Line())
	}
	for i, s := range m[1:] {
		d, err := time.ParseDuration(s)
		if err != nil || d < 2*time.Millisecond {
			t.Errorf("figure %d of %q: %v (%v), want at least the 2 ms each frame slept", i+1, p.Line(), d, err)
		}
	}
}
