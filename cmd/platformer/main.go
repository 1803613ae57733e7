// Command platformer is a platform game on the engine's pieces: levels
// made in Tiled (package systems/level), a character run by the side-view
// controller (systems/sideview), a camera that follows it (systems/camera),
// one-way platforms (systems/physics), a lift and the genre's rules
// (sideview.Mover, sideview.Rules). A Title, then the levels (stars to
// collect, enemies to jump on or avoid, a lift that crushes what it comes
// down on, a checkpoint, the exit at the far end), then the Results, and
// back to the Title.
//
//	go run ./cmd/platformer                        # in a window: Enter to start, arrows or A/D, Space or Up to jump
//	go run ./cmd/platformer -headless -seconds 60  # no window: the autopilot plays; a summary, then "checksum X"
//	go run ./cmd/platformer -record run.input      # play, recording; -replay run.input plays it again, checked
//
// Its command line is cli.App's (-headless, -fps, -seed, -seconds, -record,
// -replay, -save, -load, -synctest, ...) and its own: -autopilot and
// -lives. Headless, unless replaying, the autopilot plays for 60 s. Down
// with Jump drops through a plank. The dev keys (F3, F4, P, period, comma,
// [ and ], F11, F12) are the Stage's.
//
// The hero is animated from an Aseprite sheet (systems/anim): standing,
// running, jumping; jumps, stars, stomps, hurts and the exit blip
// (systems/sound: synthesized tones, taken on ticks, counted in the
// summary), over a looping tune. It plays in a browser too (make web).
//
// Size: 427 lines in main.go, play.go and screens.go (gofmt'd, comments and
// blank lines included), of which 51 (11.9%) are plumbing, lines a game would
// not write if the engine did them:
//
//   - 4 in main.go: the headless defaults;
//   - 8 in screens.go: colours kept as color.Color so that drawing text
//     does not allocate (2), hooking up the autopilot (6); the screens
//     are menu.Screen values (package systems/menu), their words and
//     what follows them;
//   - 39 in play.go: embedding the data (5), loading and releasing the
//     level (5) and the hero's sheet (5, and 1 naming its frames for the
//     state as bytes), adding the level's tile layers'
//     render systems (3), the sound system (4), the state outside the
//     world declared for snapshots and -synctest (stage.Keep, 2), hooking
//     up the autopilot (3), the HUD's text cache (5), handing up the
//     errors of the lift's typed properties (6).
//
// Every look is fitted to its body: the hero's frame and the enemies'
// creature stand on their boxes' bottoms and the stars fill their circles
// (gfx.Sprite.Fitted), the lift, checkpoints and exit are their boxes
// filled (Stage.Fill). No sprite is sized by hand (before: two lines
// scaling the creature by eye, 0.6, which sank it into the ground, and
// three rectangles sized again from their objects).
//
// The genre's rules are the engine's (sideview.Rules: the stomp with its
// bounce, a hurt with knockback and invulnerable ticks, lives, the
// checkpoint and the respawn there, the kill plane below the level, stars
// as pickups, a crush costing a life): the game lists them in two lines
// and reads what happened in sideview.Hero.Events (its sounds, the end of
// a game). Genre code left to it: the lift's spawn from its Tiled object
// (sideview.MoverFrom, then a kinematic box: 5 lines a helper could own).
// The enemies' patrol, the hero's clips and what the autopilot sees ahead
// are the engine's (sideview.Patrol, sideview.Looks, sideview.Ahead); the
// autopilot's policy (run right, jump at what it sees) is the game's.
package main

import (
	"fmt"

	"github.com/fixedstep/fixedstep/engine"
	"github.com/fixedstep/fixedstep/engine/cli"
	"github.com/fixedstep/fixedstep/engine/cli/netplaymode"
	"github.com/fixedstep/fixedstep/engine/window"
)

// The screen, in pixels; the camera shows the world at twice that.
const width, height = 640, 360

func main() {
	app := &cli.App{Name: "platformer", Window: window.Options{Title: "fixedstep platformer",
		Width: width, Height: height, ScreenWidth: width, ScreenHeight: height},
		Modes: []cli.Mode{&netplaymode.Mode{}}} // -host, -join: two play on two machines
	app.Main(platformer(app))
}

// Settings are the game's own flags, handed from scene to scene.
type Settings struct {
	Autopilot  bool
	StartLives int // at the start of a game
}

// platformer defines the game's flags on app and returns its first scene's
// maker.
func platformer(app *cli.App) func() (engine.Scene, error) {
	var s Settings
	app.Flags().BoolVar(&s.Autopilot, "autopilot", false, "the autopilot plays: starts games, runs and jumps (default on headless)")
	app.Flags().IntVar(&s.StartLives, "lives", 3, "lives at the start of a game")
	return func() (engine.Scene, error) {
		if app.Headless() {
			app.Default("autopilot", "true")
			app.Default("seconds", "60")
		}
		if s.StartLives < 1 || s.StartLives > 99 {
			return nil, &cli.FlagError{Flag: "lives", Value: fmt.Sprint(s.StartLives), Reason: "must be 1 to 99"}
		}
		return &Title{Settings: s}, nil
	}
}
