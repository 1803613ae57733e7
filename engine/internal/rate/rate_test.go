package rate

import (
	"math"
	"math/rand/v2"
	"testing"
	"time"
)

// Rule 2: due times are exact and never overflow: a year of game time at 1 kHz,
// non-integer rates, and ticksAt is due's exact inverse.
func TestRateDueIsExact(t *testing.T) {
	r, _ := New(1000)
	const year = 365 * 24 * time.Hour
	k := int64(year / time.Millisecond)
	if got := r.Due(k); got != year {
		t.Fatalf("1 kHz tick %d due at %v, want %v", k, got, year)
	}
	if got := r.TicksAt(year); got != k {
		t.Fatalf("ticksAt(1 year) = %d, want %d", got, k)
	}
	ntsc, _ := New(59.94)
	if ntsc.Num != 2997 || ntsc.Den != 50 {
		t.Fatalf("59.94 Hz held as %d/%d", ntsc.Num, ntsc.Den)
	}
	if got := ntsc.Due(2997); got != 50*time.Second {
		t.Fatalf("59.94 Hz tick 2997 due at %v, want 50s", got)
	}
	// A rate that is a ratio of integers is kept exactly: 1/7 Hz runs
	// floor(year/7 s) ticks in a year, 60000/1001 Hz is NTSC exactly.
	for _, c := range []struct {
		hz       float64
		num, den uint64
	}{{1.0 / 7, 1, 7}, {60000.0 / 1001, 60000, 1001}, {1.0 / 3, 1, 3}, {0.1, 1, 10}, {2.0 / 3e5, 1, 150000}, {1e-6, 1, 1000000}} {
		r, ok := New(c.hz)
		if !ok || r.Num != c.num || r.Den != c.den {
			t.Fatalf("%v Hz held as %d/%d, want %d/%d", c.hz, r.Num, r.Den, c.num, c.den)
		}
	}
	seventh, _ := New(1.0 / 7)
	if got, want := seventh.TicksAt(year), int64(year/(7*time.Second)); got != want {
		t.Fatalf("1/7 Hz: %d ticks in a year, want %d", got, want)
	}
	// A float64 that is no ratio of small integers is kept as the nearest
	// fraction with a denominator up to 1e9.
	odd, _ := New(math.Pi)
	if odd.Den > maxRateDen || math.Abs(float64(odd.Num)/float64(odd.Den)-math.Pi) > 1e-17 {
		t.Fatalf("pi Hz held as %d/%d", odd.Num, odd.Den)
	}
	rng := rand.New(rand.NewPCG(1, 1))
	for _, hz := range []float64{60, 25, 10, 7, 144, 59.94, 1.0 / 3, 1e9, 0.000001} {
		r, ok := New(hz)
		if !ok {
			t.Fatalf("%v Hz refused", hz)
		}
		for range 2000 {
			k := rng.Int64N(1 << 40)
			d := r.Due(k)
			if r.TicksAt(d) != k && r.Due(k+1) != d { // equal due times can only happen above 1 GHz
				t.Fatalf("%v Hz: ticksAt(due(%d)=%v) = %d", hz, k, d, r.TicksAt(d))
			}
			if d > 0 && r.TicksAt(d-1) >= k {
				t.Fatalf("%v Hz: ticksAt(due(%d)-1) = %d", hz, k, r.TicksAt(d-1))
			}
		}
	}
	for _, hz := range []float64{0, -1, 2e9, 1e-7, math.Nextafter(1e-6, 0), math.NaN(), math.Inf(1)} {
		if _, ok := New(hz); ok {
			t.Fatalf("%v Hz accepted", hz)
		}
	}
}
