package main

import (
	"bytes"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/fixedstep/fixedstep/engine"
)

// golden are recordings made by earlier builds of the engine with the
// command shown, the checksum it printed (its last scene's state
// checksum, which the recording keeps), and the run's checksum this build
// prints (every tick's state checksum of every scene chained, computed
// from the checksums the recording keeps: InputLog.RunChecksum).
//
// Those at the top level of testdata/golden were made by commit 201c12a,
// of input log format 3, whose checksums name component types by
// their Go package paths: they replay so, and this build records their
// commands to the files in testdata/golden/v5, of format 5, whose
// checksums name component types by their declared names (package
// engine/state).
// A build that replays them to other checksums, or records the same command
// to other records than the v5 files, has changed the game or the recording
// format: both must stay as they are unless the change means to break old
// recordings.
var golden = []struct {
	file, last, checksum string
	args                 []string // what recorded it (with -record testdata/golden/<file>)
	old                  bool     // of a format before 5: replayed only, and recorded again to v5/<file>
}{
	{"arena.input", "64a5093ae24294b9", "b8ada7c87920bfd9", arenaArgs, true},
	{"arena-detail.input", "d2d7a24784bee220", "d9e3482e5be3351c", arenaDetailArgs, true},
	{"stress.input", "3976cfe3bf69b002", "0cc955713d32e39a", stressArgs, true},
	// Played in a window under Xvfb from the Title, Enter pressed through
	// the X server: -autopilot -seconds 4 -seed 9.
	{"window-title.input", "7b757575a1edd5f0", "02b849f82da45c7a", nil, true},
	{"v5/arena.input", "6a0fd1d6ec621ad9", "ece82befce87859d", arenaArgs, false},
	{"v5/arena-detail.input", "e2051049268b2427", "71917b207febe6b8", arenaDetailArgs, false},
	{"v5/stress.input", "126f2f46b1adf88d", "95a76ad491c5cc3b", stressArgs, false},
}

var (
	arenaArgs       = []string{"-headless", "-seconds", "5", "-seed", "2", "-fps", "37"}
	arenaDetailArgs = []string{"-headless", "-seconds", "10", "-seed", "7", "-detail"}
	stressArgs      = []string{"-headless", "-scene", "stress", "-bodies", "300", "-seconds", "3", "-seed", "3"}
)

// Every golden recording replays headless, at two frame rates, to the
// checksums it was recorded with, every checksum on the way matching (a
// recording of format 3 with its component types named by package path);
// its last scene's checksum is the one the build that made it printed.
func TestGoldenRecordingsReplay(t *testing.T) {
	for _, g := range golden {
		path := filepath.Join("testdata", "golden", g.file)
		lg, err := engine.LoadInputLog(path)
		if err != nil {
			t.Fatal(err)
		}
		if got := fmt.Sprintf("%016x", lg.Scene(lg.Scenes()-1).Checksum); got != g.last {
			t.Errorf("%s: the last scene's checksum is %s, the build that made it printed %s", g.file, got, g.last)
		}
		if sum, _ := lg.RunChecksum(); fmt.Sprintf("%016x", sum) != g.checksum {
			t.Errorf("%s: its run checksum is %016x, want %s", g.file, sum, g.checksum)
		}
		for _, fps := range []string{"24", "144"} {
			out, code := output(t, "-headless", "-replay", path, "-fps", fps)
			m := checksumRE.FindStringSubmatch(out)
			if code != 0 || m == nil || m[1] != g.checksum || !replayedRE.MatchString(out) {
				t.Errorf("%s at %s fps: exit %d, want checksum %s, every checksum matched:\n%s", g.file, fps, code, g.checksum, out)
			}
		}
	}
}

// Recording a golden recording's command again gives the same records as
// its format-5 file (the files' chunks may be cut elsewhere: they follow
// real time) and the same checksum. A recording with -detail is left out of the comparison of
// records: its detail names the systems each tick ran, which a build may
// change (the Arena's steering became a system of its own after the
// golden one was made), and its replay above checks all the rest.
func TestGoldenRecordingsRecordTheSame(t *testing.T) {
	for _, g := range golden {
		if g.args == nil || g.old {
			continue
		}
		detail := slices.Contains(g.args, "-detail")
		rec := filepath.Join(t.TempDir(), filepath.Base(g.file))
		if got := run(t, append(g.args, "-record", rec)...); got != g.checksum {
			t.Errorf("%s: checksum %s, want %s", g.file, got, g.checksum)
		}
		if want, got := canonical(t, filepath.Join("testdata", "golden", g.file)), canonical(t, rec); !detail && !bytes.Equal(got, want) {
			t.Errorf("%s: recorded %d bytes of records, the golden file holds %d other ones", g.file, len(got), len(want))
		}
	}
}

// canonical returns the records of the recording at path as one chunk.
func canonical(t *testing.T, path string) []byte {
	t.Helper()
	lg, err := engine.LoadInputLog(path)
	if err != nil {
		t.Fatal(err)
	}
	var b bytes.Buffer
	if _, err := lg.WriteTo(&b); err != nil {
		t.Fatal(err)
	}
	return b.Bytes()
}

// -dump-at writes the same text as the golden dump, byte for byte: the
// earlier build's, but for the physics' two collision event buses, which
// it named Collision both and this build by their declared names
// (CollisionBegin, CollisionSeparate).
func TestGoldenDump(t *testing.T) {
	dir := t.TempDir()
	cmd := exec.Command(demoBin, "-headless", "-seconds", "3", "-seed", "7", "-dump-at", "1:150")
	cmd.Dir = dir
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("%v\n%s", err, out)
	}
	got, err := os.ReadFile(filepath.Join(dir, "dump-1-150.txt"))
	if err != nil {
		t.Fatal(err)
	}
	want, err := os.ReadFile(filepath.Join("testdata", "golden", "dump-1-150.txt"))
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(got, want) {
		g, w := strings.Split(string(got), "\n"), strings.Split(string(want), "\n")
		for i := range min(len(g), len(w)) {
			if g[i] != w[i] {
				t.Fatalf("the dump differs from the golden one at line %d:\n got %s\nwant %s", i+1, g[i], w[i])
			}
		}
		t.Fatalf("the dump has %d lines, the golden one %d", len(g), len(w))
	}
}
