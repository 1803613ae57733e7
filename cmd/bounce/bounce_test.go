package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// The game links the simulation core alone: no graphics library (nothing
// of ebiten's) and no cgo, so it builds with CGO_ENABLED=0.
func TestLinksTheCoreAlone(t *testing.T) {
	out, err := exec.Command("go", "list", "-deps", ".").CombinedOutput()
	if err != nil {
		t.Fatalf("go list -deps: %v\n%s", err, out)
	}
	for _, dep := range strings.Fields(string(out)) {
		if strings.Contains(dep, "hajimehoshi") || strings.Contains(dep, "ebitengine") || dep == "runtime/cgo" {
			t.Errorf("bounce depends on %s", dep)
		}
	}
	build := exec.Command("go", "build", "-o", filepath.Join(t.TempDir(), "bounce"), ".")
	build.Env = append(os.Environ(), "CGO_ENABLED=0")
	if out, err := build.CombinedOutput(); err != nil {
		t.Fatalf("CGO_ENABLED=0 go build: %v\n%s", err, out)
	}
}

var checksumRE = regexp.MustCompile(`\nchecksum ([0-9a-f]{16})\n$`)

// runBounce runs the game with args and returns what it printed and its
// final checksum.
func runBounce(t *testing.T, args ...string) (string, string) {
	t.Helper()
	var out strings.Builder
	if err := run(args, &out); err != nil {
		t.Fatalf("bounce %s: %v\n%s", strings.Join(args, " "), err, out.String())
	}
	m := checksumRE.FindStringSubmatch(out.String())
	if m == nil {
		t.Fatalf("bounce %s: no checksum last:\n%s", strings.Join(args, " "), out.String())
	}
	return out.String(), m[1]
}

// A run recorded at 60 frames a second replays at 24, 60 and 144 to the
// same checksum, every tick's checksum matching and the replay ending
// where the recording did; the same run again gives the same checksum, and
// another seed another.
func TestRecordingReplaysOnTheCore(t *testing.T) {
	rec := filepath.Join(t.TempDir(), "run.input")
	out, recorded := runBounce(t, "-seconds", "25", "-seed", "3", "-record", rec)
	if !strings.Contains(out, "Round, Round") {
		t.Fatalf("the run played one round only:\n%s", out)
	}
	for _, fps := range []string{"24", "60", "144"} {
		out, replayed := runBounce(t, "-replay", rec, "-fps", fps)
		if replayed != recorded || !regexp.MustCompile(`checksums matched, finished true`).MatchString(out) ||
			strings.Contains(out, " 0 checksums matched") {
			t.Errorf("replayed at %s fps: checksum %s, recorded %s:\n%s", fps, replayed, recorded, out)
		}
	}
	if _, again := runBounce(t, "-seconds", "25", "-seed", "3", "-fps", "37"); again != recorded {
		t.Errorf("the same run at 37 fps: checksum %s, recorded %s", again, recorded)
	}
	if _, other := runBounce(t, "-seconds", "25", "-seed", "4"); other == recorded {
		t.Error("another seed gave the same checksum")
	}
	t.Logf("recorded:\n%s", out)
}
