package main

import (
	"bytes"
	"os"
	"runtime"
	"strings"
	"testing"
	"time"

	"golang.org/x/perf/benchfmt"
)

// TestMain lets the test binary stand in for the command when Run starts
// children (with STUTTER_TEST_CHILD=1 in their environment): it runs main
// with the arguments from "-child" on.
func TestMain(m *testing.M) {
	if i := indexOf(os.Args, "-child"); i > 0 && os.Getenv("STUTTER_TEST_CHILD") == "1" {
		os.Args = append([]string{os.Args[0]}, os.Args[i:]...)
		main()
		os.Exit(0)
	}
	os.Exit(m.Run())
}

func indexOf(xs []string, x string) int {
	for i, s := range xs {
		if s == x {
			return i
		}
	}
	return -1
}

// Percentiles by nearest rank, on synthetic timings: 1,000 ticks of about
// 4 ms with ten hitches of 30 ms and one of 90 ms.
func TestPercentiles(t *testing.T) {
	ds := make([]time.Duration, 1000)
	for i := range ds {
		ds[i] = 4*time.Millisecond + time.Duration(i%10)*time.Microsecond
	}
	for i := range 10 {
		ds[1+i*97] = 30 * time.Millisecond
	}
	ds[500] = 90 * time.Millisecond
	p := percentiles(ds)
	if p.p50 < 4*time.Millisecond || p.p50 > 4*time.Millisecond+9*time.Microsecond || p.max != 90*time.Millisecond {
		t.Errorf("p50 %v, max %v; want about 4 ms, 90 ms", p.p50, p.max)
	}
	if p.p99 != 30*time.Millisecond { // 11 hitches in 1000: the 990th smallest is one
		t.Errorf("p99 %v, want 30ms", p.p99)
	}
	if ds[500] != 90*time.Millisecond {
		t.Error("percentiles reordered its input")
	}
	if (percentiles(nil) != pcts{}) {
		t.Error("no values: want zeros")
	}
	if one := percentiles([]time.Duration{time.Second}); one != (pcts{time.Second, time.Second, time.Second}) {
		t.Errorf("one value: %+v", one)
	}
}

func TestParseSettings(t *testing.T) {
	got, err := parseSettings("100, 400,off:1GiB,50:512MiB")
	if err != nil {
		t.Fatal(err)
	}
	want := []gcSetting{{"100", ""}, {"400", ""}, {"off", "1GiB"}, {"50", "512MiB"}}
	if len(got) != len(want) {
		t.Fatalf("got %v", got)
	}
	for i := range want {
		if got[i] != want[i] {
			t.Errorf("setting %d: %+v, want %+v", i, got[i], want[i])
		}
	}
	if got[2].name() != "gc=off+limit=1GiB" || got[0].name() != "gc=100" {
		t.Errorf("names %q, %q", got[2].name(), got[0].name())
	}
	for _, bad := range []string{"", "0", "-5", "abc", "100:lots", "100:12XB", "off:0", "1e3", "100,,400"} {
		if _, err := parseSettings(bad); err == nil {
			t.Errorf("parseSettings(%q) accepted", bad)
		}
	}
	if n, err := parseBytes("3MiB"); err != nil || n != 3<<20 {
		t.Errorf("3MiB = %d, %v", n, err)
	}
	if formatBytes(1<<30) != "1GiB" || formatBytes(1536) != "1536B" || formatBytes(3<<20) != "3MiB" {
		t.Error("formatBytes")
	}
}

// A short run end to end, through child processes (this test binary, see
// TestMain), two GC settings twice: the output is what benchfmt reads, one
// result per child with every metric, in the order run.
func TestRunHeadless(t *testing.T) {
	t.Setenv("STUTTER_TEST_CHILD", "1")
	settings, _ := parseSettings("100,off:1GiB")
	var out bytes.Buffer
	cfg := config{bodies: 200, seconds: 1, skip: 0.5, settings: settings, count: 2}
	if err := Run(cfg, &out); err != nil {
		t.Fatal(err)
	}
	r := benchfmt.NewReader(strings.NewReader(out.String()), "stutter")
	var names []string
	for r.Scan() {
		res, ok := r.Result().(*benchfmt.Result)
		if !ok {
			continue
		}
		names = append(names, string(res.Name))
		units := map[string]float64{}
		for _, v := range res.Values {
			units[v.Unit] = v.Value
		}
		for _, u := range []string{"sec/op", "tick-p50-ms", "tick-p99-ms", "tick-max-ms", "tick-cpu-p50-ms", "tick-cpu-p99-ms", "frame-p50-ms", "frame-p99-ms",
			"frame-max-ms", "gc-cycles", "gc-pause-ms", "heap-goal-MiB", "dropped-ms"} {
			if _, ok := units[u]; !ok {
				t.Errorf("%s: no %s in %v", res.Name, u, units)
			}
		}
		if units["tick-p50-ms"] <= 0 || units["tick-p50-ms"] > units["tick-p99-ms"] || units["tick-p99-ms"] > units["tick-max-ms"] {
			t.Errorf("%s: tick percentiles out of order: %v", res.Name, units)
		}
		if runtime.GOOS == "linux" && (units["tick-cpu-p50-ms"] <= 0 || units["tick-cpu-p50-ms"] > units["tick-cpu-p99-ms"]) {
			t.Errorf("%s: tick CPU percentiles: %v", res.Name, units)
		}
		if strings.Contains(string(res.Name), "gc=off") && units["gc-cycles"] != 0 {
			t.Errorf("%s: %v GC cycles with GOGC=off and a 1 GiB limit", res.Name, units["gc-cycles"])
		}
	}
	if err := r.Err(); err != nil {
		t.Fatal(err)
	}
	want := []string{"Stutter/mode=headless/bodies=200/gc=100", "Stutter/mode=headless/bodies=200/gc=off+limit=1GiB"}
	if len(names) != 4 || names[0] != want[0] || names[1] != want[1] || names[2] != want[0] || names[3] != want[1] {
		t.Fatalf("results %v, want %v twice", names, want)
	}
}

// Bad command lines are errors, not runs.
func TestRunRejects(t *testing.T) {
	for _, cfg := range []config{{bodies: 0, seconds: 1, count: 1}, {bodies: 10, seconds: 0, count: 1},
		{bodies: 10, seconds: 1, count: 0}, {bodies: 10, seconds: 1, skip: -1, count: 1}, {bodies: 10, seconds: 1, count: 1}} {
		if err := Run(cfg, &bytes.Buffer{}); err == nil {
			t.Errorf("%+v: no error", cfg)
		}
	}
}
