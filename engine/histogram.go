package engine

import (
	"math"
	"math/bits"
	"time"
)

// Histogram buckets (see [Histogram]): durations below histSub ns have a
// bucket each; above, every power of two from 2^histSubBits to
// 2^(histMaxExp-1) ns is cut into histSub buckets of equal width.
const (
	histSubBits = 4
	histSub     = 1 << histSubBits // buckets per power of two
	histMaxExp  = 36               // 2^36 ns ≈ 68.7 s: longer durations share the last bucket
	histBuckets = (histMaxExp - histSubBits + 1) * histSub
)

// A Histogram counts durations, for percentiles: the p99 of a system's time
// per call, or of a frame's. It keeps no samples, only counts in fixed
// buckets: 16 per power of two, so a bucket is at most 1/16 (6.25%) of its
// lower bound wide, from 1 ns to 2^36 ns (about 68.7 s; longer durations are
// counted in the last bucket, and the exact maximum is kept). Its size is
// fixed (about 4.2 KB) whatever it records.
//
// The zero value is an empty histogram, ready to use. [Histogram.Record]
// allocates nothing and costs a few nanoseconds (BenchmarkSchedulerTiming).
// A Histogram is a plain value: copying one copies its counts.
type Histogram struct {
	counts [histBuckets]int64
	n      int64
	max    time.Duration
}

// Record counts one duration. A negative duration counts as 0.
func (h *Histogram) Record(d time.Duration) {
	d = max(d, 0)
	h.counts[histBucket(int64(d))]++
	h.n++
	h.max = max(h.max, d)
}

// Count returns how many durations were recorded.
func (h *Histogram) Count() int64 { return h.n }

// Max returns the longest duration recorded, exactly; 0 before the first.
func (h *Histogram) Max() time.Duration { return h.max }

// Reset empties the histogram.
func (h *Histogram) Reset() { *h = Histogram{} }

// Quantile returns the q-quantile of the durations recorded: the smallest
// bucket bound that at least a fraction q of them do not exceed (Quantile(0.5)
// is the median, Quantile(0.99) the p99). It reports the upper bound of the
// bucket the quantile falls in, capped at [Histogram.Max], so it is never
// below the true quantile and at most 6.25% above it; Quantile(1) is Max
// exactly. q outside [0, 1] is clamped to it; NaN, or an empty histogram,
// gives 0. It reads up to every bucket (a few hundred) and allocates nothing.
func (h *Histogram) Quantile(q float64) time.Duration {
	if h.n == 0 || math.IsNaN(q) {
		return 0
	}
	q = min(max(q, 0), 1)
	//detcheck:ok a timing statistic, not game state; q in [0, 1]
	rank := max(int64(math.Ceil(q*float64(h.n))), 1) // 1-based
	seen := int64(0)
	for i, c := range h.counts {
		if seen += c; seen >= rank {
			if i == histBuckets-1 {
				return h.max
			}
			return min(time.Duration(histUpper(i)), h.max)
		}
	}
	return h.max
}

// histBucket is the bucket of a duration of d >= 0 ns.
func histBucket(d int64) int {
	if d < histSub {
		return int(d)
	}
	e := bits.Len64(uint64(d)) - 1 // 2^e <= d < 2^(e+1), e >= histSubBits
	if e >= histMaxExp {
		return histBuckets - 1
	}
	sub := int(d>>(e-histSubBits)) & (histSub - 1)
	return (e-histSubBits+1)*histSub + sub
}

// histUpper is the largest duration, in ns, that falls in bucket i.
func histUpper(i int) int64 {
	if i < histSub {
		return int64(i)
	}
	e := i/histSub + histSubBits - 1
	width := int64(1) << (e - histSubBits)
	lower := int64(histSub+i%histSub) * width
	return lower + width - 1
}
