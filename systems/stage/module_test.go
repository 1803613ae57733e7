package stage_test

import (
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// The README's game builds and runs in a module of its own, as a new
// user's game is: it requires the engine (here the checkout, through the
// game's own replace) and nothing else, so the project's copies of cp and
// donburi come with the engine, with no replace directive in the engine.
func TestReadmeGameInItsOwnModule(t *testing.T) {
	if testing.Short() {
		t.Skip("builds a module (-short)")
	}
	code := readmeGame(t)
	root, err := filepath.Abs("../..")
	if err != nil {
		t.Fatal(err)
	}
	engineMod, err := os.ReadFile(filepath.Join(root, "go.mod"))
	if err != nil || strings.Contains(string(engineMod), "\nreplace") {
		t.Fatalf("the engine's go.mod (%v) has a replace directive, which a game's module would not see", err)
	}
	sums, err := os.ReadFile(filepath.Join(root, "go.sum")) // the engine's, so that no checksum is looked up
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	files := map[string]string{
		"main.go": code,
		"go.mod":  "module example.com/mygame\n\ngo 1.26\n\nrequire github.com/fixedstep/fixedstep v0.0.0\n\nreplace github.com/fixedstep/fixedstep => " + root + "\n",
		"go.sum":  string(sums),
	}
	for name, text := range files {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	for _, args := range [][]string{{"mod", "tidy"}, {"build", "-o", "mygame", "."}} {
		cmd := exec.Command("go", args...)
		cmd.Dir = dir
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("go %s in the game's module: %v\n%s", strings.Join(args, " "), err, out)
		}
	}
	out, err := exec.Command(filepath.Join(dir, "mygame"), "-headless", "-seconds", "2").CombinedOutput()
	if err != nil || !regexp.MustCompile(`\nchecksum [0-9a-f]{16}\n$`).Match(out) {
		t.Fatalf("the game of its own module, headless: %v\n%s", err, out)
	}
	mod, _ := os.ReadFile(filepath.Join(dir, "go.mod"))
	if strings.Contains(string(mod), "jakecoffman") || strings.Contains(string(mod), "yohamta") {
		t.Fatalf("the game's module requires upstream cp or donburi:\n%s", mod)
	}
}
