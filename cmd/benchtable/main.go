// Command benchtable reads the output of `go test -bench` and of
// cmd/stutter (several packages, several runs, from files or stdin) with
// golang.org/x/perf/benchfmt and prints the Markdown sections of
// BENCHMARKS.md that benchstat does not make: the bodymark, the stutter
// figures, each engine benchmark beside its baseline (with the ratio and
// its confidence interval), frame pacing, and the benchmarks without a
// baseline. Every figure is a median over the runs with its 95% confidence
// interval, from golang.org/x/perf/benchmath.
//
// The pairs of engine and baseline are the explicit table in pairs.go.
// With -md FILE it also rewrites FILE as a complete BENCHMARKS.md: a head
// (machine, Go version, date, how to reproduce), then the sections, keeping
// what it does not make (see document).
//
// Usage:
//
//	go test -run '^$' -bench . -benchmem -count 6 ./... > bench.txt
//	go run ./cmd/benchtable -md BENCHMARKS.md bench.txt
package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"io/fs"
	"os"
	"runtime"
	"strings"
	"time"
)

func main() {
	cfg := config{Stdin: os.Stdin, Stdout: os.Stdout, Stderr: os.Stderr, Now: time.Now()}
	flag.StringVar(&cfg.MarkdownPath, "md", "", "also rewrite this BENCHMARKS.md `file`")
	flag.Usage = func() {
		fmt.Fprintln(flag.CommandLine.Output(), "usage: benchtable [-md FILE] [bench.txt ...]  (no file or - reads stdin)")
		flag.PrintDefaults()
	}
	flag.Parse()
	cfg.Inputs = flag.Args()
	if err := Run(cfg); err != nil {
		fmt.Fprintln(os.Stderr, "benchtable:", err)
		os.Exit(1)
	}
}

// config is what the command line asks for.
type config struct {
	Inputs       []string // files of `go test -bench` output; none or "-" is Stdin
	MarkdownPath string   // if set, the full BENCHMARKS.md is rewritten here
	Stdin        io.Reader
	Stdout       io.Writer
	Stderr       io.Writer // warnings: result lines skipped as malformed
	Now          time.Time // the date written to the Markdown file
}

// Run reads the inputs, prints the sections to cfg.Stdout and, if asked,
// rewrites the Markdown file. Malformed result lines are skipped, each
// named on cfg.Stderr. It fails if no input holds a benchmark result.
func Run(cfg config) error {
	inputs := cfg.Inputs
	if len(inputs) == 0 {
		inputs = []string{"-"}
	}
	parsed := results{date: cfg.Now.Format("2006-01-02"), cpus: runtime.NumCPU(), goVersion: runtime.Version()}
	for _, name := range inputs {
		if err := readInput(&parsed, name, cfg.Stdin); err != nil {
			return err
		}
	}
	if cfg.Stderr != nil {
		for _, s := range parsed.skipped {
			fmt.Fprintf(cfg.Stderr, "benchtable: skipped a malformed result line: %s\n", s)
		}
	}
	if len(parsed.order) == 0 {
		return fmt.Errorf("no benchmark results in %v", inputs)
	}
	secs := sections(&parsed)
	var out strings.Builder
	for _, s := range secs {
		fmt.Fprintf(&out, "## %s\n\n%s\n", s.title, strings.TrimRight(s.body, "\n")+"\n")
	}
	if _, err := io.WriteString(cfg.Stdout, out.String()); err != nil {
		return err
	}
	if cfg.MarkdownPath == "" {
		return nil
	}
	old, err := os.ReadFile(cfg.MarkdownPath)
	if err != nil && !errors.Is(err, fs.ErrNotExist) {
		return fmt.Errorf("read markdown: %w", err)
	}
	if err := os.WriteFile(cfg.MarkdownPath, []byte(document(&parsed, secs, string(old))), 0o644); err != nil {
		return fmt.Errorf("write markdown: %w", err)
	}
	return nil
}

func readInput(into *results, name string, stdin io.Reader) error {
	if name == "-" {
		if err := into.read("stdin", stdin); err != nil {
			return fmt.Errorf("read stdin: %w", err)
		}
		return nil
	}
	f, err := os.Open(name)
	if err != nil {
		return err
	}
	defer f.Close()
	if err := into.read(name, f); err != nil {
		return fmt.Errorf("read %s: %w", name, err)
	}
	return nil
}
