package main

import (
	"path/filepath"
	"testing"
)

// testdata/golden/breakout.input was recorded by an earlier build of the
// engine (commit 201c12a) with -headless -seconds 60 -seed 11 -lives 1: 11
// scenes (three whole games and a fourth begun), 3601 ticks. A build that
// replays it to another checksum has changed the game or the recording
// format.
func TestGoldenRecordingReplays(t *testing.T) {
	const want = "41ebe0ad64fe6775"
	for _, fps := range []string{"24", "144"} {
		out, code := output(t, "-headless", "-replay", filepath.Join("testdata", "golden", "breakout.input"), "-fps", fps)
		m := checksumRE.FindStringSubmatch(out)
		if code != 0 || m == nil || m[1] != want || !replayedRE.MatchString(out) {
			t.Errorf("at %s fps: exit %d, want checksum %s, every checksum matched:\n%s", fps, code, want, out)
		}
	}
	if _, got := run(t, "-headless", "-seconds", "60", "-seed", "11", "-lives", "1"); got != want {
		t.Errorf("the same run again: checksum %s, want %s", got, want)
	}
}
