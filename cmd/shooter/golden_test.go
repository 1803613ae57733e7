package main

import (
	"path/filepath"
	"regexp"
	"testing"

	"github.com/fixedstep/fixedstep/internal/cmdtest"
)

var replayedRE = regexp.MustCompile(`\nreplayed (\d+) scenes, (\d+) ticks, every checksum matched \((\d+) checked\)`)

// testdata/golden/shooter.input was recorded by this game at commit
// 234e0e7 with -headless -seconds 60 -seed 1: 5 scenes (a whole game, its
// Results and a second game begun), 3600 ticks, checksum golden. A build
// that replays it to another checksum, or plays the same run to another,
// has changed the game or the recording format.
func TestGoldenRecordingReplays(t *testing.T) {
	const golden = "64b8d24245616949"
	rec := filepath.Join("testdata", "golden", "shooter.input")
	for _, fps := range []string{"24", "144"} {
		out, code := cmdtest.Output(t, bin, "-headless", "-replay", rec, "-fps", fps)
		m := cmdtest.ChecksumRE.FindStringSubmatch(out)
		if code != 0 || m == nil || m[1] != golden || !replayedRE.MatchString(out) {
			t.Errorf("at %s fps: exit %d, want checksum %s, every checksum matched:\n%s", fps, code, golden, out)
		}
	}
	if _, got := run(t, "-headless", "-seconds", "60", "-seed", "1"); got != golden {
		t.Errorf("the same run again: checksum %s, want %s", got, golden)
	}
}
