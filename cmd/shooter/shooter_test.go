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

func TestMain(m *testing.M) { cmdtest.Main(m, "shooter", &bin) }

var gameRE = regexp.MustCompile(`game \d+: wave \d+, \d+ drones destroyed, scores \[[0-9 ]+\]`)

// run runs the built game, which must succeed, and returns what it printed
// and the checksum it printed last.
func run(t *testing.T, args ...string) (string, string) {
	t.Helper()
	return cmdtest.Run(t, bin, args...)
}

// Headless, the autopilot plays from the Title through waves to the
// Results and a second game: the same games, and the same checksum, at 24,
// 60 and 144 frames a second.
func TestSameAtAnyFrameRate(t *testing.T) {
	var first, firstSum string
	for _, fps := range []string{"24", "60", "144"} {
		out, sum := run(t, "-headless", "-seconds", "60", "-seed", "1", "-fps", fps)
		games := strings.Join(gameRE.FindAllString(out, -1), "|")
		if first == "" {
			first, firstSum = games, sum
			if !strings.Contains(out, "Title, Play, Results, Title") || !regexp.MustCompile(`wave ([3-9]|\d\d),`).MatchString(games) {
				t.Fatalf("the autopilot did not play through waves to the Results and back: %s\n%s", games, out)
			}
			continue
		}
		if sum != firstSum || games != first {
			t.Errorf("%s fps: checksum %s and %s, want %s and %s", fps, sum, games, firstSum, first)
		}
	}
}

// A recording replays alone, at another frame rate, to the run's checksum;
// -synctest 8 finds every tick the same simulated again (the game's state
// outside components is declared) and ends on the same checksum; two seats
// at one machine (-seats kb1,kb2) record and replay alike.
func TestReplayAndSyncTest(t *testing.T) {
	dir := t.TempDir()
	rec := filepath.Join(dir, "run.input")
	_, sum := run(t, "-headless", "-seconds", "40", "-seed", "3", "-record", rec)
	if _, got := run(t, "-replay", rec, "-headless", "-fps", "37"); got != sum {
		t.Errorf("replay: checksum %s, want %s", got, sum)
	}
	out, got := run(t, "-headless", "-seconds", "40", "-seed", "3", "-synctest", "8")
	if got != sum || !strings.Contains(out, "synctest: every tick simulated again from 8 ticks back, every state the same") {
		t.Errorf("-synctest 8: checksum %s, want %s:\n%s", got, sum, out)
	}
	seats := filepath.Join(dir, "seats.input")
	out, sum = run(t, "-headless", "-seconds", "20", "-seats", "kb1,kb2", "-record", seats)
	if !strings.Contains(out, "scores [") || strings.Count(gameRE.FindString(out), " ") < 7 {
		t.Errorf("-seats kb1,kb2: want two players' scores:\n%s", out)
	}
	if _, got := run(t, "-replay", seats, "-headless"); got != sum {
		t.Errorf("the seats' replay: checksum %s, want %s", got, sum)
	}
}

// In a window under Xvfb the arena is drawn: its walls, the ship in cyan,
// the drones.
func TestScreenshot(t *testing.T) {
	if os.Getenv("DISPLAY") == "" {
		t.Skip("no DISPLAY: run under xvfb-run -a, or make test")
	}
	shot := filepath.Join(t.TempDir(), "shot.png")
	if out, err := exec.Command(bin, "-autopilot", "-screenshot", shot, "-screenshot-at", "2:420").CombinedOutput(); err != nil {
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
	var floor, wall int
	b := img.Bounds()
	for y := b.Min.Y; y < b.Max.Y; y++ {
		for x := b.Min.X; x < b.Max.X; x++ {
			r, g, bl, _ := img.At(x, y).RGBA()
			switch r, g, bl = r>>8, g>>8, bl>>8; {
			case r == 16 && g == 18 && bl == 28:
				floor++
			case r == 70 && g == 80 && bl == 110:
				wall++
			}
		}
	}
	if floor < b.Dx()*b.Dy()/2 || wall < 2000 {
		t.Errorf("pixels: %d floor, %d wall; want the floor and the walls", floor, wall)
	}
}

// The package doc's line counts stay true: the total, and the plumbing as
// the sum of its parts.
func TestDocCountsLines(t *testing.T) { cmdtest.DocCounts(t, "main.go", "play.go", "screens.go") }
