// Package crosscpu checks the engine's promise of one state on every CPU:
// each program below records a minute of play (half a minute for the
// games: gameSeconds) on this machine (amd64 with the default
// GOAMD64=v1), and that recording is replayed by the same program built
// for every other CPU the engine supports, each replay
// comparing every tick's state checksum with the recording's (and
// arenacore the hash of its state written as bytes). A replay that
// differs stops at the first tick that does and names it, and, the
// recordings holding the bisector's detail, the first system after which
// the state differed and the component types that did.
//
// The other CPUs run here as they can: amd64 v3 natively (when this CPU
// has AVX2, BMI2 and FMA), 386 natively, arm64 and riscv64 under qemu-user
// (Debian's qemu-user, with libc6-arm64-cross and libc6-riscv64-cross for
// the games whose graphics library links the C library's loader), and
// WebAssembly under Node.js (the programs on the simulation core alone:
// the games' window needs a browser). make test installs them; a target
// whose tools are missing is skipped, saying what to install, unless
// FIXEDSTEP_CROSSCPU=all asks for every one (make test sets it). The
// games are replayed on riscv64 only with FIXEDSTEP_CROSSCPU=every
// (gamesOnArm64 says why). The packages that read hostile bytes and sum
// the state also run their own tests built for 386
// (TestPackagesPassOn32Bits).
package crosscpu

import (
	"bytes"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"runtime"
	"strings"
	"sync"
	"testing"
)

// program is a program the test records and replays.
type program struct {
	name, pkg string
	core      bool     // links the simulation core alone: WebAssembly runs it under Node.js
	states    bool     // prints the hash of its state written as bytes (stateRE)
	record    []string // its arguments to record a minute to the file that follows
	replay    []string // and to replay the file that follows
}

// gameSeconds is how long each game plays: half a minute of a game
// crosses its Title, its play and its physics at rest and in motion; the
// simulation cores, cheaper to emulate, play a minute.
const gameSeconds = "30"

var programs = []program{
	{name: "bounce", pkg: "./cmd/bounce", core: true, record: []string{"-seconds", "60", "-record"}, replay: []string{"-replay"}},
	{name: "arenacore", pkg: "./internal/crosscpu/arenacore", core: true, states: true, record: []string{"-seconds", "60", "-record"}, replay: []string{"-replay"}},
	{name: "demo", pkg: "./cmd/demo", record: []string{"-headless", "-seconds", gameSeconds, "-detail", "-record"}, replay: []string{"-headless", "-replay"}},
	{name: "breakout", pkg: "./cmd/breakout", record: []string{"-headless", "-seconds", gameSeconds, "-detail", "-record"}, replay: []string{"-headless", "-replay"}},
	{name: "platformer", pkg: "./cmd/platformer", record: []string{"-headless", "-seconds", gameSeconds, "-detail", "-record"}, replay: []string{"-headless", "-replay"}},
}

// target is a CPU the recordings are replayed on.
type target struct {
	name string
	env  []string // go build's
	// missing says what this machine lacks to run it, "" when nothing.
	missing func(p program) string
	// command runs bin with args.
	command func(bin string, args ...string) *exec.Cmd
}

func native(bin string, args ...string) *exec.Cmd { return exec.Command(bin, args...) }

func qemu(arch, sysroot string) func(string, ...string) *exec.Cmd {
	return func(bin string, args ...string) *exec.Cmd {
		return exec.Command("qemu-"+arch, append([]string{"-L", sysroot, bin}, args...)...)
	}
}

// needs returns what of cmds (on the PATH) and files is missing, named by
// the Debian package that brings it.
func needs(pairs ...string) string {
	var lack []string
	for i := 0; i < len(pairs); i += 2 {
		what, pkg := pairs[i], pairs[i+1]
		var err error
		if strings.HasPrefix(what, "/") {
			_, err = os.Stat(what)
		} else {
			_, err = exec.LookPath(what)
		}
		if err != nil {
			lack = append(lack, fmt.Sprintf("%s (Debian's %s)", what, pkg))
		}
	}
	return strings.Join(lack, ", ")
}

var targets = []target{
	{name: "amd64-v3", env: []string{"GOARCH=amd64", "GOAMD64=v3"}, command: native,
		missing: func(program) string {
			if runtime.GOARCH != "amd64" {
				return "an amd64 machine"
			}
			info, _ := os.ReadFile("/proc/cpuinfo")
			for _, flag := range []string{"avx2", "bmi2", "fma"} {
				if !regexp.MustCompile(`\b` + flag + `\b`).Match(info) {
					return "a CPU with " + flag
				}
			}
			return ""
		}},
	{name: "386", env: []string{"GOARCH=386", "CGO_ENABLED=0"}, command: native,
		missing: func(p program) string {
			if runtime.GOARCH != "amd64" {
				return "an amd64 machine"
			}
			if p.core {
				return "" // linked statically
			}
			return needs("/lib/ld-linux.so.2", "libc6-i386")
		}},
	{name: "arm64", env: []string{"GOARCH=arm64", "CGO_ENABLED=0"}, command: qemu("aarch64", "/usr/aarch64-linux-gnu"),
		missing: func(program) string {
			return needs("qemu-aarch64", "qemu-user", "/usr/aarch64-linux-gnu/lib/ld-linux-aarch64.so.1", "libc6-arm64-cross")
		}},
	{name: "riscv64", env: []string{"GOARCH=riscv64", "CGO_ENABLED=0", "GOFLAGS=-ldflags=-I=/lib/ld-linux-riscv64-lp64d.so.1"}, // Debian's loader, not Go's /lib/ld.so.1
		command: qemu("riscv64", "/usr/riscv64-linux-gnu"),
		missing: func(p program) string {
			if !p.core && os.Getenv("FIXEDSTEP_CROSSCPU") != "every" {
				return gamesOnArm64
			}
			return needs("qemu-riscv64", "qemu-user", "/usr/riscv64-linux-gnu/lib/ld-linux-riscv64-lp64d.so.1", "libc6-riscv64-cross")
		}},
	{name: "wasm", env: []string{"GOOS=js", "GOARCH=wasm"},
		command: func(bin string, args ...string) *exec.Cmd {
			return exec.Command("node", append([]string{filepath.Join(runtime.GOROOT(), "lib", "wasm", "wasm_exec_node.js"), bin}, args...)...)
		},
		missing: func(p program) string {
			if !p.core {
				return "a browser (the game's window): its simulation core is checked by bounce and arenacore"
			}
			return needs("node", "nodejs")
		}},
}

// gamesOnArm64 is why the games are not replayed on riscv64: like arm64
// it fuses every product a program leaves unrounded, and the games add to
// the simulation cores only their own systems, which arm64 checks; the
// cores (cp, the engine, the Arena's simulation) are replayed on both.
// Emulating three games' minutes once more would take a minute of make
// test's time and check no other instruction; FIXEDSTEP_CROSSCPU=every
// replays them there too.
const gamesOnArm64 = "nothing: the games are replayed on arm64, which fuses as riscv64 does; the simulation cores on both"

var checksumRE = regexp.MustCompile(`\nchecksum ([0-9a-f]{16})\n`)

// stateRE finds the line in which a program (arenacore) says the hash of
// its state's bytes: the same bytes on every CPU.
var stateRE = regexp.MustCompile(`state after tick \d+: \d+ bytes, hash [0-9a-f]{16}`)

// build builds pkg for the environment env into dir, and returns the binary.
func build(t *testing.T, dir, name, pkg string, env []string) string {
	t.Helper()
	bin := filepath.Join(dir, name)
	cmd := exec.Command("go", "build", "-o", bin, pkg)
	cmd.Dir = "../.."
	cmd.Env = append(os.Environ(), env...)
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("go build %s for %v: %v\n%s", pkg, env, err, out)
	}
	return bin
}

// A minute of each core and half a minute of each game, recorded on this
// machine, replays on every other CPU with every tick's state checksum
// the recording's.
func TestEveryCPUPlaysTheSameGame(t *testing.T) {
	if testing.Short() {
		t.Skip("builds every program for five CPUs and plays some five minutes of game under emulation")
	}
	dir := t.TempDir()
	all := os.Getenv("FIXEDSTEP_CROSSCPU") == "all"
	type recorded struct {
		file, sum string
		ticks     string
		state     string // the state's bytes' hash line, for a program that prints one
	}
	recs := make([]recorded, len(programs))
	var mu sync.Mutex
	t.Run("record", func(t *testing.T) {
		for i, p := range programs {
			t.Run(p.name, func(t *testing.T) {
				t.Parallel()
				bin := build(t, dir, p.name+".native", p.pkg, nil)
				file := filepath.Join(dir, p.name+".input")
				cmd := native(bin, append(p.record, file)...)
				cmd.Dir = dir
				out, err := cmd.CombinedOutput()
				m := checksumRE.FindSubmatch(out)
				if err != nil || m == nil || p.states && !stateRE.Match(out) {
					t.Fatalf("recording %s: %v\n%s", p.name, err, out)
				}
				mu.Lock()
				recs[i] = recorded{file: file, sum: string(m[1]), state: string(stateRE.Find(out))}
				mu.Unlock()
			})
		}
	})
	for _, tg := range targets {
		t.Run(tg.name, func(t *testing.T) {
			t.Parallel()
			for i, p := range programs {
				if recs[i].file == "" {
					t.Fatalf("%s was not recorded", p.name)
				}
				if lack := tg.missing(p); lack != "" {
					if all && !strings.HasPrefix(lack, "a browser") && lack != gamesOnArm64 {
						t.Fatalf("%s on %s needs %s", p.name, tg.name, lack)
					}
					if lack == gamesOnArm64 {
						t.Logf("%s on %s: not replayed: %s", p.name, tg.name, lack)
						continue
					}
					t.Logf("%s on %s: skipped: needs %s", p.name, tg.name, lack)
					continue
				}
				bin := build(t, dir, p.name+"."+tg.name, p.pkg, tg.env)
				cmd := tg.command(bin, append(p.replay, recs[i].file)...)
				cmd.Dir = dir
				var out bytes.Buffer
				cmd.Stdout, cmd.Stderr = &out, &out
				err := cmd.Run()
				m := checksumRE.FindSubmatch(out.Bytes())
				if err != nil || m == nil || string(m[1]) != recs[i].sum {
					t.Errorf("%s on %s differs from amd64 v1 (checksum %s):\n%s", p.name, tg.name, recs[i].sum, out.String())
					continue
				}
				if st := string(stateRE.Find(out.Bytes())); st != recs[i].state {
					t.Errorf("%s on %s writes its state as other bytes than amd64 v1 (%q, there %q):\n%s", p.name, tg.name, st, recs[i].state, out.String())
					continue
				}
				t.Logf("%s on %s: every tick as on amd64 v1, checksum %s", p.name, tg.name, m[1])
			}
		})
	}
}
