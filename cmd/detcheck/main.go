// Command detcheck finds, in a simulation's packages, what can make two
// CPUs compute different states from the same inputs: float products a
// compiler may fuse into multiply-adds, calls to math functions that
// differ per CPU, ranges over maps, the wall clock, the global random
// generators, go statements and float-to-integer conversions. With -fix it
// rounds the products (a*b becomes float64(a*b)) and calls
// github.com/fixedstep/fixedstep/engine/detmath instead of math. Package
// internal/detcheck says what each finding means and what is left out.
//
// Usage:
//
//	go run github.com/fixedstep/fixedstep/cmd/detcheck [-fix] [-summary] [-kinds product,math,...] [packages]
//
// It exits with 0 when nothing remains, 1 when a finding remains (those
// -fix rewrote do not count), 2 on an error. A line once reviewed is
// marked `//detcheck:ok reason` (at its end, or alone on the line before
// it) and is then left out.
package main

import (
	"flag"
	"fmt"
	"os"

	"github.com/fixedstep/fixedstep/internal/detcheck"
)

func main() {
	var opts detcheck.Options
	var kinds string
	summary := flag.Bool("summary", false, "after the findings, print their count per package and kind")
	flag.BoolVar(&opts.Fix, "fix", false, "rewrite float products rounded and math calls as detmath's, in place")
	flag.StringVar(&kinds, "kinds", "", "look only for these `kinds`, comma-separated: product, complex, math, maprange, clock, rand, go, float2int, marker")
	flag.Usage = func() {
		fmt.Fprintln(flag.CommandLine.Output(), "usage: detcheck [-fix] [-summary] [-kinds list] [packages]")
		flag.PrintDefaults()
	}
	flag.Parse()
	var err error
	if opts.Kinds, err = detcheck.ParseKinds(kinds); err != nil {
		fmt.Fprintln(os.Stderr, "detcheck:", err)
		os.Exit(2)
	}
	opts.Patterns = flag.Args()
	os.Exit(detcheck.Run(opts, *summary, os.Stdout, os.Stderr))
}
