package main

import (
	"fmt"
	"math"

	"golang.org/x/perf/benchmath"
)

// confidence is the level of every interval in the tables.
const confidence = 0.95

// summary is the median of unit over b's runs with its 95% confidence
// interval, by golang.org/x/perf/benchmath (AssumeNothing: no assumption
// about the distribution; the interval comes from order statistics, and
// with fewer than 6 runs it is infinite). ok is false if no run reported
// the unit.
func (b *bench) summary(unit string) (s benchmath.Summary, ok bool) {
	if b == nil || len(b.metrics[unit]) == 0 {
		return benchmath.Summary{}, false
	}
	sample := benchmath.NewSample(b.metrics[unit], &benchmath.DefaultThresholds)
	return benchmath.AssumeNothing.Summary(sample, confidence), true
}

// median is the summary's center: the median of unit over b's runs.
func (b *bench) median(unit string) (float64, bool) {
	s, ok := b.summary(unit)
	return s.Center, ok
}

// interval is a value with a confidence interval around it.
type interval struct {
	center, lo, hi float64
}

func fromSummary(s benchmath.Summary) interval { return interval{s.Center, s.Lo, s.Hi} }

// ratioOf is a/b with the interval from a's low end over b's high end to
// a's high end over b's low end: it holds every ratio of a value in a's
// interval to one in b's, so it covers the true ratio whenever both
// intervals cover theirs (at least 90% of the time for two 95% intervals).
func ratioOf(a, b interval) (interval, bool) {
	if b.center == 0 {
		return interval{}, false
	}
	r := interval{center: a.center / b.center, lo: math.Inf(-1), hi: math.Inf(1)}
	if !a.infinite() && !b.infinite() && b.lo > 0 && a.lo >= 0 {
		r.lo, r.hi = a.lo/b.hi, a.hi/b.lo
	}
	return r, true
}

// infinite reports whether the interval is unbounded (too few runs).
func (iv interval) infinite() bool { return math.IsInf(iv.lo, 0) || math.IsInf(iv.hi, 0) }

// pm formats a value and its interval as benchstat does: the value, then
// the largest distance from it to an end of its interval, as a percentage
// of it ("1478 ±3%"); "±∞" with too few runs.
func (iv interval) pm() string {
	v := num(iv.center)
	if iv.infinite() {
		return v + " ±∞"
	}
	if iv.center == 0 {
		if iv.lo == 0 && iv.hi == 0 {
			return v + " ±0%"
		}
		return v + " (" + num(iv.lo) + "–" + num(iv.hi) + ")"
	}
	d := math.Max(math.Abs(iv.hi-iv.center), math.Abs(iv.center-iv.lo)) / math.Abs(iv.center) * 100
	return fmt.Sprintf("%s ±%s%%", v, pct(d))
}

// rng formats a ratio and its interval: "1.17 (1.10–1.25)".
func (iv interval) rng() string {
	if iv.infinite() {
		return fmt.Sprintf("%.2f (±∞)", iv.center)
	}
	return fmt.Sprintf("%.2f (%.2f–%.2f)", iv.center, iv.lo, iv.hi)
}

func pct(d float64) string {
	if d < 10 {
		return fmt.Sprintf("%.1f", d)
	}
	return fmt.Sprintf("%.0f", d)
}

// num formats a figure with four significant digits, and no exponent or
// decimals from 1000 up.
func num(v float64) string {
	if v >= 1000 || v <= -1000 {
		return fmt.Sprintf("%.0f", v)
	}
	return fmt.Sprintf("%.4g", v)
}

// metricPM is unit's median in b with its interval, formatted, or "—".
func metricPM(b *bench, unit string) string {
	s, ok := b.summary(unit)
	if !ok {
		return "—"
	}
	return fromSummary(s).pm()
}

// metric is unit's median in b, formatted, or "—".
func metric(b *bench, unit string) string {
	v, ok := b.median(unit)
	if !ok {
		return "—"
	}
	return num(v)
}
