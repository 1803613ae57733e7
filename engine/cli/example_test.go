package cli_test

import (
	"fmt"
	"io"

	"github.com/fixedstep/fixedstep/engine"
	"github.com/fixedstep/fixedstep/engine/cli"
	"github.com/fixedstep/fixedstep/engine/cli/netplaymode"
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
			loop.Recording().SetChecksum(func() uint64 { return uint64(n) }) // the game state, for recordings
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

// A game that two can play on two machines lists networked play among its
// modes: -host and -join are then its flags (two processes: `game -host
// :7777` and `game -join HOST:7777`; App.Player says which player this
// one is). Online play is another mode (onlinemode.Mode, -server), which
// this game does not list: it has no -server flag, and links no Nakama
// client. Played alone, it runs as any game does.
func ExampleApp_modes() {
	app := &cli.App{Name: "pong", Modes: []cli.Mode{&netplaymode.Mode{}}, Err: io.Discard}
	first := func() (engine.Scene, error) {
		return engine.NewScene("Rally", func(loop *engine.Loop) (engine.Scene, error) {
			ticks := uint64(0)
			loop.Recording().SetChecksum(func() uint64 { return ticks })
			for ev := range loop.Events() {
				if ev.Kind == engine.Update {
					ticks += uint64(len(ev.Players)) // every player's input, each tick: one here
				}
			}
			return nil, loop.Err()
		}), nil
	}
	fmt.Println("player", app.Player())
	fmt.Println("err:", app.Run([]string{"-headless", "-seconds", "0.5"}, first))
	fmt.Println("err:", app.Run([]string{"-server", "http://127.0.0.1:7350"}, first))
	// Output:
	// player 0
	// run: 1 scenes (Rally), 30 ticks
	// checksum 508fc145aa35e983
	// err: <nil>
	// err: flag provided but not defined: -server
}
