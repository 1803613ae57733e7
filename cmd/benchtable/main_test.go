package main

import (
	"bytes"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// sample is `go test -bench` output from two packages: three runs of each
// benchmark (one pair run only twice), a lockstep benchmark with custom
// metrics, an unpaired benchmark, and lines that are not results.
const sample = `goos: linux
goarch: amd64
pkg: github.com/fixedstep/fixedstep/engine
cpu: AMD EPYC
BenchmarkFrame/engine-2         	 2419293	       497.2 ns/op	         2.000 ticks/frame	       0 B/op	       0 allocs/op
BenchmarkFrame/engine-2         	 2345617	       501.8 ns/op	         2.000 ticks/frame	       0 B/op	       0 allocs/op
BenchmarkFrame/engine-2         	 1984981	       589.1 ns/op	         2.000 ticks/frame	       0 B/op	       0 allocs/op
BenchmarkFrame/donburi-ecs-2    	 2385920	       486.2 ns/op	       0 B/op	       0 allocs/op
BenchmarkFrame/donburi-ecs-2    	 2441812	       482.3 ns/op	       0 B/op	       0 allocs/op
BenchmarkFrame/donburi-ecs-2    	 2292757	       559.7 ns/op	       0 B/op	       0 allocs/op
BenchmarkNanotime-2             	43061832	        27.85 ns/op	       0 B/op	       0 allocs/op
BenchmarkFrameOverhead/timed-2         	    4801	    251421 ns/op	       489.2 engine-ns/frame	         6.221 overhead-%	       461.9 raw-ns/frame
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
BenchmarkPhysicsOverhead/bodies=100/events-2           	    5000	    240000 ns/op	      1203 engine-ns/entity	        12.50 overhead-%	      1069 raw-ns/entity	   81234 B/op	     1150 allocs/op
BenchmarkPhysicsOverhead/bodies=100/events-2           	    5000	    250000 ns/op	      1190 engine-ns/entity	        10.00 overhead-%	      1080 raw-ns/entity	   81234 B/op	     1150 allocs/op
BenchmarkPhysicsOverhead/bodies=100/events-2           	    5000	    260000 ns/op	      1250 engine-ns/entity	        20.00 overhead-%	      1040 raw-ns/entity	   81234 B/op	     1150 allocs/op
BenchmarkTransformSync/engine-2                        	    5529	    217509 ns/op	        21.75 ns/entity	       0 B/op	       0 allocs/op
    physics_bench_test.go:99: a log line
BenchmarkAI/agents=1000-2  	    5252	    219962 ns/op	       220.0 ns/entity	      96 B/op	       3 allocs/op
--- FAIL: BenchmarkBroken-2
PASS
ok  	github.com/fixedstep/fixedstep/systems	265.018s
`

func parseSample(t *testing.T) *results {
	t.Helper()
	var r results
	if err := r.parse(strings.NewReader(sample)); err != nil {
		t.Fatal(err)
	}
	return &r
}

func TestParseResult(t *testing.T) {
	name, v, ok := parseResult("BenchmarkRenderOverhead/sprites=1000/turning-2 \t 426\t 4846409 ns/op\t 483.4 engine-ns/entity\t 16.12 overhead-%\t 413.2 raw-ns/entity\t 2459270 B/op\t 28 allocs/op")
	if !ok {
		t.Fatal("line not parsed")
	}
	if name != "BenchmarkRenderOverhead/sprites=1000/turning" {
		t.Errorf("name = %q, want the -2 suffix stripped", name)
	}
	want := map[string]float64{"ns/op": 4846409, "engine-ns/entity": 483.4, "overhead-%": 16.12,
		"raw-ns/entity": 413.2, "B/op": 2459270, "allocs/op": 28}
	for unit, w := range want {
		if v[unit] != w {
			t.Errorf("%s = %v, want %v", unit, v[unit], w)
		}
	}
	for _, bad := range []string{
		"BenchmarkFoo-2",
		"--- FAIL: BenchmarkBroken-2",
		"BenchmarkFoo-2 \t 100\t 12 ns/op\t 3",       // odd field count
		"BenchmarkFoo-2 \t many\t 12 ns/op",          // iterations not a number
		"BenchmarkFoo-2 \t 100\t 12 allocs/op",       // no ns/op
		"ok  \tgithub.com/fixedstep/fixedstep\t1.0s", // not a benchmark
	} {
		if _, _, ok := parseResult(bad); ok {
			t.Errorf("parseResult(%q) ok, want rejected", bad)
		}
	}
}

func TestParseAndMedian(t *testing.T) {
	r := parseSample(t)
	if r.goos != "linux" || r.goarch != "amd64" || r.cpu != "AMD EPYC" {
		t.Errorf("header = %q %q %q", r.goos, r.goarch, r.cpu)
	}
	if got := len(r.order); got != 10 {
		t.Errorf("%d benchmarks, want 10", got)
	}
	frame := r.lookup("github.com/fixedstep/fixedstep/engine", "BenchmarkFrame/engine")
	if frame == nil {
		t.Fatal("BenchmarkFrame/engine not found under its package")
	}
	if frame.runs() != 3 {
		t.Errorf("runs = %d, want 3", frame.runs())
	}
	for _, c := range []struct {
		b    *bench
		unit string
		want float64
	}{
		{frame, "ns/op", 501.8},   // odd count: the middle one
		{frame, "ticks/frame", 2}, // custom unit
		{r.lookup("github.com/fixedstep/fixedstep/systems", "BenchmarkPhysics/engine/bodies=100"),
			"ns/op", (126014 + 116581) / 2.0}, // even count: mean of the middle two
		{r.lookup("github.com/fixedstep/fixedstep/systems", "BenchmarkPhysicsOverhead/bodies=100/events"),
			"overhead-%", 12.5},
	} {
		got, ok := c.b.median(c.unit)
		if !ok || got != c.want {
			t.Errorf("%s median %s = %v, %v; want %v", c.b.name, c.unit, got, ok, c.want)
		}
	}
}

func TestPairUp(t *testing.T) {
	r := parseSample(t)
	rows, unpaired := pairUp(r)
	type want struct {
		engine, baseline string
		ratio            float64
		ok               bool
	}
	wants := []want{
		{"BenchmarkFrame/engine", "BenchmarkFrame/donburi-ecs", 501.8 / 486.2, true},
		{"BenchmarkFrameOverhead/timed", lockstep, 1.06221, true},
		{"BenchmarkPhysics/engine/bodies=100", "BenchmarkPhysics/raw-cp/bodies=100",
			((126014 + 116581) / 2.0) / ((97023 + 101944) / 2.0), true},
		{"BenchmarkPhysics/engine/bodies=100", "BenchmarkPhysics/raw-cp-callbacks/bodies=100", 0, false},
		{"BenchmarkPhysicsOverhead/bodies=100/events", lockstep, 1.125, true},
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
		if ok != w.ok || math.Abs(got-w.ratio) > 1e-9 {
			t.Errorf("row %d ratio = %v, %v; want %v, %v", i, got, ok, w.ratio, w.ok)
		}
	}
	if len(unpaired) != 2 || unpaired[0].name != "BenchmarkNanotime" || unpaired[1].name != "BenchmarkPacing/display=144Hz" {
		t.Errorf("unpaired = %v, want BenchmarkNanotime and BenchmarkPacing (which gets its own table)", unpaired)
	}
	if n, ok := entities(rows[5].Engine); !ok || n != 10000 {
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
		"MEDIAN",
		"| engine | Frame/engine | — | 501.8 | — | 0 | Frame/donburi-ecs | 486.2 | 1.03 |",
		"| physics | PhysicsOverhead/bodies=100/events | 100 | — | 1203 | — | raw, same run (lockstep) | 1069 ns/entity | 1.12 |",
		"| Nanotime | 27.85 | 0 | 0 B/op |",
		"| 144Hz | 95.24 % | 95.24 % | 0.4892 px | 4.93 px |",
		"| engine | FrameOverhead/timed | — | 489.2 a frame | — | — | raw, same run (lockstep) | 461.9 a frame | 1.06 |",
	} {
		if !strings.Contains(out.String(), want) {
			t.Errorf("output lacks %q:\n%s", want, out.String())
		}
	}
	doc, err := os.ReadFile(md)
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"# Benchmarks", "linux/amd64, AMD EPYC", "Go: go", "2025-11-22", "make bench", out.String()} {
		if !strings.Contains(string(doc), want) {
			t.Errorf("BENCHMARKS.md lacks %q", want)
		}
	}

	if err := Run(config{Stdin: strings.NewReader("PASS\n"), Stdout: &out}); err == nil {
		t.Error("Run with no results: no error")
	}
}
