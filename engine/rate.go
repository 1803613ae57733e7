package engine

import (
	"math"
	"math/big"
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

// Limits of a rate: at most one tick per nanosecond, at least one tick per
// million seconds, and the fraction's denominator at most maxRateDen (which
// keeps 1e9*den and num inside 64 bits).
const (
	maxHz      = 1e9
	minHz      = 1e-6
	maxRateDen = 1_000_000_000
)

// newRate converts a rate in Hz to an exact fraction: the fraction with the
// smallest denominator that rounds to hz as a float64, so that a rate written
// as a ratio of integers is kept exactly (1.0/7 is 1/7 Hz, 59.94 is 2997/50,
// 60000/1001.0 is 60000/1001). A float64 that no such fraction with a
// denominator up to maxRateDen rounds to (never a ratio of small integers)
// is kept as the fraction nearest to it with a denominator up to maxRateDen.
// It reports false for a rate that is not a finite number in [minHz, maxHz].
func newRate(hz float64) (rate, bool) {
	if !(hz >= minHz && hz <= maxHz) { // also refuses NaN
		return rate{}, false
	}
	num, den := uint64(hz), uint64(1)
	if float64(num) != hz {
		num, den = simplestFraction(hz)
	}
	return rate{num: num, den: den, nsNum: uint64(time.Second) * den}, true
}

// simplestFraction returns the fraction with the smallest denominator among
// those that round to x (x > 0), or, when its denominator would pass
// maxRateDen, the best approximation of x with a denominator up to it.
func simplestFraction(x float64) (num, den uint64) {
	exact := new(big.Rat).SetFloat64(x)
	// The reals that round to x lie between the midpoints to its neighbours.
	lo := new(big.Rat).Add(exact, new(big.Rat).SetFloat64(math.Nextafter(x, 0)))
	lo.Quo(lo, big.NewRat(2, 1))
	hi := new(big.Rat).Add(exact, new(big.Rat).SetFloat64(math.Nextafter(x, math.Inf(1))))
	hi.Quo(hi, big.NewRat(2, 1))
	if f := simplestBetween(lo, hi); f.Denom().IsUint64() && f.Denom().Uint64() <= maxRateDen {
		if n, d, ok := fraction(f); ok {
			if v, _ := f.Float64(); v == x {
				return n, d
			}
		}
	}
	return nearestFraction(exact)
}

// simplestBetween returns the fraction with the smallest denominator in the
// open interval (lo, hi), 0 < lo < hi, by continued fractions (the
// Stern-Brocot tree): if a whole number lies strictly inside, the smallest
// such; otherwise a + 1/simplestBetween(1/(hi-a), 1/(lo-a)) with a = floor(lo).
func simplestBetween(lo, hi *big.Rat) *big.Rat {
	a := new(big.Int).Quo(lo.Num(), lo.Denom()) // floor(lo), lo > 0
	next := new(big.Rat).SetInt(new(big.Int).Add(a, big.NewInt(1)))
	if next.Cmp(hi) < 0 {
		return next
	}
	ar := new(big.Rat).SetInt(a)
	if ar.Cmp(lo) == 0 { // lo is whole: the interval lies in (a, a+1)
		// fall through: 1/(hi-a) is finite, 1/(lo-a) is infinite
		inner := simplestAbove(new(big.Rat).Inv(new(big.Rat).Sub(hi, ar)))
		return ar.Add(ar, inner.Inv(inner))
	}
	inner := simplestBetween(new(big.Rat).Inv(new(big.Rat).Sub(hi, ar)), new(big.Rat).Inv(new(big.Rat).Sub(lo, ar)))
	return ar.Add(ar, inner.Inv(inner))
}

// simplestAbove returns the simplest fraction greater than lo: the smallest
// whole number above it.
func simplestAbove(lo *big.Rat) *big.Rat {
	a := new(big.Int).Quo(lo.Num(), lo.Denom())
	return new(big.Rat).SetInt(a.Add(a, big.NewInt(1)))
}

// nearestFraction returns the convergent of x's continued fraction with the
// largest denominator up to maxRateDen: the nearest fraction to x with a
// denominator that small, or nearly.
func nearestFraction(x *big.Rat) (num, den uint64) {
	// h/k are the convergents: h(n) = a(n)h(n-1) + h(n-2), and k likewise.
	h0, h1 := big.NewInt(0), big.NewInt(1)
	k0, k1 := big.NewInt(1), big.NewInt(0)
	r := new(big.Rat).Set(x)
	bestN, bestD := uint64(0), uint64(0)
	for range 100 {
		a := new(big.Int).Quo(r.Num(), r.Denom())
		h2 := new(big.Int).Add(new(big.Int).Mul(a, h1), h0)
		k2 := new(big.Int).Add(new(big.Int).Mul(a, k1), k0)
		f := new(big.Rat).SetFrac(h2, k2)
		n, d, ok := fraction(f)
		if !ok {
			break
		}
		bestN, bestD = n, d
		frac := new(big.Rat).Sub(r, new(big.Rat).SetInt(a))
		if frac.Sign() == 0 {
			break
		}
		r.Inv(frac)
		h0, h1, k0, k1 = h1, h2, k1, k2
	}
	if bestN == 0 { // x below 1/maxRateDen: cannot happen above minHz
		return 1, maxRateDen
	}
	return bestN, bestD
}

// fraction returns f as num/den when both fit a rate (den up to maxRateDen,
// num > 0 and up to maxHz*maxRateDen).
func fraction(f *big.Rat) (num, den uint64, ok bool) {
	n, d := f.Num(), f.Denom()
	if !n.IsUint64() || !d.IsUint64() || d.Uint64() > maxRateDen || n.Sign() <= 0 || n.Uint64() > maxHz*maxRateDen {
		return 0, 0, false
	}
	return n.Uint64(), d.Uint64(), true
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
