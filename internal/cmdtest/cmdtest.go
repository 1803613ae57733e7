// Package cmdtest runs a command's end-to-end tests: it builds the command
// once, runs it with arguments, and reads the summary's last line, the
// run's checksum, that every game on cli.App prints.
package cmdtest

import (
	"bytes"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// Main builds the command in the current directory (a main package's
// tests run there) as name in a directory of its own, sets *bin to it,
// runs the tests and exits with their status, the directory removed.
func Main(m *testing.M, name string, bin *string) {
	dir, err := os.MkdirTemp("", name+"-test")
	if err != nil {
		panic(err)
	}
	*bin = filepath.Join(dir, name)
	if out, err := exec.Command("go", "build", "-o", *bin, ".").CombinedOutput(); err != nil {
		fmt.Fprintf(os.Stderr, "go build: %v\n%s", err, out)
		os.Exit(1)
	}
	code := m.Run()
	os.RemoveAll(dir)
	os.Exit(code)
}

// ChecksumRE matches the summary's last line and its checksum.
var ChecksumRE = regexp.MustCompile(`\nchecksum ([0-9a-f]{16})\n$`)

// Output runs bin with args and returns what it printed (standard output
// and error) and its exit code; a command that cannot start fails the test.
func Output(t testing.TB, bin string, args ...string) (string, int) {
	t.Helper()
	out, err := exec.Command(bin, args...).CombinedOutput()
	code := 0
	if ee, ok := err.(*exec.ExitError); ok {
		code = ee.ExitCode()
	} else if err != nil {
		t.Fatalf("%s %s: %v", filepath.Base(bin), strings.Join(args, " "), err)
	}
	return string(out), code
}

// Run runs bin with args, which must succeed and print a checksum last,
// and returns what it printed and the checksum.
func Run(t testing.TB, bin string, args ...string) (string, string) {
	t.Helper()
	out, code := Output(t, bin, args...)
	m := ChecksumRE.FindStringSubmatch(out)
	if code != 0 || m == nil {
		t.Fatalf("%s %s: exit %d, no checksum last:\n%s", filepath.Base(bin), strings.Join(args, " "), code, out)
	}
	return out, m[1]
}

// DocCounts checks that a game's package doc, in files[0], counts its lines
// truly: "Size: N lines in ..." the files' lines, and "of which P (...) are
// plumbing" the sum of its parts, listed as "//   - K in FILE".
func DocCounts(t testing.TB, files ...string) {
	t.Helper()
	doc, err := os.ReadFile(files[0])
	if err != nil {
		t.Fatal(err)
	}
	m := regexp.MustCompile(`Size: (\d+) lines in `).FindSubmatch(doc)
	p := regexp.MustCompile(`of which (\d+)(?: \([^)]*\))? are plumbing`).FindSubmatch(doc)
	if m == nil || p == nil {
		t.Fatalf("%s's doc does not give its size", files[0])
	}
	lines := 0
	for _, f := range files {
		data, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		lines += bytes.Count(data, []byte("\n"))
	}
	if got := fmt.Sprint(lines); got != string(m[1]) {
		t.Errorf("the doc says %s lines, the files have %d", m[1], lines)
	}
	sum := 0
	for _, part := range regexp.MustCompile(`//   - (\d+) in `).FindAllSubmatch(doc, -1) {
		var n int
		fmt.Sscan(string(part[1]), &n)
		sum += n
	}
	if got := fmt.Sprint(sum); got != string(p[1]) {
		t.Errorf("the doc says %s lines of plumbing, its parts add up to %d", p[1], sum)
	}
}

// AllocatedTwice plays a deterministic run twice (run returns the ticks
// that allocated, with their counts) and fails t naming the ticks that
// allocated in both runs. The process's allocation count also sees other
// goroutines (the runtime's, the race detector's), whose allocations do not
// come back at the same tick; the game's own do. ticks says which ticks run
// counts ("the ticks from 301 on").
func AllocatedTwice(t testing.TB, ticks string, run func() map[int]uint64) {
	t.Helper()
	first, second := run(), run()
	both := map[int][2]uint64{}
	for tick, n := range first {
		if m, ok := second[tick]; ok {
			both[tick] = [2]uint64{n, m}
		}
	}
	if len(both) > 0 {
		t.Errorf("%d of %s allocated in both runs (tick: allocations): %v", len(both), ticks, both)
	}
	if len(first)+len(second) > 0 {
		t.Logf("ticks that allocated in one run only (other goroutines): %v, %v", first, second)
	}
}
