package main

import (
	"bytes"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"
)

// sample is make bench's output in small: `go test -bench` from three
// packages (six runs of some benchmarks, fewer of others, a lockstep
// benchmark per frame, per call and per entity, the bodymark, a pacing
// benchmark, lines that are not results), then cmd/stutter's, with the
// stage and load average lines make bench writes.
var sample = `stage: go-test
loadavg: 0.52 0.61 0.70 1/234 5678
goos: linux
goarch: amd64
pkg: github.com/fixedstep/fixedstep/engine
cpu: AMD EPYC
` + repeat("BenchmarkFrame/engine-2  2419293  %v ns/op  2.000 ticks/frame  0 B/op  0 allocs/op", 497, 501, 502, 510, 495, 589) +
	repeat("BenchmarkFrame/donburi-ecs-2  2385920  %v ns/op  0 B/op  0 allocs/op", 486, 482, 560, 490, 480, 485) +
	`BenchmarkNanotime-2             	43061832	        27.85 ns/op	       0 B/op	       0 allocs/op
BenchmarkFrameOverhead/timed-2         	    4801	    251421 ns/op	       489.2 engine-ns/frame	         6.221 overhead-%	       461.9 raw-ns/frame
BenchmarkSchedulerTiming/record-2 10000 46455 ns/op 2.794 engine-ns/call 83.74 overhead-% 1.490 raw-ns/call
BenchmarkPacing/display=144Hz-2        	     151	   9414287 ns/op	        95.24 expected-ticks-%	        95.24 plain-expected-%	         0.4892 spread-interp-px	         4.930 spread-plain-px
PASS
ok  	github.com/fixedstep/fixedstep/engine	12.345s
goos: linux
goarch: amd64
pkg: github.com/fixedstep/fixedstep/systems
cpu: AMD EPYC
BenchmarkPhysics/engine/bodies=100-2 	    8432	    126014 ns/op	      1260 ns/entity	   51869 B/op	     756 allocs/op
BenchmarkPhysics/engine/bodies=100-2 	   10128	    116581 ns/op	      1166 ns/entity	   51869 B/op	     756 allocs/op
BenchmarkPhysics/raw-cp/bodies=100-2                   	   12339	     97023 ns/op	       970.2 ns/entity	   28703 B/op	     394 allocs/op
BenchmarkPhysics/raw-cp/bodies=100-2                   	   10000	    101944 ns/op	      1019 ns/entity	   28703 B/op	     394 allocs/op
` + repeat("BenchmarkPhysicsOverhead/bodies=100/events-2 5000 240000 ns/op 1203 engine-ns/entity %v overhead-%% 1069 raw-ns/entity", 12.5, 10, 20, 11, 13, 14) +
	`BenchmarkTransformSync/engine-2                        	    5529	    217509 ns/op	        21.75 ns/entity	       0 B/op	       0 allocs/op
    physics_bench_test.go:99: a log line
BenchmarkAI/agents=1000-2  	    5252	    219962 ns/op	       220.0 ns/entity	      96 B/op	       3 allocs/op
--- FAIL: BenchmarkBroken-2
PASS
ok  	github.com/fixedstep/fixedstep/systems	265.018s
pkg: github.com/fixedstep/fixedstep/scenes
` + repeat("BenchmarkBodymark-2 1 79179775411 ns/op 8.000 budget-ms %v raw-cp-bodies 7.6 raw-cp-tick-ms 0 raw-cp-at-cap 2874 engine-hash-bodies 1.057 engine-hash/raw-cp 7.8 engine-hash-tick-ms 0 engine-hash-at-cap 10872 engine-tuned-at-rest-bodies 4 engine-tuned-at-rest/raw-cp 1 engine-tuned-at-rest-at-cap 0.64 engine-tuned-at-rest-tick-ms", 2718, 2700, 2750, 2690, 2720, 2705) +
	`PASS
loadavg: 1.91 1.20 0.95 1/250 6000
stage: stutter-headless
loadavg: 0.30 0.90 0.99 1/250 6001
goos: linux
goarch: amd64
pkg: github.com/fixedstep/fixedstep/cmd/stutter
` + repeat("BenchmarkStutter/mode=headless/bodies=2000/gc=100\t1\t20926614467 ns/op\t5.3 tick-p50-ms\t%v tick-p99-ms\t40 tick-max-ms\t5.4 frame-p50-ms\t21 frame-p99-ms\t41 frame-max-ms\t126 gc-cycles\t1.1 gc-pause-ms\t22.5 heap-goal-MiB\t0 dropped-ms", 20, 22, 19, 21, 20, 25) +
	repeat("BenchmarkStutter/mode=headless/bodies=2000/gc=400\t1\t20926614467 ns/op\t5.3 tick-p50-ms\t%v tick-p99-ms\t30 tick-max-ms\t5.4 frame-p50-ms\t11 frame-p99-ms\t31 frame-max-ms\t30 gc-cycles\t0.3 gc-pause-ms\t55.3 heap-goal-MiB\t0 dropped-ms", 10, 11, 9, 10, 12, 10) +
	"BenchmarkStutter/mode=window/bodies=2000/gc=100\t1\t9 ns/op\t5 tick-p50-ms\t8 tick-p99-ms\t11 tick-max-ms\t379 tick-cpu-p99-ms\t20 frame-p50-ms\t33 frame-p99-ms\t37 frame-max-ms\t44 gc-cycles\t0.5 gc-pause-ms\t34 heap-goal-MiB\t0 dropped-ms\n" +
	`loadavg: 0.40 0.80 0.95 1/250 6002
`

// repeat is format once per value, each line ending in a newline.
func repeat(format string, values ...float64) string {
	var sb strings.Builder
	for _, v := range values {
		fmt.Fprintf(&sb, format+"\n", v)
	}
	return sb.String()
}

func readSample(t *testing.T) *results {
	t.Helper()
	r := results{date: "2025-11-22", cpus: 2, goVersion: "go1.26.8"}
	if err := r.read("sample", strings.NewReader(sample)); err != nil {
		t.Fatal(err)
	}
	return &r
}

// The sample reads into benchmarks per package, with every run's value in
// the unit the benchmark printed, and medians and intervals from benchmath:
// with six runs the interval is the range of the runs, with fewer it is
// infinite.
func TestReadAndSummarise(t *testing.T) {
	r := readSample(t)
	if r.goos != "linux" || r.goarch != "amd64" || r.cpu != "AMD EPYC" {
		t.Errorf("header = %q %q %q", r.goos, r.goarch, r.cpu)
	}
	if got := len(r.order); got != 15 {
		for _, b := range r.order {
			t.Log(b.name)
		}
		t.Errorf("%d benchmarks, want 15", got)
	}
	frame := r.lookup("github.com/fixedstep/fixedstep/engine", "BenchmarkFrame/engine")
	if frame == nil || frame.runs() != 6 || frame.stage != "go-test" {
		t.Fatalf("BenchmarkFrame/engine: %+v", frame)
	}
	s, _ := frame.summary("ns/op")
	if s.Center != (501+502)/2.0 || s.Lo != 495 || s.Hi != 589 {
		t.Errorf("Frame/engine ns/op: median %v in [%v, %v], want 501.5 in [495, 589]", s.Center, s.Lo, s.Hi)
	}
	if got := fromSummary(s).pm(); got != "501.5 ±17%" {
		t.Errorf("pm = %q, want 501.5 ±17%% (589 is 17.4%% above)", got)
	}
	phys := r.lookup("github.com/fixedstep/fixedstep/systems", "BenchmarkPhysics/engine/bodies=100")
	s, _ = phys.summary("ns/op")
	if s.Center != (126014+116581)/2.0 || !math.IsInf(s.Lo, -1) || !math.IsInf(s.Hi, 1) {
		t.Errorf("two runs: median %v in [%v, %v], want the mean of the two and an infinite interval", s.Center, s.Lo, s.Hi)
	}
	if got := fromSummary(s).pm(); got != "121298 ±∞" {
		t.Errorf("pm = %q", got)
	}
	if v, ok := frame.median("ticks/frame"); !ok || v != 2 {
		t.Errorf("custom unit ticks/frame = %v, %v", v, ok)
	}
	if got := r.stageLoad("go-test"); got != "0.52 0.61 0.70 at the start, 1.91 1.20 0.95 at the end" {
		t.Errorf("stage load %q", got)
	}
	st := r.lookup("github.com/fixedstep/fixedstep/cmd/stutter", "BenchmarkStutter/mode=headless/bodies=2000/gc=400")
	if st == nil || st.stage != "stutter-headless" {
		t.Fatalf("stutter result %+v", st)
	}
	// A broken result line (here a benchmark's own print cut into it) is
	// skipped and noted with its place; the lines around it still count.
	var bad results
	in := "BenchmarkX-2   \tcall 2 N 1\n       1\t1200154735 ns/op\nBenchmarkY-2 10 5 ns/op\n"
	if err := bad.read("bad.txt", strings.NewReader(in)); err != nil {
		t.Fatal(err)
	}
	if len(bad.skipped) != 1 || !strings.Contains(bad.skipped[0], "bad.txt:1") || len(bad.order) != 1 {
		t.Errorf("skipped %q, read %d benchmarks; want bad.txt:1 skipped and BenchmarkY read", bad.skipped, len(bad.order))
	}
}

func TestRatioIntervals(t *testing.T) {
	a, b := interval{10, 9, 12}, interval{5, 4, 6}
	r, ok := ratioOf(a, b)
	if !ok || r.center != 2 || r.lo != 1.5 || r.hi != 3 {
		t.Errorf("ratioOf = %+v, %v; want 2 in [1.5, 3]", r, ok)
	}
	if r.rng() != "2.00 (1.50–3.00)" {
		t.Errorf("rng %q", r.rng())
	}
	if r, _ := ratioOf(a, interval{5, math.Inf(-1), math.Inf(1)}); !r.infinite() || r.rng() != "2.00 (±∞)" {
		t.Errorf("an infinite interval makes the ratio's infinite: %+v", r)
	}
	if _, ok := ratioOf(a, interval{}); ok {
		t.Error("a zero baseline gives a ratio")
	}
}

func TestPairUp(t *testing.T) {
	r := readSample(t)
	rows, unpaired := pairUp(r)
	type want struct {
		engine, baseline string
		ratio            float64
		ok               bool
	}
	wants := []want{
		{"BenchmarkFrame/engine", "BenchmarkFrame/donburi-ecs", 501.5 / 485.5, true},
		{"BenchmarkFrameOverhead/timed", lockstep, 1.06221, true},
		{"BenchmarkSchedulerTiming/record", lockstep, 1.8374, true},
		{"BenchmarkPhysics/engine/bodies=100", "BenchmarkPhysics/raw-cp/bodies=100",
			((126014 + 116581) / 2.0) / ((97023 + 101944) / 2.0), true},
		{"BenchmarkPhysics/engine/bodies=100", "BenchmarkPhysics/raw-cp-callbacks/bodies=100", 0, false},
		{"BenchmarkPhysicsOverhead/bodies=100/events", lockstep, 1.1275, true},
		{"BenchmarkTransformSync/engine", "BenchmarkTransformSync/raw-donburi", 0, false},
		{"BenchmarkTransformSync/engine", "BenchmarkTransformSync/go-slice", 0, false},
		{"BenchmarkAI/agents=1000", "BenchmarkAIRaw/agents=1000", 0, false},
	}
	if len(rows) != len(wants) {
		for _, rw := range rows {
			t.Logf("row %s vs %s", rw.Engine.name, rw.BaselineName)
		}
		t.Fatalf("%d rows, want %d", len(rows), len(wants))
	}
	for i, w := range wants {
		rw := rows[i]
		if rw.Engine.name != w.engine || rw.BaselineName != w.baseline {
			t.Errorf("row %d = %s vs %s, want %s vs %s", i, rw.Engine.name, rw.BaselineName, w.engine, w.baseline)
			continue
		}
		got, ok := rw.Ratio()
		if ok != w.ok || math.Abs(got.center-w.ratio) > 1e-9 {
			t.Errorf("row %d ratio = %v, %v; want %v, %v", i, got, ok, w.ratio, w.ok)
		}
	}
	// Frame/engine over donburi-ecs, six runs each: from 495/560 to 589/480.
	if got, _ := rows[0].Ratio(); math.Abs(got.lo-495.0/560) > 1e-12 || math.Abs(got.hi-589.0/480) > 1e-12 {
		t.Errorf("Frame ratio interval [%v, %v], want [495/560, 589/480]", got.lo, got.hi)
	}
	// The overhead's interval is the range of the six runs' ratios.
	if got, _ := rows[5].Ratio(); math.Abs(got.lo-1.10) > 1e-12 || math.Abs(got.hi-1.20) > 1e-12 {
		t.Errorf("PhysicsOverhead ratio interval [%v, %v], want [1.10, 1.20]", got.lo, got.hi)
	}
	var names []string
	for _, b := range unpaired {
		names = append(names, b.name)
	}
	if got := strings.Join(names, " "); got != "BenchmarkNanotime BenchmarkPacing/display=144Hz BenchmarkBodymark "+
		"BenchmarkStutter/mode=headless/bodies=2000/gc=100 BenchmarkStutter/mode=headless/bodies=2000/gc=400 "+
		"BenchmarkStutter/mode=window/bodies=2000/gc=100" {
		t.Errorf("unpaired: %s", got)
	}
	if n, ok := entities(rows[6].Engine); !ok || n != 10000 {
		t.Errorf("TransformSync N = %d, %v; want 10000 from ns/op over ns/entity", n, ok)
	}
}

func TestRun(t *testing.T) {
	dir := t.TempDir()
	in := filepath.Join(dir, "bench.txt")
	if err := os.WriteFile(in, []byte(sample), 0o644); err != nil {
		t.Fatal(err)
	}
	md := filepath.Join(dir, "BENCHMARKS.md")
	var out bytes.Buffer
	err := Run(config{Inputs: []string{in}, MarkdownPath: md, Stdout: &out,
		Now: time.Date(2025, 11, 22, 0, 0, 0, 0, time.UTC)})
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{
		"## " + titleBodymark, "## " + titleStutter, "## " + titleEngine, "## " + titlePacing, "## " + titleOther,
		"| engine | Frame/engine | — | 501.5 ±17% | — | 0 | Frame/donburi-ecs | 485.5 ±15% | 1.03 (0.88–1.23) |",
		"| physics | PhysicsOverhead/SimpleTerrainCircles_100/events | 100 | — | 1203 ±0.0% | — | raw, same run (lockstep) | 1069 ±0.0% ns/entity | 1.13 (1.10–1.20) |",
		"| physics | Physics/engine/SimpleTerrainCircles_100 | 100 | 121298 ±∞ |",
		"| engine | SchedulerTiming/record | — | 2.794 ±∞ a call | — | — | raw, same run (lockstep) | 1.49 ±∞ a call | 1.84 (±∞) |",
		"| Nanotime | 27.85 ±∞ | 0 | 0 ±∞ B/op |",
		"| 144Hz | 95.24 % | 95.24 % | 0.4892 px | 4.93 px |",
		"| raw-cp | raw cp, its defaults",
		"| 2712 ±1.4% | 1 | 7.6 ±0.0% ms |",
		"| engine-tuned-at-rest | ", "≥ 10872 ±0.0% (the search's cap) | ≥ 4.00 (4.00–4.00) | 0.64 ±0.0% ms |",
		"| headless | 2000 | GOGC=400 | 5.3 ±0.0% | 10 ±20% | 30 ±0.0% | — |",
		"| 30 | 55.3 | 0.49 (0.36–0.63) |",
		"| headless | 2000 | GOGC=100 | 5.3 ±0.0% | 20.5 ±22% |",
		"| window | 2000 | GOGC=100 | 5 ±∞ | 8 ±∞ | 11 ±∞ | — | 20 ±∞ |", // no thread CPU figure in a window
		"Load average (1, 5, 15 min) during go-test: 0.52 0.61 0.70 at the start, 1.91 1.20 0.95 at the end.",
		"during stutter-headless: 0.30 0.90 0.99 at the start, 0.40 0.80 0.95 at the end.",
	} {
		if !strings.Contains(out.String(), want) {
			t.Errorf("output lacks %q", want)
		}
	}
	if t.Failed() {
		t.Logf("output:\n%s", out.String())
	}
	doc, err := os.ReadFile(md)
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"# Benchmarks", "linux/amd64, AMD EPYC, 2 CPUs, go", "2025-11-22", "make bench", "golang.org/x/perf",
		strings.TrimSpace(out.String())} {
		if !strings.Contains(string(doc), want) {
			t.Errorf("BENCHMARKS.md lacks %q", want)
		}
	}
	if err := Run(config{Stdin: strings.NewReader("PASS\n"), Stdout: &out}); err == nil {
		t.Error("Run with no results: no error")
	}
}

// Rewriting BENCHMARKS.md keeps what benchtable does not make: another
// tool's marked block and a section of another title, in their order after
// its own sections, and
// its own section for which the input has no results (here the stutter
// section, from an input of go test results only). Its other sections and
// the old head are replaced.
func TestDocumentKeepsOtherSections(t *testing.T) {
	old := "# Benchmarks\n\nold head\n\n" +
		"## " + titleStutter + "\n\nold stutter table\n\n" +
		"## " + titleEngine + "\n\nold engine table\n\n" +
		"<!-- web: begin -->\n## The demo in a web browser\n\nbrowser table\n<!-- web: end -->\n\n" +
		"## Notes by hand\n\nkept\n"
	dir := t.TempDir()
	md := filepath.Join(dir, "BENCHMARKS.md")
	if err := os.WriteFile(md, []byte(old), 0o644); err != nil {
		t.Fatal(err)
	}
	goTestOnly := sample[:strings.Index(sample, "stage: stutter-headless")]
	var out bytes.Buffer
	if err := Run(config{Stdin: strings.NewReader(goTestOnly), MarkdownPath: md, Stdout: &out, Now: time.Now()}); err != nil {
		t.Fatal(err)
	}
	b, _ := os.ReadFile(md)
	doc := string(b)
	order := []string{"# Benchmarks", "## " + titleBodymark, "## " + titleStutter, "old stutter table",
		"## " + titleEngine, "| engine | Frame/engine |", "## " + titlePacing, "## " + titleOther,
		"<!-- web: begin -->", "## The demo in a web browser", "browser table", "<!-- web: end -->", "## Notes by hand", "kept"}
	at := 0
	for _, want := range order {
		i := strings.Index(doc[at:], want)
		if i < 0 {
			t.Fatalf("BENCHMARKS.md lacks %q after byte %d:\n%s", want, at, doc)
		}
		at += i + len(want)
	}
	for _, gone := range []string{"old head", "old engine table"} {
		if strings.Contains(doc, gone) {
			t.Errorf("%q was kept: it is benchtable's own and this input remade it", gone)
		}
	}
	// Rewriting again changes nothing but what the input makes: the result
	// is stable.
	if err := Run(config{Stdin: strings.NewReader(goTestOnly), MarkdownPath: md, Stdout: &out, Now: time.Now()}); err != nil {
		t.Fatal(err)
	}
	again, _ := os.ReadFile(md)
	if string(again) != doc {
		t.Errorf("a second rewrite changed the file:\n%s\n---\n%s", doc, again)
	}
}

// The head names the make target whose output it read (its "make:" line),
// and the bodymark's text says when the at-rest variant is not in the runs
// (make bench runs the benchmarks with -short, which leaves it out).
func TestTargetAndShortRuns(t *testing.T) {
	atRest := regexp.MustCompile(` engine-tuned-at-rest\S*`)
	short := "make: bench\n" + atRest.ReplaceAllString(sample, "")
	for _, c := range []struct {
		in          string
		head        string
		restLeftOut bool
	}{
		{sample, "as `make bench` measured them", false},
		{"make: bench-full\n" + sample, "as `make bench-full` measured them", false},
		{short, "as `make bench` measured them", true},
	} {
		r := results{date: "2025-11-22", cpus: 2, goVersion: "go1.26.8"}
		if err := r.read("sample", strings.NewReader(c.in)); err != nil {
			t.Fatal(err)
		}
		doc := document(&r, sections(&r), "")
		if !strings.Contains(doc, c.head) {
			t.Errorf("the head lacks %q:\n%s", c.head, doc[:400])
		}
		leftOut := strings.Contains(doc, "the at-rest variant is left out")
		if hasRow := strings.Contains(doc, "| engine-tuned-at-rest |"); leftOut != c.restLeftOut || hasRow == c.restLeftOut {
			t.Errorf("input %.16q: the text says the at-rest variant is left out: %v, its row is there: %v; want %v, %v",
				c.in, leftOut, hasRow, c.restLeftOut, !c.restLeftOut)
		}
	}
}
