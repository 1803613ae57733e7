// Command demo plays the engine's demo game: a Title menu, the Arena (a
// player, AI agents at 10 Hz, physics props, stars to collect), Results, and
// a Stress test with live per-system timings.
//
//	go run ./cmd/demo                          # in a window
//	go run ./cmd/demo -headless -seconds 10    # no window: a seeded autopilot plays; prints a summary and a checksum
//	go run ./cmd/demo -record run.input        # play, recording; then:
//	go run ./cmd/demo -replay run.input        # the same run again, checked tick by tick
//
// Its command line is cli.App's (-headless, -fps, -seed, -seconds,
// -record, -replay, -screenshot, -cpuprofile, -host, -join, ...) and its
// own: -scene, -bodies, -autopilot, -undying, -churn, -online. Two people play the Arena together
// with -host :7777 on one machine and -join HOST:7777 on the other (each
// with their own keys or pad; -autopilot lets a pilot play for one); two
// to four at one machine with -seats kb1,kb2 (WASD and the arrows; pad0 to
// pad3 for gamepads) or from the Title's Local players (a join screen: a
// key or button pressed takes a seat), each body in its seat's colour. With
// -server URL it plays an online match of the Arena on a game server
// (make server): one found or made for -players, the server's simulation
// authoritative and every tick checked against it.
package main

import (
	"fmt"
	"os"

	"github.com/fixedstep/fixedstep/engine"
	"github.com/fixedstep/fixedstep/engine/cli"
	"github.com/fixedstep/fixedstep/engine/cli/netplaymode"
	"github.com/fixedstep/fixedstep/engine/cli/onlinemode"
	"github.com/fixedstep/fixedstep/engine/window"
	"github.com/fixedstep/fixedstep/scenes"
	"github.com/fixedstep/fixedstep/scenes/arena"
)

func main() {
	online := &onlinemode.Mode{Game: &arena.Spec, FromState: true} // -server: the Arena's matches on a game server
	app := &cli.App{Name: "demo", Window: window.Options{Title: "fixedstep demo", Width: scenes.ArenaWidth,
		Height: scenes.ArenaHeight, ScreenWidth: scenes.ArenaWidth, ScreenHeight: scenes.ArenaHeight, Resizable: true},
		Modes:           []cli.Mode{&netplaymode.Mode{}, online}, // -host, -join, -spectate; -server
		PerPlayer:       []string{"autopilot"},
		MaxSeats:        4,                                               // -seats kb1,kb2: the Arena for two on one keyboard
		RecordedWhenSet: []string{"undying", "churn", "online", "round"}} // newer than the golden recordings
	app.Main(demo(app, online))
}

// demo defines the demo's flags on app and returns its first scene's maker;
// online is its online mode.
func demo(app *cli.App, online *onlinemode.Mode) func() (engine.Scene, error) {
	fs := app.Flags()
	opts := &scenes.Options{Out: os.Stdout} // the Arena's and the Stress scene's reports
	scene := fs.String("scene", "", "the first scene: title, arena or stress (default title; arena headless)")
	fs.IntVar(&opts.Bodies, "bodies", 1000, "bodies in the Stress scene")
	fs.BoolVar(&opts.Autopilot, "autopilot", false, "a seeded autopilot plays the Arena (default on headless)")
	fs.BoolVar(&opts.Undying, "undying", false, "the Arena goes on when the players' health runs out, until its time does")
	fs.IntVar(&opts.Churn, "churn", 0, "props the Arena replaces every second (spawning and despawning)")
	fs.Float64Var(&opts.Round, "round", 0, "an Arena round's length in game seconds, then Results and the Title (0: a minute)")
	onServer := fs.Bool("online", false, "play the Arena as a game server's match does (-server sets it; "+
		"a recording of a match keeps it, and so replays it)")
	return func() (engine.Scene, error) {
		if app.Headless() { // nobody plays: the Arena, for ten seconds, by the autopilot
			app.Default("scene", "arena")
			app.Default("seconds", "10")
			app.Default("autopilot", "true")
			if *scene == "title" && !app.Replaying() && !opts.Autopilot {
				return nil, &cli.FlagError{Flag: "scene", Value: "title", Reason: "needs a window, -autopilot (its menus too) or -replay of a recording"}
			}
		}
		opts.Seed, opts.Player, opts.Seats = app.Seed(), app.Player(), app.Seats()
		if opts.Round == 0 { // -seconds is the Arena's length, and the run ends after it
			opts.Seconds = app.Seconds()
		} // else rounds of -round follow each other, and -seconds stops the run where it is
		if online.Playing() { // the server's match: the Arena with its settings, recorded as flags
			ao, err := arena.OptionsFrom(app.Seed(), online.Settings())
			if err != nil {
				return nil, err
			}
			for name, value := range map[string]string{"online": "true", "undying": fmt.Sprint(ao.Undying), "churn": fmt.Sprint(ao.Churn)} { //detcheck:ok flags set before the game: the order reaches nothing
				if err := fs.Set(name, value); err != nil {
					return nil, err
				}
			}
		}
		if *onServer { // to its end, with the server's rules
			if *scene != "" && *scene != "arena" {
				return nil, &cli.FlagError{Flag: "scene", Value: *scene, Reason: "an online match plays the arena"}
			}
			ao, err := arena.OptionsFrom(app.Seed(), online.Settings()) // the match's length, when it sets one
			if err != nil {
				return nil, err
			}
			*scene, opts.Online, opts.Seconds = "arena", true, ao.Seconds
		}
		if err := opts.Validate(); err != nil {
			return nil, &cli.FlagError{Reason: "-" + err.Error()}
		}
		first, err := scenes.First(*scene, opts)
		if err != nil { // the options are valid: the name is not
			return nil, &cli.FlagError{Flag: "scene", Value: *scene, Reason: err.Error()}
		}
		return first, nil
	}
}
