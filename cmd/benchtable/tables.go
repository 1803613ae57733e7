package main

import (
	"fmt"
	"regexp"
	"slices"
	"strings"
)

// A section is one "## " section of BENCHMARKS.md that benchtable makes.
type section struct {
	title string // without the "## "
	body  string // Markdown after the title line
}

// sections renders every section the input has results for, in the order
// of the document: the bodymark, the stutter figures, the engine beside its
// baselines, frame pacing, the benchmarks without a baseline. A section
// with no results in the input is left out (the file's old one is kept).
func sections(r *results) []section {
	rows, unpaired := pairUp(r)
	var bodymark, stutter, pacing, rest []*bench
	for _, b := range unpaired {
		switch {
		case b.name == "BenchmarkBodymark" || strings.HasPrefix(b.name, "BenchmarkBodymark/"),
			strings.HasPrefix(b.name, "BenchmarkStressSettings/"):
			bodymark = append(bodymark, b)
		case strings.HasPrefix(b.name, "BenchmarkStutter/"):
			stutter = append(stutter, b)
		case strings.HasPrefix(b.name, "BenchmarkPacing/"):
			pacing = append(pacing, b)
		default:
			rest = append(rest, b)
		}
	}
	var out []section
	if len(bodymark) > 0 {
		out = append(out, section{titleBodymark, bodymarkSection(r, bodymark)})
	}
	if len(stutter) > 0 {
		out = append(out, section{titleStutter, stutterSection(r, stutter)})
	}
	if len(rows) > 0 {
		out = append(out, section{titleEngine, engineSection(r, rows)})
	}
	if len(pacing) > 0 {
		out = append(out, section{titlePacing, pacingSection(r, pacing)})
	}
	if len(rest) > 0 {
		out = append(out, section{titleOther, otherSection(r, rest)})
	}
	return out
}

// The titles of the sections benchtable makes, in the document's order.
const (
	titleBodymark = "Bodymark: how many bodies fit in a physics tick"
	titleStutter  = "Stutter: tick and frame time percentiles, and the garbage collector"
	titleEngine   = "The engine beside the raw libraries"
	titlePacing   = "Frame pacing"
	titleOther    = "Benchmarks without a baseline"
)

var generatedTitles = []string{titleBodymark, titleStutter, titleEngine, titlePacing, titleOther}

// measuredLine is the provenance line at the top of a section: the stages
// its results came from and the load averages make bench noted then.
func measuredLine(r *results, bs []*bench) string {
	var stages []string
	for _, b := range bs {
		if !slices.Contains(stages, b.stage) {
			stages = append(stages, b.stage)
		}
	}
	var loads []string
	for _, s := range stages {
		if l := r.stageLoad(s); l != "" {
			name := s
			if name == "" {
				name = "the run"
			}
			loads = append(loads, fmt.Sprintf("%s: %s", name, l))
		}
	}
	line := fmt.Sprintf("Measured %s, %s.", r.date, r.machine())
	if len(loads) > 0 {
		line += " Load average (1, 5, 15 min) during " + strings.Join(loads, "; ") + "."
	}
	return line + "\n\n"
}

// engineSection is the table of every engine benchmark beside its
// baseline.
func engineSection(r *results, rows []row) string {
	var sb strings.Builder
	var bs []*bench
	for _, rw := range rows {
		bs = append(bs, rw.Engine)
	}
	sb.WriteString(measuredLine(r, bs))
	lo, hi := runRange(bs)
	runs := fmt.Sprint(lo)
	if hi != lo {
		runs = fmt.Sprintf("%d–%d", lo, hi)
	}
	fmt.Fprintf(&sb, "Each engine benchmark beside its baseline (the raw libraries doing the same work), "+
		"%s runs each. Figures: the median with its 95%% confidence interval (±, the farther end, as a "+
		"percentage of the median). Ratio: engine/baseline ns/op, with the range of the ratios of the two "+
		"intervals' ends; for the lockstep rows (engine and raw timed alternately in the same run, step "+
		"by step: the reliable ratios on a noisy machine) it is 1 + overhead-%%/100 over the runs, and "+
		"ns/entity (or ns a frame, a call) and the baseline are that run's engine and raw medians. "+
		"Physics rows name their scene: Chipmunk2D's SimpleTerrainCircles_N benchmark scene (N circles "+
		"poured on a terrain) and its PyramidStack demo scaled to N boxes.\n\n", runs)
	sb.WriteString("| system | case | N | ns/op | ns/entity | allocs/op | baseline | baseline ns/op | ratio (95% CI) |\n")
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
			switch unit := lockstepUnit(e); unit {
			case "entity":
				perEntity = metricPM(e, "engine-ns/entity")
				baseNs = metricPM(e, "raw-ns/entity") + " ns/entity"
			case "":
				baseNs = "—"
			default:
				nsOp = metricPM(e, "engine-ns/"+unit) + " a " + unit
				baseNs = metricPM(e, "raw-ns/"+unit) + " a " + unit
			}
		} else {
			nsOp, perEntity, allocs = metricPM(e, "ns/op"), metricPM(e, "ns/entity"), metric(e, "allocs/op")
			baseName, baseNs = caseName(rw.System, short(rw.BaselineName)), "—"
			if rw.Baseline == nil {
				baseName += " (not in input)"
			} else {
				baseNs = metricPM(rw.Baseline, "ns/op")
			}
		}
		ratio := "—"
		if v, ok := rw.Ratio(); ok {
			ratio = v.rng()
		}
		fmt.Fprintf(&sb, "| %s | %s | %s | %s | %s | %s | %s | %s | %s |\n",
			rw.System, caseName(rw.System, short(e.name)), n, nsOp, perEntity, allocs, baseName, baseNs, ratio)
	}
	return sb.String()
}

// lockstepUnit is what a lockstep benchmark's engine-ns/UNIT metric counts:
// "entity", "frame", "call", or "" if it has none.
func lockstepUnit(b *bench) string {
	for _, u := range units(b) {
		if rest, ok := strings.CutPrefix(u, "engine-ns/"); ok {
			return rest
		}
	}
	return ""
}

var (
	circlesParam = regexp.MustCompile(`/bodies=(\d+)`)
	pyramidParam = regexp.MustCompile(`/pyramid=(\d+)`)
)

// caseName is a benchmark's name as the table shows it: for physics, the
// scene is named (bodies=N is Chipmunk2D's SimpleTerrainCircles_N,
// pyramid=N its PyramidStack of N boxes).
func caseName(system, name string) string {
	if system != "physics" {
		return name
	}
	name = circlesParam.ReplaceAllString(name, "/SimpleTerrainCircles_$1")
	return pyramidParam.ReplaceAllString(name, "/PyramidStack_$1")
}

// pacingSection is the frame pacing table of engine/pacing_test.go.
func pacingSection(r *results, pacing []*bench) string {
	var sb strings.Builder
	sb.WriteString(measuredLine(r, pacing))
	sb.WriteString("engine/pacing_test.go: a simulated display with ±1 ms of seeded " +
		"jitter in its frames' clock reads, a 60 Hz group, a body moving 600 px/s, 10,000 frames. " +
		"Expected ticks: the share of frames that run the ticks due between two vsyncs. Spread: " +
		"the standard deviation of the body's per-frame displacement on screen (0 is perfectly smooth); " +
		"the plain loop is an accumulator without pacing drawing the last tick's position, as a plain " +
		"Update/Draw loop does. The simulation is seeded: every run gives the same figures.\n\n")
	sb.WriteString("| display | expected ticks, engine | expected ticks, plain loop | spread, engine interpolated | spread, plain loop |\n")
	sb.WriteString("|---|--:|--:|--:|--:|\n")
	for _, b := range pacing {
		fmt.Fprintf(&sb, "| %s | %s %% | %s %% | %s px | %s px |\n", strings.TrimPrefix(b.name, "BenchmarkPacing/display="),
			metric(b, "expected-ticks-%"), metric(b, "plain-expected-%"), metric(b, "spread-interp-px"), metric(b, "spread-plain-px"))
	}
	return sb.String()
}

// otherSection lists the benchmarks that have no baseline.
func otherSection(r *results, rest []*bench) string {
	var sb strings.Builder
	sb.WriteString(measuredLine(r, rest))
	sb.WriteString("Medians with their 95% confidence intervals.\n\n")
	sb.WriteString("| benchmark | ns/op | allocs/op | other metrics |\n")
	sb.WriteString("|---|--:|--:|---|\n")
	for _, b := range rest {
		var other []string
		for _, unit := range units(b) {
			if unit != "ns/op" && unit != "allocs/op" {
				other = append(other, metricPM(b, unit)+" "+unit)
			}
		}
		fmt.Fprintf(&sb, "| %s | %s | %s | %s |\n",
			short(b.name), metricPM(b, "ns/op"), metric(b, "allocs/op"), strings.Join(other, ", "))
	}
	return sb.String()
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
