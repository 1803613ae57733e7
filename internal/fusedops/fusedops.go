// Package fusedops finds the fused multiply-add instructions that the Go
// compiler emits for a package on the CPUs where it fuses: tests use it to
// prove that rounded code has none left.
package fusedops

import (
	"bytes"
	"fmt"
	"os"
	"os/exec"
	"regexp"
	"strconv"
	"strings"
)

// Target is a CPU the compiler fuses products and sums for, as the go
// command's environment says it.
type Target struct {
	Name string   // for messages: "arm64", "amd64.v3", ...
	Env  []string // GOARCH and the like
}

// Targets are the CPUs on which Go fuses float products and sums into
// multiply-adds: arm64, riscv64, ppc64le, s390x and loong64 always, amd64
// from GOAMD64=v3.
var Targets = []Target{
	{"arm64", []string{"GOARCH=arm64"}},
	{"riscv64", []string{"GOARCH=riscv64"}},
	{"amd64.v3", []string{"GOARCH=amd64", "GOAMD64=v3"}},
	{"ppc64le", []string{"GOARCH=ppc64le"}},
	{"s390x", []string{"GOARCH=s390x"}},
	{"loong64", []string{"GOARCH=loong64"}},
}

// Op is one fused instruction and the source line it came from.
type Op struct {
	File  string
	Line  int
	Instr string
}

func (o Op) String() string { return fmt.Sprintf("%s:%d: %s", o.File, o.Line, o.Instr) }

// A fused multiply-add's mnemonic on any of the Targets: FMADDD, FNMSUBS,
// VFMADD231SD, FMADD, ...
var fusedRE = regexp.MustCompile(`^V?FN?M(ADD|SUB)[A-Z0-9]*$`)

// An instruction line of the compiler's -S listing.
var lineRE = regexp.MustCompile(`^\s+0x[0-9a-f]+ \d+ \(([^)]+):(\d+)\)\t(\S+)`)

// Find compiles the package pkg (an import path or a directory the go
// command takes, run in dir) for t with the compiler's assembly listing,
// and returns its fused multiply-add instructions. flags go to go build
// (an -overlay, say). It needs the go command; the listing of a package
// already built comes from the build cache.
func Find(dir, pkg string, t Target, flags ...string) ([]Op, error) {
	list := exec.Command("go", "list", "-f", "{{.ImportPath}}", pkg)
	list.Dir = dir
	path, err := list.Output()
	if err != nil {
		return nil, fmt.Errorf("go list %s: %v", pkg, err)
	}
	args := append([]string{"build", "-o", os.DevNull, "-gcflags=" + strings.TrimSpace(string(path)) + "=-S"}, flags...)
	cmd := exec.Command("go", append(args, pkg)...)
	cmd.Dir = dir
	cmd.Env = append(append(os.Environ(), "CGO_ENABLED=0"), t.Env...)
	out, err := cmd.CombinedOutput()
	if err != nil {
		return nil, fmt.Errorf("%s go build %s: %v\n%s", t.Name, pkg, err, firstLines(out, 20))
	}
	var ops []Op
	for _, l := range bytes.Split(out, []byte("\n")) {
		m := lineRE.FindSubmatch(l)
		if m == nil || !fusedRE.Match(m[3]) {
			continue
		}
		n, _ := strconv.Atoi(string(m[2]))
		ops = append(ops, Op{File: string(m[1]), Line: n, Instr: string(m[3])})
	}
	return ops, nil
}

func firstLines(b []byte, n int) []byte {
	lines := bytes.SplitN(b, []byte("\n"), n+1)
	return bytes.Join(lines[:min(n, len(lines))], []byte("\n"))
}
