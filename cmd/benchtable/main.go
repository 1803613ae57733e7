// Command benchtable reads the output of `go test -bench` (several packages,
// several -count runs, from files or stdin) and prints a Markdown table of
// each engine benchmark beside its baseline: the median ns/op, ns/entity and
// allocs/op of every benchmark over its runs, and the engine/baseline ratio.
// Benchmarks with no baseline are listed in a second table.
//
// The pairs are the explicit table in pairs.go. With -md FILE it also writes
// FILE as a complete BENCHMARKS.md: machine, Go version, date, how to
// reproduce, then the tables.
//
// Usage:
//
//	go test -run '^$' -bench . -benchmem -count 6 ./... > bench.txt
//	go run ./cmd/benchtable -md BENCHMARKS.md bench.txt
package main

import (
	"flag"
	"fmt"
	"io"
	"os"
	"time"
)

func main() {
	cfg := config{Stdin: os.Stdin, Stdout: os.Stdout, Now: time.Now()}
	flag.StringVar(&cfg.MarkdownPath, "md", "", "also write a full BENCHMARKS.md to this `file`")
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
	MarkdownPath string   // if set, the full BENCHMARKS.md is written here
	Stdin        io.Reader
	Stdout       io.Writer
	Now          time.Time // the date written to the Markdown file
}

// Run parses the inputs, prints the tables to cfg.Stdout and, if asked,
// writes the Markdown file. It fails if no input holds a benchmark result.
func Run(cfg config) error {
	inputs := cfg.Inputs
	if len(inputs) == 0 {
		inputs = []string{"-"}
	}
	var parsed results
	for _, name := range inputs {
		if err := parseInput(&parsed, name, cfg.Stdin); err != nil {
			return err
		}
	}
	if len(parsed.order) == 0 {
		return fmt.Errorf("no benchmark results in %v", inputs)
	}
	rows, unpaired := pairUp(&parsed)
	tables := renderTables(&parsed, rows, unpaired)
	if _, err := io.WriteString(cfg.Stdout, tables); err != nil {
		return err
	}
	if cfg.MarkdownPath == "" {
		return nil
	}
	doc := renderDocument(&parsed, cfg.Now) + tables
	if err := os.WriteFile(cfg.MarkdownPath, []byte(doc), 0o644); err != nil {
		return fmt.Errorf("write markdown: %w", err)
	}
	return nil
}

func parseInput(into *results, name string, stdin io.Reader) error {
	if name == "-" {
		if err := into.parse(stdin); err != nil {
			return fmt.Errorf("read stdin: %w", err)
		}
		return nil
	}
	f, err := os.Open(name)
	if err != nil {
		return err
	}
	defer f.Close()
	if err := into.parse(f); err != nil {
		return fmt.Errorf("read %s: %w", name, err)
	}
	return nil
}
