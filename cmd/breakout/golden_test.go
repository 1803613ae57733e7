package main

import (
	"bytes"
	"fmt"
	"path/filepath"
	"strings"
	"testing"

	"github.com/fixedstep/fixedstep/engine"
	"github.com/fixedstep/fixedstep/engine/cli"
	"github.com/fixedstep/fixedstep/engine/state"
	"github.com/fixedstep/fixedstep/third_party/donburi"
)

// testdata/golden/breakout.input was recorded by an earlier build of the
// engine (commit 201c12a) with -headless -seconds 60 -seed 11 -lives 1: 11
// scenes (three whole games and a fourth begun), 3601 ticks. It printed its
// last scene's checksum, which the recording keeps; this build prints the
// run's (every tick's state checksum of every scene chained, computed from
// the recording's). A build that replays it to other checksums has changed
// the game or the recording format. It is of input log format 3, whose
// checksums name component types by Go package path; this build records
// the same run in format 5, naming them by their declared names, to the
// checksum now, and a tick shorter, 3600 ticks: the earlier build stopped
// a run of several scenes a tick past -seconds (engine.Options.StopAt),
// and replays of its recordings still run to their end.
func TestGoldenRecordingReplays(t *testing.T) {
	const last, want, now = "41ebe0ad64fe6775", "78c6a64c6288770f", "27c0ababee688e9d"
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
	if _, got := run(t, "-headless", "-seconds", "60", "-seed", "11", "-lives", "1"); got != now {
		t.Errorf("the same run again: checksum %s, want %s", got, now)
	}
}

// The game's package is named main and compiles as "main" in the game but
// under its import path in this test binary. Its component types (Brick,
// Power) are part of every checksum, and the engine names them alike in
// both, so the recording the built game made replays here, in this process,
// with every checksum matching, as a game's own tests would replay it: the
// golden one, of format 3 (types named by package path, "main." for the
// game's), and a new one, of format 5 (types named by declared names).
func TestGoldenRecordingReplaysInTheTestBinary(t *testing.T) {
	const want = "78c6a64c6288770f"
	golden, err := filepath.Abs(filepath.Join("testdata", "golden", "breakout.input"))
	if err != nil {
		t.Fatal(err)
	}
	t.Chdir(t.TempDir()) // where a replay that diverged writes its state
	var out bytes.Buffer
	app := &cli.App{Name: "breakout", Out: &out, Err: &out}
	if err := app.Run([]string{"-headless", "-replay", golden}, breakout(app)); err != nil {
		t.Fatalf("%v\n%s", err, out.String())
	}
	m := checksumRE.FindStringSubmatch(out.String())
	if m == nil || m[1] != want || !replayedRE.MatchString(out.String()) {
		t.Errorf("want checksum %s, every checksum matched:\n%s", want, out.String())
	}

	// And a recording of this build's format, which names component types
	// by their declared names.
	rec := filepath.Join(t.TempDir(), "new.input")
	_, now := run(t, "-headless", "-seconds", "5", "-seed", "11", "-record", rec)
	out.Reset()
	app = &cli.App{Name: "breakout", Out: &out, Err: &out}
	if err := app.Run([]string{"-headless", "-replay", rec}, breakout(app)); err != nil {
		t.Fatalf("%v\n%s", err, out.String())
	}
	m = checksumRE.FindStringSubmatch(out.String())
	if m == nil || m[1] != now || !replayedRE.MatchString(out.String()) {
		t.Errorf("a new recording: want checksum %s, every checksum matched:\n%s", now, out.String())
	}
}

// held is a generic component of the game's package, for the names below.
type held[T any] struct{ V T }

// The state dump names the game's components as the built game does: a
// generic one's type arguments by their names alone, not by the import
// path this test binary compiles the game's package under, nor by main
// (the component's name is in the checksum too).
func TestDumpNamesTheGamesTypesAsTheGameDoes(t *testing.T) {
	w := donburi.NewWorld()
	w.Entry(w.Create(BrickC, donburi.NewComponentType[held[Brick]]()))
	var out bytes.Buffer
	if err := state.Dump(w, &out); err != nil {
		t.Fatal(err)
	}
	dump := out.String()
	for _, name := range []string{"e1v0 Brick.Hits = 0", "e1v0 held[Brick].V.Hits = 0"} {
		if !strings.Contains(dump, name) {
			t.Errorf("the dump has no line %q:\n%s", name, dump)
		}
	}
	if strings.Contains(dump, "cmd/breakout") {
		t.Errorf("the dump names the test binary's import path:\n%s", dump)
	}
}
