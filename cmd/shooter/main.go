// Command shooter is a top-down twin-stick shooter on the engine's pieces:
// one to four ships, each moved with one stick (or WASD, the arrows) and
// aimed with the other (or I J K L, or the mouse: systems/aim), firing
// pooled shots (systems/shoot) at waves of drones that find their way round
// the walls (systems.AI with a path.Router's flow field) and hurt a ship
// they press against, every tick they touch it (physics.OnTouch, through
// systems/health: damage, invulnerable ticks, knockback). A Title, then
// Play (waves, each player's score and health), then the Results, and back
// to the Title.
//
//	go run ./cmd/shooter                          # in a window: Enter to start, WASD or arrows move, IJKL or the mouse aim, Space or the left button fires
//	go run ./cmd/shooter -seats kb1,kb2           # two at one keyboard (each seat in its colour)
//	go run ./cmd/shooter -headless -seconds 60    # no window: the autopilot plays; a summary, then "checksum X"
//	go run ./cmd/shooter -host :7777 -players 2   # netplay; the others -join HOST:7777
//
// Its command line is cli.App's (-headless, -fps, -seed, -seconds, -record,
// -replay, -synctest, -seats, -host, -join, ...) and its own: -autopilot
// and -hp. Headless, unless replaying, the autopilot plays for 60 s.
//
// Size: 557 lines in main.go, play.go and screens.go (gofmt'd, comments and
// blank lines included), of which 45 (8.1%) are plumbing, lines a game
// would not write if the engine did them:
//
//   - 4 in main.go: the headless defaults;
//   - 8 in screens.go: colours kept as color.Color so that drawing text
//     does not allocate (2), hooking up the autopilot (6);
//   - 33 in play.go: queries, reusable closures and method values for
//     iterating the ships and queueing removals and the next wave without
//     allocating (14), the HUD's text cache (6), the game's state outside
//     the world declared for snapshots, -synctest and rollback (stage.Keep,
//     8), hooking up the autopilot (5).
//
// Genre code left to the game, 40 lines in play.go that the kit could
// own: a shot's Hit dealt as damage to a Health with knockback along the
// shot (shoot and health do not meet by themselves: 9); a touching
// contact dealt as damage every tick (5); a wall block as a closed
// rectangle of SpawnWalls (physics has no box outline: 5); the autopilot's
// nearest-target search and its keys held along a vector, eight ways (21).
//
// The rest is the game's rules, arena, screens, HUD and the autopilot's
// policy (aim at the nearest drone and fire; back off when it comes close,
// but stand its ground one stretch in three, so that games end). Removals
// and the next wave are queued from inside queries through the scheduler's
// engine.Commands, made when the system returns.
package main

import (
	"fmt"

	"github.com/fixedstep/fixedstep/engine"
	"github.com/fixedstep/fixedstep/engine/cli"
	"github.com/fixedstep/fixedstep/engine/cli/netplaymode"
	"github.com/fixedstep/fixedstep/engine/input"
	"github.com/fixedstep/fixedstep/engine/window"
)

// The screen, in pixels (world units): the arena fills it.
const width, height = 640, 480

func main() {
	app := &cli.App{Name: "shooter", Window: window.Options{Title: "fixedstep shooter",
		Width: width, Height: height, ScreenWidth: width, ScreenHeight: height},
		MaxSeats: 4,                               // -seats kb1,kb2: two to four at one machine
		Modes:    []cli.Mode{&netplaymode.Mode{}}} // -host, -join: two to four on their own machines
	app.Main(shooter(app))
}

// Settings are the game's own flags and the run's players, handed from
// scene to scene.
type Settings struct {
	Seed      uint64
	Autopilot bool
	HP        int         // each ship's health at the start
	Seats     input.Seats // -seats: several at one machine
	Player    int         // this machine's player in a networked run
}

// shooter defines the game's flags on app and returns its first scene's
// maker.
func shooter(app *cli.App) func() (engine.Scene, error) {
	var s Settings
	app.Flags().BoolVar(&s.Autopilot, "autopilot", false, "the autopilot plays: starts games, moves, aims and fires (default on headless)")
	app.Flags().IntVar(&s.HP, "hp", 5, "each ship's health at the start of a game")
	return func() (engine.Scene, error) {
		if app.Headless() {
			app.Default("autopilot", "true")
			app.Default("seconds", "60")
		}
		if s.HP < 1 || s.HP > 99 {
			return nil, &cli.FlagError{Flag: "hp", Value: fmt.Sprint(s.HP), Reason: "must be 1 to 99"}
		}
		s.Seed, s.Seats, s.Player = app.Seed(), app.Seats(), max(app.Player(), 0)
		return &Title{Settings: s}, nil
	}
}

// started reports whether the tick's input starts something: Enter, or the
// gamepad's bottom face button (Space fires).
func started(in *input.State) bool {
	return in.KeyPressed(input.KeyEnter) || in.GamepadPressed(0, input.GamepadRightBottom)
}
