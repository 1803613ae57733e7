package docs_test

// The guides' code is tested where it stands. The guides are README.md at
// the module's root and every docs/*.md; their code blocks are read from
// the Markdown as it is.
//
// Go blocks (```go). Each one is compiled, all in one go build, and must
// be as gofmt leaves it:
//   - A block that begins with a package clause is a file of its own (the
//     README's game is one: package main).
//   - Any other block is a fragment, and the HTML comment right before it
//     (blank lines between are allowed) gives the file it is compiled in:
//
//     <!-- go:wrap
//     package doc
//
//     import "github.com/fixedstep/fixedstep/systems/physics"
//
//     func _(st *stage.Stage) error {
//     	BLOCK
//     	return err
//     }
//     -->
//
//     The line BLOCK (alone, indented or not) is replaced by the fragment.
//     A rendered page does not show the comment; a reader of the Markdown
//     sees what the fragment assumes (the names in scope, the imports).
//     A fragment without one fails the test: there is no way to leave a
//     block out.
//   - A program may also be run: <!-- go:run -headless -seconds 2 --> before
//     it (or after its go:wrap) runs the built program with those arguments,
//     and it must end with the checksum line every game on cli.App prints.
//
// Each block is written to a package of its own under testdata (left out
// of ./..., as a package there is), with //line directives, so that a
// compiler error names the guide and its line (docs/snapshots.md:87:2: ...).
//
// Shell (```sh blocks) and inline code spans: every -flag given to a command
// of the module's cmd/ (go run ./cmd/NAME ...) is one of that command's flags,
// as its -h lists them; and in demo.md, which lists the demo's flags, every
// code span that begins with a flag names flags of the demo.
//
// Names: every test, benchmark, fuzz target and example function a guide
// names (TestX, BenchmarkX/sub, FuzzX, ExampleX) is a function of some
// _test.go file of the repository (the server module's included); and
// every Go name in a code span, pkg.Name, pkg.Type.Member or Type.Member
// (Rewinder.Back), is a declaration, method or field of the code (see
// TestNamedIdentifiersExist), so that a rename fails here until the guides
// follow it.
//
// Links: every link to a file of the repository finds it, and every
// #anchor a heading of the guide it names (TestLinks).
//
// Checksums: the checksums the guides print (determinism.md's table,
// recording.md's run) are what the programs print (TestChecksums).
//
// The package picture: in architecture.md's first text block, each row's
// packages import only packages on rows below (see TestLayoutPicture).

import (
	"fmt"
	"go/format"
	"maps"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
)

// A block is a fenced code block of a guide.
type block struct {
	guide string // the guide's path from the module's root: README.md, docs/x.md
	line  int    // the line of its first line of code, from 1
	lang  string // the fence's info string: go, sh, ...
	code  string

	wrap     string // the go:wrap comment's text, "" for none
	wrapLine int    // the line of the wrapper's first line
	run      []string
	hasRun   bool
}

// guides returns the guides' paths from the module's root, README.md first.
func guides(t *testing.T) []string {
	t.Helper()
	md, err := filepath.Glob("*.md")
	if err != nil {
		t.Fatal(err)
	}
	paths := []string{"README.md"}
	for _, m := range md {
		paths = append(paths, "docs/"+m)
	}
	if len(paths) < 2 {
		t.Fatal("no guides in docs/")
	}
	return paths
}

// read reads a guide by its path from the module's root.
func read(t *testing.T, guide string) string {
	t.Helper()
	b, err := os.ReadFile(filepath.Join("..", filepath.FromSlash(guide)))
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

var directive = regexp.MustCompile(`^<!-- go:(wrap|run)\b`)

// blocks returns a guide's fenced code blocks, each with the go: comments
// right before it.
func blocks(t *testing.T, guide string) []block {
	t.Helper()
	lines := strings.Split(read(t, guide), "\n")
	var out []block
	var pending block // the directives seen since the last block
	for i := 0; i < len(lines); i++ {
		l := lines[i]
		switch {
		case directive.MatchString(l):
			kind := directive.FindStringSubmatch(l)[1]
			// The comment runs to the line that ends with -->.
			start := i
			for !strings.HasSuffix(strings.TrimSpace(lines[i]), "-->") {
				i++
				if i == len(lines) {
					t.Fatalf("%s:%d: a go:%s comment that never ends", guide, start+1, kind)
				}
			}
			if kind == "run" {
				text := strings.TrimSuffix(strings.TrimSpace(strings.Join(lines[start:i+1], " ")), "-->")
				pending.run = strings.Fields(strings.TrimPrefix(text, "<!-- go:run"))
				pending.hasRun = true
				continue
			}
			if i == start {
				t.Fatalf("%s:%d: a go:wrap comment on one line: the wrapper goes on the lines under it", guide, start+1)
			}
			pending.wrap = strings.Join(lines[start+1:i], "\n")
			pending.wrapLine = start + 2
		case strings.HasPrefix(l, "```"):
			b := pending
			pending = block{}
			b.guide, b.lang, b.line = guide, strings.TrimSpace(strings.TrimPrefix(l, "```")), i+2
			var code []string
			for i++; i < len(lines) && !strings.HasPrefix(lines[i], "```"); i++ {
				code = append(code, lines[i])
			}
			if i == len(lines) {
				t.Fatalf("%s:%d: a code block that never ends", guide, b.line-1)
			}
			b.code = strings.Join(code, "\n") + "\n"
			out = append(out, b)
		case strings.TrimSpace(l) != "" && (pending.wrap != "" || pending.hasRun):
			t.Fatalf("%s:%d: text between a go: comment and its code block", guide, i+1)
		}
	}
	return out
}

// source returns the Go file a block is compiled as.
func source(b block) (string, error) {
	if b.wrap == "" {
		if !regexp.MustCompile(`(?m)\A(//.*\n|\s)*package \w+`).MatchString(b.code) {
			return "", fmt.Errorf("%s:%d: a Go fragment with no <!-- go:wrap --> comment before it (see docs/blocks_test.go)", b.guide, b.line)
		}
		return fmt.Sprintf("//line %s:%d\n%s", b.guide, b.line, b.code), nil
	}
	wrap := strings.Split(b.wrap, "\n")
	at := -1
	for i, l := range wrap {
		if strings.TrimSpace(l) == "BLOCK" {
			if at >= 0 {
				return "", fmt.Errorf("%s:%d: two BLOCK lines in one go:wrap", b.guide, b.wrapLine+i)
			}
			at = i
		}
	}
	if at < 0 {
		return "", fmt.Errorf("%s:%d: a go:wrap with no BLOCK line", b.guide, b.wrapLine)
	}
	return fmt.Sprintf("//line %s:%d\n%s\n//line %s:%d\n%s//line %s:%d\n%s\n",
		b.guide, b.wrapLine, strings.Join(wrap[:at], "\n"),
		b.guide, b.line, b.code,
		b.guide, b.wrapLine+at+1, strings.Join(wrap[at+1:], "\n")), nil
}

// formatted reports whether a block is as gofmt leaves it: a file block
// alone, a fragment inside its wrapper, indented as the BLOCK line is (so
// a wrapper must be gofmt's too).
func formatted(b block) error {
	src := b.code
	if b.wrap != "" {
		var sb strings.Builder
		for _, l := range strings.Split(b.wrap, "\n") {
			if strings.TrimSpace(l) != "BLOCK" {
				sb.WriteString(l + "\n")
				continue
			}
			indent := l[:len(l)-len(strings.TrimLeft(l, "\t "))]
			for _, c := range strings.Split(strings.TrimSuffix(b.code, "\n"), "\n") {
				if c != "" {
					c = indent + c
				}
				sb.WriteString(c + "\n")
			}
		}
		src = sb.String()
	}
	out, err := format.Source([]byte(src))
	if err != nil {
		return nil // the build says what is wrong
	}
	if string(out) != src {
		return fmt.Errorf("%s:%d: the block (in its wrapper) is not as gofmt leaves it; gofmt gives:\n%s", b.guide, b.line, out)
	}
	return nil
}

// name is a block's package directory: the guide's name and the block's line.
func (b block) name() string {
	base := strings.TrimSuffix(filepath.Base(b.guide), ".md")
	return strings.ToLower(strings.NewReplacer("-", "_", ".", "_").Replace(base)) + fmt.Sprintf("_%d", b.line)
}

var checksumLine = regexp.MustCompile(`\nchecksum [0-9a-f]{16}\n$`)

// Every Go block of the guides compiles, and the programs marked go:run run
// to their checksum line.
func TestGoBlocks(t *testing.T) {
	var gos []block
	for _, g := range guides(t) {
		for _, b := range blocks(t, g) {
			if b.lang == "go" {
				gos = append(gos, b)
			} else if b.wrap != "" || b.hasRun {
				t.Errorf("%s:%d: a go: comment before a %q block", b.guide, b.line-1, b.lang)
			}
		}
	}
	if len(gos) == 0 {
		t.Fatal("the guides have no Go blocks")
	}
	// A package under testdata is left out of ./... but builds when named.
	if err := os.MkdirAll("testdata", 0o755); err != nil { // not in git
		t.Fatal(err)
	}
	dir, err := os.MkdirTemp("testdata", "blocks-")
	if err != nil {
		t.Fatal(err)
	}
	defer os.RemoveAll(dir)
	var pkgs []string
	for _, b := range gos {
		src, err := source(b)
		if err != nil {
			t.Error(err)
			continue
		}
		if err := formatted(b); err != nil {
			t.Error(err)
		}
		pkg := filepath.Join(dir, b.name())
		if err := os.Mkdir(pkg, 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(pkg, "block.go"), []byte(src), 0o644); err != nil {
			t.Fatal(err)
		}
		pkgs = append(pkgs, "./"+filepath.ToSlash(pkg))
	}
	if t.Failed() {
		return
	}
	// Named together, packages are compiled and their results discarded
	// (not with -o a directory, which builds the main packages alone).
	args := append([]string{"build"}, pkgs...)
	if len(pkgs) == 1 {
		args = append([]string{"build", "-o", os.DevNull}, pkgs...)
	}
	if out, err := exec.Command("go", args...).CombinedOutput(); err != nil {
		t.Fatalf("the guides' Go blocks do not build: %v\n%s", err, out)
	}
	t.Logf("%d Go blocks compiled", len(gos))
	bin := t.TempDir()
	for i, b := range gos {
		if !b.hasRun {
			continue
		}
		exe := filepath.Join(bin, b.name())
		if out, err := exec.Command("go", "build", "-o", exe, pkgs[i]).CombinedOutput(); err != nil {
			t.Fatalf("%s:%d: the program does not build: %v\n%s", b.guide, b.line, err, out)
		}
		out, err := exec.Command(exe, b.run...).CombinedOutput()
		if err != nil || !checksumLine.Match(out) {
			t.Errorf("%s:%d: the program, run with %q: %v\n%s", b.guide, b.line, b.run, err, out)
		}
	}
}

// commandRun finds go run ./cmd/NAME (or the module's full path; after
// cd server &&, the server module's) and the words after it, up to the end
// of the command.
var commandRun = regexp.MustCompile(`(cd server && )?go run (?:\./|github\.com/fixedstep/fixedstep/)(cmd/[a-z]+)((?:\s+[^\s#&|;` + "`" + `]+)*)`)

// flagWord is a word that is a flag: -name or -name=value.
var flagWord = regexp.MustCompile(`^--?([a-z][a-z0-9-]*)(=.*)?$`)

// binDir holds the commands the tests build, each built once per run of the
// tests (see command); TestMain removes it.
var binDir string

func TestMain(m *testing.M) {
	dir, err := os.MkdirTemp("", "docs-bin-")
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	binDir = dir
	code := m.Run()
	os.RemoveAll(dir)
	os.Exit(code)
}

// command builds cmd/NAME (or server/cmd/NAME in the server's module, or
// any main package of the module named from its root), once, and returns
// the program's path.
func command(t *testing.T, name string) string {
	t.Helper()
	exe := filepath.Join(binDir, strings.ReplaceAll(name, "/", "_"))
	if _, err := os.Stat(exe); err == nil {
		return exe
	}
	build := exec.Command("go", "build", "-o", exe, "../"+name)
	if mod, ok := strings.CutPrefix(name, "server/"); ok {
		build = exec.Command("go", "build", "-o", exe, "./"+mod)
		build.Dir = "../server"
	}
	if out, err := build.CombinedOutput(); err != nil {
		t.Fatalf("go build ./%s: %v\n%s", name, err, out)
	}
	return exe
}

// flagsOf returns the flags a command's -h lists.
func flagsOf(t *testing.T, name string) map[string]bool {
	t.Helper()
	out, _ := exec.Command(command(t, name), "-h").CombinedOutput() // flag's -h exits 0 or 2
	flags := map[string]bool{}
	for _, m := range regexp.MustCompile(`(?m)^  -([a-z][a-z0-9-]*)`).FindAllSubmatch(out, -1) {
		flags[string(m[1])] = true
	}
	if len(flags) == 0 {
		t.Fatalf("./%s -h lists no flags:\n%s", name, out)
	}
	return flags
}

// Every flag a guide gives a command of cmd/, in a shell block or a code
// span, is one of its flags; every flag in demo.md's code spans is the
// demo's.
func TestShellFlags(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the commands (-short)")
	}
	type use struct {
		guide string
		line  int
		flag  string
	}
	uses := map[string][]use{} // by command
	span := regexp.MustCompile("`([^`\n]+)`")
	for _, g := range guides(t) {
		var shell []string // each line: a shell block's, or a code span
		var lineOf []int
		for _, b := range blocks(t, g) {
			if b.lang == "sh" {
				for i, l := range strings.Split(b.code, "\n") {
					shell, lineOf = append(shell, l), append(lineOf, b.line+i)
				}
			}
		}
		for i, l := range strings.Split(read(t, g), "\n") {
			for _, m := range span.FindAllStringSubmatch(l, -1) {
				shell, lineOf = append(shell, m[1]), append(lineOf, i+1)
				if g == "docs/demo.md" && strings.HasPrefix(m[1], "-") {
					for _, w := range strings.Fields(m[1]) {
						if f := flagWord.FindStringSubmatch(w); f != nil {
							uses["cmd/demo"] = append(uses["cmd/demo"], use{g, i + 1, f[1]})
						}
					}
				}
			}
		}
		for i, l := range shell {
			for _, m := range commandRun.FindAllStringSubmatch(l, -1) {
				name := m[2]
				if m[1] != "" {
					name = "server/" + name
				}
				for _, w := range strings.Fields(m[3]) {
					if f := flagWord.FindStringSubmatch(w); f != nil {
						uses[name] = append(uses[name], use{g, lineOf[i], f[1]})
					}
				}
			}
		}
	}
	if len(uses["cmd/demo"]) == 0 {
		t.Fatal("found no flag of the demo in the guides")
	}
	n := 0
	for _, name := range slices.Sorted(maps.Keys(uses)) {
		flags := flagsOf(t, name)
		for _, u := range uses[name] {
			n++
			if !flags[u.flag] && u.flag != "h" && u.flag != "help" {
				t.Errorf("%s:%d: -%s is not a flag of %s", u.guide, u.line, u.flag, name)
			}
		}
	}
	t.Logf("%d flags checked, of %d commands", n, len(uses))
}
