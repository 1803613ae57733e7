package main

import (
	"math"
	"regexp"
	"slices"
	"strconv"
	"strings"
)

// lockstep marks a pair whose benchmark times the engine and its baseline
// itself, step by step in one run, and reports engine-ns/entity,
// raw-ns/entity and overhead-% (the median of the per-step ratios, minus
// one, in percent).
const lockstep = "(lockstep)"

// pair says which benchmark an engine benchmark is measured against.
//
// A benchmark named Engine, or Engine followed by "/rest", is paired with
// Baseline (followed by the same "/rest") from the same package: so
// "BenchmarkPhysics/engine" pairs "BenchmarkPhysics/engine/bodies=100" with
// "BenchmarkPhysics/raw-cp/bodies=100", and "BenchmarkAI" pairs
// "BenchmarkAI/agents=1000" with "BenchmarkAIRaw/agents=1000" (but does not
// match "BenchmarkAIRaw/..." itself). An engine benchmark may have several
// baselines, one row each.
type pair struct {
	System   string // the first column of the table
	Engine   string
	Baseline string // or lockstep: compare the benchmark's own metrics
}

// pairs is every comparison the table makes, in the order of its rows for
// one engine benchmark. A benchmark that is neither an engine benchmark nor
// a baseline here goes to the table of unpaired benchmarks.
var pairs = []pair{
	// engine/bench_test.go: one frame of the loop and scheduler with ten
	// no-op systems, with and without per-system timing, against donburi's ecs.
	{"engine", "BenchmarkFrame/engine", "BenchmarkFrame/donburi-ecs"},
	{"engine", "BenchmarkFrame/engine-untimed", "BenchmarkFrame/donburi-ecs"},
	// The same frames in lockstep (batches of 256 frames, alternating).
	{"engine", "BenchmarkFrameOverhead", lockstep},
	// A recorded run's ticks with the run checksum kept and without
	// (lockstep).
	{"engine", "BenchmarkRunChecksumOverhead", lockstep},
	// engine/histogram_internal_test.go: timing ten no-op systems against
	// not timing them, and recording a call with the percentile histogram
	// against the counters alone (lockstep).
	{"engine", "BenchmarkSchedulerTiming/timed", "BenchmarkSchedulerTiming/untimed"},
	{"engine", "BenchmarkSchedulerTiming/record", lockstep},
	// systems/physics/bench_test.go: the physics system against raw cp
	// (bare, and with the same collision callbacks installed), on
	// SimpleTerrainCircles_N (bodies=N) and a box pyramid (pyramid=N).
	{"physics", "BenchmarkPhysics/engine", "BenchmarkPhysics/raw-cp"},
	{"physics", "BenchmarkPhysics/engine", "BenchmarkPhysics/raw-cp-callbacks"},
	{"physics", "BenchmarkPhysics/engine-no-events", "BenchmarkPhysics/raw-cp"},
	{"physics", "BenchmarkPhysicsOverhead", lockstep},
	{"transform sync", "BenchmarkTransformSync/engine", "BenchmarkTransformSync/raw-donburi"},
	{"transform sync", "BenchmarkTransformSync/engine", "BenchmarkTransformSync/go-slice"},
	// systems/ai_test.go
	{"AI", "BenchmarkAI", "BenchmarkAIRaw"},
	// systems/render/render_test.go: the render system against a raw DrawImage
	// loop and a raw DrawTriangles32 call, both with everything precomputed.
	{"render", "BenchmarkRender", "BenchmarkRenderRaw"},
	{"render", "BenchmarkRender", "BenchmarkRenderRawTriangles"},
	{"render", "BenchmarkRenderOverhead", lockstep},
	{"render", "BenchmarkRenderOverheadTriangles", lockstep},
	// systems/physics/query_test.go: the entity queries against cp's own (which
	// answer shapes, and allocate); systems/physics/contact_test.go: a step with
	// component-filtered contact handlers against the same step with the
	// collision events alone (lockstep).
	{"queries", "BenchmarkQuery/engine", "BenchmarkQuery/raw-cp"},
	{"contacts", "BenchmarkContactsOverhead", lockstep},
	// engine/state/bench_test.go: the reflective state hasher against
	// the demo's old hand-written checksum (which hashed an eighth as much).
	{"state hash", "BenchmarkStateHasher", "BenchmarkChecksumHandWritten"},
	{"state hash", "BenchmarkStateHasherOverhead", lockstep},
}

// row is one line of the main table.
type row struct {
	System   string
	Engine   *bench
	Baseline *bench // nil if lockstep, or if the baseline is not in the input
	// BaselineName is the baseline's name, or lockstep.
	BaselineName string
}

// Lockstep reports whether the row compares a lockstep benchmark's own
// engine-ns/entity and raw-ns/entity.
func (r row) Lockstep() bool { return r.BaselineName == lockstep }

// Ratio is engine/baseline with its interval: for a lockstep benchmark,
// 1+overhead-%/100 summarised over its runs (each run's overhead is already
// a ratio of the two, measured step by step); otherwise the ratio of the
// medians of ns/op, with the interval of ratioOf. ok is false if a figure
// is missing.
func (r row) Ratio() (ratio interval, ok bool) {
	if r.Lockstep() {
		s, ok := r.Engine.summary("overhead-%")
		if !ok {
			return interval{}, false
		}
		return interval{1 + s.Center/100, 1 + s.Lo/100, 1 + s.Hi/100}, true
	}
	if r.Baseline == nil {
		return interval{}, false
	}
	e, ok1 := r.Engine.summary("ns/op")
	b, ok2 := r.Baseline.summary("ns/op")
	if !ok1 || !ok2 {
		return interval{}, false
	}
	return ratioOf(fromSummary(e), fromSummary(b))
}

// pairUp applies pairs to everything parsed: the rows of the main table,
// grouped by system in the order of pairs and within a system in the order
// the engine benchmarks appeared, and the benchmarks left over.
func pairUp(r *results) (rows []row, unpaired []*bench) {
	used := make(map[*bench]bool)
	for _, b := range r.order {
		for _, p := range pairs {
			rest, ok := matchEngine(b.name, p.Engine)
			if !ok {
				continue
			}
			used[b] = true
			if p.Baseline == lockstep {
				rows = append(rows, row{System: p.System, Engine: b, BaselineName: lockstep})
				continue
			}
			name := p.Baseline + rest
			base := r.lookup(b.pkg, name)
			if base != nil {
				used[base] = true
			}
			rows = append(rows, row{System: p.System, Engine: b, Baseline: base, BaselineName: name})
		}
	}
	rank := make(map[string]int)
	for i, p := range pairs {
		if _, ok := rank[p.System]; !ok {
			rank[p.System] = i
		}
	}
	slices.SortStableFunc(rows, func(a, b row) int { return rank[a.System] - rank[b.System] })
	for _, b := range r.order {
		if !used[b] {
			unpaired = append(unpaired, b)
		}
	}
	return rows, unpaired
}

// matchEngine reports whether name is prefix or prefix/..., and returns the
// "/..." part ("" if name == prefix).
func matchEngine(name, prefix string) (rest string, ok bool) {
	rest, ok = strings.CutPrefix(name, prefix)
	if !ok || (rest != "" && rest[0] != '/') {
		return "", false
	}
	return rest, true
}

var sizeParam = regexp.MustCompile(`/[a-z]+=(\d+)(/|$)`)

// entities is the N of a benchmark: the number in a "/bodies=N",
// "/agents=N" or "/sprites=N" element of its name; failing that, ns/op over
// ns/entity (BenchmarkTransformSync has N in its code, not its name).
// ok is false when neither gives it.
func entities(b *bench) (n int, ok bool) {
	if m := sizeParam.FindStringSubmatch(b.name); m != nil {
		n, err := strconv.Atoi(m[1])
		return n, err == nil
	}
	op, ok1 := b.median("ns/op")
	per, ok2 := b.median("ns/entity")
	if !ok1 || !ok2 || per == 0 {
		return 0, false
	}
	return int(math.Round(op / per)), true
}
