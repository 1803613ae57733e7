// Package detcheck finds, in a simulation's Go source, what can make two
// CPUs compute different states from the same inputs, and rewrites the
// float products that a compiler may fuse so that every CPU rounds them
// alike. cmd/detcheck is its command line.
//
// # What it finds
//
//   - [Product]: a float product that a compiler may fuse with an addition
//     or a subtraction into one multiply-add, which skips the product's
//     rounding: Go does it on arm64, riscv64, ppc64, s390x and loong64
//     always, on amd64 from GOAMD64=v3, possibly across statements and
//     inlined calls. Every binary * of a float type (float32, float64, a
//     named type whose underlying type is one, a type parameter whose type
//     set holds one) and every *= on one, except products that cannot
//     change: constants; products by a constant zero or power of two, of
//     either sign, which are exact unless they overflow or fall among the
//     subnormals; and products that are the operand of a conversion (which
//     rounds them, as the spec says) or of another product or a quotient
//     (no CPU fuses a product into a product or a division).
//     -fix writes a*b as float64(a*b) (T(a*b) for a named type T or a type
//     parameter), and v *= k as v = T(v * k).
//   - [Complex]: complex * and /, and *= and /= on complex numbers. Go
//     computes them as float products and sums, inside one operation, that
//     may fuse, and a conversion cannot round them. Not fixed: write the
//     arithmetic in real parts.
//   - [MathCall]: a function of package math that may give other bits on
//     another CPU (its products fuse, or it runs assembly that differs from
//     its Go code), with detmath's function to call instead; -fix calls
//     detmath's. The functions of math known to give the same bits
//     everywhere are not named (exactMath: Sqrt, Floor, Ceil, Trunc,
//     Round, Abs, Copysign, Signbit, Inf, NaN, IsInf, IsNaN, Max, Min, FMA,
//     Frexp, Ldexp, Modf, Mod, Remainder, Nextafter, the bits conversions,
//     ...). Every function of math/cmplx is named.
//   - [MapRange]: a range over a map, or over an iterator from package
//     maps, whose order differs from run to run, unless its body is only
//     `s = append(s, k)` of its key and a later statement of the same
//     block sorts s (sort.Strings, sort.Ints, sort.Float64s, sort.Slice,
//     sort.SliceStable, slices.Sort, slices.SortFunc,
//     slices.SortStableFunc). Any other use, however harmless its order,
//     is named: mark it once it is reviewed.
//   - [Clock]: time.Now, time.Since, time.Until.
//   - [Rand]: the functions of math/rand and math/rand/v2 that use the
//     global generator (all but the constructors New, NewSource, NewPCG,
//     NewChaCha8, NewZipf), and every function of crypto/rand.
//   - [Goroutine]: go statements.
//   - [FloatToInt]: a conversion of a non-constant float to an integer
//     type: NaN and out-of-range values convert to different integers on
//     different CPUs.
//   - [Marker]: a //detcheck:ok with no reason, or one that marks nothing.
//
// A line that has been reviewed is marked with a comment
// `//detcheck:ok reason`, at the end of the line, or alone on the line
// before it; the findings that start on that line are then left out.
//
// It checks the Go files of the packages named (not their tests) as the
// go command builds them here: GOOS, GOARCH and GOFLAGS's -tags choose the
// files. Files with cgo are left out and named.
package detcheck

import (
	"cmp"
	"fmt"
	"go/token"
	"io"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strings"
)

// Kind is a kind of finding.
type Kind string

// The kinds of findings; see the package documentation.
const (
	Product    Kind = "product"
	Complex    Kind = "complex"
	MathCall   Kind = "math"
	MapRange   Kind = "maprange"
	Clock      Kind = "clock"
	Rand       Kind = "rand"
	Goroutine  Kind = "go"
	FloatToInt Kind = "float2int"
	Marker     Kind = "marker"
)

var allKinds = []Kind{Product, Complex, MathCall, MapRange, Clock, Rand, Goroutine, FloatToInt, Marker}

// Finding is one thing found.
type Finding struct {
	Pkg   string // import path
	Pos   token.Position
	Kind  Kind
	Msg   string
	Fixed bool // -fix rewrote it
}

// Options is what to check and how.
type Options struct {
	Dir      string    // where to run the go command; "" is the current directory
	Patterns []string  // package patterns, as the go command takes them; none is "."
	Fix      bool      // rewrite products and math calls in place
	Kinds    []Kind    // the kinds to look for; none is all
	Warn     io.Writer // where files left unchecked (cgo) are named; nil is nowhere

	// Overlay is a file of the go command's -overlay flag: the files it
	// names are read from where it says.
	Overlay string
	// WriteFile writes a fixed file; nil is os.WriteFile with mode 0644.
	WriteFile func(name string, data []byte) error
}

// Check finds what opts asks for and, with opts.Fix, rewrites the files.
// It returns the findings in file and line order, the fixed ones marked,
// and the files it rewrote. An error is a package that does not load or
// type-check, or a file it could not write.
func Check(opts Options) (findings []Finding, rewritten []string, err error) {
	patterns := opts.Patterns
	if len(patterns) == 0 {
		patterns = []string{"."}
	}
	kinds := opts.Kinds
	if len(kinds) == 0 {
		kinds = allKinds
	}
	checks := map[Kind]bool{}
	for _, k := range kinds {
		checks[k] = true
	}
	pkgs, err := load(cmp.Or(opts.Dir, "."), opts.Overlay, patterns)
	if err != nil {
		return nil, nil, err
	}
	for _, p := range pkgs {
		if len(p.noCgo) > 0 && opts.Warn != nil {
			fmt.Fprintf(opts.Warn, "detcheck: %s: files with cgo not checked: %s\n", p.path, strings.Join(p.noCgo, " "))
		}
		for i, f := range p.files {
			c := &fileCheck{p: p, f: f, src: p.src[i], checks: checks}
			c.run()
			findings = append(findings, c.findings...)
			if !opts.Fix {
				continue
			}
			out, err := c.fixedSource()
			if err != nil {
				return nil, nil, err
			}
			if out != nil {
				write := opts.WriteFile
				if write == nil {
					write = func(name string, data []byte) error { return os.WriteFile(name, data, 0o644) }
				}
				if err := write(p.names[i], out); err != nil {
					return nil, nil, err
				}
				rewritten = append(rewritten, p.names[i])
			}
		}
	}
	slices.SortStableFunc(findings, func(a, b Finding) int {
		return cmp.Or(cmp.Compare(a.Pos.Filename, b.Pos.Filename), cmp.Compare(a.Pos.Line, b.Pos.Line), cmp.Compare(a.Pos.Column, b.Pos.Column))
	})
	if !opts.Fix {
		for i := range findings {
			findings[i].Fixed = false
		}
	}
	return findings, rewritten, nil
}

// ParseKinds reads a comma-separated list of kinds.
func ParseKinds(s string) ([]Kind, error) {
	if s == "" {
		return nil, nil
	}
	var kinds []Kind
	for _, name := range strings.Split(s, ",") {
		k := Kind(strings.TrimSpace(name))
		if !slices.Contains(allKinds, k) {
			return nil, fmt.Errorf("unknown kind %q (known: %v)", k, allKinds)
		}
		kinds = append(kinds, k)
	}
	return kinds, nil
}

// Run checks as opts says, prints each finding as file:line:col: kind:
// message (file relative to the current directory when under it) to
// stdout, and with summary a count per package and kind after them. It
// returns the exit status: 0 if nothing remains to do, 1 if a finding
// remains (fixed ones do not count), 2 on an error, printed to stderr.
func Run(opts Options, summary bool, stdout, stderr io.Writer) int {
	if opts.Warn == nil {
		opts.Warn = stderr
	}
	findings, rewritten, err := Check(opts)
	if err != nil {
		fmt.Fprintln(stderr, "detcheck:", err)
		return 2
	}
	wd, _ := os.Getwd()
	remaining := 0
	counts := map[string]map[Kind]int{}
	for _, f := range findings {
		name := f.Pos.Filename
		if rel, err := filepath.Rel(wd, name); err == nil && !strings.HasPrefix(rel, "..") {
			name = rel
		}
		status := ""
		if f.Fixed {
			status = " (fixed)"
		} else {
			remaining++
		}
		fmt.Fprintf(stdout, "%s:%d:%d: %s: %s%s\n", name, f.Pos.Line, f.Pos.Column, f.Kind, f.Msg, status)
		if counts[f.Pkg] == nil {
			counts[f.Pkg] = map[Kind]int{}
		}
		counts[f.Pkg][f.Kind]++
	}
	if summary {
		for _, pkg := range slices.Sorted(maps.Keys(counts)) {
			var parts []string
			total := 0
			for _, k := range allKinds {
				if n := counts[pkg][k]; n > 0 {
					parts = append(parts, fmt.Sprintf("%s %d", k, n))
					total += n
				}
			}
			fmt.Fprintf(stdout, "%s: %d (%s)\n", pkg, total, strings.Join(parts, ", "))
		}
		fmt.Fprintf(stdout, "total: %d findings, %d fixed, %d files rewritten\n", len(findings), len(findings)-remaining, len(rewritten))
	}
	if remaining > 0 {
		return 1
	}
	return 0
}
