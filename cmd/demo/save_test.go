package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// -save and -load from the command line: a save of the Arena goes on,
// headless and in a window, to the checksum of the run that never saved,
// with the seed and the flags it was saved with; a recording made while
// playing on from it replays alone to the same end.
func TestSaveAndLoad(t *testing.T) {
	dir := t.TempDir()
	args := []string{"-headless", "-seconds", "30", "-seed", "5"}
	plain := run(t, args...)
	save := filepath.Join(dir, "arena.sav")
	if sum := run(t, append(args, "-save", save, "-save-at", "1:1234")...); sum != plain {
		t.Fatalf("the run that saved: checksum %s, want %s", sum, plain)
	}
	rec := filepath.Join(dir, "loaded.input")
	if sum := run(t, "-headless", "-fps", "144", "-load", save, "-record", rec); sum != plain {
		t.Fatalf("loaded: checksum %s, want %s", sum, plain)
	}
	if out, code := output(t, "-headless", "-replay", rec); code != 0 || checksumRE.FindStringSubmatch(out)[1] != plain {
		t.Fatalf("the loaded run's recording: exit %d:\n%s", code, out)
	}
	if os.Getenv("DISPLAY") != "" {
		if sum := run(t, "-load", save); sum != plain {
			t.Fatalf("loaded in a window: checksum %s, want %s", sum, plain)
		}
	}
}

// A save that does not fit is refused by name before anything runs: a
// save of another game, a changed byte, a file cut short, a recording, a
// conflicting flag; a save never written says why; a save is not written
// over a file that is not one.
func TestBadSavesAreRefused(t *testing.T) {
	dir := t.TempDir()
	save := filepath.Join(dir, "arena.sav")
	run(t, "-headless", "-seconds", "5", "-save", save, "-save-at", "100")
	data, err := os.ReadFile(save)
	if err != nil {
		t.Fatal(err)
	}
	write := func(name string, b []byte) string {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, b, 0o644); err != nil {
			t.Fatal(err)
		}
		return p
	}
	flipped := append([]byte(nil), data...)
	flipped[len(flipped)/2] ^= 1
	breakoutSave := filepath.Join(dir, "breakout.sav")
	bo := exec.Command("go", "run", "../breakout", "-headless", "-seconds", "3", "-save", breakoutSave, "-save-at", "2:30")
	if out, err := bo.CombinedOutput(); err != nil {
		t.Fatalf("saving a Breakout game: %v\n%s", err, out)
	}
	rec := filepath.Join(dir, "run.input")
	run(t, "-headless", "-seconds", "2", "-record", rec)
	cases := []struct {
		args []string
		says string
	}{
		{[]string{"-headless", "-load", breakoutSave}, `a save of game "breakout"; this game is "demo"`},
		{[]string{"-headless", "-load", write("flipped.sav", flipped)}, "damaged: the file fails its checksum"},
		{[]string{"-headless", "-load", write("short.sav", data[:len(data)-9])}, "cut short"},
		{[]string{"-headless", "-load", rec}, "not a save file"},
		{[]string{"-headless", "-load", save, "-seed", "9"}, "-seed 9: the save was made with -seed 1"},
		{[]string{"-headless", "-load", save, "-replay", rec}, "-load " + save + ": goes on from a save; -replay replays a recording"},
		{[]string{"-headless", "-save", save}, "goes with -save-at S:T"},
		{[]string{"-headless", "-save-at", "5"}, "goes with -save FILE"},
		{[]string{"-headless", "-save", save, "-save-at", "1:x"}, "-save-at 1:x:"},
		{[]string{"-headless", "-save", rec, "-save-at", "5", "-record", rec}, "is the file -record writes"},
	}
	for _, c := range cases {
		out, code := output(t, c.args...)
		if code != 2 || !strings.Contains(out, c.says) || strings.Contains(out, "run:") {
			t.Errorf("%s: exit %d, want 2 and an error saying %q:\n%s", strings.Join(c.args, " "), code, c.says, out)
		}
	}
	if out, code := output(t, "-headless", "-seconds", "1", "-save", save, "-save-at", "1:500"); code != 1 ||
		!strings.Contains(out, "-save-at 1:500: the run never reached tick 500 of scene 1") {
		t.Errorf("a save past the run's end: exit %d:\n%s", code, out)
	}
	before, _ := os.ReadFile(rec)
	if out, code := output(t, "-headless", "-seconds", "2", "-save", rec, "-save-at", "10"); code != 1 ||
		!strings.Contains(out, "not a save is there") {
		t.Errorf("saving over a recording: exit %d:\n%s", code, out)
	}
	if after, _ := os.ReadFile(rec); string(after) != string(before) {
		t.Errorf("saving over a recording changed it")
	}
}
