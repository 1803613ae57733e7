package detcheck_test

import (
	"encoding/json"
	"fmt"
	"go/ast"
	"go/format"
	"go/parser"
	"go/token"
	"maps"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/fixedstep/fixedstep/internal/detcheck"
	"github.com/fixedstep/fixedstep/internal/fusedops"
)

// The packages under testdata/src: each line's "// want kind ..." comment
// names what detcheck finds on it; a //detcheck:ok with no reason, or one
// that marks nothing ("nothing to mark here"), is found as a marker.
const testPkgs = "./testdata/src/..."

var (
	wantRE   = regexp.MustCompile(`// want ((?:[a-z0-9]+ ?)+)$`)
	markerRE = regexp.MustCompile(`^\s*//detcheck:ok( nothing to mark here)?$`)
)

// wanted reads the expectations of the files under testdata/src, as
// "file:line" to the kinds found there, sorted.
func wanted(t *testing.T) map[string][]string {
	t.Helper()
	files, err := filepath.Glob("testdata/src/*/*.go")
	if err != nil || len(files) == 0 {
		t.Fatal("no testdata files", err)
	}
	want := map[string][]string{}
	for _, f := range files {
		src, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		abs, _ := filepath.Abs(f)
		for i, line := range strings.Split(string(src), "\n") {
			key := fmt.Sprintf("%s:%d", abs, i+1)
			if m := wantRE.FindStringSubmatch(line); m != nil {
				want[key] = strings.Fields(m[1])
			}
			if markerRE.MatchString(line) {
				want[key] = append(want[key], "marker")
			}
		}
	}
	for _, k := range want {
		slices.Sort(k)
	}
	return want
}

func found(fs []detcheck.Finding) map[string][]string {
	got := map[string][]string{}
	for _, f := range fs {
		key := fmt.Sprintf("%s:%d", f.Pos.Filename, f.Pos.Line)
		got[key] = append(got[key], string(f.Kind))
	}
	for _, k := range got {
		slices.Sort(k)
	}
	return got
}

// Every line of the test packages gives the findings its comment names,
// and no other line gives any.
func TestFindings(t *testing.T) {
	fs, _, err := detcheck.Check(detcheck.Options{Patterns: []string{testPkgs}})
	if err != nil {
		t.Fatal(err)
	}
	want, got := wanted(t), found(fs)
	for _, key := range slices.Sorted(maps.Keys(want)) {
		if !slices.Equal(want[key], got[key]) {
			t.Errorf("%s: found %v, want %v", key, got[key], want[key])
		}
	}
	for _, key := range slices.Sorted(maps.Keys(got)) {
		if want[key] == nil {
			t.Errorf("%s: found %v, want nothing", key, got[key])
		}
	}
	for _, f := range fs {
		if f.Fixed {
			t.Errorf("%s: marked fixed without -fix", f.Pos)
		}
	}
}

// fix runs -fix over the test packages without writing them, and returns
// the fixed files and an overlay file that puts them in the originals'
// place for the go command.
func fix(t *testing.T) (fixed map[string][]byte, fs []detcheck.Finding, overlay string) {
	t.Helper()
	fixed = map[string][]byte{}
	fs, rewritten, err := detcheck.Check(detcheck.Options{Patterns: []string{testPkgs}, Fix: true,
		WriteFile: func(name string, data []byte) error { fixed[name] = data; return nil }})
	if err != nil {
		t.Fatal(err)
	}
	if len(rewritten) != len(fixed) || len(fixed) != 2 {
		t.Fatalf("rewrote %v, wrote %d files; want products.go and other.go", rewritten, len(fixed))
	}
	dir := t.TempDir()
	replace := map[string]string{}
	for name, data := range fixed {
		tmp := filepath.Join(dir, filepath.Base(name))
		if err := os.WriteFile(tmp, data, 0o644); err != nil {
			t.Fatal(err)
		}
		replace[name] = tmp
	}
	js, _ := json.Marshal(map[string]any{"Replace": replace})
	overlay = filepath.Join(dir, "overlay.json")
	if err := os.WriteFile(overlay, js, 0o644); err != nil {
		t.Fatal(err)
	}
	return fixed, fs, overlay
}

// -fix rewrites the products and the math calls it can; its output is
// gofmt's, compiles, keeps the comments, and leaves what it cannot fix.
func TestFix(t *testing.T) {
	fixed, fs, overlay := fix(t)
	for name, data := range fixed {
		if f, err := format.Source(data); err != nil || string(f) != string(data) {
			t.Errorf("%s: fixed output is not gofmt's (%v):\n%s", name, err, data)
		}
	}
	products := string(fixed[mustAbs(t, "testdata/src/products/products.go")])
	other := string(fixed[mustAbs(t, "testdata/src/other/other.go")])
	for _, s := range []string{
		"return float64(a.X*b.X) + float64(a.Y*b.Y) // want product product",
		"p := float64(a * b) // want product",
		"return Scalar(s * k) // want product",
		"return units.Meters(a*b) + c // want product",
		"return float32(a*b) + c } // want product",
		"return T(a*b) + c } // want product",
		"a = float64(a * b)         // want product",
		"a = float64(a * (b + 1))   // want product",
		"a = float64(a * (a * b))   // want product",
		"m[\"k\"] = Scalar(m[\"k\"] * 3) // want product",
		"s[f()] *= a                // want product",
		"z := float64(a*b) + b",
		"x := a*b + 1",
	} {
		if !strings.Contains(squeeze(products), squeeze(s)) {
			t.Errorf("fixed products.go has no %q:\n%s", s, products)
		}
	}
	for _, s := range []string{
		"b := detmath.Sin(x)   // want math",
		"f := detmath.Exp      // want math",
		"c := math.Gamma(x)    // want math",
	} {
		if !strings.Contains(squeeze(other), squeeze(s)) {
			t.Errorf("fixed other.go has no %q:\n%s", s, other)
		}
	}
	for _, s := range []string{
		"\t\"math\"\n",
		"\t\"time\"\n\n\t\"github.com/fixedstep/fixedstep/engine/detmath\"\n)",
	} {
		if !strings.Contains(other, s) {
			t.Errorf("fixed other.go has no %q:\n%s", s, other)
		}
	}
	fixedCount := 0
	for _, f := range fs {
		if f.Fixed {
			fixedCount++
		}
	}
	if fixedCount != 16 {
		t.Errorf("%d findings fixed, want 16 (14 products, 2 math calls)", fixedCount)
	}

	// The fixed packages type-check, and what remains is what -fix leaves.
	after, _, err := detcheck.Check(detcheck.Options{Patterns: []string{testPkgs}, Overlay: overlay})
	if err != nil {
		t.Fatal(err)
	}
	counts := map[string]int{}
	for _, f := range after {
		counts[filepath.Base(f.Pos.Filename)+" "+string(f.Kind)]++
	}
	want := map[string]int{
		"products.go product": 1, "products.go complex": 3, "products.go float2int": 1,
		"other.go math": 1, "other.go maprange": 3, "other.go clock": 2, "other.go rand": 2,
		"other.go go": 1, "other.go float2int": 3, "other.go marker": 2,
	}
	if !maps.Equal(counts, want) {
		t.Errorf("after -fix: %v\nwant %v", counts, want)
	}
}

// Compiled for the CPUs that fuse, the test packages have multiply-adds
// before -fix and none after, except on the lines -fix leaves (complex
// arithmetic, a *= it will not rewrite, marked lines) and products by
// powers of two, which fuse to the same bits.
func TestFixLeavesNoMultiplyAdd(t *testing.T) {
	_, _, overlay := fix(t)
	after, _, err := detcheck.Check(detcheck.Options{Patterns: []string{testPkgs}, Overlay: overlay})
	if err != nil {
		t.Fatal(err)
	}
	allowed := map[int]bool{}
	for _, f := range after {
		if filepath.Base(f.Pos.Filename) == "products.go" && (f.Kind == detcheck.Product || f.Kind == detcheck.Complex) {
			allowed[f.Pos.Line] = true
		}
	}
	src, err := os.ReadFile("testdata/src/products/products.go")
	if err != nil {
		t.Fatal(err)
	}
	for i, line := range strings.Split(string(src), "\n") {
		if strings.Contains(line, "//detcheck:ok") {
			allowed[i+1], allowed[i+2] = true, true
		}
		if strings.Contains(line, "// exact: these may fuse, to the same bits") {
			allowed[i+1] = true
		}
	}
	lineOf := func(text string) int {
		for i, line := range strings.Split(string(src), "\n") {
			if strings.Contains(line, text) {
				return i + 1
			}
		}
		t.Fatalf("products.go has no %q", text)
		return 0
	}
	// On arm64 a product fuses with a sum in the next statement, and with
	// the caller's sum when inlined.
	mustFuse := map[int]string{lineOf("return p + c"): "across statements", lineOf("func Inlined"): "inlined"}
	for _, target := range fusedops.Targets[:3] {
		before, err := fusedops.Find(".", "./testdata/src/products", target)
		if err != nil {
			t.Fatal(err)
		}
		fused, err := fusedops.Find(".", "./testdata/src/products", target, "-overlay", overlay)
		if err != nil {
			t.Fatal(err)
		}
		if len(before) < 8 {
			t.Errorf("%s: %d multiply-adds before -fix: %v; the test shows nothing", target.Name, len(before), before)
		}
		if target.Name == "arm64" {
			for line, what := range mustFuse {
				if !slices.ContainsFunc(before, func(op fusedops.Op) bool { return op.Line == line }) {
					t.Errorf("arm64: no multiply-add on line %d (%s) before -fix: %v", line, what, before)
				}
			}
		}
		for _, op := range fused {
			if !allowed[op.Line] {
				t.Errorf("%s: after -fix, %v", target.Name, op)
			}
		}
		t.Logf("%s: %d multiply-adds before -fix, %d after (on lines it leaves)", target.Name, len(before), len(fused))
	}
}

// The detmath functions that findings suggest are the ones it has.
func TestDetmathFuncs(t *testing.T) {
	fset := token.NewFileSet()
	files, _ := filepath.Glob("../../engine/detmath/*.go")
	var have []string
	for _, name := range files {
		if strings.HasSuffix(name, "_test.go") {
			continue
		}
		f, err := parser.ParseFile(fset, name, nil, parser.SkipObjectResolution)
		if err != nil {
			t.Fatal(err)
		}
		for _, d := range f.Decls {
			if fn, ok := d.(*ast.FuncDecl); ok && fn.Recv == nil && fn.Name.IsExported() {
				have = append(have, fn.Name.Name)
			}
		}
	}
	slices.Sort(have)
	if listed := slices.Sorted(maps.Keys(detcheck.DetmathFuncs)); !slices.Equal(have, listed) {
		t.Errorf("detmath has %v; detcheck suggests %v", have, listed)
	}
}

// squeeze is s with each run of white space one space.
func squeeze(s string) string { return strings.Join(strings.Fields(s), " ") }

func mustAbs(t *testing.T, name string) string {
	abs, err := filepath.Abs(name)
	if err != nil {
		t.Fatal(err)
	}
	return abs
}
