package engine_test

import (
	"math"
	"math/rand/v2"
	"slices"
	"testing"
	"time"

	"github.com/fixedstep/fixedstep/engine"
	"github.com/fixedstep/fixedstep/third_party/donburi"
)

// exactQuantile is the q-quantile of sorted samples in Histogram's sense:
// the smallest sample that at least a fraction q of them do not exceed.
func exactQuantile(sorted []time.Duration, q float64) time.Duration {
	rank := max(int(math.Ceil(q*float64(len(sorted)))), 1)
	return sorted[rank-1]
}

// On synthetic timings spread over seven orders of magnitude (100 ns to
// 1 s, log-uniform, plus a few far outliers), every quantile the histogram
// reports is at least the exact one and at most 6.25% above it; Max and
// Quantile(1) are exact.
func TestHistogramQuantilesWithinABucket(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 7))
	for _, n := range []int{1, 2, 10, 99, 100, 1000, 100_000} {
		var h engine.Histogram
		samples := make([]time.Duration, n)
		for i := range samples {
			d := time.Duration(math.Exp(math.Log(100) + rng.Float64()*(math.Log(1e9)-math.Log(100))))
			if rng.IntN(500) == 0 {
				d *= 40 // a hitch
			}
			samples[i] = d
			h.Record(d)
		}
		slices.Sort(samples)
		if h.Count() != int64(n) || h.Max() != samples[n-1] {
			t.Fatalf("n=%d: Count %d, Max %v; want %d, %v", n, h.Count(), h.Max(), n, samples[n-1])
		}
		for _, q := range []float64{0, 0.01, 0.25, 0.5, 0.9, 0.99, 0.999, 1} {
			exact, got := exactQuantile(samples, q), h.Quantile(q)
			if got < exact || float64(got) > float64(exact)*(1+1.0/16) {
				t.Errorf("n=%d q=%v: Quantile %v, exact %v (allowed up to +6.25%%)", n, q, got, exact)
			}
		}
		if h.Quantile(1) != samples[n-1] {
			t.Errorf("n=%d: Quantile(1) = %v, want the max %v", n, h.Quantile(1), samples[n-1])
		}
	}
}

// Frame times in the shape a game sees them: 99% of ticks at about 4 ms and
// 1% hitches at 30 ms: the p50 says 4 ms, the p99 catches the hitches' edge
// and the p99.9 the hitches.
func TestHistogramSeesHitches(t *testing.T) {
	var h engine.Histogram
	for i := range 10_000 {
		d := 4*time.Millisecond + time.Duration(i%7)*10*time.Microsecond
		if i%100 == 99 {
			d = 30 * time.Millisecond
		}
		h.Record(d)
	}
	if p50 := h.Quantile(0.5); p50 < 4*time.Millisecond || p50 > 4250*time.Microsecond {
		t.Errorf("p50 %v, want about 4 ms", p50)
	}
	if p99 := h.Quantile(0.99); p99 > 4250*time.Microsecond {
		t.Errorf("p99 %v: exactly 1%% of the calls are hitches, so the p99 is the slowest ordinary tick", p99)
	}
	if p := h.Quantile(0.995); p != 30*time.Millisecond {
		t.Errorf("p99.5 %v, want the 30 ms hitch", p)
	}
}

// Bad and edge inputs: an empty histogram, NaN and q out of range, negative
// and very long durations.
func TestHistogramEdges(t *testing.T) {
	var h engine.Histogram
	if h.Quantile(0.5) != 0 || h.Max() != 0 || h.Count() != 0 {
		t.Fatal("empty histogram is not all zero")
	}
	h.Record(-5 * time.Second)
	if h.Quantile(1) != 0 || h.Count() != 1 {
		t.Fatalf("a negative duration: Quantile(1) %v, count %d; want 0, 1", h.Quantile(1), h.Count())
	}
	h.Record(3 * time.Minute) // past the last bucket's bound
	h.Record(2 * time.Hour)
	if got := h.Quantile(1); got != 2*time.Hour {
		t.Errorf("Quantile(1) = %v, want the exact max 2h", got)
	}
	if got := h.Quantile(0.6); got != 2*time.Hour {
		t.Errorf("Quantile(0.6) = %v: a quantile in the last (open) bucket reports the max", got)
	}
	if h.Quantile(math.NaN()) != 0 {
		t.Error("Quantile(NaN) is not 0")
	}
	if h.Quantile(-1) != h.Quantile(0) || h.Quantile(7) != h.Quantile(1) {
		t.Error("q out of [0, 1] is not clamped")
	}
	h.Reset()
	if h.Count() != 0 || h.Quantile(1) != 0 {
		t.Error("Reset left counts")
	}
}

// Record allocates nothing.
func TestHistogramRecordAllocatesNothing(t *testing.T) {
	var h engine.Histogram
	d := time.Duration(1)
	if allocs := testing.AllocsPerRun(1000, func() {
		h.Record(d)
		d = d*3 + 7
	}); allocs != 0 {
		t.Fatalf("Record allocates %v times", allocs)
	}
}

// Every timed call lands in its system's histogram: as many as Timed (all
// of them, timing every run), the same max, and percentiles in order.
func TestSchedulerRecordsPercentiles(t *testing.T) {
	s := engine.NewScheduler(donburi.NewWorld())
	sum := 0
	s.AddUpdate(0, "busy", func(_ donburi.World, ev engine.Event) {
		for i := range 1000 * int(ev.Tick%5+1) {
			sum += i
		}
	})
	s.SetTimingEvery(1)
	for k := range 500 {
		s.Update(engine.Event{Kind: engine.Update, Tick: int64(k)})
	}
	st := &s.Stats()[0]
	if st.Times.Count() != st.Timed || st.Timed != 500 || st.Count != 500 {
		t.Fatalf("histogram holds %d calls, stats count %d; want 500", st.Times.Count(), st.Count)
	}
	if st.Quantile(1) != st.Max || st.Quantile(0.5) > st.Quantile(0.99) || st.Quantile(0.99) > st.Max || st.Quantile(0.5) <= 0 {
		t.Fatalf("p50 %v, p99 %v, max %v", st.Quantile(0.5), st.Quantile(0.99), st.Max)
	}
	s.ResetStats()
	if st := &s.Stats()[0]; st.Times.Count() != 0 || st.Quantile(0.99) != 0 {
		t.Fatal("ResetStats left the histogram")
	}
	_ = sum
}
