// Command stutter measures whether the demo's Stress scene stutters: the
// p50, p99 and maximum of its physics tick times and of its frame times over
// a long run, headless (a manual clock, as fast as the CPU goes) or in a
// window (the real clock, vsync), under several garbage collector settings.
//
// Each setting runs in a process of its own (the command runs itself with
// GOGC and GOMEMLIMIT set), the settings in turn, -count times, so that the
// machine's drift spreads over all of them. Every run prints one line in
// `go test -bench` format, which benchstat and cmd/benchtable read:
//
//	BenchmarkStutter/mode=headless/bodies=2000/gc=100  1  <ns>  <p50> tick-p50-ms  <p99> tick-p99-ms ...
//
// A tick is timed from the event that runs it to the next event (the
// scene's spawn and physics systems), by the wall clock and, headless on
// Linux, by its thread's CPU time: the first is what the player waits, the
// second leaves out what other processes took meanwhile, and the garbage
// collector's stop-the-world pauses. A frame is timed from the start of one frame (its
// Input event) to the start of the next, so in a window it includes the
// wait for vsync. The first -skip seconds of game time (the pour and the
// settling) are left out.
//
// Usage:
//
//	go run ./cmd/stutter -gc 100,400,off:1GiB -count 6                  # headless
//	xvfb-run -a go run ./cmd/stutter -window -seconds 20 -gc 100,400    # in a window
//	xvfb-run -a go run ./cmd/stutter -window -serial -gc 100            # ticks and drawing not pipelined
//
// A window run is named mode=window when its ticks ran pipelined with its
// drawing (window.Options.Serial), mode=window-serial when not (-serial, or
// GOMAXPROCS=1); it also reports its frames a second, the frames pipelined
// and GOMAXPROCS.
package main

import (
	"flag"
	"fmt"
	"os"
	"strings"
	"time"
)

func main() {
	cfg := config{}
	var gc string
	flag.IntVar(&cfg.bodies, "bodies", 2000, "balls in the Stress scene")
	flag.Float64Var(&cfg.seconds, "seconds", 60, "game seconds measured, after -skip")
	flag.Float64Var(&cfg.skip, "skip", 5, "game seconds left out at the start (the pour)")
	flag.BoolVar(&cfg.window, "window", false, "run in a window (real clock, vsync) instead of headless")
	flag.BoolVar(&cfg.serial, "serial", false, "in a window, run ticks and drawing one after the other (window.Options.Serial) instead of pipelined")
	flag.BoolVar(&cfg.sleeping, "sleeping", false, "keep the scene's sleeping on (off by default: a resting pile that sleeps allocates nothing and shows no stutter)")
	flag.StringVar(&gc, "gc", "100,400,off:1GiB", "garbage collector settings, comma-separated: GOGC values, or GOGC:GOMEMLIMIT")
	flag.IntVar(&cfg.count, "count", 1, "runs of each setting")
	flag.IntVar(&cfg.checksumEvery, "checksum-every", 0, "record the run in memory with a state checksum every N ticks (0: none)")
	flag.IntVar(&cfg.keyframes, "keyframes", 0, "record the run in memory and keep a keyframe every N ticks for a step back, as a window run of cli.App does (0: none)")
	flag.BoolVar(&cfg.child, "child", false, "(internal) run once with the environment's GC settings")
	flag.Parse()
	settings, err := parseSettings(gc)
	if err != nil {
		fmt.Fprintln(os.Stderr, "stutter: -gc:", err)
		os.Exit(2)
	}
	cfg.settings = settings
	if err := Run(cfg, os.Stdout); err != nil {
		fmt.Fprintln(os.Stderr, "stutter:", err)
		os.Exit(1)
	}
}

// config is the command line.
type config struct {
	bodies        int
	seconds, skip float64
	window        bool
	serial        bool
	sleeping      bool
	settings      []gcSetting
	checksumEvery int // 0: the run is not recorded
	keyframes     int
	count         int
	child         bool
}

// A gcSetting is one garbage collector configuration: a GOGC value ("100",
// "400", "off") and a GOMEMLIMIT ("" for none).
type gcSetting struct {
	GOGC, MemLimit string
}

// name is the setting as it appears in a benchmark name: gc=100,
// gc=off+limit=1GiB.
func (s gcSetting) name() string {
	if s.MemLimit == "" {
		return "gc=" + s.GOGC
	}
	return "gc=" + s.GOGC + "+limit=" + s.MemLimit
}

// parseSettings reads -gc: comma-separated GOGC or GOGC:GOMEMLIMIT.
func parseSettings(spec string) ([]gcSetting, error) {
	var out []gcSetting
	for _, f := range strings.Split(spec, ",") {
		f = strings.TrimSpace(f)
		gogc, limit, _ := strings.Cut(f, ":")
		if gogc == "" {
			return nil, fmt.Errorf("%q: empty GOGC", f)
		}
		if gogc != "off" {
			var n int
			if _, err := fmt.Sscanf(gogc, "%d", &n); err != nil || n <= 0 || fmt.Sprint(n) != gogc {
				return nil, fmt.Errorf("%q: GOGC must be a positive integer or off", f)
			}
		}
		if limit != "" {
			if _, err := parseBytes(limit); err != nil {
				return nil, fmt.Errorf("%q: %w", f, err)
			}
		}
		out = append(out, gcSetting{GOGC: gogc, MemLimit: limit})
	}
	return out, nil
}

// parseBytes reads a GOMEMLIMIT value: a number of bytes with an optional
// B, KiB, MiB, GiB or TiB suffix.
func parseBytes(s string) (int64, error) {
	units := []struct {
		suffix string
		mult   int64
	}{{"TiB", 1 << 40}, {"GiB", 1 << 30}, {"MiB", 1 << 20}, {"KiB", 1 << 10}, {"B", 1}}
	mult := int64(1)
	num := s
	for _, u := range units {
		if rest, ok := strings.CutSuffix(s, u.suffix); ok {
			num, mult = rest, u.mult
			break
		}
	}
	var n int64
	if _, err := fmt.Sscanf(num, "%d", &n); err != nil || n <= 0 || fmt.Sprint(n) != num {
		return 0, fmt.Errorf("memory limit %q: want a positive number of bytes, with B, KiB, MiB, GiB or TiB", s)
	}
	return n * mult, nil
}

// measured is the game time a run measures, after the skipped part.
func (c config) measured() time.Duration { return time.Duration(c.seconds * float64(time.Second)) }
