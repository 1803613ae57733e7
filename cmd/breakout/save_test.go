package main

import (
	"fmt"
	"path/filepath"
	"strings"
	"testing"
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
