package main

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
)

// The browser build leaves out one fill of ebiten's. Before each frame,
// ebiten v2.10.4 fills the canvas's drawing buffer opaque black
// (internal/ui/context.go, drawGame: its OpenGL driver always says the
// screen needs clearing), a quad of its white image drawn through its
// sprite shader. In a browser that buffer is already clear: WebGL hands
// each frame a drawing buffer cleared to transparent black (ebiten makes the
// canvas without preserveDrawingBuffer), and the page under the canvas is
// black (ebiten sets the body's background), so what shows is the same.
// The scene then draws on a screen cleared to transparent, as it does
// natively, where ebiten clears its offscreen image so. On a GPU the fill
// costs next to nothing; in a browser that draws in software (Chromium's
// SwiftShader) it is one more pass over every pixel, a large part of a
// frame: BENCHMARKS.md, BenchmarkArenaFrameRate.
//
// ebiten has no option to skip the fill, and the engine does not carry a
// copy of ebiten in its module (games import ebiten themselves, for
// *ebiten.Image; a replace directive in the engine's go.mod does not reach
// a game's module). So build compiles a game against a copy of ebiten with
// that one condition changed, made once in the user's cache directory, by
// way of a copy of the game's go.mod with a replace directive to it (go
// build -modfile), for that build alone. It does so only when the game
// builds with ebiten v2.10.4 from the module cache, its file byte for byte
// that version's (its SHA-256), outside a workspace; any other game builds
// as it is, and build says why.

const (
	ebitenModule = "github.com/hajimehoshi/ebiten/v2"
	ebitenUI     = ebitenModule + "/internal/ui" // the package whose drawGame fills the canvas
	// canvasFillVersion is the ebiten the copy is made of, canvasFillFile
	// its file with drawGame, and canvasFillSum that file's SHA-256.
	canvasFillVersion = "v2.10.4"
	canvasFillFile    = "internal/ui/context.go"
	canvasFillSum     = "7102f92f867f47b8ecdd28c47fc842be496086e5b9422fa611d98e1682223d0f"
	// canvasFillIf is the condition of the fill, once in that file, and
	// canvasFillNever the same that never holds.
	canvasFillIf    = "if graphicsDriver.NeedsClearingScreen() {"
	canvasFillNever = "if false && graphicsDriver.NeedsClearingScreen() {"
)

// canvasFillModFile writes into dir a go.mod (with its go.sum) that builds
// pkg against the copy of ebiten without the fill of the canvas, making
// the copy if it is not there, and returns its path. When pkg is not built
// with the ebiten the copy is made of, it returns "" and says why.
func canvasFillModFile(pkg, dir string) (modFile, why string, err error) {
	mod, err := moduleOf(pkg, ebitenUI)
	if err != nil {
		return "", "", err
	}
	if mod == nil {
		return "", "it does not use ebiten", nil
	}
	env, err := goCmd("env", "GOMOD", "GOWORK", "GOMODCACHE")
	if err != nil {
		return "", "", err
	}
	vars := strings.Split(strings.TrimSuffix(env, "\n"), "\n")
	if len(vars) != 3 {
		return "", "", fmt.Errorf("go env GOMOD GOWORK GOMODCACHE: %q", env)
	}
	gomod, gowork, modCache := vars[0], vars[1], vars[2]
	const fills = "the game fills the canvas black before each frame, as ebiten does"
	switch {
	case mod.Replace != nil:
		return "", fmt.Sprintf("its go.mod replaces ebiten (by %s): %s", mod.Replace.Path, fills), nil
	case mod.Version != canvasFillVersion:
		return "", fmt.Sprintf("it builds with ebiten %s, not %s: %s", mod.Version, canvasFillVersion, fills), nil
	case gowork != "" && gowork != "off":
		return "", fmt.Sprintf("it builds in a workspace (%s): %s", gowork, fills), nil
	case gomod == "" || gomod == os.DevNull:
		return "", "it builds outside a module: " + fills, nil
	case modCache == "" || !strings.HasPrefix(mod.Dir, modCache+string(filepath.Separator)):
		return "", fmt.Sprintf("its ebiten is not in the module cache (%s): %s", mod.Dir, fills), nil
	}
	src, err := os.ReadFile(filepath.Join(mod.Dir, filepath.FromSlash(canvasFillFile)))
	if err != nil {
		return "", "", err
	}
	patched, ok := withoutCanvasFill(src)
	if !ok {
		return "", fmt.Sprintf("its ebiten's %s is not %s's: %s", canvasFillFile, canvasFillVersion, fills), nil
	}
	copyDir, err := ebitenCopyDir()
	if err != nil {
		return "", fmt.Sprintf("no directory for the copy of ebiten without the fill (%v): %s", err, fills), nil
	}
	if err := ebitenWithoutFill(mod.Dir, copyDir, patched); err != nil {
		return "", "", err
	}
	modFile = filepath.Join(dir, "go.mod")
	if err := copyFile(gomod, modFile); err != nil {
		return "", "", err
	}
	if sum := strings.TrimSuffix(gomod, ".mod") + ".sum"; fileExists(sum) {
		if err := copyFile(sum, filepath.Join(dir, "go.sum")); err != nil {
			return "", "", err
		}
	}
	if _, err := goCmd("mod", "edit", "-replace="+ebitenModule+"="+copyDir, modFile); err != nil {
		return "", "", err
	}
	return modFile, "", nil
}

// module is a module as go list describes it.
type module struct {
	Path, Version, Dir string
	Replace            *struct{ Path string }
}

// moduleOf returns the module of the package imported as path in pkg's
// build, or nil if pkg does not import it.
func moduleOf(pkg, path string) (*module, error) {
	list, err := goCmd("list", "-deps", "-json=ImportPath,Module", pkg)
	if err != nil {
		return nil, err
	}
	for dec := json.NewDecoder(strings.NewReader(list)); ; {
		var p struct {
			ImportPath string
			Module     *module
		}
		if err := dec.Decode(&p); err == io.EOF {
			return nil, nil
		} else if err != nil {
			return nil, fmt.Errorf("go list: %w", err)
		}
		if p.ImportPath == path && p.Module != nil {
			return p.Module, nil
		}
	}
}

// ebitenWithoutFill makes the copy of ebiten (from src, the module
// cache's) without the fill of the canvas (patched, its context.go) in
// dst, unless it is there. It is made under a name of its
// own and renamed into place, so that a build never sees half a copy, and
// it stays where it is, so that the go command's build cache keeps its
// packages built from one build to the next.
func ebitenWithoutFill(src, dst string, patched []byte) error {
	if copyMade(dst, patched) {
		return nil
	}
	parent := filepath.Dir(dst)
	if err := os.MkdirAll(parent, 0o755); err != nil {
		return err
	}
	tmp, err := os.MkdirTemp(parent, "ebiten-")
	if err != nil {
		return err
	}
	defer os.RemoveAll(tmp) // gone once renamed
	err = filepath.WalkDir(src, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(src, path)
		switch {
		case d.IsDir() && rel == "examples": // programs of ebiten's own, which no game imports
			return filepath.SkipDir
		case d.IsDir():
			return os.MkdirAll(filepath.Join(tmp, rel), 0o755)
		case filepath.ToSlash(rel) == canvasFillFile:
			return os.WriteFile(filepath.Join(tmp, rel), patched, 0o644)
		}
		return copyFile(path, filepath.Join(tmp, rel))
	})
	if err != nil {
		return err
	}
	// The rename fails where another build renamed its copy into place
	// first, which serves as well, or where something else is there,
	// which goes.
	if err := os.Rename(tmp, dst); err != nil && !copyMade(dst, patched) {
		if err := os.RemoveAll(dst); err != nil {
			return err
		}
		if err := os.Rename(tmp, dst); err != nil && !copyMade(dst, patched) {
			return err
		}
	}
	return nil
}

// ebitenCopyDir is where ebitenWithoutFill makes its copy.
func ebitenCopyDir() (string, error) {
	cache, err := os.UserCacheDir()
	if err != nil {
		return "", err
	}
	return filepath.Join(cache, "fixedstep", "web", "ebiten@"+canvasFillVersion+"-nofill"), nil
}

// copyMade reports whether dir holds the copy of ebiten without the fill
// (renamed into place whole): its go.mod, and its context.go patched.
func copyMade(dir string, patched []byte) bool {
	data, err := os.ReadFile(filepath.Join(dir, filepath.FromSlash(canvasFillFile)))
	return err == nil && bytes.Equal(data, patched) && fileExists(filepath.Join(dir, "go.mod"))
}

// withoutCanvasFill returns ebiten's context.go with the fill of the canvas
// left out, if src is v2.10.4's.
func withoutCanvasFill(src []byte) ([]byte, bool) {
	sum := sha256.Sum256(src)
	if hex.EncodeToString(sum[:]) != canvasFillSum || bytes.Count(src, []byte(canvasFillIf)) != 1 {
		return nil, false
	}
	return bytes.Replace(src, []byte(canvasFillIf), []byte(canvasFillNever), 1), true
}

func copyFile(src, dst string) error {
	data, err := os.ReadFile(src)
	if err != nil {
		return err
	}
	return os.WriteFile(dst, data, 0o644)
}

func fileExists(path string) bool {
	_, err := os.Stat(path)
	return err == nil
}
