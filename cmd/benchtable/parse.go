package main

import (
	"bufio"
	"io"
	"math"
	"regexp"
	"slices"
	"strconv"
	"strings"
)

// bench holds every run of one benchmark.
type bench struct {
	pkg  string // the `pkg:` header line it came under, "" if none
	name string // full name without the -GOMAXPROCS suffix
	// metrics maps a unit ("ns/op", "allocs/op", "ns/entity",
	// "overhead-%", ...) to its value in each run that reported it.
	metrics map[string][]float64
}

// median is the median over the runs of unit, and whether any run had it.
// With an even number of runs it is the mean of the middle two.
func (b *bench) median(unit string) (float64, bool) {
	xs := slices.Clone(b.metrics[unit])
	if len(xs) == 0 {
		return 0, false
	}
	slices.Sort(xs)
	m := len(xs) / 2
	if len(xs)%2 == 1 {
		return xs[m], true
	}
	return (xs[m-1] + xs[m]) / 2, true
}

// runs is the number of result lines seen for b.
func (b *bench) runs() int { return len(b.metrics["ns/op"]) }

// results is everything parsed from one or more `go test -bench` outputs.
type results struct {
	goos, goarch, cpu string // the first of each header line seen
	byKey             map[string]*bench
	order             []*bench // in order of first appearance
}

func key(pkg, name string) string { return pkg + "\x00" + name }

// lookup returns the benchmark called name in pkg, or nil.
func (r *results) lookup(pkg, name string) *bench { return r.byKey[key(pkg, name)] }

var procsSuffix = regexp.MustCompile(`-\d+$`)

// parse adds the results in the `go test -bench` output rd to r. Header
// lines (goos, goarch, cpu, pkg) are noted; lines that are not a complete
// benchmark result (test logs, PASS, ok, FAIL) are skipped.
func (r *results) parse(rd io.Reader) error {
	if r.byKey == nil {
		r.byKey = make(map[string]*bench)
	}
	pkg := ""
	sc := bufio.NewScanner(rd)
	sc.Buffer(make([]byte, 64*1024), 1024*1024)
	for sc.Scan() {
		line := sc.Text()
		if k, v, ok := strings.Cut(line, ": "); ok {
			switch k {
			case "goos":
				r.goos = firstOf(r.goos, v)
			case "goarch":
				r.goarch = firstOf(r.goarch, v)
			case "cpu":
				r.cpu = firstOf(r.cpu, v)
			case "pkg":
				pkg = v
			}
		}
		name, values, ok := parseResult(line)
		if !ok {
			continue
		}
		b := r.byKey[key(pkg, name)]
		if b == nil {
			b = &bench{pkg: pkg, name: name, metrics: make(map[string][]float64)}
			r.byKey[key(pkg, name)] = b
			r.order = append(r.order, b)
		}
		for unit, v := range values {
			b.metrics[unit] = append(b.metrics[unit], v)
		}
	}
	return sc.Err()
}

// firstOf keeps the first non-empty header value.
func firstOf(old, v string) string {
	if old != "" {
		return old
	}
	return strings.TrimSpace(v)
}

// parseResult parses one result line,
//
//	BenchmarkName/sub-2   1234   567.8 ns/op   8.9 unit   0 B/op   0 allocs/op
//
// into its name (without the -GOMAXPROCS suffix) and its value per unit.
// The iteration count is checked but not kept.
func parseResult(line string) (string, map[string]float64, bool) {
	f := strings.Fields(line)
	if len(f) < 4 || len(f)%2 != 0 || !strings.HasPrefix(f[0], "Benchmark") {
		return "", nil, false
	}
	if _, err := strconv.ParseInt(f[1], 10, 64); err != nil {
		return "", nil, false
	}
	values := make(map[string]float64, len(f)/2-1)
	for i := 2; i < len(f); i += 2 {
		v, err := strconv.ParseFloat(f[i], 64)
		if err != nil || math.IsNaN(v) {
			return "", nil, false
		}
		values[f[i+1]] = v
	}
	if _, ok := values["ns/op"]; !ok {
		return "", nil, false
	}
	return procsSuffix.ReplaceAllString(f[0], ""), values, true
}
