// Package scenes holds the demo's scenes: Title, Arena, Results and Stress.
// Each is a value that builds a stage.Stage (its world, scheduler, assets,
// overlay and dev keys) when it starts, releases it when it ends, and hands
// the loop to the scene that follows.
package scenes

import (
	"fmt"
	"io"

	"github.com/fixedstep/fixedstep/engine"
	"github.com/fixedstep/fixedstep/engine/input"
	"github.com/fixedstep/fixedstep/scenes/arena"
	"github.com/fixedstep/fixedstep/systems/physics"
	"github.com/fixedstep/fixedstep/systems/stage"
)

// Options are what every demo scene is given.
type Options struct {
	Seed uint64
	// Seconds, when positive, is how long the Arena and the Stress scene
	// last, in game seconds, and makes the chain end after them (no
	// Results, no return to the Title): for headless runs and tests.
	Seconds float64
	// Round, when positive, is how long an Arena round lasts, in game
	// seconds, when Seconds does not bound the run: Results, then the
	// Title follow it as ever (0: arena.Limit, a minute).
	Round float64
	// Bodies is the Stress scene's starting body count.
	Bodies int
	// Physics, if set, replaces the Stress scene's space settings (its
	// Loop field is ignored: the stage sets it). Nil: the scene's own, see
	// StressPhysics.
	Physics *physics.Config
	// Autopilot plays the Arena with a seeded pilot: a tick input
	// (engine.TickInput) that steers the player's stick from the game
	// state, the same at any frame rate, and recorded like a player.
	Autopilot bool
	// Player is the local player's number in a networked run (0: the
	// host, or a run of one player): the one the autopilot steers.
	Player int
	// Seats, when it has any, seats the Arena's players on this machine
	// (or several: a networked run's), one body each (arena.Options.Seats):
	// the demo's -seats.
	Seats input.Seats
	// Churn, when positive, makes the Arena remove its Churn oldest props
	// (boxes and balls) and spawn as many new ones, away from the player,
	// every second of game time: constant spawning and despawning at a
	// constant body count, for soak tests. 0: the props stay.
	Churn int
	// Undying keeps the Arena going when the player's health runs out (it
	// stays at 0): then only its time limit (Seconds, or 60 s), Esc or the
	// loop's end stop it. For soak tests.
	Undying bool
	// Online makes the Arena play a game server's match (the demo's
	// -server): its checksum leaves the sprites out, as the server's
	// simulation has none (arena.Scene), Esc leaves the match rather than
	// ending the game (arena.Options.IgnoreEsc, as the server's), and the
	// game is the run's last scene.
	Online bool
	// Out receives the report of the Arena and the Stress scene when they
	// end (see Report); nil: none.
	Out io.Writer
	// OnRelease, if set, is told each time a scene has released its stage:
	// what was left (0 entities and bodies, a released bundle).
	OnRelease func(scene string, left stage.Leftovers)

	// drift, for the tests of a desync: from its tick on, the Arena's
	// floor has another damping.
	drift arena.Drift
}

// MaxBodies is the most bodies the Stress scene starts with: many times
// what a physics tick holds (BenchmarkBodymark), and a few hundred
// megabytes.
const MaxBodies = 100_000

// Validate checks the options a command line can get wrong.
// MaxSeconds is the longest Options.Seconds: some 11 days.
const MaxSeconds = 1e6

func (o *Options) Validate() error {
	if o.Bodies < 0 || o.Bodies > MaxBodies {
		return fmt.Errorf("bodies %d: must be in [0, %d] (a bigger pile only fills memory: "+
			"far fewer fit in a tick, see BenchmarkBodymark)", o.Bodies, MaxBodies)
	}
	if o.Churn < 0 {
		return fmt.Errorf("churn %d: must not be negative", o.Churn)
	}
	if !(o.Seconds >= 0 && o.Seconds <= MaxSeconds) {
		return fmt.Errorf("seconds %v: must be a number of seconds, 0 to %g", o.Seconds, float64(MaxSeconds))
	}
	if !(o.Round >= 0 && o.Round <= MaxSeconds) {
		return fmt.Errorf("round %v: must be a number of seconds, 0 to %g", o.Round, float64(MaxSeconds))
	}
	return nil
}

// First returns the first scene: the Title, or the scene named (title,
// arena, stress). Unknown names and bad options are an error.
func First(name string, opts *Options) (engine.Scene, error) {
	if err := opts.Validate(); err != nil {
		return nil, err
	}
	switch name {
	case "", "title":
		return &Title{opts: opts}, nil
	case "arena":
		return &Arena{opts: opts}, nil
	case "stress":
		return &Stress{opts: opts}, nil
	}
	return nil, fmt.Errorf("no scene %q: choose title, arena or stress", name)
}

// newStage makes a scene's stage, telling Options.OnRelease what its
// release leaves.
func newStage(loop *engine.Loop, name string, opts *Options, so stage.Options) (*stage.Stage, error) {
	return stage.New(loop, stageOptions(name, opts, so))
}

// stageOptions returns so with an OnRelease that tells Options.OnRelease
// what the scene's release leaves.
func stageOptions(name string, opts *Options, so stage.Options) stage.Options {
	if opts.OnRelease != nil {
		so.OnRelease = func(left stage.Leftovers) { opts.OnRelease(name, left) }
	}
	return so
}

// report writes the summary of a gameplay scene: ticks per group, frames,
// lost time, and per-system mean and max time.
func report(out io.Writer, name string, st *stage.Stage, lines ...string) {
	if out == nil {
		return
	}
	loop, sched := st.Loop, st.Sched
	s := loop.Stats()
	fmt.Fprintf(out, "scene %s: game time %v, frames %d\n", name, s.GameTime, s.Frames)
	for _, l := range lines {
		fmt.Fprintf(out, "  %s\n", l)
	}
	for i, g := range sched.Groups() {
		fmt.Fprintf(out, "  group %-8s %6.2f Hz: %d ticks\n", g.Name, g.Hz, loop.Ticks(i))
	}
	fmt.Fprintf(out, "  dropped %v, clamped %v, clock went back %d times\n", s.Dropped, s.Clamped, s.ClockBackwards)
	fmt.Fprintf(out, "  %-12s %-8s %8s %10s %10s\n", "system", "phase", "calls", "mean", "max")
	for _, sys := range sched.Stats() {
		phase := "render"
		switch {
		case sys.Group >= 0:
			phase = sched.Groups()[sys.Group].Name
		case sys.Group == engine.InputPhase:
			phase = "input"
		}
		fmt.Fprintf(out, "  %-12s %-8s %8d %10v %10v\n", sys.Name, phase, sys.Count, sys.Mean(), sys.Max)
	}
}
