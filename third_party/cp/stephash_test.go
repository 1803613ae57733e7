package cp_test

import (
	"bufio"
	"flag"
	"fmt"
	"math"
	"os"
	"runtime"
	"strings"
	"testing"
)

var update = flag.Bool("update", false, "rewrite testdata/stephashes.txt with this build's hashes (on amd64 with GOAMD64=v1)")

const stepHashesFile = "testdata/stephashes.txt"

// stateHash is FNV-1a over the bits of every body's state.
func stateHash(state []float64) uint64 {
	h := uint64(14695981039346656037)
	for _, v := range state {
		b := math.Float64bits(v)
		for i := 0; i < 64; i += 8 {
			h = (h ^ (b >> i & 0xff)) * 1099511628211
		}
	}
	return h
}

// On every CPU this copy computes, after every step of the bench scenes,
// the bodies that it computes on amd64 with GOAMD64=v1: the hash of every
// step's state equals testdata/stephashes.txt's (written there by go test
// -run TestStepHashes -update). A failure names each scene's first step
// that differs.
func TestStepHashes(t *testing.T) {
	const steps = 400
	got := map[string][]string{}
	for _, sc := range benchScenes {
		l := &forkLib{}
		sc.build(l)
		hashes := []string{fmt.Sprintf("%016x", stateHash(l.state()))}
		for range steps {
			l.step(1.0 / 60)
			hashes = append(hashes, fmt.Sprintf("%016x", stateHash(l.state())))
		}
		got[sc.name] = hashes
	}
	if *update {
		if runtime.GOARCH != "amd64" || compilerFuses {
			t.Fatal("write the step hashes on amd64 with GOAMD64=v1 or v2")
		}
		var b strings.Builder
		b.WriteString("# the copy's bench scenes on amd64 v1: scene, step (0 is the scene as built), FNV-1a of every body's x, y, vx, vy, angle, spin\n")
		for _, sc := range benchScenes {
			for i, h := range got[sc.name] {
				fmt.Fprintf(&b, "%s %d %s\n", sc.name, i, h)
			}
		}
		if err := os.WriteFile(stepHashesFile, []byte(b.String()), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	f, err := os.Open(stepHashesFile)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	want := map[string][]string{}
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		var name, hash string
		var step int
		if line := sc.Text(); line == "" || strings.HasPrefix(line, "#") {
			continue
		} else if _, err := fmt.Sscanf(line, "%s %d %s", &name, &step, &hash); err != nil || step != len(want[name]) {
			t.Fatalf("%s: bad line %q", stepHashesFile, line)
		}
		want[name] = append(want[name], hash)
	}
	for _, s := range benchScenes {
		g, w := got[s.name], want[s.name]
		if len(w) != len(g) {
			t.Errorf("%s: %d steps in %s, want %d", s.name, len(w)-1, stepHashesFile, len(g)-1)
			continue
		}
		differ := 0
		for i := range g {
			if g[i] != w[i] {
				if differ == 0 {
					t.Errorf("%s on %s: step %d is the first that differs from amd64 v1's", s.name, runtime.GOARCH, i)
				}
				differ++
			}
		}
		if differ > 0 {
			t.Errorf("%s on %s: %d of %d steps differ", s.name, runtime.GOARCH, differ, len(g))
		}
	}
}
