package docs_test

// The names, links, checksums and package picture the guides show are the
// code's: blocks_test.go's first comment says what is checked and why.

import (
	"bufio"
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"io/fs"
	"maps"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"runtime"
	"slices"
	"strings"
	"testing"
)

// Every test, benchmark, fuzz target and example a guide names exists.
func TestNamedTestsExist(t *testing.T) {
	name := regexp.MustCompile(`\b(?:Test|Benchmark|Fuzz|Example)[A-Z][A-Za-z0-9_]*`)
	named := map[string]string{} // name: where first named
	for _, g := range guides(t) {
		for i, l := range strings.Split(read(t, g), "\n") {
			for _, n := range name.FindAllString(l, -1) {
				if _, ok := named[n]; !ok {
					named[n] = fmt.Sprintf("%s:%d", g, i+1)
				}
			}
		}
	}
	defined := map[string]bool{}
	fn := regexp.MustCompile(`(?m)^func ((?:Test|Benchmark|Fuzz|Example)\w*)\(`)
	err := filepath.WalkDir("..", func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() && (d.Name() == ".git" || d.Name() == "_build" || d.Name() == "node_modules") {
			return filepath.SkipDir
		}
		if d.IsDir() || !strings.HasSuffix(path, "_test.go") {
			return nil
		}
		src, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		for _, m := range fn.FindAllSubmatch(src, -1) {
			defined[string(m[1])] = true
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	for _, n := range slices.Sorted(maps.Keys(named)) {
		if !defined[n] {
			t.Errorf("%s: %s is no test function of the repository", named[n], n)
		}
	}
	t.Logf("%d names checked", len(named))
}

// The package picture of architecture.md (its first text block) is true:
// each package on a row imports only packages on the rows below it (a
// name ending in /... stands for the packages under it, which may import
// each other), and every package of the module that is not a test helper
// or a tool is on it.
func TestLayoutPicture(t *testing.T) {
	var picture string
	for _, b := range blocks(t, "docs/architecture.md") {
		if b.lang == "" {
			picture = b.code
			break
		}
	}
	if picture == "" {
		t.Fatal("docs/architecture.md has no package picture")
	}
	const mod = "github.com/fixedstep/fixedstep/"
	row := map[string]int{} // a pictured name: its row, 0 at the top
	var names []string
	sc := bufio.NewScanner(strings.NewReader(picture))
	for r := 0; sc.Scan(); r++ {
		for _, w := range strings.Fields(sc.Text()) {
			if strings.ContainsAny(w, "/") && !strings.HasPrefix(w, "(") && !strings.HasPrefix(w, "server/") {
				row[w] = r
				names = append(names, w)
			} else if w == "scenes" || w == "systems" || w == "engine" || w == "components" || w == "assets" {
				row[w] = r
				names = append(names, w)
			}
		}
	}
	// rowOf returns the row of a package, through a /... name.
	rowOf := func(pkg string) (int, string, bool) {
		if r, ok := row[pkg]; ok {
			return r, pkg, true
		}
		for _, n := range names {
			if p, ok := strings.CutSuffix(n, "/..."); ok && strings.HasPrefix(pkg, p+"/") {
				return row[n], n, true
			}
		}
		return 0, "", false
	}
	out, err := exec.Command("go", "list", "-f", `{{.ImportPath}} {{join .Imports " "}}`, "../...").Output()
	if err != nil {
		t.Fatal(err)
	}
	for _, l := range strings.Split(strings.TrimSpace(string(out)), "\n") {
		f := strings.Fields(l)
		pkg := strings.TrimPrefix(f[0], mod)
		r, as, ok := rowOf(pkg)
		if !ok {
			if !strings.HasPrefix(pkg, "internal/") && !strings.HasPrefix(pkg, "third_party/") &&
				!strings.HasPrefix(pkg, "cmd/") && !strings.HasPrefix(pkg, "assets/internal/") &&
				!strings.HasPrefix(pkg, "docs") && !strings.HasPrefix(pkg, "engine/detmath/") {
				t.Errorf("%s is not in architecture.md's picture", pkg)
			}
			continue
		}
		for _, imp := range f[1:] {
			imp, ok := strings.CutPrefix(imp, mod)
			if !ok {
				continue
			}
			ir, ias, ok := rowOf(imp)
			if !ok || ias == as {
				continue
			}
			if ir <= r {
				t.Errorf("architecture.md's picture: %s (row %d) imports %s (row %d), which is not below it", pkg, r+1, imp, ir+1)
			}
		}
	}
	if !strings.Contains(picture, "ebiten enters here") {
		t.Error("the picture no longer says where ebiten enters")
	}
}

// A goType is what a guide may name of a type: its methods and fields, and
// the types it embeds (whose methods and fields it promotes).
type goType struct {
	members map[string]bool
	embeds  []string
}

// goPackage is a package's exported names: its top-level declarations and
// its types.
type goPackage struct {
	names map[string]bool
	types map[string]*goType
}

// exported parses the Go packages of the repository (the server module's
// too, without tests) and returns them by package name; packages of one
// name are merged.
func exported(t *testing.T) map[string]*goPackage {
	t.Helper()
	pkgs := map[string]*goPackage{}
	fset := token.NewFileSet()
	err := filepath.WalkDir("..", func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() {
			if n := d.Name(); n == ".git" || n == "testdata" || n == "_build" || n == "node_modules" || n == "web" && path == "../web" {
				return filepath.SkipDir
			}
			return nil
		}
		if !strings.HasSuffix(path, ".go") || strings.HasSuffix(path, "_test.go") {
			return nil
		}
		f, err := parser.ParseFile(fset, path, nil, parser.SkipObjectResolution)
		if err != nil {
			return nil // a file of another build (a generator's template) is not the guides' business
		}
		p := pkgs[f.Name.Name]
		if p == nil {
			p = &goPackage{names: map[string]bool{}, types: map[string]*goType{}}
			pkgs[f.Name.Name] = p
		}
		typ := func(name string) *goType {
			if p.types[name] == nil {
				p.types[name] = &goType{members: map[string]bool{}}
			}
			return p.types[name]
		}
		for _, decl := range f.Decls {
			switch decl := decl.(type) {
			case *ast.FuncDecl:
				if decl.Recv == nil {
					p.names[decl.Name.Name] = true
					continue
				}
				recv := decl.Recv.List[0].Type
				for {
					switch r := recv.(type) {
					case *ast.StarExpr:
						recv = r.X
						continue
					case *ast.IndexExpr:
						recv = r.X
						continue
					case *ast.IndexListExpr:
						recv = r.X
						continue
					}
					break
				}
				if id, ok := recv.(*ast.Ident); ok {
					typ(id.Name).members[decl.Name.Name] = true
				}
			case *ast.GenDecl:
				for _, spec := range decl.Specs {
					switch spec := spec.(type) {
					case *ast.ValueSpec:
						for _, n := range spec.Names {
							p.names[n.Name] = true
						}
					case *ast.TypeSpec:
						p.names[spec.Name.Name] = true
						ty := typ(spec.Name.Name)
						var fields *ast.FieldList
						switch st := spec.Type.(type) {
						case *ast.StructType:
							fields = st.Fields
						case *ast.InterfaceType:
							fields = st.Methods
						}
						if fields == nil {
							continue
						}
						for _, fl := range fields.List {
							for _, n := range fl.Names {
								ty.members[n.Name] = true
							}
							if len(fl.Names) == 0 { // embedded: its last name
								e := fl.Type
								if s, ok := e.(*ast.StarExpr); ok {
									e = s.X
								}
								switch e := e.(type) {
								case *ast.Ident:
									ty.embeds = append(ty.embeds, e.Name)
								case *ast.SelectorExpr:
									ty.embeds = append(ty.embeds, e.Sel.Name)
								}
							}
						}
					}
				}
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return pkgs
}

// The Go names a guide shows in code spans are the code's: pkg.Name,
// pkg.Type.Member, and Type.Member for a type of the module (Loop.Next,
// Physics.OnCollide), so that a rename finds the guides that name the old
// name. Packages are known by their names (engine, stage, physics, cp,
// donburi, ...); a name of a package the module does not have (math.Exp,
// ebiten.RunGame) is not checked, nor is a value's (st.Physics.Update),
// nor a name the module shares with the standard library (math).
func TestNamedIdentifiersExist(t *testing.T) {
	// Package names the module shares with the standard library, which the
	// guides mean (math.Exp): donburi's features/math is also math.
	stdNames := map[string]bool{"math": true}
	pkgs := exported(t)
	// typesByName: every package with a type of that name.
	typesByName := map[string][]*goPackage{}
	for _, p := range pkgs {
		for name := range p.types {
			if p.names[name] {
				typesByName[name] = append(typesByName[name], p)
			}
		}
	}
	// hasMember: the type (in any package that has it) or a type it
	// embeds has the member.
	var hasMember func(name, member string, depth int) bool
	hasMember = func(name, member string, depth int) bool {
		for _, p := range typesByName[name] {
			ty := p.types[name]
			if ty.members[member] {
				return true
			}
			for _, e := range ty.embeds {
				if depth < 4 && hasMember(e, member, depth+1) {
					return true
				}
			}
		}
		return false
	}
	span := regexp.MustCompile("`([^`\n]+)`")
	chain := regexp.MustCompile(`(?:^|[^\w.])([a-z]\w*|[A-Z]\w*)\.([A-Z]\w*)(?:\.([A-Z]\w*))?`)
	checked := 0
	for _, g := range guides(t) {
		for i, l := range strings.Split(read(t, g), "\n") {
			for _, s := range span.FindAllStringSubmatch(l, -1) {
				for _, m := range chain.FindAllStringSubmatch(s[1], -1) {
					first, second, third := m[1], m[2], m[3]
					where := fmt.Sprintf("%s:%d: `%s`", g, i+1, s[1])
					if p := pkgs[first]; p != nil && first[0] >= 'a' && first[0] <= 'z' && !stdNames[first] {
						checked++
						if !p.names[second] {
							t.Errorf("%s: package %s has no %s", where, first, second)
						} else if third != "" && p.types[second] != nil && !hasMember(second, third, 0) {
							t.Errorf("%s: %s.%s has no %s", where, first, second, third)
						}
						continue
					}
					if first[0] >= 'A' && first[0] <= 'Z' && len(typesByName[first]) > 0 {
						checked++
						if !hasMember(first, second, 0) {
							t.Errorf("%s: %s has no %s", where, first, second)
						}
					}
				}
			}
		}
	}
	t.Logf("%d names checked", checked)
}

// Every link of a guide to a file of the repository names a file that is
// there, and every #anchor one of the headings of the guide it names (as
// GitHub makes them: lower case, spaces to hyphens, punctuation dropped).
func TestLinks(t *testing.T) {
	link := regexp.MustCompile(`\]\(([^)\s]+)\)`)
	anchors := map[string]map[string]bool{} // by guide path from the root
	headings := func(guide string) map[string]bool {
		if a, ok := anchors[guide]; ok {
			return a
		}
		a := map[string]bool{}
		inCode := false
		for _, l := range strings.Split(read(t, guide), "\n") {
			if strings.HasPrefix(l, "```") {
				inCode = !inCode
			}
			if inCode || !strings.HasPrefix(l, "#") {
				continue
			}
			h := strings.ToLower(strings.TrimSpace(strings.TrimLeft(l, "#")))
			var sb strings.Builder
			for _, r := range h {
				switch {
				case r == ' ':
					sb.WriteRune('-')
				case r == '-' || r == '_' || r >= 'a' && r <= 'z' || r >= '0' && r <= '9' || r > 127:
					sb.WriteRune(r)
				}
			}
			a[sb.String()] = true
		}
		anchors[guide] = a
		return a
	}
	n := 0
	for _, g := range guides(t) {
		for i, l := range strings.Split(read(t, g), "\n") {
			for _, m := range link.FindAllStringSubmatch(l, -1) {
				target := m[1]
				if strings.Contains(target, "://") || strings.HasPrefix(target, "mailto:") {
					continue
				}
				n++
				file, anchor, _ := strings.Cut(target, "#")
				path := g
				if file != "" {
					path = filepath.ToSlash(filepath.Join(filepath.Dir(g), file))
					if _, err := os.Stat(filepath.Join("..", path)); err != nil {
						t.Errorf("%s:%d: a link to %s, which is not there", g, i+1, target)
						continue
					}
				}
				if anchor != "" && strings.HasSuffix(path, ".md") && !headings(path)[anchor] {
					t.Errorf("%s:%d: a link to %s, whose guide has no heading #%s", g, i+1, target, anchor)
				}
			}
		}
	}
	t.Logf("%d links checked", n)
}

// The checksums the guides print are what the programs print today: the
// table of determinism.md (its amd64 v1 column: this machine's, with the
// default GOAMD64), and the recorded run of recording.md. A change to a
// game's simulation changes them, and this test says which line to write
// again.
func TestChecksums(t *testing.T) {
	if testing.Short() {
		t.Skip("builds and runs the games (-short)")
	}
	if runtime.GOARCH != "amd64" || os.Getenv("GOAMD64") != "" && os.Getenv("GOAMD64") != "v1" {
		t.Skip("the table's column is amd64 v1's")
	}
	table := read(t, "docs/determinism.md")
	programs := []struct {
		row, pkg string
		args     []string
	}{
		{"| demo (the Arena) |", "cmd/demo", []string{"-headless"}},
		{"| Breakout |", "cmd/breakout", []string{"-headless"}},
		{"| platformer |", "cmd/platformer", []string{"-headless"}},
		{"| bounce (core alone) |", "cmd/bounce", nil},
		{"| the Arena's core, autopilot |", "internal/crosscpu/arenacore", nil},
	}
	sum := regexp.MustCompile(`checksum ([0-9a-f]{16})\n$`)
	run := func(where, pkg string, args ...string) string {
		out, err := exec.Command(command(t, pkg), args...).CombinedOutput()
		m := sum.FindSubmatch(out)
		if err != nil || m == nil {
			t.Fatalf("%s: %s %q: %v\n%s", where, pkg, args, err, out)
		}
		return string(m[1])
	}
	for _, p := range programs {
		i := strings.Index(table, p.row)
		if i < 0 {
			t.Errorf("docs/determinism.md has no row %q", p.row)
			continue
		}
		line := table[i : i+strings.Index(table[i:], "\n")]
		want := regexp.MustCompile("`([0-9a-f]{16})`").FindStringSubmatch(line)
		got := run("docs/determinism.md", p.pkg, append(p.args, "-seconds", "60", "-seed", "1")...)
		if want == nil || want[1] != got {
			t.Errorf("docs/determinism.md: row %s: %s -seconds 60 -seed 1 prints checksum %s; the table says %q", p.row, p.pkg, got, line)
		}
	}
	// recording.md: a 20 s run recorded headless, replayed at 37 fps.
	rec := filepath.Join(t.TempDir(), "run.input")
	recorded := run("docs/recording.md", "cmd/demo", "-headless", "-seconds", "20", "-record", rec)
	replayed := run("docs/recording.md", "cmd/demo", "-headless", "-replay", rec, "-fps", "37")
	guide := read(t, "docs/recording.md")
	if recorded != replayed || !strings.Contains(guide, "\nchecksum "+replayed+"\n```") {
		t.Errorf("docs/recording.md: the 20 s run recorded and replayed at 37 fps prints checksum %s (recorded: %s); the guide shows another", replayed, recorded)
	}
}
