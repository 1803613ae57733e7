package engine

import (
	"slices"
	"testing"
	"time"

	"github.com/fixedstep/fixedstep/third_party/donburi"
)

// Buckets tile the durations: each bucket's upper bound falls in it, the
// next duration in the next bucket, and no bucket is wider than 1/16 of its
// lower bound.
func TestHistogramBucketsTile(t *testing.T) {
	for i := 0; i < histBuckets-1; i++ {
		up := histUpper(i)
		if histBucket(up) != i || histBucket(up+1) != i+1 {
			t.Fatalf("bucket %d: upper bound %d falls in %d, %d in %d", i, up, histBucket(up), up+1, histBucket(up+1))
		}
		lower := int64(0)
		if i > 0 {
			lower = histUpper(i-1) + 1
		}
		if lower >= histSub && float64(up-lower+1) > float64(lower)/histSub {
			t.Fatalf("bucket %d [%d, %d] is wider than 1/16 of its lower bound", i, lower, up)
		}
	}
	if histBucket(1<<histMaxExp) != histBuckets-1 || histBucket(1<<62) != histBuckets-1 {
		t.Fatal("durations past the range do not go to the last bucket")
	}
	if histUpper(histBuckets-1) != 1<<histMaxExp-1 {
		t.Fatalf("the last bucket ends at %d, want 2^%d-1", histUpper(histBuckets-1), histMaxExp)
	}
}

// addPlain is SystemStats.add without the histogram: the timing the
// scheduler kept before it recorded percentiles.
func (s *SystemStats) addPlain(d time.Duration) {
	s.Count++
	s.Total += d
	s.Last = d
	s.Max = max(s.Max, d)
}

// BenchmarkSchedulerTiming is the cost of timing systems: ten no-op systems
// in one group, untimed, timed as the scheduler times by default (one run
// in DefaultTimingEvery sampled) and timed every call (a clock read, the
// counters and the histogram per call); and, in lockstep, the recording of one call with the
// histogram against the counters alone (batches of 4096 calls of each,
// alternating which goes first, on the durations of a 1-4 ms system), which
// reports both per call and the median of the per-batch ratios, minus one,
// in percent.
func BenchmarkSchedulerTiming(b *testing.B) {
	for _, c := range []struct {
		name  string
		every int // 0: untimed
	}{{"untimed", 0}, {"timed", DefaultTimingEvery}, {"timed-every-call", 1}} {
		b.Run(c.name, func(b *testing.B) {
			s := NewScheduler(nil)
			for range 10 {
				s.AddUpdate(0, "noop", func(donburi.World, Event) {})
			}
			s.SetTiming(c.every > 0)
			s.SetTimingEvery(c.every)
			ev := Event{Kind: Update}
			b.ReportAllocs()
			for b.Loop() {
				s.Update(ev)
			}
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*10), "ns/system")
		})
	}
	b.Run("record", func(b *testing.B) {
		const batch = 4096
		durations := make([]time.Duration, batch)
		for i := range durations {
			durations[i] = time.Millisecond + time.Duration(i*7919%3000)*time.Microsecond
		}
		var withHist, plain SystemStats
		timeBatch := func(add func(time.Duration), into *[]float64) {
			t := nanotime()
			for _, d := range durations {
				add(d)
			}
			*into = append(*into, float64(nanotime()-t)/batch)
		}
		var histNs, plainNs []float64
		i := 0
		for b.Loop() {
			if i++; i%2 == 0 {
				timeBatch(withHist.add, &histNs)
				timeBatch(plain.addPlain, &plainNs)
			} else {
				timeBatch(plain.addPlain, &plainNs)
				timeBatch(withHist.add, &histNs)
			}
		}
		ratios := make([]float64, len(histNs))
		for i := range histNs {
			ratios[i] = histNs[i] / plainNs[i]
		}
		b.ReportMetric(medianOf(histNs), "engine-ns/call")
		b.ReportMetric(medianOf(plainNs), "raw-ns/call")
		b.ReportMetric((medianOf(ratios)-1)*100, "overhead-%")
	})
}

func medianOf(xs []float64) float64 {
	xs = slices.Clone(xs)
	slices.Sort(xs)
	return xs[len(xs)/2]
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
