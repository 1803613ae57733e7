// Command arenafps plays the demo's Arena with the seeded autopilot for
// -seconds game seconds in a window (a canvas in a browser page) and prints
// the Arena's report: game time and frames drawn, ticks, time dropped or
// clamped, and each system's timings. BenchmarkArenaFrameRate builds it
// natively and for the browser and reads the frame rate from the report.
package main

import (
	"flag"
	"fmt"
	"os"

	"github.com/fixedstep/fixedstep/engine/window"
	"github.com/fixedstep/fixedstep/scenes"
)

func main() {
	seconds := flag.Float64("seconds", 10, "game seconds the Arena plays")
	seed := flag.Uint64("seed", 1, "the random seed")
	flag.Parse()
	first, err := scenes.First("arena", &scenes.Options{Seed: *seed, Seconds: *seconds, Autopilot: true, Out: os.Stdout})
	if err == nil {
		err = window.Run(first, nil, &window.Options{Title: "arenafps",
			Width: scenes.ArenaWidth, Height: scenes.ArenaHeight,
			ScreenWidth: scenes.ArenaWidth, ScreenHeight: scenes.ArenaHeight})
	}
	if err != nil {
		fmt.Fprintln(os.Stderr, "arenafps:", err)
		os.Exit(1)
	}
}
