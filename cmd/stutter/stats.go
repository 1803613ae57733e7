package main

import (
	"math"
	"slices"
	"time"
)

// pcts are the percentiles a run reports.
type pcts struct{ p50, p99, max time.Duration }

// percentiles returns the p50, p99 and maximum of ds by nearest rank: the
// q-quantile is the smallest value that at least a fraction q of the values
// do not exceed (so the p99 of 100 values is the 99th smallest). ds is not
// changed; an empty ds gives zeros.
func percentiles(ds []time.Duration) pcts {
	if len(ds) == 0 {
		return pcts{}
	}
	s := slices.Clone(ds)
	slices.Sort(s)
	q := func(q float64) time.Duration {
		return s[max(int(math.Ceil(q*float64(len(s)))), 1)-1]
	}
	return pcts{p50: q(0.5), p99: q(0.99), max: s[len(s)-1]}
}
