// Package cli is the command line every game on the engine gets, and the
// run it starts: [App] parses the standard flags (a window or headless,
// record and replay, screenshots, dumps, a CPU profile) beside the game's
// own, runs the scene chain in a window (package engine/window) or
// headless (engine.Run), saves what was asked for when the run ends,
// Ctrl-C included, and prints a summary that ends with the state checksum.
package cli

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/fixedstep/fixedstep/engine"
	"github.com/fixedstep/fixedstep/engine/netplay"
	"github.com/fixedstep/fixedstep/engine/online/sim"
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
//	-host ADDR        host a networked game on ADDR (:7777) for -players N (default 2),
//	                  with an input delay of -delay F ticks (default 2): the others -join it
//	-join ADDR        join the networked game hosted at ADDR as a player (its seed and
//	                  settings too, but the game's PerPlayer flags); -spectate ADDR watches it
//	-netsim LINK      send this player's packets through a bad link: latency[,jitter[,loss
//	                  [,duplicate[,reorder]]]] (80ms,10ms,2%)
//
// A networked run (package engine/netplay) ends with a line of its
// session's figures; a desync writes both players' worlds at the tick to
// desync-T-playerN.txt and names them in its error.
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
// and first is the run's Options.Restart, so that engine.Loop.Rewind (the
// dev keys' comma) can go back to an earlier tick: from the keyframes a
// window run keeps (engine.DefaultKeyframes, -keyframes), or by re-running
// the run. A window run with no summary keeps no state checksum: nothing
// would read it, and a full hash of a big world takes milliseconds.
//
// A run that is headless, records, replays or has -seconds ends with a
// summary: the scenes and ticks run (the ticks of each scene's first
// group), the recording or the replay, and last a line "checksum X", the
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

	// PerPlayer names game flags that each player of a networked run sets
	// for itself (an autopilot): the host does not send them, and a
	// joiner keeps its own.
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

	// Online, if set, is the game a game server plays (engine/online/sim:
	// its name and version): -server URL then plays a match of it found
	// (or made) on that server, in the window (see online.go). The
	// player's input is the loop's, as in any run: the devices, or the
	// scene's engine.TickInput (an autopilot: the demo's -autopilot);
	// headless without one, the player holds nothing (sim.Game's bot
	// plays server/cmd/bots's clients, not App's). Nil: no online play.
	Online *sim.Game

	// Out receives the summary; nil means os.Stdout. Errors go to Err, nil
	// meaning os.Stderr.
	Out, Err io.Writer

	flags                        *flag.FlagSet
	headless, realtime, detail   bool
	memory                       bool // -memory
	mute, serial                 bool
	windowFrames, pipelined      int64 // a window run's frames, and those pipelined (the summary's)
	volume                       float64
	dumpAt, shotAt, saveAt       string
	save, load                   string
	loaded                       *engine.Save // -load's, for the summary
	fps, seconds                 float64
	seed                         uint64
	record, replay, shot, cpuOut string
	frames, syncTest, keyframes  int
	host, join, spectate         string // networked play (netplay.go)
	netLink                      string
	server, serverKey, device    string        // online play (online.go)
	serverSilence                time.Duration // how long -server's client waits for a server that sends nothing (0: client.DefaultSilence)
	online                       *onlineRun
	serverSettings               map[string]string
	simulatedAgain               int64      // ticks the sync test simulated again
	outW                         *errWriter // Out during Run, which keeps its first error
	players, delay, local        int
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
	a.flags = fs
	return fs
}

// Seed returns the -seed flag (or the replayed recording's seed).
func (a *App) Seed() uint64 { return a.seed }

// Headless reports whether the run has no window (-headless or -realtime).
func (a *App) Headless() bool { return a.headless || a.realtime }

// Seconds returns the -seconds flag: the run's length in game seconds, 0
// for no limit.
func (a *App) Seconds() float64 { return a.seconds }

// Replaying reports whether the run replays a recording (-replay).
func (a *App) Replaying() bool { return a.replay != "" }

// Default sets the flag named to value unless the command line (or the
// replayed recording) gave it: a game's defaults that depend on how it runs,
// set from first (headless, nobody plays: app.Default("autopilot", "true")).
// A flag that does not exist, or a bad value, is an error.
func (a *App) Default(name, value string) error {
	given := false
	a.Flags().Visit(func(f *flag.Flag) { given = given || f.Name == name })
	if given {
		return nil
	}
	if err := a.flags.Set(name, value); err != nil {
		return &FlagError{name, value, err.Error()}
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
	if a.outW != nil {
		return a.outW
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
// *InterruptedError after a signal, or the run's error.
func (a *App) Run(args []string, first func() (engine.Scene, error)) (err error) {
	a.outW = &errWriter{w: a.out()}
	defer func() { // a summary cut short (a full disk) is the run's error
		if werr := a.outW.err; werr != nil {
			werr = fmt.Errorf("the run's summary was not all written: %w", werr)
			if err == nil {
				err = werr
			} else {
				fmt.Fprintf(a.errOut(), "%s: %v\n", a.name(), werr)
			}
		}
		a.outW = nil
	}()
	fs := a.Flags()
	fs.SetOutput(a.errOut())
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return err
		}
		return &FlagError{Reason: err.Error()}
	}
	if fs.NArg() > 0 {
		return &FlagError{Reason: fmt.Sprintf("unexpected argument %q (flags only: -h lists them)", fs.Arg(0))}
	}
	if err := a.check(); err != nil {
		return err
	}
	var replay *engine.InputLog
	if a.replay != "" {
		if replay, err = engine.LoadInputLog(a.replay); err != nil {
			return err
		}
		if err := a.applySettings("replay", a.replay, "recording", replay.Settings); err != nil {
			return err
		}
		a.seed = replay.Seed
	}
	var save *engine.Save
	if a.load != "" {
		if save, err = a.loadSave(); err != nil {
			return err
		}
		a.loaded = save
	}
	ctx, signalled, stop := notifySignals()
	defer stop()
	var session *netplay.Session
	if a.join != "" || a.spectate != "" { // the host's seed and settings, before the game reads them
		if session, err = a.joinSession(ctx); err != nil {
			return a.interrupted(signalled(), err)
		}
		defer session.Close()
	}
	if a.server != "" { // the match's seed, seat and settings, before the game reads them
		if a.online, err = a.joinOnline(ctx); err != nil {
			return a.interrupted(signalled(), err)
		}
		defer a.online.close()
	}
	if err := a.check(); err != nil { // the replay's, the save's or the session's settings, before the game reads them
		return err
	}
	scene, err := first()
	if err != nil {
		return err
	}
	if scene == nil {
		return errors.New("cli: App: the first scene is nil")
	}
	if err := a.check(); err != nil {
		return err
	}
	if a.host != "" { // the run's settings are the session's: once the game has set its defaults
		if session, err = a.hostSession(ctx); err != nil {
			return a.interrupted(signalled(), err)
		}
		defer session.Close()
	}

	opts := &engine.Options{Config: a.Config, Replay: replay, Load: save, Game: a.game(), SyncTest: a.syncTest,
		StopAt: time.Duration(a.seconds * float64(time.Second))}
	if session != nil {
		opts.Session = session
	}
	if a.online != nil {
		opts.Session = a.online.engineSession()
		opts.StopAt = 0 // the match's length is the server's
	}
	if a.Headless() {
		// A networked run keeps pace with the others': in real time.
		opts.Headless = &engine.Headless{FPS: a.fps, Realtime: a.realtime || opts.Session != nil}
	} else if opts.Session == nil { // a networked run does not pause, so never steps back
		opts.Keyframes = a.keyframes // a step back (the dev keys' comma) in constant time
	}
	// The run is recorded in memory (or to -record's file), for its summary,
	// for saves and for rewinds (Loop.Rewind simulates again from the
	// recording, from a keyframe or from a fresh first scene). A window run
	// with no summary keeps no state checksum.
	summary := a.Headless() || a.record != "" || a.replay != "" || a.seconds > 0
	opts.Record = &engine.InputLog{Seed: a.seed, Settings: a.settings(), Detail: a.detail}
	if opts.Session != nil {
		opts.Record.Players = opts.Session.Players()
	}
	opts.Restart = first
	if !summary {
		opts.Record.ChecksumEvery = engine.NoChecksums // nothing reads them: no full hash in a tick
	}
	if a.cpuOut != "" {
		stop, perr := startProfile(a.cpuOut)
		if perr != nil {
			return &FlagError{Flag: "cpuprofile", Value: a.cpuOut, Reason: perr.Error()}
		}
		defer func() {
			if perr := stop(); perr != nil {
				if err == nil {
					err = perr
				} else { // the run's error is returned: this one is said here
					fmt.Fprintf(a.errOut(), "%s: %v\n", a.name(), perr)
				}
			}
		}()
	}
	if a.record != "" {
		if err := opts.Record.Create(a.record); err != nil {
			return &FlagError{Flag: "record", Value: a.record, Reason: err.Error()}
		}
	}
	var shot screenshotFlag
	if a.shot != "" {
		shot = screenshotFlag{path: a.shot, frame: a.frames}
		if a.shotAt != "" {
			shot.scene, shot.tick, _ = parseSceneTick(a.shotAt)
		}
		opts.AfterFrame = append(opts.AfterFrame, shot.afterFrame)
	}
	dumps := &stateDumps{}
	opts.OnDivergence = dumps.diverged
	if a.dumpAt != "" {
		dumps.scene, dumps.tick, _ = parseSceneTick(a.dumpAt)
	}
	saving := &savePoint{path: a.save}
	if a.saveAt != "" {
		saving.scene, saving.tick, _ = parseSceneTick(a.saveAt)
	}
	if a.dumpAt != "" {
		opts.AfterUpdate = append(opts.AfterUpdate, dumps.afterUpdate)
	}
	if a.save != "" {
		opts.AfterUpdate = append(opts.AfterUpdate, saving.afterUpdate)
	}
	window.SetVolume(a.volume)
	window.SetMuted(a.mute)
	var sounds int64
	var netStats engine.SessionStats
	var memory *memoryProbe
	if a.memory {
		memory = newMemoryProbe()
		opts.OnEvent = append(opts.OnEvent, memory.event)
		opts.OnFinish = append(opts.OnFinish, memory.finish)
	}
	opts.OnFinish = append(opts.OnFinish, func(l *engine.Loop) {
		sounds, netStats, a.windowFrames, a.simulatedAgain = l.Stats().Sounds, l.SessionStats(), l.Stats().Frames, l.Stats().SimulatedAgain
	})
	var probe *realtimeProbe
	if a.realtime {
		probe = newRealtimeProbe(a.seconds)
		opts.OnEvent = append(opts.OnEvent, probe.event)
	}

	opts.Context = ctx
	began := time.Now()
	var runErr error
	if a.Headless() {
		runErr = engine.Run(scene, opts)
	} else {
		win := a.Window
		win.Serial = win.Serial || a.serial
		runErr = window.Run(scene, opts, &win)
		a.pipelined = window.PipelinedFrames()
	}
	sig := signalled()
	if sig != nil && errors.Is(runErr, context.Canceled) {
		runErr = nil
	}
	if probe != nil {
		probe.interrupted = sig != nil
	}
	if a.online != nil {
		runErr = a.online.ended(runErr)
	}
	if session != nil {
		switch { // the other players are told why this run leaves
		case sig != nil || !a.Headless() && window.Closed():
			session.Quit()
		case runErr != nil:
			session.Fail(runErr)
		}
		if cerr := session.Close(); runErr == nil && cerr != nil && sig == nil {
			runErr = cerr
		}
		if de := (*netplay.DesyncError)(nil); errors.As(runErr, &de) {
			a.writeDesync(de, session.Player())
		}
	}
	saved, saveErr := a.closeRecording(opts.Record, runErr != nil)
	if runErr == nil && shot.path != "" {
		runErr = shot.result()
	}
	if runErr == nil && a.dumpAt != "" {
		runErr = dumps.result()
	}
	if runErr == nil && a.save != "" {
		runErr = saving.result(a.out())
	}
	if session != nil {
		netSummary(a.out(), session, netStats, time.Since(began).Seconds())
	}
	if a.online != nil {
		a.online.summary(a.out(), netStats, time.Since(began).Seconds())
	}
	if summary && (runErr == nil || opts.Record.Scenes() > 0) { // no summary of a run that never began
		a.summarize(opts.Record, replay, probe, memory, saved, sounds, runErr)
	}
	if de := dumps.divergence; de != nil && de.Dump != "" && !errors.Is(runErr, de) { // the run failed first: the file is named here
		fmt.Fprintf(a.out(), "the replay diverged at tick %d of scene %d too: the replayed world there is in %s\n", de.Tick, de.Scene, de.Dump)
	}
	if dumps.divergedErr != nil { // the run fails with the divergence: this is said beside it
		fmt.Fprintf(a.errOut(), "%s: %v\n", a.name(), dumps.divergedErr)
	}
	if runErr == nil {
		runErr = saveErr
	}
	if runErr != nil {
		return runErr
	}
	if sig != nil {
		return &InterruptedError{Signal: sig, Status: signalStatus(sig)}
	}
	return nil
}

// closeRecording finishes -record's file, and says where the recording is
// (nothing when there is no -record, or the run recorded no scene). A run
// that failed never replaces a file that was at the path: its recording
// stays at the path's .partial, beside it.
func (a *App) closeRecording(rec *engine.InputLog, failed bool) (saved string, err error) {
	if a.record == "" {
		return "", nil
	}
	if rec.Scenes() == 0 {
		return "", rec.Close() // nothing recorded: no file, and the path as it was
	}
	if _, serr := os.Lstat(a.record); failed && serr == nil {
		partial, err := rec.ClosePartial()
		return fmt.Sprintf("%s: the run failed, and %s, there before, was left as it was", partial, a.record), err
	}
	return a.record, rec.Close()
}

// settings returns the flags a recording keeps, by name.
func (a *App) settings() map[string]string {
	m := map[string]string{}
	a.flags.VisitAll(func(f *flag.Flag) {
		if unrecordedStandard(f.Name) || slices.Contains(a.Unrecorded, f.Name) ||
			slices.Contains(a.RecordedWhenSet, f.Name) && f.Value.String() == f.DefValue {
			return
		}
		m[f.Name] = f.Value.String()
	})
	for name, value := range a.serverSettings {
		m[serverSetting+name] = value
	}
	return m
}

// serverSetting prefixes the name of each of an online match's settings
// (App.ServerSettings) among a recording's settings, which are otherwise
// flags.
const serverSetting = "server:"

// applySettings sets the flags from the settings of a recording or a
// save (what, read by flag `from` from path), and ServerSettings from an
// online match's; a flag given on the command line with another value is
// an error.
func (a *App) applySettings(from, path, what string, settings map[string]string) error {
	given := map[string]bool{}
	a.flags.Visit(func(f *flag.Flag) { given[f.Name] = true })
	names := make([]string, 0, len(settings))
	for name := range settings {
		names = append(names, name)
	}
	slices.Sort(names)
	for _, name := range names {
		value := settings[name]
		if match, ok := strings.CutPrefix(name, serverSetting); ok {
			if a.serverSettings == nil {
				a.serverSettings = map[string]string{}
			}
			a.serverSettings[match] = value
			continue
		}
		f := a.flags.Lookup(name)
		switch {
		case f == nil || unrecordedStandard(name):
			return &FlagError{from, path, fmt.Sprintf("the %s was made with -%s %s, a flag this program does not have", what, name, value)}
		case given[name] && f.Value.String() != value:
			return &FlagError{name, f.Value.String(), fmt.Sprintf("the %s was made with -%s %s: a %s runs as the %s was made (drop -%s)", what, name, value, from, what, name)}
		}
		if err := a.flags.Set(name, value); err != nil {
			return &FlagError{from, path, fmt.Sprintf("the %s's -%s %s: %v", what, name, value, err)}
		}
	}
	return nil
}
