package cli

import (
	"flag"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"slices"
	"time"

	"github.com/fixedstep/fixedstep/engine"
	"github.com/fixedstep/fixedstep/engine/internal/atomicfile"
	"github.com/fixedstep/fixedstep/engine/internal/rate"
)

// The standard flags: their table, how each is defined on a game's flag set,
// and the checks of their values before anything runs.

// Limits of the standard flags' values, beyond those of the engine: values
// that would never finish, or finish nothing, are refused.
const (
	// MaxFPS is the highest -fps: a headless frame draws, and frames beyond
	// what any display shows only draw the same ticks again (-fps 1e9
	// -seconds 2 would draw two billion frames).
	MaxFPS = 1000.0
	// MinSeconds is the shortest -seconds but 0 (no limit): a millisecond,
	// the tick of a 1,000 Hz group; a shorter time would end the run after
	// its first tick whatever was asked.
	MinSeconds = 0.001
)

// A standardFlag is one of the flags every game gets: its name, where its
// value goes (a pointer to a field of the App) and its default, what -h
// says of it, whether a recording keeps it, and what it refuses. A new
// standard flag is an entry here, a field of App, and a line of App's doc.
type standardFlag struct {
	name  string
	value func(a *App) any // *bool, *int, *uint64, *float64 or *string
	def   any              // nil: the zero value
	usage string
	kept  bool               // recordings keep it: it is the run's own
	check func(a *App) error // nil: every value that parses
}

// standardFlags are the flags every game gets, in the order their values
// are checked (-h lists them by name, with the game's and the modes').
var standardFlags = []standardFlag{
	{name: "headless", value: func(a *App) any { return &a.f.headless },
		usage: "run without a window: frames at a virtual rate, as fast as they run"},
	{name: "realtime", value: func(a *App) any { return &a.f.realtime },
		usage: "run headless at the speed of the real clock, and report CPU use and tick timing"},
	{name: "memory", value: func(a *App) any { return &a.f.memory },
		usage: "report what the program allocated from the first tick to the end, a tick on average, and its garbage collections"},
	{name: "fps", value: func(a *App) any { return &a.f.fps }, def: 60.0,
		usage: "the virtual frame rate of -headless",
		check: func(a *App) error {
			if !(a.f.fps >= rate.MinHz && a.f.fps <= MaxFPS) {
				return &FlagError{"fps", fmt.Sprint(a.f.fps), fmt.Sprintf("must be a frame rate in [%g, %g] "+
					"(a display shows a few hundred frames a second; more frames only draw the same ticks again)", rate.MinHz, MaxFPS)}
			}
			return nil
		}},
	{name: "seed", value: func(a *App) any { return &a.f.seed }, def: uint64(1), kept: true,
		usage: "the random seed"},
	{name: "seconds", value: func(a *App) any { return &a.f.seconds }, kept: true,
		usage: "stop once the scenes have run this many seconds of game time (0: no limit)",
		check: func(a *App) error {
			limit := float64(math.MaxInt64) / float64(time.Second)
			if !(a.f.seconds == 0 || a.f.seconds >= MinSeconds && a.f.seconds < limit) { // NaN too; float64(MaxInt64) is 2^63, one past it
				return &FlagError{"seconds", fmt.Sprint(a.f.seconds), fmt.Sprintf(
					"must be 0 (no limit) or a number of seconds in [%g, %.4g] (less is shorter than a tick)", MinSeconds, limit)}
			}
			return nil
		}},
	{name: "record", value: func(a *App) any { return &a.f.record },
		usage: "record the run to this file, written as it runs",
		check: func(a *App) error {
			if a.f.record == "" {
				return nil
			}
			if err := checkWritable(a.f.record); err != nil {
				return &FlagError{"record", a.f.record, err.Error()}
			}
			return nil
		}},
	{name: "replay", value: func(a *App) any { return &a.f.replay },
		usage: "replay this recording (its seed and settings too), checking the state every tick"},
	{name: "screenshot", value: func(a *App) any { return &a.f.shot },
		usage: "save the -frames'th frame drawn in the window to this PNG file, then stop",
		check: func(a *App) error {
			if a.f.shot == "" {
				return nil
			}
			if a.Headless() {
				return &FlagError{"screenshot", a.f.shot, "needs a window: drop -headless and -realtime (without a display, run under xvfb-run -a)"}
			}
			if err := checkWritable(a.f.shot); err != nil {
				return &FlagError{"screenshot", a.f.shot, err.Error()}
			}
			return nil
		}},
	{name: "frames", value: func(a *App) any { return &a.f.frames }, def: 120,
		usage: "the frame -screenshot saves (a window draws as many a second as the display takes)",
		check: func(a *App) error {
			if a.f.frames < 1 {
				return &FlagError{"frames", fmt.Sprint(a.f.frames), "must be at least 1"}
			}
			return nil
		}},
	{name: "screenshot-at", value: func(a *App) any { return &a.f.shotAt },
		usage: "save the first frame drawn after tick T of scene S (S:T; T alone: scene 1) to -screenshot's file",
		check: func(a *App) error {
			if a.f.shotAt == "" {
				return nil
			}
			if _, _, err := parseSceneTick(a.f.shotAt); err != nil {
				return &FlagError{"screenshot-at", a.f.shotAt, err.Error()}
			}
			if a.f.shot == "" {
				return &FlagError{"screenshot-at", a.f.shotAt, "goes with -screenshot FILE: where to save it"}
			}
			return nil
		}},
	{name: "save", value: func(a *App) any { return &a.f.save },
		usage: "save the game to this file after tick T of scene S (-save-at S:T); -load goes on from it",
		check: func(a *App) error { return a.checkSave() }},
	{name: "save-at", value: func(a *App) any { return &a.f.saveAt },
		usage: "where -save saves: after tick T of scene S (S:T; T alone: scene 1)",
		check: func(a *App) error { return a.checkSaveAt() }},
	{name: "load", value: func(a *App) any { return &a.f.load },
		usage: "go on from this save (its seed and settings too): the saved run is simulated again, checked, then played on",
		check: func(a *App) error {
			if a.f.load != "" && a.f.replay != "" {
				return &FlagError{"load", a.f.load, "goes on from a save; -replay replays a recording: one or the other"}
			}
			return nil
		}},
	{name: "keyframes", value: func(a *App) any { return &a.f.keyframes }, def: engine.DefaultKeyframes,
		usage: "in a window, a keyframe every N ticks, for a step back in constant time (0: none, a step back re-runs the run)",
		check: func(a *App) error {
			if a.f.keyframes < 0 || a.f.keyframes > engine.MaxKeyframes {
				return &FlagError{"keyframes", fmt.Sprint(a.f.keyframes), fmt.Sprintf("must be a number of ticks in [0, %d] (0: none)", engine.MaxKeyframes)}
			}
			return nil
		}},
	{name: "serial", value: func(a *App) any { return &a.f.serial },
		usage: "in a window, run each frame's ticks and its drawing one after the other (by default, with more than one CPU, a frame's ticks run while the frame before is presented: see window.Options.Serial)"},
	{name: "volume", value: func(a *App) any { return &a.f.volume }, def: 1.0,
		usage: "the sounds' volume, from 0 to 1",
		check: func(a *App) error {
			if !(a.f.volume >= 0 && a.f.volume <= 1) {
				return &FlagError{"volume", fmt.Sprint(a.f.volume), "must be in [0, 1]"}
			}
			return nil
		}},
	{name: "mute", value: func(a *App) any { return &a.f.mute },
		usage: "play no sound (the game takes its sounds as ever: the summary counts them)"},
	{name: "cpuprofile", value: func(a *App) any { return &a.f.cpuOut },
		usage: "write a CPU profile of the run to this file",
		check: func(a *App) error {
			if a.f.cpuOut == "" {
				return nil
			}
			if err := checkWritable(a.f.cpuOut); err != nil {
				return &FlagError{"cpuprofile", a.f.cpuOut, err.Error()}
			}
			return nil
		}},
	{name: "detail", value: func(a *App) any { return &a.f.detail },
		usage: "record what the desync bisector needs: the state after every system, per component type",
		check: func(a *App) error {
			if a.f.detail && a.f.record == "" {
				return &FlagError{"detail", "true", "goes with -record: it is what the recording keeps"}
			}
			return nil
		}},
	{name: "synctest", value: func(a *App) any { return &a.f.syncTest },
		usage: "before every tick, roll the game back this many ticks, simulate them again from their recorded input and check the state, and what the scene keeps, is the same; the run goes on as without it (an autopilot is not asked again: its state must not be kept with the game's) (0: off)",
		check: func(a *App) error {
			if a.f.syncTest < 0 || a.f.syncTest > engine.MaxSyncTest {
				return &FlagError{"synctest", fmt.Sprint(a.f.syncTest), fmt.Sprintf("must be a number of ticks in [0, %d] (0: off)", engine.MaxSyncTest)}
			}
			return nil
		}},
	{name: "dump-at", value: func(a *App) any { return &a.f.dumpAt },
		usage: "write the world after tick T of scene S (S:T; T alone: scene 1) to dump-S-T.txt",
		check: func(a *App) error {
			if a.f.dumpAt == "" {
				return nil
			}
			scene, tick, err := parseSceneTick(a.f.dumpAt)
			if err == nil {
				if werr := checkWritable(dumpPath(scene, tick)); werr != nil {
					err = fmt.Errorf("writes %s, which %v", dumpPath(scene, tick), werr)
				}
			}
			if err != nil {
				return &FlagError{"dump-at", a.f.dumpAt, err.Error()}
			}
			return nil
		}},
}

// define defines f on fs, bound to its field of a.
func (f *standardFlag) define(fs *flag.FlagSet, a *App) {
	switch p := f.value(a).(type) {
	case *bool:
		def, _ := f.def.(bool)
		fs.BoolVar(p, f.name, def, f.usage)
	case *int:
		def, _ := f.def.(int)
		fs.IntVar(p, f.name, def, f.usage)
	case *uint64:
		def, _ := f.def.(uint64)
		fs.Uint64Var(p, f.name, def, f.usage)
	case *float64:
		def, _ := f.def.(float64)
		fs.Float64Var(p, f.name, def, f.usage)
	case *string:
		def, _ := f.def.(string)
		fs.StringVar(p, f.name, def, f.usage)
	default:
		panic(fmt.Sprintf("cli: flag -%s: a field of type %T", f.name, p))
	}
}

// unrecorded reports whether name is a flag of the App's (a standard
// flag, a mode's) that recordings leave out: all but -seed and -seconds.
func (a *App) unrecorded(name string) bool {
	if slices.Contains(a.modes.flags, name) {
		return true
	}
	for i := range standardFlags {
		if standardFlags[i].name == name {
			return !standardFlags[i].kept
		}
	}
	return false
}

// check checks the standard flags' values, the files the run reads and
// writes (checkFiles), and the modes' flags (checkModes), before anything
// runs.
func (a *App) check() error {
	if err := a.checkFiles(); err != nil {
		return err
	}
	for i := range standardFlags {
		if c := standardFlags[i].check; c != nil {
			if err := c(a); err != nil {
				return err
			}
		}
	}
	if err := a.checkModes(); err != nil {
		return err
	}
	return a.checkSeats()
}

// checkWritable checks that a file can be written at path, leaving nothing.
func checkWritable(path string) error {
	target, err := atomicfile.Target(path)
	if err != nil {
		return err
	}
	dir := filepath.Dir(target)
	f, err := os.CreateTemp(dir, "."+filepath.Base(path)+".*.tmp")
	if err != nil {
		return err
	}
	f.Close()
	return os.Remove(f.Name())
}
