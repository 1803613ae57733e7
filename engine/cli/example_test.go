package cli_test

import (
	"fmt"

	"github.com/fixedstep/fixedstep/engine"
	"github.com/fixedstep/fixedstep/engine/cli"
)

// A game's main on the App: a flag of its own, the standard ones, and a
// summary that ends with the run's checksum (the scene's state checksum
// after every tick, 2, 4, ... 120, chained with its name and the ticks:
// InputLog.RunChecksum). Main would parse os.Args and
// exit; Run takes the arguments and returns (here: headless, one second of
// game time).
func ExampleApp() {
	app := &cli.App{Name: "counter"}
	step := app.Flags().Int("step", 1, "how much a tick adds") // the game's own flag, recorded
	first := func() (engine.Scene, error) {
		return engine.NewScene("Count", func(loop *engine.Loop) (engine.Scene, error) {
			n := 0
			loop.SetChecksum(func() uint64 { return uint64(n) }) // the game state, for recordings
			for ev := range loop.Events() {
				if ev.Kind == engine.Update {
					n += *step
				}
			}
			return nil, loop.Err()
		}), nil
	}
	err := app.Run([]string{"-headless", "-seconds", "1", "-step", "2"}, first)
	fmt.Println("err:", err)
	// Output:
	// run: 1 scenes (Count), 60 ticks
	// checksum 876f4c4a8a572283
	// err: <nil>
}
