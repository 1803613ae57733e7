// Package engine is the core of an entity-component-system game engine: a
// fixed-step game loop handed from scene to scene, a multi-rate scheduler over
// a donburi world, and the drivers that run them in an ebiten window or
// headless.
//
// A game is usually built on the kit above this package: [App] for its
// main and command line, and systems.Stage for each scene's world,
// scheduler, assets and dev keys (the README's "A game of your own" is a
// whole one). What follows is what they are made of, used bare.
//
// A complete game, one scene with a 60 Hz physics group and a render system:
//
//	package main
//
//	import (
//		"image/color"
//		"log"
//
//		"github.com/hajimehoshi/ebiten/v2"
//		"github.com/hajimehoshi/ebiten/v2/vector"
//		"github.com/yohamta/donburi"
//
//		"github.com/fixedstep/fixedstep/engine"
//	)
//
//	type Game struct {
//		sched     *engine.Scheduler
//		prev, cur float64 // x at the last two ticks
//	}
//
//	func (g *Game) Run(loop *engine.Loop) (engine.Scene, error) {
//		// Load: the world, its systems, its assets.
//		g.sched = engine.NewScheduler(donburi.NewWorld(), engine.Group{Name: "physics", Hz: 60})
//		g.sched.AddUpdate(0, "move", func(w donburi.World, ev engine.Event) {
//			g.prev, g.cur = g.cur, g.cur+100*ev.DT // 100 px/s, in fixed steps
//		})
//		g.sched.AddRender(0, "draw", func(w donburi.World, ev engine.Event) {
//			x := g.prev + (g.cur-g.prev)*ev.Alpha // between the last two ticks
//			vector.FillRect(ev.Screen, float32(x), 100, 20, 20, color.White, false)
//		})
//		// Run: pull events until done, then hand the loop on.
//		for ev := range loop.Events(g.sched.Groups()...) {
//			g.sched.Handle(ev)
//			if ev.Kind == engine.Update && ev.Input.KeyPressed(input.KeyEscape) {
//				return nil, nil // decided on a tick; the next scene, or nil to end the game
//			}
//		}
//		return nil, loop.Err() // the window was closed
//	}
//
//	func main() {
//		if err := engine.Run(&Game{}, nil); err != nil {
//			log.Fatal(err)
//		}
//	}
//
// # Outline
//
//   - [Loop] is the loop: [Loop.Events] (or [Loop.Next] and [Loop.Event])
//     yields, every frame, one [Input] event, the [Update] events of the
//     fixed-rate groups due in that frame in due-time order, and one [Render]
//     event with Alpha. Its rules are listed on [Loop]; [Config] tunes them.
//   - [Scheduler] runs named systems: update systems per [Group], render
//     systems per layer, each timed ([SystemStats]).
//   - [Scene] is a value whose Run receives the loop and returns the next
//     scene; [Run] runs the chain, in a window or headless ([Headless]).
//   - [input.State] is what a tick sees of the keyboard, mouse and gamepads;
//     a [TickInput] gives ticks their input one at a time (an autopilot, a
//     script, a bot). [InputLog] records a run and replays it, checking the
//     state against the recording's checksums ([Loop.SetChecksum]).
//   - A replay that drifts says where: the tick, and with the detail of a
//     recording (InputLog.Detail) the system and the component types
//     ([DivergenceError]); [Loop.DumpState] writes the state as text.
//     [Loop.Rewind] steps a paused game back, exactly, by re-running it.
//   - [App] is the command line every game gets: a window or headless,
//     record and replay, screenshots, dumps, a CPU profile, Ctrl-C. A game's
//     scenes are built on systems.Stage (the kit: world, scheduler, assets,
//     dev keys, overlay, inspector).
//   - [Clock]: [RealClock] for play, [ManualClock] for tests and simulation.
//
// # Game decisions happen on Update events
//
// Whatever changes the game's state or the scene chain (moving, scoring,
// choosing a menu item, leaving a scene) is decided on an [Update] event,
// from that tick's input (Event.Input) and the game state. [Input] events
// are for presentation: the overlay, fullscreen, screenshots, pause, single
// step and time scale, things that change how the game is shown, never what
// happens in it. A replay feeds every tick its recorded input and nothing
// else: Input events carry live input (none, headless), so a decision made
// there is not replayed, and the replay stops within a frame of the tick
// where the recording's scene ended with a [*ReplayError] that names the
// scene, the tick and this rule. Decide from ticks and every recording
// replays, at any frame rate, to the same state, and ends where it ended.
//
// # Time
//
// Time is integer nanoseconds (time.Duration) everywhere; tick k of a group at
// Hz is due at exactly k*1e9/Hz ns of game time. Systems get their step as
// float64 seconds in [Event.DT], exactly 1/Hz every tick.
//
// # Errors and panics
//
// Bad configuration is a [*ConfigError] naming the field. A scene's error or
// panic comes back from [Run] as a [*SceneError] naming the scene; a replay
// that cannot follow its recording, as a [*ReplayError] or a
// [*DivergenceError] inside it. The engine panics only on programming
// errors found when a scene is built (an unknown group name, a nil system).
//
// # Performance
//
// [Loop.Next], [Scheduler.Update], [Scheduler.Render] and [Scheduler.Handle]
// allocate nothing (TestFrameAllocatesNothing holds them to it). The scheduler
// reads the runtime's monotonic clock once per system (BenchmarkNanotime
// measures it) and records each call's time in a fixed-size [Histogram] for
// percentiles ([SystemStats.Quantile]; BenchmarkSchedulerTiming measures
// both); BenchmarkFrame compares a frame with donburi's ecs.ECS.
package engine
