package main

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// The copy of ebiten's context.go leaves out the fill of the canvas and
// nothing else; a file that is not v2.10.4's is not copied.
func TestWithoutCanvasFill(t *testing.T) {
	mod, err := moduleOf(demoPkg, ebitenUI)
	if err != nil || mod == nil {
		t.Fatalf("the demo's ebiten: %+v, %v", mod, err)
	}
	src, err := os.ReadFile(filepath.Join(mod.Dir, filepath.FromSlash(canvasFillFile)))
	if err != nil {
		t.Fatal(err)
	}
	got, ok := withoutCanvasFill(src)
	if !ok {
		t.Fatalf("ebiten %s's %s: not copied", mod.Version, canvasFillFile)
	}
	if want := bytes.Replace(src, []byte(canvasFillIf), []byte(canvasFillNever), 1); !bytes.Equal(got, want) || bytes.Equal(got, src) {
		t.Errorf("the copy is not the file with %q for %q", canvasFillNever, canvasFillIf)
	}
	changed := bytes.Replace(src, []byte("fillBlack()"), []byte("fillBlack( )"), 1)
	if _, ok := withoutCanvasFill(changed); ok {
		t.Error("a file changed by one byte was copied")
	}
}

// A game in a module of its own builds against the copy: its go.mod,
// copied, replaces ebiten by the copy and keeps the game's own
// replacement (a path relative to the game's module).
func TestCanvasFillInAModuleOfItsOwn(t *testing.T) {
	engine := inGameModule(t)
	tmp := t.TempDir()
	modFile, why, err := canvasFillModFile("example.com/mygame", tmp)
	if err != nil || modFile == "" {
		t.Fatalf("the game's go.mod: %q, %q, %v", modFile, why, err)
	}
	dirs, err := goCmd("list", "-modfile", modFile, "-deps", "-f", "{{.ImportPath}} {{.Dir}}", "example.com/mygame")
	if err != nil {
		t.Fatal(err)
	}
	copyDir, err := ebitenCopyDir()
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{ebitenUI + " " + filepath.Join(copyDir, "internal", "ui"), windowPkg + " " + filepath.Join(engine, "engine", "window")} {
		if !strings.Contains(dirs, "\n"+want) {
			t.Errorf("built with -modfile %s: no %q in\n%s", modFile, want, dirs)
		}
	}
	mod, err := moduleOf("example.com/mygame", ebitenUI)
	if err != nil || mod == nil {
		t.Fatalf("the game's ebiten: %+v, %v", mod, err)
	}
	src, err := os.ReadFile(filepath.Join(mod.Dir, filepath.FromSlash(canvasFillFile)))
	if err != nil {
		t.Fatal(err)
	}
	if patched, _ := withoutCanvasFill(src); !copyMade(copyDir, patched) {
		t.Errorf("%s: not the copy without the fill", copyDir)
	}
}

// With no cache directory for the copy, the game builds as it is, and
// build says why.
func TestCanvasFillWithoutCacheDir(t *testing.T) {
	env, err := goCmd("env", "GOCACHE", "GOMODCACHE", "GOPATH")
	if err != nil {
		t.Fatal(err)
	}
	vars := strings.Split(strings.TrimSuffix(env, "\n"), "\n")
	for i, name := range []string{"GOCACHE", "GOMODCACHE", "GOPATH"} { // the go command's own, which follow $HOME
		t.Setenv(name, vars[i])
	}
	t.Setenv("XDG_CACHE_HOME", "")
	t.Setenv("HOME", "")
	modFile, why, err := canvasFillModFile(demoPkg, t.TempDir())
	if err != nil || modFile != "" || !strings.Contains(why, "no directory for the copy") {
		t.Errorf("without a cache directory: %q, %q, %v", modFile, why, err)
	}
}
