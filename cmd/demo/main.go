// Command demo runs the engine's demo: a chain of two scenes, in a window or
// headless.
//
//	go run ./cmd/demo                       # in a window
//	go run ./cmd/demo -headless -seconds 10 # no window: prints a summary per scene
package main

import (
	"flag"
	"fmt"
	"os"
)

func main() {
	var cfg config
	flag.BoolVar(&cfg.headless, "headless", false, "run without a window, as fast as possible at a virtual frame rate")
	flag.BoolVar(&cfg.realtime, "realtime", false, "headless at the speed of the real clock")
	flag.Float64Var(&cfg.seconds, "seconds", 0, "game seconds per scene (0: until Space/Esc in a window, 5 headless)")
	flag.Float64Var(&cfg.fps, "fps", 60, "virtual frame rate when headless")
	flag.Uint64Var(&cfg.seed, "seed", 1, "random seed")
	flag.StringVar(&cfg.screenshot, "screenshot", "", "save the last of -frames frames drawn in the window to this PNG, then exit")
	flag.IntVar(&cfg.frames, "frames", 120, "frames to run before the -screenshot")
	flag.Parse()
	if err := run(cfg, os.Stdout); err != nil {
		fmt.Fprintln(os.Stderr, "demo:", err)
		os.Exit(1)
	}
}
