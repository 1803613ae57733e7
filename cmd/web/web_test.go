package main

import (
	"bytes"
	"compress/gzip"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// demoPkg is the demo, the game the tests build.
const demoPkg = "github.com/fixedstep/fixedstep/cmd/demo"

// platformerPkg is the platformer, which the browser tests play too.
const platformerPkg = "github.com/fixedstep/fixedstep/cmd/platformer"

// Without packages, build takes every main package of the module that
// imports the window package: the games that draw, not the tools nor the
// headless programs.
func TestGamePackagesFindsTheGames(t *testing.T) {
	pkgs, err := gamePackages(nil)
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Contains(pkgs, demoPkg) {
		t.Errorf("games %v: no %s", pkgs, demoPkg)
	}
	for _, tool := range []string{"github.com/fixedstep/fixedstep/cmd/web", "github.com/fixedstep/fixedstep/cmd/benchtable",
		"github.com/fixedstep/fixedstep/cmd/bounce"} {
		if slices.Contains(pkgs, tool) {
			t.Errorf("games %v: the tool %s is not a game", pkgs, tool)
		}
	}
	if _, err := gamePackages([]string{"github.com/fixedstep/fixedstep/engine"}); err == nil ||
		!strings.Contains(err.Error(), "not a command") {
		t.Errorf("a library package: %v, want an error saying it is not a command", err)
	}
	if _, err := gamePackages([]string{"github.com/fixedstep/fixedstep/cmd/nosuchgame"}); err == nil ||
		!strings.Contains(err.Error(), "nosuchgame") {
		t.Errorf("a missing package: %v, want an error naming it", err)
	}
}

// The handler sends a .wasm gzipped, with the WebAssembly content type, to
// a client that takes gzip, and as it is to one that does not; pages are
// not cached.
func TestHandlerServesWasmGzipped(t *testing.T) {
	dir := t.TempDir()
	wasm := []byte("\x00asm\x01\x00\x00\x00 a module's bytes")
	var gz bytes.Buffer
	zw := gzip.NewWriter(&gz)
	zw.Write(wasm)
	zw.Close()
	os.MkdirAll(filepath.Join(dir, "game"), 0o755)
	os.WriteFile(filepath.Join(dir, "game", "main.wasm"), wasm, 0o644)
	os.WriteFile(filepath.Join(dir, "game", "main.wasm.gz"), gz.Bytes(), 0o644)
	os.WriteFile(filepath.Join(dir, "game", "index.html"), []byte("<!doctype html>page"), 0o644)
	srv := httptest.NewServer(handler(dir))
	defer srv.Close()

	get := func(path, enc string) *http.Response {
		req, _ := http.NewRequest("GET", srv.URL+path, nil)
		req.Header.Set("Accept-Encoding", enc) // set: the client does not decompress on its own
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { resp.Body.Close() })
		return resp
	}
	resp := get("/game/main.wasm", "br, gzip;q=0.8")
	body, _ := io.ReadAll(resp.Body)
	if resp.StatusCode != 200 || resp.Header.Get("Content-Encoding") != "gzip" ||
		resp.Header.Get("Content-Type") != "application/wasm" || !bytes.Equal(body, gz.Bytes()) {
		t.Errorf("gzip: %s, Content-Encoding %q, Content-Type %q, %d bytes", resp.Status,
			resp.Header.Get("Content-Encoding"), resp.Header.Get("Content-Type"), len(body))
	}
	for _, enc := range []string{"identity", "gzip;q=0"} {
		resp = get("/game/main.wasm", enc)
		body, _ = io.ReadAll(resp.Body)
		if resp.Header.Get("Content-Encoding") != "" || resp.Header.Get("Content-Type") != "application/wasm" ||
			!bytes.Equal(body, wasm) {
			t.Errorf("Accept-Encoding %s: Content-Encoding %q, Content-Type %q, %d bytes", enc,
				resp.Header.Get("Content-Encoding"), resp.Header.Get("Content-Type"), len(body))
		}
	}
	resp = get("/game/", "gzip")
	body, _ = io.ReadAll(resp.Body)
	if resp.StatusCode != 200 || string(body) != "<!doctype html>page" || resp.Header.Get("Cache-Control") != "no-cache" {
		t.Errorf("page: %s, Cache-Control %q, %q", resp.Status, resp.Header.Get("Cache-Control"), body)
	}
	if resp = get("/nothing.wasm", "gzip"); resp.StatusCode != 404 {
		t.Errorf("a missing .wasm: %s", resp.Status)
	}
}

// serve refuses a directory with no games in it, and says how to build them.
func TestServeWithoutGamesSaysBuild(t *testing.T) {
	err := run([]string{"serve", "-dir", t.TempDir(), "-addr", "127.0.0.1:0"}, io.Discard, io.Discard)
	if err == nil || !strings.Contains(err.Error(), "make web") {
		t.Fatalf("got %v, want an error naming make web", err)
	}
	if err := run([]string{"frobnicate"}, io.Discard, io.Discard); err == nil || !strings.Contains(err.Error(), "usage") {
		t.Fatalf("unknown subcommand: %v", err)
	}
}

// Run in a game's module of its own, build without packages finds the
// module's games (here at its root), and not its tools.
func TestGamePackagesInAModuleOfItsOwn(t *testing.T) {
	inGameModule(t)
	pkgs, err := gamePackages(nil)
	if err != nil || !slices.Equal(pkgs, []string{"example.com/mygame"}) {
		t.Fatalf("games %v (%v); want example.com/mygame alone", pkgs, err)
	}
}

// inGameModule makes a game's module of its own, which requires the
// engine (replaced by this checkout, by a path relative to the module, as
// a game beside the engine would), and makes it the current directory. It
// returns the checkout's directory.
func inGameModule(t *testing.T) (engine string) {
	t.Helper()
	engine, err := filepath.Abs("../..")
	if err != nil {
		t.Fatal(err)
	}
	sum, err := os.ReadFile(filepath.Join(engine, "go.sum"))
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	rel, err := filepath.Rel(dir, engine)
	if err != nil {
		t.Fatal(err)
	}
	files := map[string]string{
		"go.mod":       "module example.com/mygame\n\ngo 1.26\n\nrequire github.com/fixedstep/fixedstep v0.0.0\n\nreplace github.com/fixedstep/fixedstep => " + rel + "\n",
		"go.sum":       string(sum),
		"main.go":      "package main\n\nimport _ \"" + windowPkg + "\"\n\nfunc main() {}\n",
		"tool/main.go": "package main\n\nfunc main() {}\n",
	}
	for name, text := range files {
		if err := os.MkdirAll(filepath.Dir(filepath.Join(dir, name)), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dir, name), []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	t.Chdir(dir)
	t.Setenv("GOFLAGS", "-mod=mod") // the engine's requirements, as go mod tidy would add them
	return engine
}
