package main

import (
	"bytes"
	"fmt"
	"image/png"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// demoBin is the demo built once for the end-to-end tests.
var demoBin string

func TestMain(m *testing.M) {
	dir, err := os.MkdirTemp("", "demo-test")
	if err != nil {
		panic(err)
	}
	demoBin = filepath.Join(dir, "demo")
	if out, err := exec.Command("go", "build", "-o", demoBin, ".").CombinedOutput(); err != nil {
		fmt.Fprintf(os.Stderr, "go build: %v\n%s", err, out)
		os.Exit(1)
	}
	code := m.Run()
	os.RemoveAll(dir)
	os.Exit(code)
}

var checksumRE = regexp.MustCompile(`\nchecksum ([0-9a-f]{16})\n$`)

// demo runs the built demo and returns the checksum it printed last.
func demo(t *testing.T, args ...string) string {
	t.Helper()
	out, err := exec.Command(demoBin, args...).CombinedOutput()
	if err != nil {
		t.Fatalf("demo %s: %v\n%s", strings.Join(args, " "), err, out)
	}
	m := checksumRE.FindSubmatch(out)
	if m == nil {
		t.Fatalf("demo %s: no checksum last:\n%s", strings.Join(args, " "), out)
	}
	return string(m[1])
}

func needDisplay(t *testing.T) {
	if os.Getenv("DISPLAY") == "" {
		if os.Getenv("CI") != "" {
			t.Fatal("no DISPLAY in CI: run the tests through make test (xvfb-run)")
		}
		t.Skip("no DISPLAY: run under xvfb-run -a, or make test")
	}
}

// The same seed gives the same checksum at 24, 60, 144 and 1000 frames per
// second, in separate processes; another seed gives another.
func TestChecksumIndependentOfFrameRate(t *testing.T) {
	want := demo(t, "-headless", "-seconds", "8", "-seed", "5", "-fps", "60")
	for _, fps := range []string{"24", "144", "1000", "60"} {
		if got := demo(t, "-headless", "-seconds", "8", "-seed", "5", "-fps", fps); got != want {
			t.Errorf("-fps %s: checksum %s, want %s", fps, got, want)
		}
	}
	if other := demo(t, "-headless", "-seconds", "8", "-seed", "6"); other == want {
		t.Error("another seed gave the same checksum")
	}
	stress := demo(t, "-headless", "-scene", "stress", "-bodies", "300", "-seconds", "2", "-fps", "30")
	if got := demo(t, "-headless", "-scene", "stress", "-bodies", "300", "-seconds", "2", "-fps", "144"); got != stress {
		t.Errorf("stress: %s at 144 fps, %s at 30", got, stress)
	}
}

// A windowed run under Xvfb, recorded, replays headless to the same checksum.
func TestWindowRecordReplaysHeadless(t *testing.T) {
	needDisplay(t)
	rec := filepath.Join(t.TempDir(), "arena.input")
	window := demo(t, "-scene", "arena", "-seconds", "3", "-seed", "9", "-record", rec)
	replayed := demo(t, "-headless", "-scene", "arena", "-seconds", "3", "-replay", rec, "-fps", "37")
	if replayed != window {
		t.Fatalf("replay checksum %s, window %s", replayed, window)
	}
}

// A headless autopilot run, recorded, replays at another frame rate with its
// state checked every tick; a file with a flipped bit is refused as corrupt,
// naming the byte, before anything is replayed.
func TestReplayChecksTheState(t *testing.T) {
	rec := filepath.Join(t.TempDir(), "arena.input")
	recorded := demo(t, "-headless", "-seconds", "3", "-seed", "4", "-record", rec)
	if got := demo(t, "-headless", "-seconds", "3", "-replay", rec, "-fps", "144"); got != recorded {
		t.Fatalf("replay checksum %s, recorded %s", got, recorded)
	}
	data, err := os.ReadFile(rec)
	if err != nil {
		t.Fatal(err)
	}
	data[len(data)-1] ^= 1
	if err := os.WriteFile(rec, data, 0o644); err != nil {
		t.Fatal(err)
	}
	out, err := exec.Command(demoBin, "-headless", "-seconds", "3", "-replay", rec).CombinedOutput()
	if ee, ok := err.(*exec.ExitError); !ok || ee.ExitCode() != 1 || !strings.Contains(string(out), "corrupt file at byte") {
		t.Fatalf("tampered replay: %v\n%s", err, out)
	}
}

// -screenshot under Xvfb writes a PNG of the Arena with its sprites on it.
func TestScreenshotShowsTheArena(t *testing.T) {
	needDisplay(t)
	path := filepath.Join(t.TempDir(), "arena.png")
	demo(t, "-scene", "arena", "-screenshot", path, "-frames", "30")
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	img, err := png.Decode(bytes.NewReader(data))
	if err != nil {
		t.Fatal(err)
	}
	b := img.Bounds()
	var floor, agent, player, star int
	for y := b.Min.Y; y < b.Max.Y; y++ {
		for x := b.Min.X; x < b.Max.X; x++ {
			r, g, bl, _ := img.At(x, y).RGBA()
			r, g, bl = r>>8, g>>8, bl>>8
			switch {
			case r == 34 && g == 40 && bl == 52:
				floor++
			case r > 200 && g > 70 && g < 140 && bl < 80: // the agents' orange
				agent++
			case r < 100 && g > 180 && bl > 200: // the player's cyan
				player++
			case r > 220 && g > 180 && bl < 90: // the stars' yellow
				star++
			}
		}
	}
	if b.Dx() != 960 || b.Dy() != 540 || floor < b.Dx()*b.Dy()/2 || agent < 10*100 || player < 50 || star < 3*50 {
		t.Fatalf("%dx%d: floor %d, agent %d, player %d, star %d pixels", b.Dx(), b.Dy(), floor, agent, player, star)
	}
}

// Without a display the windowed demo exits 1 and says what to do.
func TestNoDisplaySaysWhatToDo(t *testing.T) {
	cmd := exec.Command(demoBin, "-scene", "arena")
	for _, kv := range os.Environ() {
		if !strings.HasPrefix(kv, "DISPLAY=") && !strings.HasPrefix(kv, "WAYLAND_DISPLAY=") {
			cmd.Env = append(cmd.Env, kv)
		}
	}
	out, err := cmd.CombinedOutput()
	if ee, ok := err.(*exec.ExitError); !ok || ee.ExitCode() != 1 || !strings.Contains(string(out), "-headless") ||
		!strings.Contains(string(out), "xvfb-run") {
		t.Fatalf("exit %v:\n%s", err, out)
	}
}

// -realtime runs on the real clock and reports CPU use and tick timing error
// (their values are measured, not asserted: they depend on the machine).
func TestRealtimeReportsCPUAndTickError(t *testing.T) {
	out, err := exec.Command(demoBin, "-headless", "-realtime", "-seconds", "1").CombinedOutput()
	if err != nil {
		t.Fatalf("%v\n%s", err, out)
	}
	re := regexp.MustCompile(`realtime: .* CPU = [0-9.]+% of one core; tick timing error over 60 ticks: p50 \S+, p99 \S+`)
	if !re.Match(out) || checksumRE.Find(out) == nil {
		t.Fatalf("no realtime line, or the checksum is not last:\n%s", out)
	}
	t.Logf("%s", re.Find(out))
}
