package main_test

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// A game in a module of its own runs detcheck with go run, as its README
// would say: it finds a product and a math call, -fix rounds the one and
// calls detmath for the other, and the game still builds.
func TestFromAnotherModule(t *testing.T) {
	root, err := filepath.Abs("../..")
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	sum, err := os.ReadFile(filepath.Join(root, "go.sum"))
	if err != nil {
		t.Fatal(err)
	}
	files := map[string]string{
		"go.mod": "module example.com/game\n\ngo 1.26\n\nrequire github.com/fixedstep/fixedstep v0.0.0\n\nreplace github.com/fixedstep/fixedstep => " + root + "\n",
		"go.sum": string(sum),
		"game.go": `package game

import "math"

// Step moves a point along a heading.
func Step(x, heading, speed float64) float64 {
	return x + speed*math.Cos(heading)
}
`,
	}
	for name, text := range files {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	run := func(args ...string) (string, int) {
		cmd := exec.Command("go", args...)
		cmd.Dir = dir
		cmd.Env = append(os.Environ(), "GOFLAGS=-mod=mod")
		out, err := cmd.CombinedOutput()
		code := 0
		if ee, ok := err.(*exec.ExitError); ok {
			code = ee.ExitCode()
		} else if err != nil {
			t.Fatal(err)
		}
		return string(out), code
	}
	const tool = "github.com/fixedstep/fixedstep/cmd/detcheck"
	out, code := run("run", tool, "./...")
	if code != 1 || !strings.Contains(out, "game.go:7:13: product: float product speed*math.Cos(heading)") || !strings.Contains(out, "game.go:7:24: math: math.Cos") {
		t.Fatalf("detcheck: exit %d, want 1, a product and a math call:\n%s", code, out)
	}
	if out, code = run("run", tool, "-fix", "./..."); code != 0 {
		t.Fatalf("detcheck -fix: exit %d, want 0:\n%s", code, out)
	}
	fixed, _ := os.ReadFile(filepath.Join(dir, "game.go"))
	if !strings.Contains(string(fixed), "return x + float64(speed*detmath.Cos(heading))") || strings.Contains(string(fixed), `"math"`) {
		t.Errorf("fixed game.go:\n%s", fixed)
	}
	if out, code = run("vet", "./..."); code != 0 {
		t.Fatalf("go vet of the fixed game: exit %d\n%s\n%s", code, out, fixed)
	}
	if out, code = run("run", tool, "./..."); code != 0 {
		t.Fatalf("detcheck after -fix: exit %d, want 0:\n%s", code, out)
	}
}
