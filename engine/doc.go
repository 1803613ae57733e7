// Package engine is the simulation core of an entity-component-system game
// engine: a fixed-step game loop handed from scene to scene, a multi-rate
// scheduler over a donburi world, recordings of runs that replay to the
// same state tick by tick, and the headless driver. It imports no graphics
// library, needs no display and no cgo: a game server, a bot farm or a
// verifier of recordings links it alone. Package engine/window runs the
// same loop in an ebiten window.
//
// A game is usually built on the kit above this package: package
// engine/cli for its main and command line (cli.App), and package
// systems/stage for each scene's world, scheduler, assets and dev keys (the
// README's "A short game" is a whole one). What follows is what they
// are made of, used bare: a complete program, one scene with a 60 Hz
// physics group, run headless for five seconds of game time, recorded and
// replayed to the same state.
//
//	package main
//
//	import (
//		"fmt"
//		"log"
//		"math"
//		"time"
//
//		"github.com/fixedstep/fixedstep/third_party/donburi"
//
//		"github.com/fixedstep/fixedstep/engine"
//		"github.com/fixedstep/fixedstep/engine/input"
//	)
//
//	// Fall is a ball that falls and bounces, and jumps on Space.
//	type Fall struct{ y, v float64 }
//
//	func (f *Fall) Run(loop *engine.Loop) (engine.Scene, error) {
//		// Load: the world, its systems, its state checksum.
//		f.y, f.v = 100, 0
//		sched := engine.NewScheduler(donburi.NewWorld(), engine.Group{Name: "physics", Hz: 60})
//		sched.AddUpdate(0, "fall", func(w donburi.World, ev engine.Event) {
//			if ev.Input.KeyPressed(input.KeySpace) {
//				f.v = 200 // decided on a tick, from the tick's input
//			}
//			f.v -= 400 * ev.DT
//			if f.y += f.v * ev.DT; f.y < 0 {
//				f.y, f.v = -f.y, -0.8*f.v
//			}
//		})
//		loop.Recording().SetChecksum(func() uint64 { return math.Float64bits(f.y) ^ math.Float64bits(f.v) })
//		// Run: pull events until done, then hand the loop on.
//		for ev := range loop.Events(sched.Groups()...) {
//			sched.Handle(ev)
//		}
//		return nil, loop.Err() // stopped: the run's length was reached
//	}
//
//	func main() {
//		rec := &engine.InputLog{}
//		jump := engine.TickInputFunc(func(t engine.TickInfo, in *input.State) {
//			in.SetKey(input.KeySpace, t.Tick%90 < 5) // a bot that jumps every 1.5 s
//		})
//		err := engine.Run(&Fall{}, &engine.Options{Record: rec, TickInput: jump, StopAt: 5 * time.Second})
//		if err != nil {
//			log.Fatal(err)
//		}
//		err = engine.Run(&Fall{}, &engine.Options{Replay: rec, Headless: &engine.Headless{FPS: 24}})
//		fmt.Println(rec.Replayed().Checked, "checksums matched", err) // 300 checksums matched <nil>
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
//     scene; [Run] runs the chain headless ([Headless]), [RunOn] on another
//     [Driver] (package engine/window's: a window).
//   - [input.State] is what a tick sees of the keyboard, mouse and gamepads;
//     a [TickInput] gives ticks their input one at a time (an autopilot, a
//     script, a bot). [InputLog] records a run and replays it, checking the
//     state against the recording's checksums ([Recording.SetChecksum]; package
//     engine/state hashes a donburi world with no code per component).
//   - A replay that drifts says where: the tick, and with the detail of a
//     recording (InputLog.Detail) the system and the component types
//     ([DivergenceError]); [Recording.DumpState] writes the state as text.
//     [Rewinder.Back] steps a paused game back, exactly: from a keyframe of
//     the scene's state ([SceneState], Options.Keyframes) in constant time,
//     or by re-running the run. [Loop.Save] writes a save game, and
//     Options.Load goes on from one ([LoadSave]). Options.FromState begins a
//     run from a state file ([Recording.AppendState]) of its first scene, or
//     of a later one that the first makes afresh ([SceneMaker]).
//   - A networked run gets every player's input from a [Session]
//     (Options.Session; package engine/netplay's, over UDP): each Update
//     event holds every player's input ([Event.Players]), and the loop
//     rolls back and simulates again where a prediction proves wrong
//     ([LoopSession.Resimulating]); a scene ends once its last tick is final
//     ([LoopSession.Settle]).
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
