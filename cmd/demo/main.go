// Command demo plays the engine's demo game: a Title menu, the Arena (a
// player, AI agents at 10 Hz, physics props, stars to collect), Results, and
// a Stress test with live per-system timings.
//
//	go run ./cmd/demo                          # in a window
//	go run ./cmd/demo -headless -seconds 10    # no window: a seeded autopilot plays; prints a summary and a checksum
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
	flag.Float64Var(&cfg.seconds, "seconds", 0, "game seconds the Arena or Stress scene lasts, then exit (headless default 10)")
	flag.Float64Var(&cfg.fps, "fps", 60, "virtual frame rate, headless")
	flag.Uint64Var(&cfg.seed, "seed", 1, "random seed")
	flag.StringVar(&cfg.scene, "scene", "", "first scene: title, arena or stress (headless default arena)")
	flag.IntVar(&cfg.bodies, "bodies", 1000, "bodies in the Stress scene")
	flag.StringVar(&cfg.record, "record", "", "record every tick's input to this file")
	flag.StringVar(&cfg.replay, "replay", "", "replay the input recorded in this file (its seed too), checking the state every tick")
	flag.StringVar(&cfg.screenshot, "screenshot", "", "save the last of -frames frames drawn in the window to this PNG, then exit")
	flag.IntVar(&cfg.frames, "frames", 120, "frames to run before the -screenshot")
	flag.StringVar(&cfg.cpuprofile, "cpuprofile", "", "write a CPU profile to this file")
	flag.Parse()
	if err := run(cfg, os.Stdout); err != nil {
		fmt.Fprintln(os.Stderr, "demo:", err)
		os.Exit(1)
	}
}
