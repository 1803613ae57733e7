// Command breakout is Breakout on the engine: a Title, then Play (a paddle,
// a ball, a wall of bricks that creeps down every 15 seconds, power-ups that
// fall from it), then Game over with the score, and back to the Title.
//
//	go run ./cmd/breakout                          # in a window: Enter to start, arrows or A/D, Space to serve
//	go run ./cmd/breakout -headless -seconds 30    # no window: the autopilot plays; a summary, then "checksum X"
//	go run ./cmd/breakout -record run.input        # play, recording; then:
//	go run ./cmd/breakout -replay run.input        # the same run again, checked tick by tick
//
// Its command line is cli.App's (-headless, -fps, -seed, -seconds,
// -record, -replay, -screenshot, -frames, -cpuprofile) and its own:
// -autopilot and -lives. Headless, unless replaying, the autopilot plays
// (from the Title: games, game over, the next game) for 60 s, unless
// -autopilot=false or -seconds say otherwise. The dev keys (F3, P, period,
// [ and ], F11, F12) are the Stage's.
//
// Physics is cp at 60 Hz: the ball is a dynamic circle that bounces off
// static walls and bricks and a kinematic paddle, its speed held constant
// after every step. A second group, "wall" at 10 Hz, moves the bricks down and
// drops power-ups. Sprites come from the embedded atlas and are drawn
// interpolated by render.Sprites.
//
// Size: 592 lines in main.go, play.go and screens.go (gofmt'd, comments and
// blank lines included), of which 53 are plumbing, lines a game would not
// write if the engine did them:
//
//   - 4 in main.go: the headless defaults;
//   - 8 in screens.go: colours kept as color.Color so that drawing text
//     does not allocate (2), hooking up the autopilot (6); the screens
//     are menu.Screen values (package systems/menu), their words and
//     what follows them;
//   - 41 in play.go: queries, reusable buffers and closures for iterating
//     and removing entities without allocating (20), the HUD's text cache
//     (5), hooking up the autopilot (4), a note on the serve's height (2),
//     and the game's state outside the world declared for snapshots and
//     -synctest (stage.Keep, 10).
//
// The rest is the game: its rules, layout, screens, autopilot and summary.
package main

import (
	"fmt"

	"github.com/fixedstep/fixedstep/engine"
	"github.com/fixedstep/fixedstep/engine/cli"
	"github.com/fixedstep/fixedstep/engine/cli/netplaymode"
	"github.com/fixedstep/fixedstep/engine/input"
	"github.com/fixedstep/fixedstep/engine/window"
)

// The screen, in pixels (world units).
const width, height = 640, 480

func main() {
	app := &cli.App{Name: "breakout", Window: window.Options{Title: "fixedstep breakout",
		Width: width, Height: height, ScreenWidth: width, ScreenHeight: height},
		Modes: []cli.Mode{&netplaymode.Mode{}}} // -host, -join: two play on two machines
	app.Main(breakout(app))
}

// Settings are the game's own flags, handed from scene to scene.
type Settings struct {
	Seed      uint64
	Autopilot bool
	Lives     int
}

// breakout defines the game's flags on app and returns its first scene's maker.
func breakout(app *cli.App) func() (engine.Scene, error) {
	fs := app.Flags()
	var s Settings
	fs.BoolVar(&s.Autopilot, "autopilot", false, "the autopilot plays: starts games, moves the paddle, serves (default on headless)")
	fs.IntVar(&s.Lives, "lives", 3, "balls at the start of a game")
	return func() (engine.Scene, error) {
		if app.Headless() { // nobody at the keys: the autopilot plays for a minute
			app.Default("autopilot", "true")
			app.Default("seconds", "60")
		}
		if s.Lives < 1 || s.Lives > 99 {
			return nil, &cli.FlagError{Flag: "lives", Value: fmt.Sprint(s.Lives), Reason: "must be 1 to 99"}
		}
		s.Seed = app.Seed()
		return &Title{Settings: s}, nil
	}
}

// started reports whether the tick's input starts something: Enter, Space,
// or the gamepad's bottom face button.
func started(in *input.State) bool {
	return in.KeyPressed(input.KeyEnter) || in.KeyPressed(input.KeySpace) ||
		in.GamepadPressed(0, input.GamepadRightBottom)
}
