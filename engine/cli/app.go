// Package cli is the command line every game on the engine gets, and the
// run it starts: [App] parses the standard flags (a window or headless,
// record and replay, screenshots, dumps, a CPU profile) beside the game's
// own, runs the scene chain in a window (package engine/window) or
// headless (engine.Run), saves what was asked for when the run ends,
// Ctrl-C included, and prints a summary that ends with the state checksum.
//
// Beside a run on one machine, a game opts into the ways to play it
// supports by listing them in App.Modes, each a [Mode] in a package of its
// own that brings its flags, its session and its summary lines:
// networked play (engine/cli/netplaymode: -host, -join, -spectate) and
// matches on a game server (engine/cli/onlinemode: -server). This package
// imports neither: a game that lists no online mode links no Nakama
// client, websocket or protobuf package.
//
//	online := &onlinemode.Mode{Game: &arena.Spec}
//	app := &cli.App{Name: "demo", Modes: []cli.Mode{&netplaymode.Mode{}, online}}
package cli

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"

	"github.com/fixedstep/fixedstep/engine"
	"github.com/fixedstep/fixedstep/engine/input"
	"github.com/fixedstep/fixedstep/engine/window"
)

// App is the command line every game on the engine gets, and the run it
// starts: a window or headless, record and replay, screenshots, a CPU
// profile, Ctrl-C handled. A game's main is a few lines:
//
//	func main() {
//		app := &cli.App{Name: "breakout", Window: window.Options{Width: 640, Height: 480}}
//		lives := app.Flags().Int("lives", 3, "lives at the start") // the game's own flags
//		app.Main(func() (engine.Scene, error) {
//			return &Title{Seed: app.Seed(), Lives: *lives}, nil
//		})
//	}
//
// The standard flags (-h lists them with the game's):
//
//	-headless         no window: frames at a virtual rate, as fast as they run (deterministic)
//	-realtime         headless at the speed of the real clock; reports CPU use and tick timing
//	-memory           reports the allocations from the first tick to the end, and the garbage collections
//	-fps F            the virtual frame rate of -headless (default 60; at most MaxFPS)
//	-seed S           the random seed, for App.Seed (default 1)
//	-seconds N        stop once the scenes have run N seconds of game time (0: no limit)
//	-record FILE      record the run to FILE, written as it runs (see engine.InputLog.Create)
//	-replay FILE      replay FILE: its seed and settings too, checking the state every tick
//	-screenshot FILE  save the -frames'th frame drawn in the window as a PNG, then stop
//	-frames N         the frame -screenshot saves (default 120; a window draws as many
//	                  frames a second as the display takes, often over 100 under Xvfb)
//	-screenshot-at S:T  save the first frame drawn after tick T of scene S instead
//	                  (T alone: scene 1): the same moment of the game at any frame rate
//	-cpuprofile FILE  write a CPU profile of the run
//	-detail           record what the desync bisector needs (see engine.InputLog.Detail)
//	-dump-at S:T      write the world after tick T of scene S (T alone: scene 1) to dump-S-T.txt
//	-synctest N       before every tick, roll the game back N ticks, simulate them again and
//	                  check every tick's state is the same (a scene on stage.Stage; 0: off)
//	-keyframes N      in a window, a keyframe every N ticks for a step back (default
//	                  engine.DefaultKeyframes; 0: none, a step back re-runs the run)
//	-serial           in a window, each frame's ticks and drawing one after the other
//	                  (by default, with two CPUs or more, they are pipelined)
//	-volume V         the sounds' volume, 0 to 1 (default 1); -mute plays none
//	-save FILE        save the game to FILE after tick T of scene S (-save-at S:T)
//	-load FILE        go on from a save: its seed and settings too; the saved run is
//	                  simulated again (checked) and played on, in a window or headless
//
// A game that seats several players on one machine (MaxSeats) adds
// -seats kb1,kb2,pad0: a device a player (see App.Seats).
//
// The modes a game lists (Modes) add theirs, which recordings leave out:
// netplaymode's -host ADDR, -join ADDR, -spectate ADDR, -players N, -delay
// F and -netsim LINK; onlinemode's -server URL, -server-key and -device.
// A mode the game does not list has no flag: -host is then "flag provided
// but not defined". At most one mode runs (one of -host, -join, -spectate
// and -server); its session's seed and settings, when it joins one before
// the game makes its first scene, are the run's as a recording's are (but
// the game's flags in PerPlayer), and it adds its lines to the summary.
//
// A save (engine.Loop.Save) names the game (Name) and its Version: a save
// of another game or version, damaged or cut short, is refused by name.
// A run loaded from a save records the whole run, the saved part included,
// so that its recording replays alone.
//
// A replay that diverges says where (the tick; with -detail at recording,
// the system and the component types), and writes the replayed world at
// that tick to diverged-S-T.txt: compare it with the same tick of the
// recording's build (-replay FILE -dump-at S:T) to see what drifted.
//
// A recording keeps what the run was started with: the seed, and every flag
// but those that only say how to show or save it (the standard ones above
// but -seed and -seconds, and the game's flags named in Unrecorded). A
// replay sets them from the recording, so that `-replay FILE` alone replays
// the run; a flag given with another value than the recording's is an
// error. A bad number (-seconds NaN, a negative -fps), a path that cannot
// be written, a file that cannot be replayed, and a file the run would
// both read and write or write for two flags (see App.Reads) is an error
// before the first frame. A file that cannot be written whole (a full
// disk: a write, its Sync or its Close fails), the summary included, is
// the run's error, naming it; a file is written beside its path and
// renamed over it once whole, so that nothing half written is left there.
//
// The run is recorded in memory (or to -record's file) whatever the flags,
// and first is the run's Options.Restart, so that engine.Rewinder.Back (the
// dev keys' comma) can go back to an earlier tick: from the keyframes a
// window run keeps (engine.DefaultKeyframes, -keyframes), or by re-running
// the run. A window run with no summary keeps no state checksum: nothing
// would read it, and a full hash of a big world takes milliseconds.
//
// A run that is headless, records, replays or has -seconds ends with a
// summary: the scenes and ticks run (the ticks of each scene's first
// group), the recording or the replay; a real-clock run's (a window,
// -realtime) a line "frames: ..." with the p50, p99 and maximum of a
// frame's work (its Input event to its drawing done) and of the time from
// one frame's start to the next's; and last a line "checksum X", the
// run's checksum: every tick's state checksum of every scene chained
// (engine.InputLog.RunChecksum), so that runs differing in any tick print
// different lines. SIGINT and SIGTERM end the run as closing the window does: the
// recording and the profile are saved, the summary printed, and Main exits
// with the signal's usual status (130, 143).
type App struct {
	// Name is the program's name, in messages and saves; default the
	// executable's.
	Name string
	// Version is the game's version, in its saves: a save of another
	// version is refused. Default: the main module's version in the
	// build's information ("(devel)" for a build of a checkout).
	Version string
	Window  window.Options // the window, when not headless
	Config  engine.Config  // the loop's configuration

	// Unrecorded names game flags that only say how to show the game
	// (a volume, a window size): recordings leave them out.
	Unrecorded []string

	// PerPlayer names game flags that each player of a networked run (a
	// Mode's) sets for itself (an autopilot): the host does not send them,
	// and a joiner keeps its own.
	PerPlayer []string

	// RecordedWhenSet names game flags that recordings keep only when set
	// away from their defaults: flags a game added after recordings were
	// made, so that a run that leaves them alone records what it recorded
	// before, byte for byte (a recording without them replays with their
	// defaults).
	RecordedWhenSet []string

	// Reads names game flags whose value is a file the run reads (a
	// level, a configuration), and Writes those whose value is a file the
	// game writes (an export): no file the run writes, the standard
	// flags' (-record, -save, -dump-at, -screenshot, -cpuprofile, a
	// desync's and a divergence's files) and these, may be a file it
	// reads or another file it writes, however the paths are spelt
	// (links, ./a and a, absolute paths): such a run is a *FlagError
	// that names both flags, before anything runs.
	Reads, Writes []string

	// MaxSeats, when positive, is the most players the game seats on one
	// machine (at most input.MaxPlayers), and gives it -seats kb1,kb2,...:
	// one device a player, checked (an unknown device, one taken twice,
	// more players than MaxSeats are *FlagErrors), kept in recordings when
	// set, shared with a networked session's players, and read with
	// App.Seats. 0: the game has no -seats.
	MaxSeats int

	// Modes are the ways to play beside a run on one machine that the
	// game opts into, each with its flags, its session and its summary
	// lines: networked play (netplaymode: -host, -join, -spectate) and
	// online matches on a game server (onlinemode: -server). A mode not
	// listed has no flag and is not linked (see Mode). Set before Flags
	// or Main: the flag set is made once.
	Modes []Mode

	// SparseSaving is engine.Options.SparseSaving for a networked run (a
	// Mode's): the loop keeps fewer states, and a rollback may go back a
	// few ticks further. A game whose state costs a good part of a tick to
	// keep (many physics bodies) sets it; the results are the same.
	SparseSaving bool

	// Out receives the summary; nil means os.Stdout. Errors go to Err, nil
	// meaning os.Stderr.
	Out, Err io.Writer

	flags *flag.FlagSet
	f     flagValues  // the standard flags' values
	modes modeFlags   // the flags the modes define
	run   *Run        // the run under way, or the last one
	seats input.Seats // -seats, checked
}

// flagValues are the standard flags' values (flags.go).
type flagValues struct {
	headless, realtime, memory, detail bool
	mute, serial                       bool
	fps, seconds, volume               float64
	seed                               uint64
	record, replay, shot, cpuOut       string
	dumpAt, shotAt, saveAt, save, load string
	frames, syncTest, keyframes        int
	seats                              string
}

// Flags returns the App's flag set, for the game's own flags: define them
// before Main. They are recorded and restored by replays (see App).
func (a *App) Flags() *flag.FlagSet {
	if a.flags != nil {
		return a.flags
	}
	fs := flag.NewFlagSet(a.name(), flag.ContinueOnError)
	for i := range standardFlags {
		standardFlags[i].define(fs, a)
	}
	a.defineSeats(fs)
	a.defineModes(fs)
	a.flags = fs
	return fs
}

// Seed returns the -seed flag (or the replayed recording's seed).
func (a *App) Seed() uint64 { return a.f.seed }

// Headless reports whether the run has no window (-headless or -realtime).
func (a *App) Headless() bool { return a.f.headless || a.f.realtime }

// Seconds returns the -seconds flag: the run's length in game seconds, 0
// for no limit.
func (a *App) Seconds() float64 { return a.f.seconds }

// Replaying reports whether the run replays a recording (-replay).
func (a *App) Replaying() bool { return a.f.replay != "" }

// Player returns the local player's number in a networked run (a Mode's):
// 0 for the host (and a run of one player), 1 and up for a joiner, -1
// for a spectator. It is known when the game's first scene is made.
func (a *App) Player() int {
	if a.run == nil {
		return 0
	}
	return a.run.player
}

// Default sets the flag named to value unless the command line (or the
// replayed recording) gave it: a game's defaults that depend on how it runs,
// set from first (headless, nobody plays: app.Default("autopilot", "true")).
// A flag that does not exist, or a value it refuses (in a run: checked
// with the run's other flags, as the command line's are), is a *FlagError.
func (a *App) Default(name, value string) error {
	given := false
	a.Flags().Visit(func(f *flag.Flag) { given = given || f.Name == name })
	if given {
		return nil
	}
	if err := a.flags.Set(name, value); err != nil {
		return &FlagError{name, value, err.Error()}
	}
	if a.run != nil {
		return a.check()
	}
	return nil
}

func (a *App) name() string {
	if a.Name != "" {
		return a.Name
	}
	return filepath.Base(os.Args[0])
}

// Main runs the game with the process's arguments and exits: 0 when the
// game ended, 2 for bad flags (a *FlagError, first's too), 1 for any other
// error (printed; a scene's panic with its stack), and 130 or 143 after
// SIGINT or SIGTERM. first makes the
// first scene; it is called once the flags are parsed (and a replay's
// settings applied), and may set flags itself (App.Default) to the game's
// own defaults: what they hold when it returns is what the run uses and the
// recording keeps. A game flag first finds bad is a *FlagError it returns.
func (a *App) Main(first func() (engine.Scene, error)) {
	err := a.Run(os.Args[1:], first)
	var ie *InterruptedError
	switch {
	case err == nil:
		os.Exit(0)
	case errors.Is(err, flag.ErrHelp):
		os.Exit(0)
	case errors.As(err, &ie):
		fmt.Fprintf(a.errOut(), "%s: %v\n", a.name(), err)
		os.Exit(ie.Status)
	case errors.As(err, new(*FlagError)):
		fmt.Fprintf(a.errOut(), "%s: %v\n", a.name(), err)
		os.Exit(2)
	default:
		fmt.Fprintf(a.errOut(), "%s: %v\n", a.name(), err)
		var se *engine.SceneError
		if errors.As(err, &se) && se.Panic != nil {
			fmt.Fprintf(a.errOut(), "\n%s", se.Stack) // where the scene panicked
		}
		os.Exit(1)
	}
}

// A FlagError is a command-line flag the App refuses: Flag names it.
type FlagError struct {
	Flag, Value, Reason string
}

func (e *FlagError) Error() string {
	if e.Flag == "" {
		return e.Reason
	}
	return fmt.Sprintf("-%s %s: %s", e.Flag, e.Value, e.Reason)
}

// An InterruptedError is what Run returns after a signal ended the run
// (once the recording was saved and the summary printed).
type InterruptedError struct {
	Signal os.Signal
	Status int // the exit status a shell gives a process the signal ends: 128 + its number
}

func (e *InterruptedError) Error() string {
	return fmt.Sprintf("interrupted by %v", e.Signal)
}

func (a *App) out() io.Writer {
	if a.run != nil && a.run.out != nil {
		return a.run.out
	}
	if a.Out != nil {
		return a.Out
	}
	return os.Stdout
}

func (a *App) errOut() io.Writer {
	if a.Err != nil {
		return a.Err
	}
	return os.Stderr
}

// Run is Main without the exit, for tests and tools: it parses args, runs
// the game and returns nil when it ended, a *FlagError for a bad flag, an
// *InterruptedError after a signal, or the run's error. Its steps: the
// settings, merged from the command line, a replay's recording and a
// save, then checked; the mode's session joined (its seed and settings
// the run's); the game's first scene; the mode's session hosted; the
// loop's options and what the run saves and measures; the run; and what
// it leaves: files, the mode's lines and the summary.
func (a *App) Run(args []string, first func() (engine.Scene, error)) (err error) {
	r := a.newRun()
	defer func() { err = r.close(err) }()
	if err := r.settle(args); err != nil {
		return err
	}
	ctx, signalled, stop := notifySignals()
	defer stop()
	r.signalled = signalled
	if err := r.startMode(ctx, BeforeFirst); err != nil {
		return err
	}
	scene, err := first()
	if err != nil {
		return err
	}
	if scene == nil {
		return errors.New("cli: App: the first scene is nil")
	}
	if err := r.startMode(ctx, AfterFirst); err != nil {
		return err
	}
	opts := r.options(ctx, first)
	outs := r.outputs(opts)
	if a.f.cpuOut != "" {
		stopProfile, perr := startProfile(a.f.cpuOut)
		if perr != nil {
			return &FlagError{Flag: "cpuprofile", Value: a.f.cpuOut, Reason: perr.Error()}
		}
		defer func() { err = a.also(err, stopProfile()) }()
	}
	if a.f.record != "" {
		if err := opts.Record.Create(a.f.record); err != nil {
			return &FlagError{Flag: "record", Value: a.f.record, Reason: err.Error()}
		}
	}
	rec := opts.Record
	if opts.FromState != nil {
		opts.Record = nil // a run from a state has no recording from its start (see Joined.State)
	}
	return r.finish(rec, outs, r.play(scene, opts))
}

// also returns err, or second when err is nil; a second error beside a
// first is said on Err, as the run returns the first.
func (a *App) also(err, second error) error {
	switch {
	case second == nil:
		return err
	case err == nil:
		return second
	}
	fmt.Fprintf(a.errOut(), "%s: %v\n", a.name(), second)
	return err
}
