package main

import (
	"fmt"
	"runtime"
	"slices"
	"strings"
	"time"
)

// renderTables is the Markdown of both tables, with a line saying how the
// runs were aggregated.
func renderTables(r *results, rows []row, unpaired []*bench) string {
	var sb strings.Builder
	lo, hi := runRange(r.order)
	runs := fmt.Sprint(lo)
	if hi != lo {
		runs = fmt.Sprintf("%d–%d", lo, hi)
	}
	fmt.Fprintf(&sb, "Every figure is the MEDIAN over a benchmark's runs (%s runs each). "+
		"Ratio is engine/baseline ns/op; for the lockstep *Overhead rows it is "+
		"1 + overhead-%%/100 (the median of per-step ratios), ns/entity and baseline "+
		"are that run's engine-ns/entity and raw-ns/entity (for FrameOverhead, ns/op and "+
		"baseline are engine-ns/frame and raw-ns/frame), and ns/op and allocs/op "+
		"(engine and raw together) are left out.\n\n", runs)

	sb.WriteString("| system | case | N | ns/op | ns/entity | allocs/op | baseline | baseline ns/op | ratio |\n")
	sb.WriteString("|---|---|--:|--:|--:|--:|---|--:|--:|\n")
	for _, rw := range rows {
		e := rw.Engine
		n := "—"
		if v, ok := entities(e); ok {
			n = fmt.Sprint(v)
		}
		var nsOp, perEntity, allocs, baseName, baseNs string
		if rw.Lockstep() {
			nsOp, perEntity, allocs = "—", "—", "—"
			baseName = "raw, same run (lockstep)"
			if _, perFrame := e.median("engine-ns/frame"); perFrame {
				nsOp = metric(e, "engine-ns/frame") + " a frame"
				baseNs = metric(e, "raw-ns/frame") + " a frame"
			} else {
				perEntity = metric(e, "engine-ns/entity")
				baseNs = metric(e, "raw-ns/entity") + " ns/entity"
			}
		} else {
			nsOp, perEntity, allocs = metric(e, "ns/op"), metric(e, "ns/entity"), metric(e, "allocs/op")
			baseName, baseNs = short(rw.BaselineName), "—"
			if rw.Baseline == nil {
				baseName += " (not in input)"
			} else {
				baseNs = metric(rw.Baseline, "ns/op")
			}
		}
		ratio := "—"
		if v, ok := rw.Ratio(); ok {
			ratio = fmt.Sprintf("%.2f", v)
		}
		fmt.Fprintf(&sb, "| %s | %s | %s | %s | %s | %s | %s | %s | %s |\n",
			rw.System, short(e.name), n, nsOp, perEntity, allocs, baseName, baseNs, ratio)
	}

	var pacing []*bench
	unpaired = slices.DeleteFunc(slices.Clone(unpaired), func(b *bench) bool {
		if strings.HasPrefix(b.name, "BenchmarkPacing/") {
			pacing = append(pacing, b)
			return true
		}
		return false
	})
	if len(pacing) > 0 {
		sb.WriteString("\nFrame pacing (engine/pacing_test.go): a simulated display with ±1 ms of seeded " +
			"jitter in its frames' clock reads, a 60 Hz group, a body moving 600 px/s, 10,000 frames. " +
			"Expected ticks: the share of frames that run the ticks due between two vsyncs. Spread: " +
			"the standard deviation of the body's per-frame displacement on screen (0 is perfectly smooth); " +
			"the plain loop is an accumulator without pacing drawing the last tick's position, as a plain " +
			"Update/Draw loop does.\n\n")
		sb.WriteString("| display | expected ticks, engine | expected ticks, plain loop | spread, engine interpolated | spread, plain loop |\n")
		sb.WriteString("|---|--:|--:|--:|--:|\n")
		for _, b := range pacing {
			fmt.Fprintf(&sb, "| %s | %s %% | %s %% | %s px | %s px |\n", strings.TrimPrefix(b.name, "BenchmarkPacing/display="),
				metric(b, "expected-ticks-%"), metric(b, "plain-expected-%"), metric(b, "spread-interp-px"), metric(b, "spread-plain-px"))
		}
	}

	if len(unpaired) > 0 {
		sb.WriteString("\nBenchmarks without a baseline:\n\n")
		sb.WriteString("| benchmark | ns/op | allocs/op | other metrics |\n")
		sb.WriteString("|---|--:|--:|---|\n")
		for _, b := range unpaired {
			var other []string
			for _, unit := range units(b) {
				if unit != "ns/op" && unit != "allocs/op" {
					other = append(other, metric(b, unit)+" "+unit)
				}
			}
			fmt.Fprintf(&sb, "| %s | %s | %s | %s |\n",
				short(b.name), metric(b, "ns/op"), metric(b, "allocs/op"), strings.Join(other, ", "))
		}
	}
	return sb.String()
}

// renderDocument is the head of BENCHMARKS.md: where and how the tables
// were made. The tables follow it.
func renderDocument(r *results, now time.Time) string {
	machine := strings.Trim(r.goos+"/"+r.goarch, "/")
	if r.cpu != "" {
		machine += ", " + r.cpu
	}
	return fmt.Sprintf(`# Benchmarks

The engine's benchmarks beside their baselines (raw libraries doing the same
work without the engine), as printed by `+"`make bench`"+`.

- Machine: %s, %d CPUs (nproc)
- Go: %s
- Date: %s

To reproduce, run `+"`make bench`"+`: it runs every benchmark with -benchmem and
-count 6 into bench.txt (readable by benchstat), then
`+"`go run ./cmd/benchtable -md BENCHMARKS.md bench.txt`"+` rewrites this file.

This is a 2-core VM shared with other work: the same benchmark drifts 10–40%%
between runs, so a ratio of two separately timed benchmarks is rough. The
lockstep *Overhead benchmarks (FrameOverhead, PhysicsOverhead, RenderOverhead) time the
engine and the raw baseline alternately in the same run; theirs are the
reliable ratios.

`, machine, runtime.NumCPU(), runtime.Version(), now.Format("2006-01-02"))
}

// metric is the median of unit in b, formatted, or "—".
func metric(b *bench, unit string) string {
	v, ok := b.median(unit)
	if !ok {
		return "—"
	}
	if v >= 1000 || v <= -1000 {
		return fmt.Sprintf("%.0f", v)
	}
	return fmt.Sprintf("%.4g", v)
}

// units is b's units in a stable order.
func units(b *bench) []string {
	us := make([]string, 0, len(b.metrics))
	for u := range b.metrics {
		us = append(us, u)
	}
	slices.Sort(us)
	return us
}

// short drops the "Benchmark" prefix.
func short(name string) string { return strings.TrimPrefix(name, "Benchmark") }

// runRange is the fewest and most runs any benchmark had.
func runRange(bs []*bench) (lo, hi int) {
	for i, b := range bs {
		n := b.runs()
		if i == 0 || n < lo {
			lo = n
		}
		hi = max(hi, n)
	}
	return lo, hi
}
