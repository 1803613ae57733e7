package main

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/fixedstep/fixedstep/engine"
)

// -save and -load across scene changes: a minute of games (the Title,
// Play, the scores, again), saved in the second game's Play, on its Over
// screen (which keeps its figures in the scene's value) and in the last
// game, and loaded: every run goes on through the scenes after the save
// to the checksum of the run that never saved, and the loaded run names
// the same games.
func TestSaveLoadAcrossScenes(t *testing.T) {
	args := []string{"-headless", "-seconds", "60", "-seed", "11", "-lives", "1"}
	plainOut, plain := run(t, args...)
	for _, at := range []string{"5:900", "6:30", "11:100"} {
		path := filepath.Join(t.TempDir(), "game.sav")
		out, sum := run(t, append(args, "-save", path, "-save-at", at)...)
		if sum != plain || !strings.Contains(out, fmt.Sprintf("saved the game after tick %s of scene %s to %s",
			at[strings.Index(at, ":")+1:], at[:strings.Index(at, ":")], path)) {
			t.Fatalf("-save-at %s: checksum %s, want %s:\n%s", at, sum, plain, out)
		}
		out, sum = run(t, "-headless", "-fps", "37", "-load", path)
		loaded := fmt.Sprintf("loaded the game saved after tick %s of scene %s (", at[strings.Index(at, ":")+1:], at[:strings.Index(at, ":")])
		if sum != plain || strings.Join(gameRE.FindAllString(out, -1), "|") != strings.Join(gameRE.FindAllString(plainOut, -1), "|") ||
			!strings.Contains(out, loaded) {
			t.Fatalf("-load after %s: checksum %s, want %s:\n%s", at, sum, plain, out)
		}
	}
}

// A load goes on from its save, across scenes too: -save-at in a scene
// before the save's, or before its tick in its scene, is refused before
// the run, with nothing written; after it, the file holds the tick the
// message names.
func TestSaveAtBeforeTheLoadedSave(t *testing.T) {
	dir := t.TempDir()
	saved := filepath.Join(dir, "game.sav")
	run(t, "-headless", "-seconds", "60", "-seed", "11", "-lives", "1", "-save", saved, "-save-at", "6:30")
	again := filepath.Join(dir, "again.sav")
	for _, at := range []string{"5:900", "1:10", "6:29"} {
		out, code := output(t, "-headless", "-load", saved, "-save", again, "-save-at", at)
		if code != 2 || !strings.Contains(out, "-save-at "+at+": is before tick 30 of scene 6 (Over)") || strings.Contains(out, "saved the game") {
			t.Errorf("-save-at %s after a save at 6:30: exit %d:\n%s", at, code, out)
		}
		if _, err := os.Stat(again); !errors.Is(err, os.ErrNotExist) {
			t.Fatalf("-save-at %s: %s was written (%v)", at, again, err)
		}
	}
	out, _ := run(t, "-headless", "-load", saved, "-save", again, "-save-at", "11:100")
	s, err := engine.LoadSave(again)
	if err != nil || s.Scene != 11 || s.Tick != 100 || !strings.Contains(out, "saved the game after tick 100 of scene 11 to "+again) {
		t.Fatalf("-save-at 11:100 after a load of 6:30: %v, the save's scene %d tick %d:\n%s", err, s.Scene, s.Tick, out)
	}
}
