package engine

import (
	"math"
	"math/bits"
	"time"
)

// rate is a tick rate held as the exact fraction num/den Hz, so that the due
// time of tick k, k*1e9*den/num ns, is computed in integers: no drift, and with
// 128-bit intermediates no overflow for any tick whose due time fits in a
// time.Duration (292 years).
type rate struct {
	num, den uint64 // Hz = num/den, both > 0
	nsNum    uint64 // 1e9 * den: nanoseconds per tick times num
}

// rateDenominator is the finest fraction of a hertz that a non-integer rate keeps:
// 59.94 Hz is held as 5994/100, and 1/3 Hz as 333333/1000000.
const rateDenominator = 1_000_000

// maxHz is the fastest rate the loop accepts: one tick per nanosecond.
const maxHz = 1e9

// newRate converts a rate in Hz to an exact fraction. It reports false for a
// rate that is not a positive finite number, is faster than one tick per
// nanosecond, or is slower than one tick per 1e6 seconds.
func newRate(hz float64) (rate, bool) {
	if math.IsNaN(hz) || math.IsInf(hz, 0) || hz <= 0 || hz > maxHz {
		return rate{}, false
	}
	num, den := uint64(hz), uint64(1)
	if float64(num) != hz {
		scaled := math.Round(hz * rateDenominator)
		if scaled < 1 {
			return rate{}, false
		}
		num, den = uint64(scaled), rateDenominator
		g := gcd(num, den)
		num, den = num/g, den/g
	}
	return rate{num: num, den: den, nsNum: uint64(time.Second) * den}, true
}

func gcd(a, b uint64) uint64 {
	for b != 0 {
		a, b = b, a%b
	}
	return a
}

// due returns the game time at which tick k (k >= 0) is due: floor(k*1e9/Hz) ns.
// It saturates at the largest time.Duration instead of overflowing.
func (r rate) due(k int64) time.Duration {
	hi, lo := bits.Mul64(uint64(k), r.nsNum)
	if hi >= r.num {
		return math.MaxInt64
	}
	q, _ := bits.Div64(hi, lo, r.num)
	if q > math.MaxInt64 {
		return math.MaxInt64
	}
	return time.Duration(q)
}

// ticksAt returns how many ticks are due at game time t >= 0: the largest k with
// due(k) <= t. Because due(k) <= t exactly when k*nsNum < (t+1)*num, that is
// ((t+1)*num - 1) / nsNum.
func (r rate) ticksAt(t time.Duration) int64 {
	hi, lo := bits.Mul64(uint64(t)+1, r.num)
	lo, borrow := bits.Sub64(lo, 1, 0)
	hi -= borrow
	if hi >= r.nsNum {
		return math.MaxInt64
	}
	q, _ := bits.Div64(hi, lo, r.nsNum)
	if q > math.MaxInt64 {
		return math.MaxInt64
	}
	return int64(q)
}

// period returns the length of one tick rounded to the nearest nanosecond.
func (r rate) period() time.Duration {
	return time.Duration((r.nsNum + r.num/2) / r.num)
}

// hz returns the rate as a float64 number of ticks per second.
func (r rate) hz() float64 { return float64(r.num) / float64(r.den) }
