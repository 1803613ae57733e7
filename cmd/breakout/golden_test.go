package main

import (
	"fmt"
	"path/filepath"
	"testing"

	"github.com/fixedstep/fixedstep/engine"
)

// testdata/golden/breakout.input was recorded by an earlier build of the
// engine (commit 201c12a) with -headless -seconds 60 -seed 11 -lives 1: 11
// scenes (three whole games and a fourth begun), 3601 ticks. It printed its
// last scene's checksum, which the recording keeps; this build prints the
// run's (every scene's chained). A build that replays it to other
// checksums has changed the game or the recording format.
func TestGoldenRecordingReplays(t *testing.T) {
	const last, want = "41ebe0ad64fe6775", "ec3f365af1732276"
	lg, err := engine.LoadInputLog(filepath.Join("testdata", "golden", "breakout.input"))
	if err != nil {
		t.Fatal(err)
	}
	if got := fmt.Sprintf("%016x", lg.Scene(lg.Scenes()-1).Checksum); got != last {
		t.Errorf("the last scene's checksum is %s, the earlier build printed %s", got, last)
	}
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
