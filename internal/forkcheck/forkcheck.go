// Package forkcheck compares a project's copy of a Go module with the
// upstream version it was copied from, and with the copy's FORK.md, which
// lists the changes in a table.
//
// Every upstream file must be in the copy, the same after the mechanical
// rewrites the fork documents, or named in FORK.md's table as changed (or
// as not copied); every file of the copy that upstream does not have must
// be named there as new. A file named as changed must differ from upstream
// after those rewrites, so the table cannot list what is no longer changed.
//
// # The comparison
//
// Go files are compared by their syntax, not their bytes: both files are
// parsed, the rewrites are undone in the copy's and applied alike to
// upstream's (see [Rewrites]), and both are printed by go/printer without
// their comments, so that gofmt's formatting and a redundant parenthesis
// change nothing. Their imports are compared apart, as sorted sets, and so
// are their comments, as the list of their texts, in order: a comment
// added, removed or changed makes the file changed. Other files (LICENSE)
// are compared byte for byte.
//
// # FORK.md's table
//
// The rows of the first Markdown table whose first cell names files in
// backticks: `file.go` is changed, `file.go` (new) is in the copy only,
// `file.go` (not copied) is upstream's only. A first cell with no backticks
// ("all", "all but the tests") describes a rewrite of every file, which
// [Rewrites] must undo. Paths are relative to the module's root, with
// slashes.
package forkcheck

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"go/ast"
	"go/format"
	"go/parser"
	"go/token"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"regexp"
	"runtime"
	"slices"
	"strconv"
	"strings"
)

// Rewrites are the mechanical rewrites a fork made to every file, which
// the comparison undoes (or applies to upstream's file too).
type Rewrites struct {
	// Rounding undoes the "one state on every CPU" rewrite of
	// cmd/detcheck -fix in files that are not tests: float64(a*b) is read
	// as a*b, v = float64(v * k) as v *= k, and detmath.F as math.F, in
	// both files (upstream has none of them, and a*b, v *= k read the
	// same), with engine/detmath's import read as math's.
	Rounding bool
	// MaxMin reads math.Max and math.Min as the builtins max and min, in
	// both files.
	MaxMin bool
}

// Fork is a copy of a module and the upstream it was copied from.
type Fork struct {
	Upstream string // upstream's module path: github.com/yohamta/donburi
	Version  string // the version copied, which go.mod must select: v1.15.8
	Copy     string // the copy's import path: github.com/fixedstep/fixedstep/third_party/donburi
	Dir      string // the copy's directory, which holds FORK.md
	Rewrites Rewrites
}

// detmathPath is the import path that Rewrites.Rounding reads as math's.
const detmathPath = "github.com/fixedstep/fixedstep/engine/detmath"

// UpstreamDir returns the directory of upstream's module in the module
// cache, as `go list -m` run in dir reports it, and the version go.mod
// selects. The module must be in the cache: a test that imports one of its
// packages has the go command download it.
func UpstreamDir(dir, module string) (moduleDir, version string, err error) {
	cmd := exec.Command("go", "list", "-m", "-json", module)
	cmd.Dir = dir
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		return "", "", fmt.Errorf("go list -m %s: %v\n%s", module, err, stderr.Bytes())
	}
	var m struct{ Dir, Version string }
	if err := json.Unmarshal(out, &m); err != nil {
		return "", "", fmt.Errorf("go list -m %s: %v", module, err)
	}
	if m.Dir == "" {
		return "", "", fmt.Errorf("go list -m %s: %s is not in the module cache (go mod download %s)", module, m.Version, module)
	}
	return m.Dir, m.Version, nil
}

// Table is what FORK.md's table names.
type Table struct {
	Changed, New, NotCopied map[string]bool
}

var tableName = regexp.MustCompile("`([^`]+)`(?:\\s*\\((new|not copied)\\))?")

// ParseTable reads the table of FORK.md's text.
func ParseTable(md string) (Table, error) {
	t := Table{Changed: map[string]bool{}, New: map[string]bool{}, NotCopied: map[string]bool{}}
	rows := 0
	sc := bufio.NewScanner(strings.NewReader(md))
	inTable := false
	for sc.Scan() {
		line := strings.TrimSpace(sc.Text())
		if !strings.HasPrefix(line, "|") {
			if inTable {
				break // the first table only
			}
			continue
		}
		inTable = true
		cells := strings.Split(line, "|")
		if len(cells) < 3 {
			continue
		}
		for _, m := range tableName.FindAllStringSubmatch(cells[1], -1) {
			name := m[1]
			if strings.HasPrefix(name, "/") || strings.Contains(name, "..") || strings.ContainsAny(name, " \\") {
				return t, fmt.Errorf("FORK.md's table names %q: not a path relative to the module's root", name)
			}
			set := map[string]map[string]bool{"": t.Changed, "new": t.New, "not copied": t.NotCopied}[m[2]]
			for _, other := range []map[string]bool{t.Changed, t.New, t.NotCopied} {
				if other[name] && !set[name] {
					return t, fmt.Errorf("FORK.md's table names %s both as new, not copied or changed", name)
				}
			}
			set[name] = true
			rows++
		}
	}
	if rows == 0 {
		return t, fmt.Errorf("FORK.md has no table naming files")
	}
	return t, sc.Err()
}

// Report is what Check found.
type Report struct {
	// Problems are where the copy, upstream and FORK.md disagree, one line
	// a file, sorted.
	Problems []string
	// Products and Calls count the rewrites of Rewrites.Rounding undone in
	// the copy's files that upstream has (beyond upstream's own
	// float64(a*b)): products rounded, and detmath's functions called.
	Products, Calls int
}

// Check compares the fork with upstream's files in upstreamDir and with
// its FORK.md.
func Check(f Fork, upstreamDir string) (Report, error) {
	var rep Report
	md, err := os.ReadFile(filepath.Join(f.Dir, "FORK.md"))
	if err != nil {
		return rep, err
	}
	if !bytes.Contains(md, []byte(f.Version)) {
		return rep, fmt.Errorf("FORK.md does not name the version copied, %s", f.Version)
	}
	table, err := ParseTable(string(md))
	if err != nil {
		return rep, err
	}
	up, err := files(upstreamDir)
	if err != nil {
		return rep, err
	}
	cp, err := files(f.Dir)
	if err != nil {
		return rep, err
	}
	problem := func(name, format string, args ...any) {
		rep.Problems = append(rep.Problems, name+": "+fmt.Sprintf(format, args...))
	}
	for _, name := range union(up, cp) {
		inUp, inCopy := up[name], cp[name]
		switch {
		case table.New[name] && inUp:
			problem(name, "named as new in FORK.md, but upstream has it")
		case table.NotCopied[name] && inCopy:
			problem(name, "named as not copied in FORK.md, but the copy has it")
		case table.Changed[name] && !inUp:
			problem(name, "named as changed in FORK.md, but upstream does not have it (new?)")
		case table.Changed[name] && !inCopy:
			problem(name, "named as changed in FORK.md, but the copy does not have it (not copied?)")
		case !inCopy:
			if !table.NotCopied[name] {
				problem(name, "upstream's, not in the copy, and not named in FORK.md as not copied")
			}
		case !inUp:
			if !table.New[name] {
				problem(name, "not upstream's, and not named in FORK.md as new")
			}
		default:
			diff, products, calls, err := compare(f, name, filepath.Join(upstreamDir, name), filepath.Join(f.Dir, name))
			if err != nil {
				return rep, err
			}
			rep.Products += products
			rep.Calls += calls
			switch {
			case diff != "" && !table.Changed[name]:
				problem(name, "changed from upstream, and not named in FORK.md: %s", diff)
			case diff == "" && table.Changed[name]:
				problem(name, "named as changed in FORK.md, but the same as upstream's after the rewrites")
			}
		}
	}
	for _, set := range []map[string]bool{table.Changed, table.New, table.NotCopied} {
		for name := range set {
			if !up[name] && !cp[name] {
				problem(name, "named in FORK.md, but neither upstream nor the copy has it")
			}
		}
	}
	slices.Sort(rep.Problems)
	return rep, nil
}

// files lists the regular files under dir, as slash paths relative to it.
func files(dir string) (map[string]bool, error) {
	out := map[string]bool{}
	err := filepath.WalkDir(dir, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if !d.Type().IsRegular() {
			return nil
		}
		rel, err := filepath.Rel(dir, path)
		out[filepath.ToSlash(rel)] = true
		return err
	})
	return out, err
}

func union(a, b map[string]bool) []string {
	var out []string
	for k := range a {
		out = append(out, k)
	}
	for k := range b {
		if !a[k] {
			out = append(out, k)
		}
	}
	slices.Sort(out)
	return out
}

// compare says how the copy's file differs from upstream's after the
// rewrites, in a line, or "" when it does not, and counts the rewrites
// undone.
func compare(f Fork, name, upPath, copyPath string) (diff string, products, calls int, err error) {
	a, err := os.ReadFile(upPath)
	if err != nil {
		return "", 0, 0, err
	}
	b, err := os.ReadFile(copyPath)
	if err != nil {
		return "", 0, 0, err
	}
	if !strings.HasSuffix(name, ".go") {
		if !bytes.Equal(a, b) {
			diff = "the bytes differ"
		}
		return diff, 0, 0, nil
	}
	test := strings.HasSuffix(name, "_test.go")
	na, err := normalise(f, name+" (upstream's)", a, f.Upstream, test)
	if err != nil {
		return "", 0, 0, err
	}
	nb, err := normalise(f, name, b, f.Copy, test)
	if err != nil {
		return "", 0, 0, err
	}
	products, calls = nb.products-na.products, nb.calls-na.calls
	if d := firstDiff(na.imports, nb.imports); d != "" {
		diff = "imports: " + d
	} else if d := firstDiff(na.code, nb.code); d != "" {
		diff = "code: " + d
	} else if d := firstDiff(na.comments, nb.comments); d != "" {
		diff = "comments: " + d
	}
	return diff, products, calls, nil
}

// normalised is a Go file in the form compare compares.
type normalised struct {
	imports  []string // "name path", sorted, the module's path read as upstream's
	code     []string // lines printed by go/printer without comments
	comments []string // every comment's lines, in order
	products int      // float64(a*b) read as a*b
	calls    int      // detmath.F read as math.F
}

func normalise(f Fork, name string, src []byte, module string, test bool) (normalised, error) {
	var n normalised
	// Comments from the gofmt'd source, so that gofmt's reformatting of
	// doc comments changes nothing.
	formatted, err := format.Source(src)
	if err != nil {
		return n, fmt.Errorf("%s: %v", name, err)
	}
	fset := token.NewFileSet()
	withComments, err := parser.ParseFile(fset, name, formatted, parser.ParseComments|parser.SkipObjectResolution)
	if err != nil {
		return n, fmt.Errorf("%s: %v", name, err)
	}
	for _, g := range withComments.Comments {
		for _, c := range g.List {
			for line := range strings.Lines(c.Text) {
				n.comments = append(n.comments, strings.ReplaceAll(strings.TrimRight(line, "\n"), module, f.Upstream))
			}
		}
	}

	file, err := parser.ParseFile(fset, name, src, parser.SkipObjectResolution)
	if err != nil {
		return n, fmt.Errorf("%s: %v", name, err)
	}
	r := f.Rewrites
	r.Rounding = r.Rounding && !test
	walk(reflect.ValueOf(file), func(x ast.Node) ast.Node {
		y := undo(r, x)
		if y != x {
			switch x.(type) {
			case *ast.CallExpr:
				n.products++
			case *ast.SelectorExpr:
				if r.Rounding && isIdent(x.(*ast.SelectorExpr).X, "detmath") {
					n.calls++
				}
			}
		}
		return y
	})
	usesMath := false
	ast.Inspect(file, func(x ast.Node) bool {
		if s, ok := x.(*ast.SelectorExpr); ok && isIdent(s.X, "math") {
			usesMath = true
		}
		return true
	})
	var decls []ast.Decl
	for _, d := range file.Decls {
		g, ok := d.(*ast.GenDecl)
		if !ok || g.Tok != token.IMPORT {
			decls = append(decls, d)
			continue
		}
		for _, s := range g.Specs {
			s := s.(*ast.ImportSpec)
			path, err := strconv.Unquote(s.Path.Value)
			if err != nil {
				return n, fmt.Errorf("%s: %v", name, err)
			}
			if path == module || strings.HasPrefix(path, module+"/") {
				path = f.Upstream + path[len(module):]
			}
			if r.Rounding && path == detmathPath {
				path = "math"
			}
			if path == "math" && !usesMath && s.Name == nil {
				continue // left unused by the rewrites undone
			}
			spec := strconv.Quote(path)
			if s.Name != nil {
				spec = s.Name.Name + " " + spec
			}
			if !slices.Contains(n.imports, spec) {
				n.imports = append(n.imports, spec)
			}
		}
	}
	slices.Sort(n.imports)
	file.Decls = decls
	var buf bytes.Buffer
	if err := format.Node(&buf, fset, file); err != nil {
		return n, fmt.Errorf("%s: %v", name, err)
	}
	n.code = strings.Split(buf.String(), "\n")
	return n, nil
}

// undo returns x with the rewrites undone, or x.
func undo(r Rewrites, x ast.Node) ast.Node {
	switch x := x.(type) {
	case *ast.ParenExpr:
		// The printer writes the parentheses the tree needs.
		return x.X
	case *ast.CallExpr:
		if r.Rounding && len(x.Args) == 1 && isIdent(x.Fun, "float64") {
			if b, ok := x.Args[0].(*ast.BinaryExpr); ok && b.Op == token.MUL {
				return b
			}
		}
	case *ast.SelectorExpr:
		if r.Rounding && isIdent(x.X, "detmath") {
			return &ast.SelectorExpr{X: &ast.Ident{NamePos: x.X.Pos(), Name: "math"}, Sel: x.Sel}
		}
		if r.MaxMin && isIdent(x.X, "math") && (x.Sel.Name == "Max" || x.Sel.Name == "Min") {
			return &ast.Ident{NamePos: x.Pos(), Name: strings.ToLower(x.Sel.Name)}
		}
	case *ast.AssignStmt:
		if r.Rounding && x.Tok == token.ASSIGN && len(x.Lhs) == 1 && len(x.Rhs) == 1 {
			if b, ok := x.Rhs[0].(*ast.BinaryExpr); ok && b.Op == token.MUL && sameText(x.Lhs[0], b.X) {
				return &ast.AssignStmt{Lhs: x.Lhs, TokPos: x.TokPos, Tok: token.MUL_ASSIGN, Rhs: []ast.Expr{b.Y}}
			}
		}
	}
	return x
}

func isIdent(x ast.Expr, name string) bool {
	id, ok := x.(*ast.Ident)
	return ok && id.Name == name
}

func sameText(a, b ast.Expr) bool {
	var ba, bb bytes.Buffer
	fset := token.NewFileSet()
	return format.Node(&ba, fset, a) == nil && format.Node(&bb, fset, b) == nil && ba.String() == bb.String()
}

var nodeType = reflect.TypeFor[ast.Node]()

// walk replaces, children first, every node held in an interface field or
// an interface slice of the tree v by fn's result, where that fits.
func walk(v reflect.Value, fn func(ast.Node) ast.Node) {
	switch v.Kind() {
	case reflect.Pointer:
		if !v.IsNil() && v.Elem().Kind() == reflect.Struct {
			walk(v.Elem(), fn)
		}
	case reflect.Struct:
		for i := range v.NumField() {
			if v.Type().Field(i).IsExported() {
				walk(v.Field(i), fn)
			}
		}
	case reflect.Slice:
		for i := range v.Len() {
			walk(v.Index(i), fn)
		}
	case reflect.Interface:
		if v.IsNil() {
			return
		}
		inner := v.Elem()
		walk(inner, fn)
		if n, ok := inner.Interface().(ast.Node); ok && v.CanSet() {
			if r := reflect.ValueOf(fn(n)); r.Type().AssignableTo(v.Type()) {
				v.Set(r)
			}
		}
	}
}

// firstDiff describes the first line where a and b differ, or returns "".
func firstDiff(a, b []string) string {
	for i := range max(len(a), len(b)) {
		var x, y string
		if i < len(a) {
			x = a[i]
		}
		if i < len(b) {
			y = b[i]
		}
		if x != y {
			return fmt.Sprintf("upstream's %q, the copy's %q", strings.TrimSpace(x), strings.TrimSpace(y))
		}
	}
	return ""
}

// TB is what Test needs of a *testing.T.
type TB interface {
	Helper()
	Skipf(format string, args ...any)
	Fatalf(format string, args ...any)
	Errorf(format string, args ...any)
	Logf(format string, args ...any)
}

// Test runs Check on the fork in the current directory against the
// upstream version go.mod selects, which must be the version the copy is
// of, and fails t for every problem Check finds. With Rewrites.Rounding,
// FORK.md must give the numbers of products rounded and of detmath's calls
// that the check undid, as "N products" and "N calls".
func Test(t TB, f Fork) {
	t.Helper()
	if runtime.GOOS == "js" || runtime.GOOS == "wasip1" {
		t.Skipf("runs the go command, which %s cannot", runtime.GOOS)
	}
	dir, version, err := UpstreamDir(f.Dir, f.Upstream)
	if err != nil {
		t.Fatalf("%v", err)
	}
	if version != f.Version {
		t.Fatalf("go.mod selects %s %s, but the copy is of %s", f.Upstream, version, f.Version)
	}
	rep, err := Check(f, dir)
	if err != nil {
		t.Fatalf("%v", err)
	}
	for _, p := range rep.Problems {
		t.Errorf("%s", p)
	}
	if f.Rewrites.Rounding {
		md, err := os.ReadFile(filepath.Join(f.Dir, "FORK.md"))
		if err != nil {
			t.Fatalf("%v", err)
		}
		for _, s := range []string{fmt.Sprintf("%d products", rep.Products), fmt.Sprintf("%d calls", rep.Calls)} {
			if !bytes.Contains(md, []byte(s)) {
				t.Errorf("FORK.md does not say %q: the copy's files have %d products rounded and %d calls of detmath that upstream's do not", s, rep.Products, rep.Calls)
			}
		}
	}
	t.Logf("compared with %s: %d products rounded and %d calls of detmath undone", dir, rep.Products, rep.Calls)
}
