package engine

import (
	"fmt"
	"math"
	"time"

	"github.com/fixedstep/fixedstep/engine/internal/rate"
)

// Defaults of [Config] fields left at zero.
const (
	DefaultMaxDelta           = 250 * time.Millisecond
	DefaultMaxUpdatesPerFrame = 8
	DefaultPacingTolerance    = 2 * time.Millisecond
	DefaultHz                 = 60

	// MaxDeltaLimit is the largest MaxDelta accepted. It keeps a frame's
	// game time, plus the carry of pacing, far inside int64 nanoseconds: at
	// most 2.5 million frames of it fit in a time.Duration (292 years).
	MaxDeltaLimit = time.Hour
)

// Overrun says what the loop does with game time it could not simulate because
// a frame reached [Config.MaxUpdatesPerFrame].
type Overrun uint8

const (
	// Drop forgets the time left over: the game slows down instead of spiralling,
	// and the loss is reported in [LoopStats.Dropped]. The default.
	Drop Overrun = iota
	// Carry keeps the ticks owed and runs them in later frames, each frame still
	// bounded by MaxUpdatesPerFrame; [LoopStats.Owed] says how far behind it is.
	Carry
)

func (o Overrun) String() string {
	switch o {
	case Drop:
		return "drop"
	case Carry:
		return "carry"
	}
	return fmt.Sprintf("Overrun(%d)", uint8(o))
}

// Config is the loop's behaviour. Its zero value is the default everywhere;
// a value that cannot be meant (a negative duration, a NaN scale) is an error
// from [Run] or [NewHeadlessLoop] that names the field, never a silent default.
type Config struct {
	// MaxDelta bounds the game time one frame may add, so that a stall (a
	// suspended process, a breakpoint, a dragged window) costs at most this much
	// catch-up. 0 means DefaultMaxDelta (250 ms); negative or more than
	// MaxDeltaLimit (an hour) is an error.
	MaxDelta time.Duration

	// MaxUpdatesPerFrame bounds the ticks of each group between two renders, so
	// a slow machine still draws. 0 means DefaultMaxUpdatesPerFrame; negative is
	// an error.
	MaxUpdatesPerFrame int

	// Overrun is what happens to the time left over when a frame hits
	// MaxUpdatesPerFrame: Drop (default) or Carry.
	Overrun Overrun

	// PacingTolerance is how close a frame's elapsed time must be to a whole
	// number of ticks of the first group to be snapped to it, so that a display
	// at the tick rate gets exactly one tick per frame despite jitter. The
	// difference is carried, so the long-run tick count stays exact. It is
	// capped at a quarter of the first group's step. 0 means
	// DefaultPacingTolerance (2 ms); negative is an error.
	PacingTolerance time.Duration

	// NoPacing turns snapping off: a plain accumulator.
	NoPacing bool

	// TimeScale multiplies elapsed time; 0.5 runs the game at half speed.
	// 0 means 1; negative, NaN or infinite is an error. (At run time,
	// [Loop.SetTimeScale] accepts 0 to freeze time.)
	TimeScale float64
}

// A ConfigError is a configuration value the engine refuses. Field names it as
// written in Go, for example "Config.MaxDelta" or "Groups[1].Hz".
type ConfigError struct {
	Field  string
	Value  any
	Reason string
}

func (e *ConfigError) Error() string {
	return fmt.Sprintf("engine: %s = %v: %s", e.Field, e.Value, e.Reason)
}

// withDefaults checks c and returns it with zero fields set to their defaults.
func (c Config) withDefaults() (Config, error) {
	if c.MaxDelta < 0 || c.MaxDelta > MaxDeltaLimit {
		return c, &ConfigError{"Config.MaxDelta", c.MaxDelta, fmt.Sprintf("must be in [0, %v] (0 selects %v)", MaxDeltaLimit, DefaultMaxDelta)}
	}
	if c.MaxDelta == 0 {
		c.MaxDelta = DefaultMaxDelta
	}
	if c.MaxUpdatesPerFrame < 0 {
		return c, &ConfigError{"Config.MaxUpdatesPerFrame", c.MaxUpdatesPerFrame, "must be at least 1 (0 selects the default)"}
	}
	if c.MaxUpdatesPerFrame == 0 {
		c.MaxUpdatesPerFrame = DefaultMaxUpdatesPerFrame
	}
	if c.Overrun != Drop && c.Overrun != Carry {
		return c, &ConfigError{"Config.Overrun", c.Overrun, "must be Drop or Carry"}
	}
	if c.PacingTolerance < 0 {
		return c, &ConfigError{"Config.PacingTolerance", c.PacingTolerance, "must not be negative (set NoPacing to turn pacing off)"}
	}
	if c.PacingTolerance == 0 {
		c.PacingTolerance = DefaultPacingTolerance
	}
	if err := checkScale("Config.TimeScale", c.TimeScale); err != nil {
		return c, err
	}
	if c.TimeScale == 0 {
		c.TimeScale = 1
	}
	return c, nil
}

// maxTimeScale keeps scaled frame times well inside int64 nanoseconds.
const maxTimeScale = 1 << 20

func checkScale(field string, s float64) error {
	if math.IsNaN(s) || math.IsInf(s, 0) || s < 0 || s > maxTimeScale {
		return &ConfigError{field, s, fmt.Sprintf("must be a finite number in [0, %d]", maxTimeScale)}
	}
	return nil
}

// A Group is a fixed-rate update group: its systems run in ticks of exactly
// 1/Hz seconds of game time, tick k being due at k*1e9/Hz ns (k = 1, 2, ...).
// Any rate from one tick per million seconds (1e-6 Hz) to one per
// nanosecond (1e9 Hz) works, not only divisors of one another: 60, 25 and
// 10 Hz run side by side.
//
// The rate is held as an exact fraction: the one with the smallest
// denominator that rounds to Hz as a float64, so a rate written as a ratio
// of integers is kept exactly (1.0/7 is 1/7 Hz and runs 4,505,142 ticks in a
// 365-day year; 59.94 is 2997/50; 60000/1001.0 is NTSC's 60000/1001). A
// float64 that is no such ratio with a denominator up to 1e9 (math.Pi, say)
// is kept as the nearest fraction with a denominator up to 1e9.
//
// Names tell groups apart (in the scheduler, the overlay and recordings):
// two groups of a scene may not share a name.
type Group struct {
	Name string
	Hz   float64
}

func checkGroups(groups []Group) ([]rate.Rate, error) {
	rates := make([]rate.Rate, len(groups))
	for i, g := range groups {
		r, ok := rate.New(g.Hz)
		if !ok {
			return nil, &ConfigError{fmt.Sprintf("Groups[%d].Hz (%q)", i, g.Name), g.Hz,
				fmt.Sprintf("must be a finite rate in [%g, %g] Hz (one tick per million seconds to one per nanosecond)", rate.MinHz, rate.MaxHz)}
		}
		for j := range i {
			if groups[j].Name == g.Name {
				return nil, &ConfigError{fmt.Sprintf("Groups[%d].Name", i), g.Name,
					fmt.Sprintf("Groups[%d] has that name already: group names must differ", j)}
			}
		}
		rates[i] = r
	}
	return rates, nil
}
