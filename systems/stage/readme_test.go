package stage_test

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/fixedstep/fixedstep/internal/windowtest"
)

// readmeGame returns the Go program under the README's "A short game"
// (docs/blocks_test.go builds and runs it too, with every other Go block of
// the guides).
func readmeGame(t *testing.T) string {
	t.Helper()
	readme, err := os.ReadFile("../../README.md")
	if err != nil {
		t.Fatal(err)
	}
	src := string(readme)
	i := strings.Index(src, "## A short game")
	j := strings.Index(src[max(i, 0):], "```go\n")
	if i < 0 || j < 0 {
		t.Fatal("README.md has no Go program under \"A short game\"")
	}
	code := src[i+j+len("```go\n"):]
	return code[:strings.Index(code, "```")]
}

// The README's game is a complete program on the kit: built from the
// README as it stands, it runs headless; played in a window under Xvfb with
// real key presses (the arrows steer the ship onto the star, Esc ends the
// game, decided on a tick), it records, and the recording replays headless
// at 24, 60 and 144 fps to the same checksum, ending where it ended.
func TestReadmeGame(t *testing.T) {
	code := readmeGame(t)
	// A package under testdata is left out of ./... but builds when named.
	if err := os.MkdirAll("testdata", 0o755); err != nil { // not in git: a fresh clone has none
		t.Fatal(err)
	}
	dir, err := os.MkdirTemp("testdata", "readmegame-")
	if err != nil {
		t.Fatal(err)
	}
	defer os.RemoveAll(dir)
	if err := os.WriteFile(filepath.Join(dir, "main.go"), []byte(code), 0o644); err != nil {
		t.Fatal(err)
	}
	bin := filepath.Join(t.TempDir(), "mygame")
	if out, err := exec.Command("go", "build", "-o", bin, "./"+dir).CombinedOutput(); err != nil {
		t.Fatalf("the README's game does not build: %v\n%s", err, out)
	}
	sum := regexp.MustCompile(`\nchecksum ([0-9a-f]{16})\n$`)
	if out, err := exec.Command(bin, "-headless", "-seconds", "2").CombinedOutput(); err != nil || !sum.Match(out) {
		t.Fatalf("headless: %v\n%s", err, out)
	}

	if os.Getenv("DISPLAY") == "" {
		if os.Getenv("CI") != "" {
			t.Fatal("no DISPLAY in CI: run the tests through make test (xvfb-run)")
		}
		t.Skip("no DISPLAY: the window part needs xvfb-run -a (make test)")
	}
	rec := filepath.Join(t.TempDir(), "mygame.input")
	x, err := windowtest.Start(exec.Command(bin, "-record", rec), "my game")
	if err != nil {
		t.Fatal(err)
	}
	defer x.Close()
	for _, step := range []struct {
		key  string
		hold time.Duration
	}{{"Right", 1200 * time.Millisecond}, {"Down", 700 * time.Millisecond}, {"Right", 400 * time.Millisecond}, {"Escape", 100 * time.Millisecond}} {
		if err := x.Hold(step.key, step.hold); err != nil {
			t.Fatal(err)
		}
	}
	out, err := x.Wait(windowtest.Stall) // Esc ends the game
	if err != nil {
		t.Fatalf("the window run: %v\n%s", err, out)
	}
	window := sum.FindStringSubmatch(out)
	if window == nil || !strings.Contains(out, "recorded 1 scenes") {
		t.Fatalf("the window run printed:\n%s", out)
	}
	for _, fps := range []string{"24", "60", "144"} {
		got, err := exec.Command(bin, "-headless", "-replay", rec, "-fps", fps).CombinedOutput()
		m := sum.FindSubmatch(got)
		if err != nil || m == nil || string(m[1]) != window[1] || !bytes.Contains(got, []byte("every checksum matched")) {
			t.Fatalf("replay at %s fps: %v\n%s\nwant checksum %s", fps, err, got, window[1])
		}
	}
	t.Logf("window run:\n%s", out)
}
