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
// user's game is, made by the lines of the guide docs/first-game.md (the
// shell block under "In a module of its own", run as written, in a folder
// beside a link to this checkout named fixedstep): it requires the engine
// (the checkout, through the game's own replace) and nothing else, so the
// project's copies of cp and donburi come with the engine, with no replace
// directive in the engine.
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
	guide, err := os.ReadFile(filepath.Join(root, "docs", "first-game.md"))
	if err != nil {
		t.Fatal(err)
	}
	src := string(guide)
	i := strings.Index(src, "## In a module of its own")
	j := strings.Index(src[max(i, 0):], "```sh\n")
	if i < 0 || j < 0 {
		t.Fatal(`docs/first-game.md has no shell block under "In a module of its own"`)
	}
	block := src[i+j+len("```sh\n"):]
	block = block[:strings.Index(block, "```")]
	const writeMain = "# main.go: the README's program\n"
	if !strings.Contains(block, writeMain) {
		t.Fatalf("docs/first-game.md's recipe has no line %q, where the test writes the game:\n%s", writeMain, block)
	}
	parent := t.TempDir()
	if err := os.Symlink(root, filepath.Join(parent, "fixedstep")); err != nil {
		t.Fatal(err)
	}
	mainGo := filepath.Join(parent, "main.go.txt")
	if err := os.WriteFile(mainGo, []byte(code), 0o644); err != nil {
		t.Fatal(err)
	}
	script := "set -ex\n" + strings.Replace(block, writeMain, "cp ../main.go.txt main.go\n", 1)
	cmd := exec.Command("sh", "-c", script)
	cmd.Dir = parent
	out, err := cmd.CombinedOutput()
	if err != nil || !regexp.MustCompile(`\nchecksum [0-9a-f]{16}\n$`).Match(out) {
		t.Fatalf("docs/first-game.md's recipe, run as written: %v\n%s", err, out)
	}
	mod, err := os.ReadFile(filepath.Join(parent, "mygame", "go.mod"))
	if err != nil {
		t.Fatal(err)
	}
	if strings.Contains(string(mod), "jakecoffman") || strings.Contains(string(mod), "yohamta") {
		t.Fatalf("the game's module requires upstream cp or donburi:\n%s", mod)
	}
	if !regexp.MustCompile(`\n\tgithub.com/hajimehoshi/ebiten/v2 v\S+\n`).Match(mod) {
		t.Fatalf("the game's module does not require ebiten directly, as docs/first-game.md says it will:\n%s", mod)
	}
}
