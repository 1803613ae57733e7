package engine

import (
	"math/rand/v2"
	"testing"
	"time"
)

// Rule 2: due times are exact and never overflow: a year of game time at 1 kHz,
// non-integer rates, and ticksAt is due's exact inverse.
func TestRateDueIsExact(t *testing.T) {
	r, _ := newRate(1000)
	const year = 365 * 24 * time.Hour
	k := int64(year / time.Millisecond)
	if got := r.due(k); got != year {
		t.Fatalf("1 kHz tick %d due at %v, want %v", k, got, year)
	}
	if got := r.ticksAt(year); got != k {
		t.Fatalf("ticksAt(1 year) = %d, want %d", got, k)
	}
	ntsc, _ := newRate(59.94)
	if ntsc.num != 2997 || ntsc.den != 50 {
		t.Fatalf("59.94 Hz held as %d/%d", ntsc.num, ntsc.den)
	}
	if got := ntsc.due(2997); got != 50*time.Second {
		t.Fatalf("59.94 Hz tick 2997 due at %v, want 50s", got)
	}
	rng := rand.New(rand.NewPCG(1, 1))
	for _, hz := range []float64{60, 25, 10, 7, 144, 59.94, 1.0 / 3, 1e9, 0.000001} {
		r, ok := newRate(hz)
		if !ok {
			t.Fatalf("%v Hz refused", hz)
		}
		for range 2000 {
			k := rng.Int64N(1 << 40)
			d := r.due(k)
			if r.ticksAt(d) != k && r.due(k+1) != d { // equal due times can only happen above 1 GHz
				t.Fatalf("%v Hz: ticksAt(due(%d)=%v) = %d", hz, k, d, r.ticksAt(d))
			}
			if d > 0 && r.ticksAt(d-1) >= k {
				t.Fatalf("%v Hz: ticksAt(due(%d)-1) = %d", hz, k, r.ticksAt(d-1))
			}
		}
	}
	for _, hz := range []float64{0, -1, 2e9, 1e-7} {
		if _, ok := newRate(hz); ok {
			t.Fatalf("%v Hz accepted", hz)
		}
	}
}

// BenchmarkNanotime is the cost of the clock read the scheduler makes after
// every system.
func BenchmarkNanotime(b *testing.B) {
	var sink int64
	for b.Loop() {
		sink += nanotime()
	}
	_ = sink
}
