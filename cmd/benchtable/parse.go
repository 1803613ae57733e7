package main

import (
	"bufio"
	"fmt"
	"io"
	"regexp"
	"strings"

	"golang.org/x/perf/benchfmt"
)

// bench holds every run of one benchmark.
type bench struct {
	pkg   string // the `pkg:` configuration it came under, "" if none
	name  string // "Benchmark" and the full name, without the -GOMAXPROCS suffix
	stage string // the `stage:` configuration it came under (see results.stages)
	// metrics maps a unit, as the benchmark printed it ("ns/op",
	// "allocs/op", "ns/entity", "overhead-%", ...), to its value in each
	// run that reported it.
	metrics map[string][]float64
}

// runs is the number of results seen for b.
func (b *bench) runs() int { return len(b.metrics["ns/op"]) }

// results is everything read from one or more `go test -bench` outputs.
type results struct {
	goos, goarch, cpu string // the first of each configuration seen
	byKey             map[string]*bench
	order             []*bench // in order of first appearance
	skipped           []string // malformed result lines: "file:line: what is wrong"
	date              string   // of the run, for the Markdown
	cpus              int      // this machine's, for the Markdown
	goVersion         string   // this toolchain's, for the Markdown
	// stages are the `stage: NAME` lines of the input in order, each with
	// the `loadavg: ...` lines (the contents of /proc/loadavg) that followed
	// it: make bench writes one when a stage starts and one when it ends.
	stages []stage
	// target is the make target that made the input, from its first
	// `make: TARGET` line ("bench" or "bench-full"); "" if it has none.
	target string
}

// stage is one step of make bench and the load averages noted during it.
type stage struct {
	name  string
	loads []string // "0.52 0.61 0.70": the 1, 5 and 15 minute load averages
}

func key(pkg, name string) string { return pkg + "\x00" + name }

// lookup returns the benchmark called name in pkg, or nil.
func (r *results) lookup(pkg, name string) *bench { return r.byKey[key(pkg, name)] }

var procsSuffix = regexp.MustCompile(`-\d+$`)

// read adds the results of the `go test -bench` output in, named name, to
// r, reading it with golang.org/x/perf/benchfmt. Values are kept in the
// units the benchmarks printed (benchfmt's reader turns ns/op into sec/op;
// its original value and unit are used). Lines that are not results or
// configuration (test logs, PASS, ok) are skipped. A malformed result line
// (a benchmark that printed to stdout in the middle of its own result line,
// say) is skipped too, and noted in r.skipped with its place, for the
// caller to report.
func (r *results) read(name string, in io.Reader) error {
	if r.byKey == nil {
		r.byKey = make(map[string]*bench)
	}
	text, err := io.ReadAll(in)
	if err != nil {
		return err
	}
	r.readStages(string(text))
	br := benchfmt.NewReader(strings.NewReader(string(text)), name)
	for br.Scan() {
		switch rec := br.Result().(type) {
		case *benchfmt.SyntaxError:
			r.skipped = append(r.skipped, rec.Error())
		case *benchfmt.Result:
			r.add(rec)
		}
	}
	return br.Err()
}

// add records one result.
func (r *results) add(res *benchfmt.Result) {
	r.goos = firstOf(r.goos, res.GetConfig("goos"))
	r.goarch = firstOf(r.goarch, res.GetConfig("goarch"))
	r.cpu = firstOf(r.cpu, res.GetConfig("cpu"))
	pkg := res.GetConfig("pkg")
	name := "Benchmark" + procsSuffix.ReplaceAllString(string(res.Name.Full()), "")
	b := r.byKey[key(pkg, name)]
	if b == nil {
		b = &bench{pkg: pkg, name: name, stage: res.GetConfig("stage"), metrics: make(map[string][]float64)}
		r.byKey[key(pkg, name)] = b
		r.order = append(r.order, b)
	}
	for _, v := range res.Values {
		unit, value := v.Unit, v.Value
		if v.OrigUnit != "" {
			unit, value = v.OrigUnit, v.OrigValue
		}
		b.metrics[unit] = append(b.metrics[unit], value)
	}
}

// readStages notes the stage and loadavg configuration lines of text.
func (r *results) readStages(text string) {
	sc := bufio.NewScanner(strings.NewReader(text))
	sc.Buffer(make([]byte, 64*1024), 1024*1024)
	for sc.Scan() {
		k, v, ok := strings.Cut(sc.Text(), ": ")
		switch {
		case !ok:
		case k == "make":
			r.target = firstOf(r.target, v)
		case k == "stage":
			r.stages = append(r.stages, stage{name: strings.TrimSpace(v)})
		case k == "loadavg":
			if len(r.stages) == 0 {
				r.stages = append(r.stages, stage{})
			}
			f := strings.Fields(v)
			s := &r.stages[len(r.stages)-1]
			s.loads = append(s.loads, strings.Join(f[:min(3, len(f))], " "))
		}
	}
}

// stageLoad says how loaded the machine was during a stage: "0.52 0.61
// 0.70 at the start, 1.91 1.20 0.95 at the end", or "" if the input has no
// load averages for it.
func (r *results) stageLoad(name string) string {
	for _, s := range r.stages {
		if s.name != name || len(s.loads) == 0 {
			continue
		}
		if len(s.loads) == 1 {
			return fmt.Sprintf("%s at the start", s.loads[0])
		}
		return fmt.Sprintf("%s at the start, %s at the end", s.loads[0], s.loads[len(s.loads)-1])
	}
	return ""
}

// firstOf keeps the first non-empty value.
func firstOf(old, v string) string {
	if old != "" {
		return old
	}
	return strings.TrimSpace(v)
}
