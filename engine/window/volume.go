package window

import (
	"math"
	"sync/atomic"
)

// The player's sound settings: a volume and a mute, for every game in the
// process (cli.App's -volume and -mute set them). Sounds read them when
// they start (package systems/sound).
var (
	volumeBits atomic.Uint64 // math.Float64bits of the volume; 0 bits: 1
	muted      atomic.Bool
)

// SetVolume sets the volume of the sounds that start from now on, from 0
// (silent) to 1 (as recorded); outside that (or NaN) it is clamped.
func SetVolume(v float64) {
	if math.IsNaN(v) {
		v = 0
	}
	v = max(0, min(v, 1))
	volumeBits.Store(math.Float64bits(v) ^ math.Float64bits(1))
}

// Volume returns the volume set by SetVolume; 1 before any.
func Volume() float64 { return math.Float64frombits(volumeBits.Load() ^ math.Float64bits(1)) }

// SetMuted mutes or unmutes the sounds that start from now on.
func SetMuted(m bool) { muted.Store(m) }

// Muted reports whether sounds are muted.
func Muted() bool { return muted.Load() }
