package main

import (
	"fmt"
	"strings"
)

// bodymarkVariants describes the variants of BenchmarkBodymark
// (scenes/bodymark_test.go), in its order.
var bodymarkVariants = []struct{ name, what string }{
	{"raw-cp", "raw cp, its defaults: a bare space stepped by a plain loop (the baseline)"},
	{"engine-cp-defaults", "the engine, cp's defaults"},
	{"engine-hash", "the engine, cp's spatial hash (the scene's cells), sleeping off: every ball awake"},
	{"engine-hash-iter5", "the same with 5 solver iterations instead of 10 (a softer pile)"},
	{"engine-tuned-at-rest", "the engine, the scene's settings (hash, sleeping), once the pile sleeps"},
}

// bodymarkSection is the table of BenchmarkBodymark.
func bodymarkSection(r *results, bs []*bench) string {
	var sb strings.Builder
	sb.WriteString(measuredLine(r, bs))
	var settings []*bench
	for _, b := range bs {
		if strings.HasPrefix(b.name, "BenchmarkStressSettings/") {
			settings = append(settings, b)
			continue
		}
		budget := metric(b, "budget-ms")
		atRest := ""
		if _, ok := b.summary("engine-tuned-at-rest-bodies"); !ok {
			atRest = " (Not in these runs: under -short, as make bench runs it, the at-rest variant is left out; make bench-full runs it.)"
		}
		fmt.Fprintf(&sb, "`%s` (scenes/bodymark_test.go), %d runs: the most balls the demo's Stress scene "+
			"holds while its median physics tick stays within %s ms (half a 60 Hz frame), found by the "+
			"benchmark itself: from the last run's answer up or down by 25%% until bracketed, then "+
			"bisection to 3%%. A probe pours the balls into the bin (20 a tick), lets them settle 2 s, "+
			"and takes the median of the next 60 ticks, each timed by its thread's CPU time, so that "+
			"other processes on this shared machine do not count (the garbage collector's background "+
			"work on other threads does not either; its assists in the tick do). At rest, a probe first "+
			"waits (up to 20 s) for every ball to fall asleep; that search starts at twice raw cp's "+
			"count of the same run and stops at four times it.%s The variants run one after the other "+
			"in each run; a ratio is each run's count over raw cp's count in the same run. Figures: "+
			"the median over the runs with its 95%% confidence interval.\n\n", short(b.name), b.runs(), budget, atRest)
		fmt.Fprintf(&sb, "| variant | what runs | balls within %s ms | ratio to raw cp (95%% CI) | median tick at that count |\n", budget)
		sb.WriteString("|---|---|--:|--:|--:|\n")
		for _, v := range bodymarkVariants {
			s, ok := b.summary(v.name + "-bodies")
			if !ok {
				continue
			}
			count := fromSummary(s).pm()
			capped, _ := b.median(v.name + "-at-cap")
			if capped > 0 {
				count = "≥ " + count + " (the search's cap)"
			}
			ratio := "1"
			if rs, ok := b.summary(v.name + "/raw-cp"); ok {
				ratio = fromSummary(rs).rng()
				if capped > 0 {
					ratio = "≥ " + ratio
				}
			}
			fmt.Fprintf(&sb, "| %s | %s | %s | %s | %s ms |\n", v.name, v.what, count, ratio, metricPM(b, v.name+"-tick-ms"))
		}
		sb.WriteString("\n")
	}
	if len(settings) > 0 {
		sb.WriteString("`StressSettings` (scenes/bodymark_test.go): what each space setting saves per tick on " +
			"the scene's awake pile of 2,500 balls: the pile with cp's defaults and with the setting, side by " +
			"side through the physics system, stepped in lockstep (each tick timed by its thread's CPU time). " +
			"Change: the median of the per-tick ratios, setting over defaults, minus one; negative saves time. " +
			"Figures: the median over the runs with its 95% confidence interval.\n\n")
		sb.WriteString("| setting | tick with it, ms | tick with cp's defaults, ms | change (95% CI) |\n")
		sb.WriteString("|---|--:|--:|--:|\n")
		for _, b := range settings {
			change := "—"
			if s, ok := b.summary("change-%"); ok {
				iv := fromSummary(s)
				if iv.infinite() {
					change = fmt.Sprintf("%+.1f%% (±∞)", iv.center)
				} else {
					change = fmt.Sprintf("%+.1f%% (%+.1f%% to %+.1f%%)", iv.center, iv.lo, iv.hi)
				}
			}
			fmt.Fprintf(&sb, "| %s | %s | %s | %s |\n", strings.TrimPrefix(b.name, "BenchmarkStressSettings/"),
				msPM(b, "setting-ns/tick"), msPM(b, "defaults-ns/tick"), change)
		}
	}
	return sb.String()
}

// msPM is a ns metric's median and interval, in milliseconds.
func msPM(b *bench, unit string) string {
	s, ok := b.summary(unit)
	if !ok {
		return "—"
	}
	iv := fromSummary(s)
	iv.center, iv.lo, iv.hi = iv.center/1e6, iv.lo/1e6, iv.hi/1e6
	return iv.pm()
}
