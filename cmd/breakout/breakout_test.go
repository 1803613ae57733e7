package main

import (
	"bytes"
	"image/color"
	"image/png"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/fixedstep/fixedstep/internal/cmdtest"
	"github.com/fixedstep/fixedstep/internal/windowtest"
)

// bin is the game built once for the end-to-end tests.
var bin string

func TestMain(m *testing.M) { cmdtest.Main(m, "breakout", &bin) }

var (
	checksumRE = cmdtest.ChecksumRE
	replayedRE = regexp.MustCompile(`\nreplayed (\d+) scenes, (\d+) ticks, every checksum matched \((\d+) checked\)`)
	gameRE     = regexp.MustCompile(`game: score (\d+), level (\d+), lives (\d+), (\d+) bricks left`)
)

// output runs the built game and returns what it printed and its exit code.
func output(t *testing.T, args ...string) (string, int) {
	t.Helper()
	return cmdtest.Output(t, bin, args...)
}

// run runs the built game, which must succeed, and returns what it printed
// and the checksum it printed last.
func run(t *testing.T, args ...string) (string, string) {
	t.Helper()
	return cmdtest.Run(t, bin, args...)
}

func needDisplay(t *testing.T) {
	if os.Getenv("DISPLAY") == "" {
		if os.Getenv("CI") != "" {
			t.Fatal("no DISPLAY in CI: run the tests through make test (xvfb-run)")
		}
		t.Skip("no DISPLAY: run under xvfb-run -a, or make test")
	}
}

// Headless, the autopilot plays from the Title: whole games (a game over
// and back to the Title included), with the same checksum and games at 24,
// 37, 60, 144 and 1000 frames per second, in separate processes; each game
// of a run is another game; another seed plays another run.
func TestChecksumIndependentOfFrameRate(t *testing.T) {
	args := []string{"-headless", "-seconds", "60", "-seed", "14", "-lives", "1"}
	out, want := run(t, append(args, "-fps", "60")...)
	games := gameRE.FindAllString(out, -1)
	if len(games) < 2 || games[0] == games[1] || !strings.Contains(out, "run: 7 scenes (Title, Play, Over, Title, Play, Over, Title)") {
		t.Fatalf("want two different games, each lost:\n%s", out)
	}
	for _, fps := range []string{"24", "144", "1000", "37"} {
		if got, sum := run(t, append(args, "-fps", fps)...); sum != want || got != out {
			t.Errorf("-fps %s: checksum %s, want %s:\n%s", fps, sum, want, got)
		}
	}
	if _, other := run(t, "-headless", "-seconds", "60", "-seed", "15", "-lives", "1"); other == want {
		t.Error("another seed gave the same checksum")
	}
	t.Logf("seed 14, 60 s at 24, 37, 60, 144 and 1000 fps:\n%s", out)
}

// -headless alone plays a minute, by the autopilot.
func TestHeadlessDefaults(t *testing.T) {
	out, _ := run(t, "-headless")
	if !gameRE.MatchString(out) || !strings.Contains(out, "run: ") || !strings.Contains(out, "3600 ticks") &&
		!strings.Contains(out, "3601 ticks") && !strings.Contains(out, "3602 ticks") {
		t.Fatalf("-headless did not play a minute:\n%s", out)
	}
}

// A headless recording replays with -replay FILE alone, at another frame
// rate: the same checksum, every tick checked. A flag given with another
// value than the recording's is refused by name.
func TestReplayAloneReproducesTheRun(t *testing.T) {
	rec := filepath.Join(t.TempDir(), "run.input")
	recorded, sum := run(t, "-headless", "-seconds", "12", "-seed", "7", "-lives", "2", "-record", rec)
	out, got := run(t, "-replay", rec, "-headless", "-fps", "144")
	if got != sum || !replayedRE.MatchString(out) {
		t.Fatalf("replay: checksum %s, want %s:\n%s\nrecorded:\n%s", got, sum, out, recorded)
	}
	if g, r := gameRE.FindAllString(out, -1), gameRE.FindAllString(recorded, -1); strings.Join(g, "|") != strings.Join(r, "|") {
		t.Fatalf("replayed games %q, recorded %q", g, r)
	}
	if out, code := output(t, "-headless", "-replay", rec, "-lives", "3"); code != 2 ||
		!strings.Contains(out, "-lives 3: the recording was made with -lives 2") {
		t.Fatalf("a conflicting -lives: exit %d\n%s", code, out)
	}
	if os.Getenv("DISPLAY") != "" { // -replay FILE alone: in a window, at the display's rate
		if out, got := run(t, "-replay", rec); got != sum {
			t.Fatalf("replayed in a window: %s, recorded %s:\n%s", got, sum, out)
		}
	}
}

// A window run driven by real key presses through the X server (Return on
// the Title, Right held, Space to serve, Left held, Esc back to the Title),
// recorded,
// replays headless at 24, 60 and 144 fps with no other flag: the same
// checksum, scenes and games.
func TestWindowRecordingFromTheTitleReplaysHeadless(t *testing.T) {
	needDisplay(t)
	rec := filepath.Join(t.TempDir(), "window.input")
	x, err := windowtest.Start(exec.Command(bin, "-seconds", "5", "-seed", "11", "-record", rec), "fixedstep breakout")
	if err != nil {
		t.Fatal(err)
	}
	defer x.Close()
	time.Sleep(300 * time.Millisecond) // a little time on the Title
	for _, step := range []struct {
		key  string
		hold time.Duration
	}{{"Return", 100 * time.Millisecond}, {"Right", 400 * time.Millisecond}, {"space", 100 * time.Millisecond},
		{"Left", 700 * time.Millisecond}, {"Escape", 100 * time.Millisecond}} {
		time.Sleep(200 * time.Millisecond)
		if err := x.Hold(step.key, step.hold); err != nil {
			t.Fatal(err)
		}
	}
	out, err := x.Wait(windowtest.Stall)
	if err != nil {
		t.Fatalf("the window run: %v\n%s", err, out)
	}
	m := checksumRE.FindStringSubmatch(out)
	if m == nil || !strings.Contains(out, "run: 3 scenes (Title, Play, Title)") {
		t.Fatalf("the window run did not go Title, Play, Title, or printed no checksum:\n%s", out)
	}
	// The served ball (Space) has broken a brick by the time Esc is pressed.
	g := gameRE.FindStringSubmatch(out)
	if g == nil || g[1] == "0" {
		t.Fatalf("no brick broken in the window run:\n%s", out)
	}
	game := g[0]
	for _, fps := range []string{"24", "60", "144"} {
		got, code := output(t, "-headless", "-replay", rec, "-fps", fps)
		c := checksumRE.FindStringSubmatch(got)
		if code != 0 || c == nil || c[1] != m[1] || !replayedRE.MatchString(got) || gameRE.FindString(got) != game ||
			!strings.Contains(got, "run: 3 scenes (Title, Play, Title)") {
			t.Fatalf("-fps %s: exit %d, want checksum %s and %q:\n%s", fps, code, m[1], game, got)
		}
	}
	t.Logf("window run:\n%s", out)
}

// -screenshot under Xvfb (the autopilot starts a game from the Title)
// writes a PNG of the playfield: the background, six rows of bricks in
// their colours, the paddle, the ball and the HUD's text.
func TestScreenshotShowsTheGame(t *testing.T) {
	needDisplay(t)
	path := filepath.Join(t.TempDir(), "play.png")
	// The frame after the game's 60th tick (a second of play), however slow
	// the frames come: -frames N would take later moments on a busy machine,
	// where each frame runs more ticks.
	if out, code := output(t, "-autopilot", "-seed", "3", "-screenshot", path, "-screenshot-at", "2:60"); code != 0 {
		t.Fatalf("exit %d:\n%s", code, out)
	}
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	img, err := png.Decode(bytes.NewReader(data))
	if err != nil {
		t.Fatal(err)
	}
	b := img.Bounds()
	var bg, paddle, text, ball int
	var row [rows]int
	for y := b.Min.Y; y < b.Max.Y; y++ {
		for x := b.Min.X; x < b.Max.X; x++ {
			r, g, bl, _ := img.At(x, y).RGBA()
			c := color.RGBA{uint8(r >> 8), uint8(g >> 8), uint8(bl >> 8), 255}
			switch {
			case c == background:
				bg++
			case c == cyan:
				paddle++
			case y < top && c.R > 200 && c.G > 200 && c.B > 200:
				text++
			case y > top && c.R > 80 && c.G >= c.R-8 && c.G <= c.R+8 && c.B >= c.R && c.B <= c.R+16:
				ball++ // the ball's greys, which lean a little to blue
			}
			for i, rc := range rowColours {
				if c == rc {
					row[i]++
				}
			}
		}
	}
	brick := int(brickW * brickH)
	if b.Dx() != width || b.Dy() != height || bg < width*height/2 || paddle < int(paddleW*paddleH)*9/10 || text < 100 || ball < 80 {
		t.Fatalf("%dx%d: background %d, paddle %d, HUD text %d, ball %d pixels", b.Dx(), b.Dy(), bg, paddle, text, ball)
	}
	const ballBox = 20 * 20 // the ball's sprite, drawn over a brick it is hitting
	for i, n := range row {
		// The top row's colour is darkened once hit; the others lose a
		// brick at each hit. A few seconds in, most of each row stands.
		whole := (n + ballBox) / brick
		if hidden := whole*brick - n; hidden > ballBox || whole < cols-4 {
			t.Errorf("row %d: %d pixels of its colour, want whole bricks (%d px), most of %d", i, n, brick, cols)
		}
	}
	t.Logf("background %d, paddle %d, HUD text %d, ball %d pixels; rows %v", bg, paddle, text, ball, row)
}

// Bad flags are refused before the first frame, naming the flag.
func TestBadFlagsAreRefused(t *testing.T) {
	for _, c := range []struct {
		args []string
		says string
	}{
		{[]string{"-headless", "-lives", "0"}, "-lives 0: must be 1 to 99"},
		{[]string{"-headless", "-lives", "100"}, "-lives 100: must be 1 to 99"},
		{[]string{"-headless", "-fps", "0"}, "-fps 0: must be a frame rate"},
		{[]string{"-headless", "-screenshot", "x.png"}, "needs a window: drop -headless"},
	} {
		out, code := output(t, c.args...)
		if code != 2 && code != 1 || !strings.Contains(out, c.says) || strings.Contains(out, "run:") {
			t.Errorf("%s: exit %d, want an error saying %q:\n%s", strings.Join(c.args, " "), code, c.says, out)
		}
	}
}

// The Stage's dev keys work in the game's window: F3 shows the overlay,
// whose figures name the game's groups and systems, and F12 saves the
// frame, overlay included, to a PNG in the current folder; P pauses, so the
// run's game time falls behind the real time it took.
func TestDevKeysInTheWindow(t *testing.T) {
	needDisplay(t)
	dir := t.TempDir()
	cmd := exec.Command(bin, "-autopilot", "-seconds", "4", "-seed", "2")
	cmd.Dir = dir
	start := time.Now()
	x, err := windowtest.Start(cmd, "fixedstep breakout")
	if err != nil {
		t.Fatal(err)
	}
	defer x.Close()
	time.Sleep(1500 * time.Millisecond)              // the autopilot starts a game after a second
	for _, key := range []string{"F3", "p", "F12"} { // each held until frames show it was seen
		if err := x.TapSeen(key); err != nil {
			t.Fatal(err)
		}
		time.Sleep(700 * time.Millisecond) // the overlay refreshes every 500 ms
	}
	time.Sleep(1500 * time.Millisecond) // paused: no game time passes
	if err := x.TapSeen("p"); err != nil {
		t.Fatal(err)
	}
	out, err := x.Wait(windowtest.Stall)
	if err != nil {
		t.Fatalf("%v\n%s", err, out)
	}
	took := time.Since(start)
	shots, _ := filepath.Glob(filepath.Join(dir, "screenshot-*.png"))
	if len(shots) != 1 {
		t.Fatalf("F12 saved %d screenshots in %s:\n%s", len(shots), dir, out)
	}
	f, err := os.Open(shots[0])
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	img, err := png.Decode(f)
	if err != nil {
		t.Fatal(err)
	}
	// The overlay's panel is drawn over the top left corner: its text is
	// light on a dark panel, where the HUD's line alone would be.
	var light int
	for y := int(top); y < 200; y++ {
		for x := 0; x < 300; x++ {
			r, g, b, _ := img.At(x, y).RGBA()
			if r>>8 > 180 && g>>8 > 180 && b>>8 > 180 {
				light++
			}
		}
	}
	if light < 300 {
		t.Errorf("no overlay text under the HUD in %s: %d light pixels", shots[0], light)
	}
	if took < 6*time.Second {
		t.Errorf("4 s of game time, paused for 2 s, took %v of real time", took)
	}
	t.Logf("%s: %d light pixels in the overlay's corner; the run took %v\n%s", filepath.Base(shots[0]), light, took, out)
}

// The package doc's line counts stay true: the total, and the plumbing as
// the sum of its parts.
func TestDocCountsLines(t *testing.T) { cmdtest.DocCounts(t, "main.go", "play.go", "screens.go") }
