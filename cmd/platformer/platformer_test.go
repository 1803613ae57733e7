package main

import (
	"image/png"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/fixedstep/fixedstep/internal/cmdtest"
)

// bin is the game built once for the end-to-end tests.
var bin string

func TestMain(m *testing.M) { cmdtest.Main(m, "platformer", &bin) }

var levelRE = regexp.MustCompile(`level (\d): ([a-z ]+), (\d+) stars, (\d+) stomped, (\d+) lives`)

// run runs the built game, which must succeed, and returns what it printed
// and the checksum it printed last.
func run(t *testing.T, args ...string) (string, string) {
	t.Helper()
	return cmdtest.Run(t, bin, args...)
}

// Headless, the autopilot plays from the Title through both levels: the
// same levels, and the same checksum, at 24, 60 and 144 frames a second.
// It clears the first level.
func TestSameAtAnyFrameRate(t *testing.T) {
	var first, firstSum string
	for _, fps := range []string{"24", "60", "144"} {
		out, sum := run(t, "-headless", "-seconds", "40", "-fps", fps)
		levels := strings.Join(levelRE.FindAllString(out, -1), "|")
		if first == "" {
			first, firstSum = levels, sum
			if !strings.Contains(levels, "level 1: reached the exit") || !strings.Contains(levels, "level 2:") {
				t.Fatalf("the autopilot's levels: %s\n%s", levels, out)
			}
			continue
		}
		if sum != firstSum || levels != first {
			t.Errorf("%s fps: checksum %s and %s, want %s and %s", fps, sum, levels, firstSum, first)
		}
	}
}

// A recording replays alone to the same checksum; -synctest 8 finds every
// tick the same simulated again (the game's state outside components is
// declared); a save in the second level goes on to the same end.
func TestReplaySyncTestAndSave(t *testing.T) {
	dir := t.TempDir()
	rec, save := filepath.Join(dir, "run.input"), filepath.Join(dir, "game.sav")
	_, sum := run(t, "-headless", "-seconds", "30", "-record", rec, "-save", save, "-save-at", "3:200")
	if _, got := run(t, "-replay", rec, "-headless", "-fps", "37"); got != sum {
		t.Errorf("replay: checksum %s, want %s", got, sum)
	}
	out, got := run(t, "-headless", "-seconds", "30", "-synctest", "8")
	if got != sum || !strings.Contains(out, "every state the same") {
		t.Errorf("-synctest 8: checksum %s, want %s:\n%s", got, sum, out)
	}
	if _, got := run(t, "-headless", "-load", save); got != sum {
		t.Errorf("loaded from a save in the second level: checksum %s, want %s", got, sum)
	}
}

// In a window under Xvfb the level is drawn: the sky, the ground's tiles,
// the hero in yellow.
func TestScreenshot(t *testing.T) {
	if os.Getenv("DISPLAY") == "" {
		t.Skip("no DISPLAY: run under xvfb-run -a, or make test")
	}
	shot := filepath.Join(t.TempDir(), "shot.png")
	if out, err := exec.Command(bin, "-autopilot", "-screenshot", shot, "-screenshot-at", "2:150").CombinedOutput(); err != nil {
		t.Fatalf("%v\n%s", err, out)
	}
	f, err := os.Open(shot)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	img, err := png.Decode(f)
	if err != nil {
		t.Fatal(err)
	}
	var skyN, grassN, heroN int
	b := img.Bounds()
	for y := b.Min.Y; y < b.Max.Y; y++ {
		for x := b.Min.X; x < b.Max.X; x++ {
			r, g, bl, _ := img.At(x, y).RGBA()
			switch r, g, bl = r>>8, g>>8, bl>>8; {
			case r == 36 && g == 48 && bl == 84:
				skyN++
			case r == 84 && g == 168 && bl == 72:
				grassN++
			case r == 250 && g == 210 && bl == 80:
				heroN++
			}
		}
	}
	if skyN < b.Dx()*b.Dy()/3 || grassN < 500 || heroN < 400 {
		t.Errorf("pixels: %d sky, %d grass, %d hero; want the sky, the ground's grass and the hero (24 x 44 px)", skyN, grassN, heroN)
	}
}

var soundsRE = regexp.MustCompile(`\nsounds: (\d+) taken\n`)

// The sounds the game takes are counted alike in a run and in its replay;
// in a window, on a machine without a sound device (this one), the game
// plays silently after one warning line, taking the same sounds as
// headless.
func TestSounds(t *testing.T) {
	rec := filepath.Join(t.TempDir(), "run.input")
	out, sum := run(t, "-headless", "-seconds", "20", "-record", rec)
	taken := soundsRE.FindStringSubmatch(out)
	if taken == nil || taken[1] == "0" {
		t.Fatalf("no sounds counted:\n%s", out)
	}
	replayed, again := run(t, "-replay", rec, "-headless")
	if m := soundsRE.FindStringSubmatch(replayed); again != sum || m == nil || m[1] != taken[1] {
		t.Errorf("replay: %v sounds (want %s), checksum %s (want %s)", m, taken[1], again, sum)
	}
	if os.Getenv("DISPLAY") == "" {
		t.Skip("no DISPLAY: the window part runs under xvfb-run -a, or make test")
	}
	short, _ := run(t, "-headless", "-seconds", "6")
	window, _ := run(t, "-autopilot", "-seconds", "6")
	warned := strings.Count(window, "sound: no sound device")
	if w, h := soundsRE.FindStringSubmatch(window), soundsRE.FindStringSubmatch(short); warned > 1 || w == nil || h == nil || w[1] != h[1] {
		t.Errorf("in a window: %d warnings (want at most one), sounds %v (headless %v):\n%s", warned, w, h, window)
	}
}

// The package doc's line counts stay true: the total, and the plumbing as
// the sum of its parts.
func TestDocCountsLines(t *testing.T) { cmdtest.DocCounts(t, "main.go", "play.go", "screens.go") }
