package forkcheck_test

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/fixedstep/fixedstep/internal/forkcheck"
)

func write(t *testing.T, dir string, files map[string]string) {
	t.Helper()
	for name, text := range files {
		path := filepath.Join(dir, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

const upstreamGeo = `package geo

import (
	"math"

	"example.com/up/vec"
)

// Turn turns v by a radians.
func Turn(v vec.V, a float64) vec.V {
	return vec.V{X: v.X*math.Cos(a) - v.Y*math.Sin(a), Y: v.X*math.Sin(a) + (v.Y * math.Cos(a))}
}

func Scale(s []float64, k float64) {
	for i := range s {
		s[i] *= k
	}
	n := len(s) * 2
	_ = float64(n * 3)
}

func Big(a, b float64) float64 { return math.Max(a, b) }
`

// The copy's geo.go: upstream's after the rewrites of Rewrites, and gofmt.
const copyGeo = `package geo

import (
	"github.com/fixedstep/fixedstep/engine/detmath"
	"example.com/copy/vec"
)

// Turn turns v by a radians.
func Turn(v vec.V, a float64) vec.V {
	return vec.V{X: float64(v.X*detmath.Cos(a)) - float64(v.Y*detmath.Sin(a)), Y: float64(v.X*detmath.Sin(a)) + float64(v.Y*detmath.Cos(a))}
}

func Scale(s []float64, k float64) {
	for i := range s {
		s[i] = float64(s[i] * k)
	}
	n := len(s)*2
	_ = float64(n * 3)
}

func Big(a, b float64) float64 { return max(a, b) }
`

var fork = forkcheck.Fork{
	Upstream: "example.com/up",
	Version:  "v1.2.3",
	Copy:     "example.com/copy",
	Rewrites: forkcheck.Rewrites{Rounding: true, MaxMin: true},
}

// check writes upstream's files and the copy's, runs Check, and returns
// its problems with the file names only.
func check(t *testing.T, table string, up, cp map[string]string) (forkcheck.Report, []string) {
	t.Helper()
	f := fork
	upDir := t.TempDir()
	f.Dir = t.TempDir()
	write(t, upDir, up)
	cp["FORK.md"] = "# copy of example.com/up v1.2.3\n\n| file | change |\n|---|---|\n| `FORK.md` (new) | this |\n" + table
	write(t, f.Dir, cp)
	rep, err := forkcheck.Check(f, upDir)
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, p := range rep.Problems {
		names = append(names, p[:strings.Index(p, ":")])
	}
	return rep, names
}

func TestRewritesUndone(t *testing.T) {
	rep, problems := check(t, "| all | rounded |\n",
		map[string]string{"geo/geo.go": upstreamGeo, "LICENSE": "MIT\n"},
		map[string]string{"geo/geo.go": copyGeo, "LICENSE": "MIT\n"})
	if len(problems) != 0 {
		t.Fatalf("the copy made by the rewrites is not the same: %q", rep.Problems)
	}
	if rep.Products != 5 || rep.Calls != 4 {
		t.Fatalf("%d products and %d calls undone, want 5 and 4", rep.Products, rep.Calls)
	}
}

func TestChangesFound(t *testing.T) {
	for _, c := range []struct{ name, from, to string }{
		{"code", "s[i] *= k", "s[i] += k"},
		{"a product regrouped", "v.X*math.Cos(a) - v.Y*math.Sin(a)", "v.X*math.Cos(a) - (v.Y*math.Sin(a) + 0)"},
		{"a conversion of a sum", "return math.Max(a, b)", "return float64(a + b)"},
		{"a math function not detmath's", "v.X*math.Cos(a) - ", "v.X*math.Tan(a) - "},
		{"a comment", "turns v by", "rotates v by"},
		{"a comment added", "func Scale(", "// Scale scales.\nfunc Scale("},
		{"an import", `"example.com/up/vec"`, `"example.com/up/vec"; _ "embed"`},
	} {
		t.Run(c.name, func(t *testing.T) {
			changed := strings.Replace(upstreamGeo, c.from, c.to, 1)
			if changed == upstreamGeo {
				t.Fatal("the change changes nothing")
			}
			rep, problems := check(t, "", map[string]string{"geo/geo.go": upstreamGeo},
				map[string]string{"geo/geo.go": strings.ReplaceAll(changed, "example.com/up", "example.com/copy")})
			if !slices.Equal(problems, []string{"geo/geo.go"}) {
				t.Fatalf("problems %q, want geo/geo.go's", rep.Problems)
			}
			_, problems = check(t, "| `geo/geo.go` | "+c.name+" |\n", map[string]string{"geo/geo.go": upstreamGeo},
				map[string]string{"geo/geo.go": strings.ReplaceAll(changed, "example.com/up", "example.com/copy")})
			if len(problems) != 0 {
				t.Fatalf("listed in the table, still %q", problems)
			}
		})
	}
}

func TestTableFollowsTheFiles(t *testing.T) {
	up := map[string]string{
		"a.go": "package a\n", "b.go": "package a\n", "c.go": "package a\n",
		"README.md": "up\n", "go.mod": "module example.com/up\n", "LICENSE": "MIT\n",
	}
	cp := map[string]string{
		"a.go": "package a\n", "b.go": "package a\n\nvar B int\n", "c.go": "package a\n\nvar C int\n",
		"new.go": "package a\n", "new_test.go": "package a\n", "LICENSE": "MIT, changed\n", "go.mod": "module x\n",
	}
	table := "| `b.go`, `new.go` (new) | a change |\n" +
		"| `a.go`, `README.md` (not copied) | listed but unchanged |\n" +
		"| `gone.go`, `go.mod` (not copied) | in neither, and in both |\n"
	rep, problems := check(t, table, up, cp)
	want := []string{"LICENSE", "a.go", "c.go", "go.mod", "gone.go", "new_test.go"}
	if !slices.Equal(problems, want) {
		t.Fatalf("problems of %q, want those of %q:\n%s", problems, want, strings.Join(rep.Problems, "\n"))
	}
}

func TestParseTable(t *testing.T) {
	tab, err := forkcheck.ParseTable("intro `x.go`\n\n| file | change |\n|---|---|\n" +
		"| all | `imports` |\n| `a.go`, `b/c.go` (new), `d` (not copied) | `e.go` in the text |\n\n| `f.go` | a later table |\n")
	if err != nil {
		t.Fatal(err)
	}
	if !tab.Changed["a.go"] || !tab.New["b/c.go"] || !tab.NotCopied["d"] || len(tab.Changed)+len(tab.New)+len(tab.NotCopied) != 3 {
		t.Fatalf("%+v", tab)
	}
	for _, bad := range []string{"no table", "| `a.go` | x |\n| `a.go` (new) | y |\n", "| `../a.go` | x |\n"} {
		if _, err := forkcheck.ParseTable(bad); err == nil {
			t.Errorf("%q: no error", bad)
		}
	}
}
