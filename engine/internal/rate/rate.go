// Package rate holds a tick rate as an exact fraction of hertz, so that
// the due time of any tick is computed in integers: no drift, no overflow
// for any tick due within what a time.Duration holds.
package rate

import (
	"math"
	"math/big"
	"math/bits"
	"time"
)

// Rate is a tick rate held as the exact fraction Num/Den Hz, so that the due
// time of tick k, k*1e9*Den/Num ns, is computed in integers: no drift, and with
// 128-bit intermediates no overflow for any tick whose due time fits in a
// time.Duration (292 years). Its zero value is no rate: make one with New.
type Rate struct {
	Num, Den uint64 // Hz = Num/Den, both > 0
	nsNum    uint64 // 1e9 * Den: nanoseconds per tick times Num
}

// Limits of a rate: at most one tick per nanosecond (MaxHz), at least one
// tick per million seconds (MinHz), and the fraction's denominator at most
// maxRateDen (which keeps 1e9*Den and Num inside 64 bits).
const (
	MaxHz      = 1e9
	MinHz      = 1e-6
	maxRateDen = 1_000_000_000
)

// New converts a rate in Hz to an exact fraction: the fraction with the
// smallest denominator that rounds to hz as a float64, so that a rate written
// as a ratio of integers is kept exactly (1.0/7 is 1/7 Hz, 59.94 is 2997/50,
// 60000/1001.0 is 60000/1001). A float64 that no such fraction with a
// denominator up to maxRateDen rounds to (never a ratio of small integers)
// is kept as the fraction nearest to it with a denominator up to maxRateDen.
// It reports false for a rate that is not a finite number in [MinHz, MaxHz].
func New(hz float64) (Rate, bool) {
	if !(hz >= MinHz && hz <= MaxHz) { // also refuses NaN
		return Rate{}, false
	}
	num, den := uint64(hz), uint64(1)
	if float64(num) != hz {
		num, den = simplestFraction(hz)
	}
	return Rate{Num: num, Den: den, nsNum: uint64(time.Second) * den}, true
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
	if bestN == 0 { // x below 1/maxRateDen: cannot happen above MinHz
		return 1, maxRateDen
	}
	return bestN, bestD
}

// fraction returns f as num/den when both fit a rate (den up to maxRateDen,
// num > 0 and up to MaxHz*maxRateDen).
func fraction(f *big.Rat) (num, den uint64, ok bool) {
	n, d := f.Num(), f.Denom()
	if !n.IsUint64() || !d.IsUint64() || d.Uint64() > maxRateDen || n.Sign() <= 0 || n.Uint64() > MaxHz*maxRateDen {
		return 0, 0, false
	}
	return n.Uint64(), d.Uint64(), true
}

// Due returns the game time at which tick k (k >= 0) is due: floor(k*1e9/Hz) ns.
// It saturates at the largest time.Duration instead of overflowing.
func (r Rate) Due(k int64) time.Duration {
	hi, lo := bits.Mul64(uint64(k), r.nsNum)
	if hi >= r.Num {
		return math.MaxInt64
	}
	q, _ := bits.Div64(hi, lo, r.Num)
	if q > math.MaxInt64 {
		return math.MaxInt64
	}
	return time.Duration(q)
}

// TicksAt returns how many ticks are due at game time t >= 0: the largest k with
// Due(k) <= t. Because Due(k) <= t exactly when k*nsNum < (t+1)*Num, that is
// ((t+1)*num - 1) / nsNum.
func (r Rate) TicksAt(t time.Duration) int64 {
	hi, lo := bits.Mul64(uint64(t)+1, r.Num)
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

// Period returns the length of one tick rounded to the nearest nanosecond.
func (r Rate) Period() time.Duration {
	return time.Duration((r.nsNum + r.Num/2) / r.Num)
}

// Hz returns the rate as a float64 number of ticks per second.
func (r Rate) Hz() float64 { return float64(r.Num) / float64(r.Den) }
