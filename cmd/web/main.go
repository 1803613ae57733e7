// Command web builds the module's games for a web browser and serves them.
//
//	go run ./cmd/web build [-out web] [package ...]   # each game to WebAssembly, with its page
//	go run ./cmd/web serve [-dir web] [-addr 127.0.0.1:8080]
//
// build compiles each game (GOOS=js GOARCH=wasm) into OUT/NAME/main.wasm
// (and main.wasm.gz), beside OUT/NAME/index.html, the page that runs it, and
// OUT/wasm_exec.js and OUT/play.js, shared by every game; OUT/index.html lists
// the games. It builds a game on ebiten v2.10.4 against a copy of ebiten
// without its opaque black fill of the canvas before each frame, which a
// browser does not need and which costs a pass over every pixel where
// WebGL draws in software (canvasfill.go; the game's go.mod is left as it
// is). With no packages it builds every main package of the current
// module that imports the engine's engine/window: every game of the module
// that draws, and none of its tools. A game in a module of its own builds
// from there: go run github.com/fixedstep/fixedstep/cmd/web build.
//
// serve serves OUT over HTTP (the .wasm gzipped to browsers that take it),
// on the loopback address unless told otherwise, and prints each game's URL.
//
// In the page, the query string is the game's command line: each parameter
// NAME=VALUE becomes the flag -NAME=VALUE, and a parameter with no value
// (?autopilot) becomes -NAME. So http://127.0.0.1:8080/demo/?scene=arena&autopilot&seconds=10&seed=3
// runs the demo as `demo -scene=arena -autopilot -seconds=10 -seed=3`, and
// http://127.0.0.1:8080/demo/?server=http://127.0.0.1:7350&players=2 plays a
// match of two on that game server (make server), as the native -server
// does: the page reaches the server through the browser's fetch and
// WebSocket, from any origin. What
// the game prints goes to the browser's console and, when it exits, onto
// the page. Files it writes (a recording, a screenshot, a profile) become
// downloads when it closes them; it cannot read files.
package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
)

func main() {
	if err := run(os.Args[1:], os.Stdout, os.Stderr); errors.Is(err, flag.ErrHelp) {
		return // the flag package printed the usage
	} else if err != nil {
		fmt.Fprintln(os.Stderr, "web:", err)
		os.Exit(1)
	}
}

const usage = `usage:
  web build [-out DIR] [package ...]   build games to WebAssembly with their pages (default: every game of the module)
  web serve [-dir DIR] [-addr HOST:PORT]  serve DIR over HTTP`

// run runs the subcommand args name, writing its progress to out.
func run(args []string, out, errOut io.Writer) error {
	if len(args) == 0 {
		return fmt.Errorf("no subcommand\n%s", usage)
	}
	fs := flag.NewFlagSet("web "+args[0], flag.ContinueOnError)
	fs.SetOutput(errOut)
	switch args[0] {
	case "build":
		dir := fs.String("out", "web", "directory to write the games and their pages to")
		if err := fs.Parse(args[1:]); err != nil {
			return err
		}
		games, err := build(*dir, fs.Args()...)
		for _, g := range games {
			fmt.Fprintf(out, "%s: %s (%s, %s gzipped)\n", g.Pkg, g.Wasm, megabytes(g.Size), megabytes(g.GzipSize))
			if g.Filled != "" {
				fmt.Fprintf(out, "%s: %s\n", g.Pkg, g.Filled)
			}
		}
		return err
	case "serve":
		dir := fs.String("dir", "web", "directory `web build` wrote")
		addr := fs.String("addr", "127.0.0.1:8080", "address to listen on (port 0: any free port)")
		if err := fs.Parse(args[1:]); err != nil {
			return err
		}
		return serve(*addr, *dir, out)
	}
	return fmt.Errorf("unknown subcommand %q\n%s", args[0], usage)
}

func megabytes(n int64) string { return fmt.Sprintf("%.1f MB", float64(n)/1e6) }
