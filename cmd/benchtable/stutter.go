package main

import (
	"fmt"
	"regexp"
	"strings"
)

var stutterName = regexp.MustCompile(`^BenchmarkStutter/mode=([^/]+)/bodies=(\d+)/gc=(.+)$`)

// stutterSection is the table of cmd/stutter's runs: one row per mode,
// body count and GC setting, with the ratio of its tick p99 to GOGC=100's
// in the same mode.
func stutterSection(r *results, bs []*bench) string {
	var sb strings.Builder
	sb.WriteString(measuredLine(r, bs))
	lo, hi := runRange(bs)
	runs := fmt.Sprint(lo)
	if hi != lo {
		runs = fmt.Sprintf("%d–%d", lo, hi)
	}
	fmt.Fprintf(&sb, "`cmd/stutter`, %s runs of each setting: the demo's Stress scene with its balls "+
		"poured and settled (the first 5 s of game time left out), sleeping off so that every ball "+
		"moves and cp allocates every step; the p50, p99 and maximum of its physics ticks (from the "+
		"event that runs a tick to the next event; tick CPU, headless only, is its thread's CPU time, which "+
		"leaves out other processes and the collector's stop-the-world pauses but keeps its assists) and of its frames (from one frame's start to the "+
		"next's: headless, the frame's own work on a manual clock, as fast as it runs; in a window, "+
		"under Xvfb on the real clock, the frame interval the player sees). Each GC setting runs in a "+
		"process of its own (GOGC, and GOMEMLIMIT for a limit), the settings in turn. Times are wall "+
		"clock: on this shared machine other processes' bursts land in the p99 and the max, so "+
		"compare settings within a table. Figures: the median over the runs with its 95%% confidence "+
		"interval; the last column is the tick p99 over GOGC=100's in the same mode, with the range "+
		"of the ratios of the two intervals' ends.\n\n", runs)
	sb.WriteString("| mode | balls | GC | tick p50 ms | tick p99 ms | tick max ms | tick CPU p99 ms | frame p50 ms | frame p99 ms | frame max ms | GC cycles | heap goal MiB | tick p99 / GOGC=100 |\n")
	sb.WriteString("|---|--:|---|--:|--:|--:|--:|--:|--:|--:|--:|--:|--:|\n")
	for _, b := range bs {
		m := stutterName.FindStringSubmatch(b.name)
		if m == nil {
			continue
		}
		mode, bodies, gc := m[1], m[2], m[3]
		ratio := "—"
		if base := r.lookup(b.pkg, fmt.Sprintf("BenchmarkStutter/mode=%s/bodies=%s/gc=100", mode, bodies)); base != nil {
			if base == b {
				ratio = "1"
			} else {
				s1, ok1 := b.summary("tick-p99-ms")
				s0, ok0 := base.summary("tick-p99-ms")
				if ok1 && ok0 {
					if v, ok := ratioOf(fromSummary(s1), fromSummary(s0)); ok {
						ratio = v.rng()
					}
				}
			}
		}
		fmt.Fprintf(&sb, "| %s | %s | %s | %s | %s | %s | %s | %s | %s | %s | %s | %s | %s |\n", mode, bodies, gcLabel(gc),
			metricPM(b, "tick-p50-ms"), metricPM(b, "tick-p99-ms"), metricPM(b, "tick-max-ms"), tickCPU(b, mode),
			metricPM(b, "frame-p50-ms"), metricPM(b, "frame-p99-ms"), metricPM(b, "frame-max-ms"),
			metric(b, "gc-cycles"), metric(b, "heap-goal-MiB"), ratio)
	}
	return sb.String()
}

// tickCPU is the tick's thread CPU p99, headless only: in a window the
// thread also runs ebiten's work between two events, so cmd/stutter no
// longer reports it there (earlier outputs did) and the table leaves it out.
func tickCPU(b *bench, mode string) string {
	if mode != "headless" {
		return "—"
	}
	return metricPM(b, "tick-cpu-p99-ms")
}

// gcLabel writes a setting as the environment sets it: "100" is GOGC=100,
// "off+limit=1GiB" is GOGC=off GOMEMLIMIT=1GiB.
func gcLabel(gc string) string {
	gogc, limit, ok := strings.Cut(gc, "+limit=")
	if !ok {
		return "GOGC=" + gogc
	}
	return "GOGC=" + gogc + " GOMEMLIMIT=" + limit
}
