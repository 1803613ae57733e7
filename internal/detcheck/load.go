package detcheck

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"go/ast"
	"go/importer"
	"go/parser"
	"go/token"
	"go/types"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
)

// listed is what `go list -json` says of one package.
type listed struct {
	ImportPath string
	Name       string
	Dir        string
	GoFiles    []string
	CgoFiles   []string
	Export     string
	ImportMap  map[string]string
	DepOnly    bool
	Standard   bool
	Module     *struct{ GoVersion string }
	Error      *struct{ Err string }
}

// pkg is one package to check: its files parsed and type-checked.
type pkg struct {
	path  string
	fset  *token.FileSet
	files []*ast.File
	names []string // file names, parallel to files
	src   [][]byte // file contents, parallel to files
	types *types.Package
	info  *types.Info
	noCgo []string // cgo files left unchecked
}

// load lists the packages that patterns match in dir with `go list`
// (which compiles their dependencies for their export data), then parses
// and type-checks each matched package's Go files (not its tests) from
// source. The build context is the go command's: GOOS, GOARCH, GOFLAGS
// (-tags) from the environment.
func load(dir, overlay string, patterns []string) ([]*pkg, error) {
	args := []string{"list", "-e", "-export", "-deps",
		"-json=ImportPath,Name,Dir,GoFiles,CgoFiles,Export,ImportMap,DepOnly,Standard,Module,Error"}
	replaced := map[string]string{}
	if overlay != "" {
		args = append(args, "-overlay", overlay)
		data, err := os.ReadFile(overlay)
		if err != nil {
			return nil, err
		}
		var o struct{ Replace map[string]string }
		if err := json.Unmarshal(data, &o); err != nil {
			return nil, fmt.Errorf("overlay %s: %w", overlay, err)
		}
		//detcheck:ok a map made from a map
		for from, to := range o.Replace {
			if !filepath.IsAbs(from) {
				from = filepath.Join(dir, from)
			}
			replaced[from] = to
		}
	}
	args = append(append(args, "--"), patterns...)
	cmd := exec.Command("go", args...)
	cmd.Dir = dir
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		return nil, fmt.Errorf("go list %s: %v\n%s", strings.Join(patterns, " "), err, stderr.Bytes())
	}
	exports := map[string]string{}
	var targets []listed
	dec := json.NewDecoder(bytes.NewReader(out))
	for {
		var p listed
		if err := dec.Decode(&p); errors.Is(err, io.EOF) {
			break
		} else if err != nil {
			return nil, fmt.Errorf("go list output: %w", err)
		}
		if p.Error != nil && !p.DepOnly {
			return nil, fmt.Errorf("package %s: %s", p.ImportPath, p.Error.Err)
		}
		exports[p.ImportPath] = p.Export
		if !p.DepOnly {
			targets = append(targets, p)
		}
	}
	arch := goEnv(dir, "GOARCH")
	var pkgs []*pkg
	for _, t := range targets {
		p, err := check(t, exports, arch, replaced)
		if err != nil {
			return nil, err
		}
		pkgs = append(pkgs, p)
	}
	return pkgs, nil
}

// check parses and type-checks one listed package, its imports read from
// their export data.
func check(l listed, exports map[string]string, arch string, replaced map[string]string) (*pkg, error) {
	p := &pkg{path: l.ImportPath, fset: token.NewFileSet(), noCgo: l.CgoFiles}
	for _, name := range l.GoFiles {
		full := filepath.Join(l.Dir, name)
		from := full
		if r, ok := replaced[full]; ok {
			from = r
		}
		src, err := os.ReadFile(from)
		if err != nil {
			return nil, err
		}
		f, err := parser.ParseFile(p.fset, full, src, parser.ParseComments|parser.SkipObjectResolution)
		if err != nil {
			return nil, err
		}
		p.files, p.names, p.src = append(p.files, f), append(p.names, full), append(p.src, src)
	}
	lookup := func(path string) (io.ReadCloser, error) {
		if mapped, ok := l.ImportMap[path]; ok {
			path = mapped
		}
		file := exports[path]
		if file == "" {
			return nil, fmt.Errorf("no export data for %s", path)
		}
		return os.Open(file)
	}
	conf := types.Config{
		Importer: importer.ForCompiler(p.fset, "gc", lookup),
		Sizes:    types.SizesFor("gc", arch),
	}
	if l.Module != nil && l.Module.GoVersion != "" {
		conf.GoVersion = "go" + l.Module.GoVersion
	}
	p.info = &types.Info{
		Types:     map[ast.Expr]types.TypeAndValue{},
		Uses:      map[*ast.Ident]types.Object{},
		Defs:      map[*ast.Ident]types.Object{},
		Scopes:    map[ast.Node]*types.Scope{},
		Implicits: map[ast.Node]types.Object{},
	}
	var errs []error
	conf.Error = func(err error) { errs = append(errs, err) }
	p.types, _ = conf.Check(l.ImportPath, p.fset, p.files, p.info)
	if len(errs) > 0 {
		return nil, fmt.Errorf("type-check %s: %w", l.ImportPath, errors.Join(errs...))
	}
	return p, nil
}

// goEnv is the go command's value of an environment setting.
func goEnv(dir, name string) string {
	cmd := exec.Command("go", "env", name)
	cmd.Dir = dir
	out, err := cmd.Output()
	if err != nil {
		return ""
	}
	return strings.TrimSpace(string(out))
}
