package main

import (
	"bytes"
	"compress/gzip"
	"embed"
	"encoding/json"
	"errors"
	"fmt"
	"html/template"
	"io"
	"os"
	"os/exec"
	"path"
	"path/filepath"
	"slices"
	"strings"
)

// static holds the pages and the script that runs a game in the browser.
//
//go:embed static
var static embed.FS

var pages = template.Must(template.ParseFS(static, "static/*.html"))

// game is one game built for the browser.
type game struct {
	Pkg            string // import path
	Name           string // its directory in the output: the last element of Pkg
	Wasm           string // the path of its main.wasm
	Size, GzipSize int64  // of main.wasm, in bytes, and gzipped
	// Filled says why the game fills the canvas before each frame
	// (canvasfill.go): "" when it was built without that fill.
	Filled string
}

// build compiles the main packages that patterns name (every game under the
// module's cmd/ when there are none) to WebAssembly into out, with their
// pages, and returns what it built. It stops at the first package that fails
// to build, returning the games built before it.
func build(out string, patterns ...string) ([]game, error) {
	pkgs, err := gamePackages(patterns)
	if err != nil {
		return nil, err
	}
	if err := os.MkdirAll(out, 0o755); err != nil {
		return nil, err
	}
	if err := copyWasmExec(out); err != nil {
		return nil, err
	}
	script, err := static.ReadFile("static/play.js")
	if err != nil {
		return nil, err
	}
	if err := os.WriteFile(filepath.Join(out, "play.js"), script, 0o644); err != nil {
		return nil, err
	}
	var games []game
	for _, pkg := range pkgs {
		g, err := buildGame(out, pkg)
		if err != nil {
			return games, err
		}
		games = append(games, g)
	}
	return games, writePage(filepath.Join(out, "index.html"), "index.html", games)
}

// buildGame compiles one main package into out/NAME/ with its page.
func buildGame(out, pkg string) (game, error) {
	g := game{Pkg: pkg, Name: path.Base(pkg)}
	dir := filepath.Join(out, g.Name)
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return g, err
	}
	g.Wasm = filepath.Join(dir, "main.wasm")
	tmp, err := os.MkdirTemp("", "web-build-")
	if err != nil {
		return g, err
	}
	defer os.RemoveAll(tmp)
	modFile, why, err := canvasFillModFile(pkg, tmp)
	if err != nil {
		return g, err
	}
	args := []string{"build", "-o", g.Wasm}
	if g.Filled = why; modFile != "" {
		args = append(args, "-modfile", modFile)
	}
	cmd := exec.Command("go", append(args, pkg)...)
	cmd.Env = append(os.Environ(), "GOOS=js", "GOARCH=wasm")
	if msg, err := cmd.CombinedOutput(); err != nil {
		return g, fmt.Errorf("GOOS=js GOARCH=wasm go build %s: %v\n%s", pkg, err, msg)
	}
	wasm, err := os.ReadFile(g.Wasm)
	if err != nil {
		return g, err
	}
	var gz bytes.Buffer
	zw, _ := gzip.NewWriterLevel(&gz, gzip.BestCompression)
	zw.Write(wasm)
	if err := zw.Close(); err != nil {
		return g, err
	}
	if err := os.WriteFile(g.Wasm+".gz", gz.Bytes(), 0o644); err != nil {
		return g, err
	}
	g.Size, g.GzipSize = int64(len(wasm)), int64(gz.Len())
	return g, writePage(filepath.Join(dir, "index.html"), "game.html", g)
}

func writePage(file, name string, data any) error {
	var b bytes.Buffer
	if err := pages.ExecuteTemplate(&b, name, data); err != nil {
		return err
	}
	return os.WriteFile(file, b.Bytes(), 0o644)
}

// windowPkg is the engine's window package: a main package that imports it
// is a game that draws.
const windowPkg = "github.com/fixedstep/fixedstep/engine/window"

// gamePackages lists the import paths of the main packages patterns name,
// for GOOS=js. With no patterns: the current module's main packages that
// import the engine's window package (the games that draw; the tools and
// the headless programs on the simulation core do not), the engine's own
// or a game's in a module of its own.
func gamePackages(patterns []string) ([]string, error) {
	mod, err := goCmd("list", "-m")
	if err != nil {
		return nil, err
	}
	mod = strings.TrimSpace(mod)
	auto := len(patterns) == 0
	if auto {
		patterns = []string{mod + "/..."}
	}
	// -e: a command that does not build for GOOS=js at all (its files all
	// excluded by build constraints) is a native tool, not a game: skipped
	// when looking for games, an error when named.
	list, err := goCmd(append([]string{"list", "-e", "-json=ImportPath,Name,Error,Deps"}, patterns...)...)
	if err != nil {
		return nil, err
	}
	var pkgs []string
	for dec := json.NewDecoder(strings.NewReader(list)); ; {
		var p struct {
			ImportPath, Name string
			Error            *struct{ Err string }
			Deps             []string
		}
		if err := dec.Decode(&p); err == io.EOF {
			break
		} else if err != nil {
			return nil, fmt.Errorf("go list: %w", err)
		}
		switch {
		case p.Error != nil && auto && strings.Contains(p.Error.Err, "build constraints exclude all Go files"):
		case p.Error != nil:
			return nil, fmt.Errorf("%s: %s", p.ImportPath, p.Error.Err)
		case auto && p.Name == "main" && slices.Contains(p.Deps, windowPkg):
			pkgs = append(pkgs, p.ImportPath)
		case !auto && p.Name != "main":
			return nil, fmt.Errorf("%s is package %s, not a command (package main)", p.ImportPath, p.Name)
		case !auto:
			pkgs = append(pkgs, p.ImportPath)
		}
	}
	if len(pkgs) == 0 {
		return nil, fmt.Errorf("no game to build in %s (a game is a main package that imports %s; name its package to build another)",
			strings.Join(patterns, " "), windowPkg)
	}
	return pkgs, nil
}

// goCmd runs the go command for GOOS=js GOARCH=wasm and returns its output.
func goCmd(args ...string) (string, error) {
	cmd := exec.Command("go", args...)
	cmd.Env = append(os.Environ(), "GOOS=js", "GOARCH=wasm")
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		return "", fmt.Errorf("go %s: %v\n%s", strings.Join(args, " "), err, stderr.Bytes())
	}
	return string(out), nil
}

// copyWasmExec copies the installed Go's wasm_exec.js, the glue between the
// browser and a program built for GOOS=js, into out. It must come from the
// Go that built the .wasm: the two change together.
func copyWasmExec(out string) error {
	root, err := goCmd("env", "GOROOT")
	if err != nil {
		return err
	}
	root = strings.TrimSpace(root)
	for _, dir := range []string{"lib/wasm", "misc/wasm"} { // Go 1.24 moved it from misc/ to lib/
		data, err := os.ReadFile(filepath.Join(root, dir, "wasm_exec.js"))
		if errors.Is(err, os.ErrNotExist) {
			continue
		}
		if err != nil {
			return err
		}
		return os.WriteFile(filepath.Join(out, "wasm_exec.js"), data, 0o644)
	}
	return fmt.Errorf("no wasm_exec.js in %s/lib/wasm or %s/misc/wasm", root, root)
}
