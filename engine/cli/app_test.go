package cli_test

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"math"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"syscall"
	"testing"

	"github.com/fixedstep/fixedstep/engine"
	"github.com/fixedstep/fixedstep/engine/cli"
	"github.com/fixedstep/fixedstep/engine/cli/netplaymode"
	"github.com/fixedstep/fixedstep/engine/input"
	"github.com/fixedstep/fixedstep/systems/stage/core"
	"github.com/fixedstep/fixedstep/third_party/donburi"
)

// appGame is a small game on cli.App: a body whose speed is a game flag,
// pushed by Space (from the tick's input), with a state checksum.
type appGame struct {
	app        *cli.App
	speed      *float64
	brightness *int
	drift      *float64 // an unrecorded flag that changes the game: a build that drifts
	seen       float64  // the speed the first scene was made with
}

// newAppGame returns the game, listing modes (a game of one player
// without).
func newAppGame(modes ...cli.Mode) *appGame {
	g := &appGame{app: &cli.App{Name: "game", Unrecorded: []string{"brightness", "drift"}, Modes: modes}}
	g.speed = g.app.Flags().Float64("speed", 1, "how fast")
	g.brightness = g.app.Flags().Int("brightness", 5, "how bright")
	g.drift = g.app.Flags().Float64("drift", 0, "added to the speed from tick 100")
	return g
}

func (g *appGame) first() (engine.Scene, error) {
	g.seen = *g.speed
	seed := g.app.Seed()
	return engine.NewScene("Play", func(loop *engine.Loop) (engine.Scene, error) {
		var p cart
		p.x = float64(seed)
		loop.Recording().SetChecksum(func() uint64 { return math.Float64bits(p.x) ^ math.Float64bits(p.v) })
		saved := map[int]cart{} // for rollbacks, in a networked run
		loop.Recording().SetSceneState(cartState{save: func(slot int) { saved[slot] = p }, restore: func(slot int) { p = saved[slot] }})
		loop.Recording().SetStateDump(func(w io.Writer) error {
			_, err := fmt.Fprintf(w, "x = %v\nv = %v\n", p.x, p.v)
			return err
		})
		loop.SetTickInput(0, engine.TickInputFunc(func(t engine.TickInfo, in *input.State) {
			in.SetKey(input.KeySpace, t.Tick%40 < 10)
		}))
		for ev := range loop.Events() {
			if ev.Kind == engine.Update {
				speed := *g.speed
				if ev.Tick >= 100 {
					speed += *g.drift
				}
				p.step(ev.DT*speed, ev.Input.KeyDown(input.KeySpace))
			}
		}
		return nil, loop.Err()
	}), nil
}

// cartState is the cart as an engine.SceneState.
type cartState struct{ save, restore func(slot int) }

func (c cartState) SaveState(slot int) error    { c.save(slot); return nil }
func (c cartState) RestoreState(slot int) error { c.restore(slot); return nil }

// run runs the game with args and returns what it printed and its error.
func (g *appGame) run(args ...string) (string, error) {
	var out bytes.Buffer
	g.app.Out, g.app.Err = &out, &out
	err := g.app.Run(args, g.first)
	return out.String(), err
}

var appChecksumRE = regexp.MustCompile(`\nchecksum ([0-9a-f]{16})\n$`)

// A recording keeps the seed and the game's flags but those it leaves out:
// -replay alone replays the run as recorded; a flag given with another value
// is a *FlagError naming it.
func TestAppRecordsAndReplaysItsSettings(t *testing.T) {
	rec := filepath.Join(t.TempDir(), "run.input")
	out, err := newAppGame().run("-headless", "-seconds", "3", "-seed", "2", "-speed", "1.5", "-brightness", "9", "-record", rec)
	if err != nil {
		t.Fatalf("%v\n%s", err, out)
	}
	recorded := appChecksumRE.FindStringSubmatch(out)
	if recorded == nil || !strings.Contains(out, "recorded 1 scenes, 180 ticks to "+rec) {
		t.Fatalf("recording:\n%s", out)
	}
	lg, err := engine.LoadInputLog(rec)
	if err != nil || lg.Seed != 2 || lg.Settings["speed"] != "1.5" || lg.Settings["seconds"] != "3" ||
		lg.Settings["seed"] != "2" || lg.Settings["brightness"] != "" || lg.Settings["fps"] != "" {
		t.Fatalf("settings %v, seed %d, %v", lg.Settings, lg.Seed, err)
	}

	g := newAppGame()
	out, err = g.run("-headless", "-replay", rec, "-fps", "37", "-brightness", "1")
	if err != nil || g.seen != 1.5 || g.app.Seed() != 2 {
		t.Fatalf("replay: %v, speed %v, seed %d\n%s", err, g.seen, g.app.Seed(), out)
	}
	if got := appChecksumRE.FindStringSubmatch(out); got == nil || got[1] != recorded[1] ||
		!strings.Contains(out, "replayed 1 scenes, 180 ticks, every checksum matched (180 checked)") {
		t.Fatalf("replay printed:\n%s\nrecorded checksum %s", out, recorded[1])
	}

	_, err = newAppGame().run("-headless", "-replay", rec, "-speed", "2")
	var fe *cli.FlagError
	if !errors.As(err, &fe) || fe.Flag != "speed" || !strings.Contains(err.Error(), "the recording was made with -speed 1.5") {
		t.Fatalf("a conflicting flag: %v", err)
	}
	other := &cli.App{}
	other.Flags()
	err = other.Run([]string{"-headless", "-replay", rec}, newAppGame().first)
	if !errors.As(err, &fe) || !strings.Contains(err.Error(), "-speed 1.5, a flag this program does not have") {
		t.Fatalf("a recording of another game: %v", err)
	}
}

// Bad values of the standard flags are *FlagErrors, before the game's first
// scene is even made.
func TestAppRefusesBadFlags(t *testing.T) {
	for _, args := range [][]string{
		{"-seconds", "NaN"}, {"-seconds", "-Inf"}, {"-seconds", "1e300"}, {"-seconds", "9223372036.854775807"}, {"-seconds", "1e-12"}, {"-fps", "-3"}, {"-fps", "1e9"}, {"-fps", "1e-7"}, {"-synctest", "61"}, {"-synctest", "-1"}, {"-frames", "0"},
		{"-headless", "-screenshot", "x.png"}, {"-record", "a", "-replay", "a"}, {"extra"}, {"-nope"},
		{"-screenshot-at", "1:5"}, {"-screenshot", "x.png", "-screenshot-at", "0:5"}, {"-screenshot", "x.png", "-screenshot-at", "1:"},
		{"-host", ":0", "-save", "x.sav", "-save-at", "1:10"}, {"-host", ":0", "-join", "127.0.0.1:9"},
	} {
		g := newAppGame(&netplaymode.Mode{})
		g.seen = -1
		_, err := g.run(args...)
		var fe *cli.FlagError
		if !errors.As(err, &fe) || g.seen != -1 {
			t.Errorf("%v: %v (first scene made: %v)", args, err, g.seen != -1)
		}
	}
}

// -dump-at writes the state after a tick to dump-S-T.txt; a replay that
// diverges writes the replayed state at the tick where it found it to
// diverged-S-T.txt, and says how to get the same from the recording's build.
func TestAppDumps(t *testing.T) {
	t.Chdir(t.TempDir())
	if out, err := newAppGame().run("-headless", "-seconds", "3", "-record", "run.input"); err != nil {
		t.Fatalf("%v\n%s", err, out)
	}
	if out, err := newAppGame().run("-headless", "-replay", "run.input", "-dump-at", "1:150"); err != nil {
		t.Fatalf("%v\n%s", err, out)
	}
	want, err := os.ReadFile("dump-1-150.txt")
	if err != nil || !strings.HasPrefix(string(want), "x = ") {
		t.Fatalf("dump-1-150.txt: %q, %v", want, err)
	}
	out, err := newAppGame().run("-headless", "-replay", "run.input", "-drift", "1e-9")
	var de *engine.DivergenceError
	if !errors.As(err, &de) || de.Tick != 100 || !strings.Contains(err.Error(), "diverged-1-100.txt (the same tick of the recording's build: -replay FILE -dump-at 1:100") {
		t.Fatalf("a drifting build: %v", err)
	}
	if !strings.Contains(out, "99 checksums matched, then tick 100's differed (the error below)") {
		t.Fatalf("a drifting build's summary:\n%s", out)
	}
	got, err := os.ReadFile("diverged-1-100.txt")
	if err != nil || !strings.HasPrefix(string(got), "x = ") {
		t.Fatalf("diverged-1-100.txt: %q, %v", got, err)
	}
	if _, err := newAppGame().run("-headless", "-replay", "run.input", "-dump-at", "1:100"); err != nil {
		t.Fatal(err)
	}
	if ref, _ := os.ReadFile("dump-1-100.txt"); bytes.Equal(ref, got) {
		t.Fatalf("the drifted state equals the recording's: %q", got)
	}
	for _, bad := range []string{"0", "1:0", "x", "2:", ":3", "1:2:3"} {
		if _, err := newAppGame().run("-headless", "-seconds", "1", "-dump-at", bad); !errors.As(err, new(*cli.FlagError)) {
			t.Errorf("-dump-at %s: %v", bad, err)
		}
	}
	if _, err := newAppGame().run("-headless", "-seconds", "1", "-dump-at", "2:5"); err == nil || !strings.Contains(err.Error(), "never reached") {
		t.Errorf("-dump-at past the run: %v", err)
	}
}

// Default sets a flag the command line did not give; one it gave, or a
// replay's recording set, stays; a flag that does not exist is an error.
func TestAppDefault(t *testing.T) {
	defaults := func(g *appGame) func() (engine.Scene, error) {
		return func() (engine.Scene, error) {
			if err := g.app.Default("speed", "2"); err != nil {
				return nil, err
			}
			return g.first()
		}
	}
	run := func(args ...string) (*appGame, error) {
		g := newAppGame()
		var out bytes.Buffer
		g.app.Out, g.app.Err = &out, &out
		return g, g.app.Run(args, defaults(g))
	}
	if g, err := run("-headless", "-seconds", "1"); err != nil || g.seen != 2 {
		t.Fatalf("not given: %v, speed %v", err, g.seen)
	}
	if g, err := run("-headless", "-seconds", "1", "-speed", "3"); err != nil || g.seen != 3 {
		t.Fatalf("given: %v, speed %v", err, g.seen)
	}
	rec := filepath.Join(t.TempDir(), "run.input")
	if _, err := run("-headless", "-seconds", "1", "-speed", "5", "-record", rec); err != nil {
		t.Fatal(err)
	}
	if g, err := run("-headless", "-replay", rec); err != nil || g.seen != 5 {
		t.Fatalf("replayed: %v, speed %v", err, g.seen)
	}
	if err := newAppGame().app.Default("nope", "1"); !errors.As(err, new(*cli.FlagError)) {
		t.Fatalf("no such flag: %v", err)
	}
}

// Main prints where a scene panicked (the panic's stack, not only its
// value), no summary for a run that never began (no display): only the
// error, and after Ctrl-C in a -realtime run, its summary at once. Each runs Main in a child process, as a game's main does.
func TestAppMainReportsPanicsAndNoDisplay(t *testing.T) {
	switch os.Getenv("ENGINE_TEST_APP_MAIN") {
	case "panic":
		os.Args = []string{"game", "-headless", "-seconds", "1"}
		app := &cli.App{Name: "game"}
		app.Main(func() (engine.Scene, error) {
			return engine.NewScene("Play", func(loop *engine.Loop) (engine.Scene, error) {
				var cells []int
				for ev := range loop.Events() {
					if ev.Kind == engine.Update && ev.Tick == 3 {
						cells[ev.Tick] = 1 // index out of range
					}
				}
				return nil, loop.Err()
			}), nil
		})
	case "interrupt":
		os.Args = []string{"game", "-realtime", "-seconds", "60"}
		app := &cli.App{Name: "game"}
		app.Main(func() (engine.Scene, error) {
			return engine.NewScene("Play", func(loop *engine.Loop) (engine.Scene, error) {
				for ev := range loop.Events() {
					if ev.Kind == engine.Update && ev.Tick == 30 {
						syscall.Kill(os.Getpid(), syscall.SIGINT) // the player's Ctrl-C
					}
				}
				return nil, loop.Err()
			}), nil
		})
	case "nodisplay":
		os.Args = []string{"game", "-seconds", "1"}
		app := &cli.App{Name: "game"}
		app.Main(func() (engine.Scene, error) {
			return engine.NewScene("Play", func(loop *engine.Loop) (engine.Scene, error) { return nil, nil }), nil
		})
	}
	child := func(mode string, display bool) (string, int) {
		cmd := exec.Command(os.Args[0], "-test.run=^TestAppMainReportsPanicsAndNoDisplay$")
		for _, kv := range os.Environ() {
			if display || !strings.HasPrefix(kv, "DISPLAY=") && !strings.HasPrefix(kv, "WAYLAND_DISPLAY=") {
				cmd.Env = append(cmd.Env, kv)
			}
		}
		cmd.Env = append(cmd.Env, "ENGINE_TEST_APP_MAIN="+mode)
		out, err := cmd.CombinedOutput()
		var ee *exec.ExitError
		if err != nil && !errors.As(err, &ee) {
			t.Fatalf("%s: %v", mode, err)
		}
		return string(out), cmd.ProcessState.ExitCode()
	}
	out, code := child("panic", true)
	if code != 1 || !strings.Contains(out, "game: scene Play: panic: runtime error: index out of range [3] with length 0") ||
		!regexp.MustCompile(`\n\s+\S*app_test\.go:\d+`).MatchString(out) {
		t.Fatalf("a panicking scene: exit %d\n%s", code, out)
	}
	t.Logf("a panicking scene:\n%s", out)
	// Ctrl-C in a -realtime run: the summary at once, without the second
	// of sleeps that measures the machine after a whole run.
	out, code = child("interrupt", false)
	if code != 130 || !strings.Contains(out, "(interrupted: no bare time.Sleep measured after it)") ||
		strings.Contains(out, "overslept") || !strings.Contains(out, "game: interrupted by interrupt") {
		t.Fatalf("an interrupted -realtime run: exit %d\n%s", code, out)
	}
	out, code = child("nodisplay", false)
	if code != 1 || !strings.Contains(out, "game: engine: no display") || strings.Contains(out, "run: ") || strings.Contains(out, "checksum") {
		t.Fatalf("no display: exit %d\n%s", code, out)
	}
}

// cart is the appGame's simulation: a cart on a spring, with drag,
// pushed.
type cart struct{ x, v float64 }

func (p *cart) step(dt float64, push bool) {
	a := -0.5*p.x - 0.2*p.v
	if push {
		a += 2
	}
	p.v += a * dt
	p.x += p.v * dt
}

// A flag in App.RecordedWhenSet is kept in a recording only when set away
// from its default, and a recording without it replays with its default.
func TestAppRecordedWhenSet(t *testing.T) {
	dir := t.TempDir()
	for _, c := range []struct {
		speed string
		kept  bool
	}{{"1", false}, {"1.5", true}} {
		rec := filepath.Join(dir, "run-"+c.speed+".input")
		g := newAppGame()
		g.app.RecordedWhenSet = []string{"speed"}
		if out, err := g.run("-headless", "-seconds", "1", "-speed", c.speed, "-record", rec); err != nil {
			t.Fatalf("%v\n%s", err, out)
		}
		lg, err := engine.LoadInputLog(rec)
		if v, ok := lg.Settings["speed"]; err != nil || ok != c.kept || c.kept && v != c.speed {
			t.Fatalf("-speed %s: settings %v (%v), want speed kept: %v", c.speed, lg.Settings, err, c.kept)
		}
		g = newAppGame()
		if out, err := g.run("-headless", "-replay", rec); err != nil || fmt.Sprint(g.seen) != c.speed {
			t.Fatalf("replaying -speed %s: speed %v, %v\n%s", c.speed, g.seen, err, out)
		}
	}
}

// A recording cut short before its first tick (a run killed as it began)
// replays as what it is: no tick, and no checksum because none ran.
func TestAppReplaysARecordingCutBeforeItsFirstTick(t *testing.T) {
	dir := t.TempDir()
	rec := filepath.Join(dir, "run.input")
	if out, err := newAppGame().run("-headless", "-seconds", "1", "-record", rec); err != nil {
		t.Fatalf("%v\n%s", err, out)
	}
	data, err := os.ReadFile(rec)
	if err != nil {
		t.Fatal(err)
	}
	cut := filepath.Join(dir, "cut.input")
	for n := 1; n < len(data); n++ { // the shortest prefix that reads as a recording
		if lg, err := engine.ParseInputLog(data[:n]); err == nil {
			if lg.Ticks() != 0 {
				t.Fatalf("the shortest readable prefix (%d bytes) holds %d ticks", n, lg.Ticks())
			}
			if err := os.WriteFile(cut, data[:n], 0o644); err != nil {
				t.Fatal(err)
			}
			break
		}
	}
	out, err := newAppGame().run("-headless", "-replay", cut)
	if err != nil || !strings.Contains(out, "replayed 0 scenes, 0 ticks, the recording was cut short before its first tick") ||
		!strings.HasSuffix(out, "checksum none (no tick ran)\n") {
		t.Fatalf("replaying a recording with no tick: %v\n%s", err, out)
	}
}

// The summary names a run's scenes in order, the middle ones of a long
// chain counted rather than named.
func TestAppSummaryNamesTheScenes(t *testing.T) {
	var chain func(i int) engine.Scene
	chain = func(i int) engine.Scene {
		return engine.NewScene(fmt.Sprint("S", i), func(loop *engine.Loop) (engine.Scene, error) {
			loop.Recording().SetChecksum(func() uint64 { return uint64(i) })
			for ev := range loop.Events() {
				if ev.Kind == engine.Update {
					break // the scene's one tick
				}
			}
			if i == 12 {
				return nil, loop.Err()
			}
			return chain(i + 1), loop.Err()
		})
	}
	var out bytes.Buffer
	app := &cli.App{Name: "chain", Out: &out, Err: &out}
	if err := app.Run([]string{"-headless"}, func() (engine.Scene, error) { return chain(1), nil }); err != nil {
		t.Fatalf("%v\n%s", err, out.String())
	}
	if want := "run: 12 scenes (S1, S2, S3, S4, S5, S6, ... 3 more ..., S10, S11, S12), 12 ticks\n"; !strings.HasPrefix(out.String(), want) {
		t.Fatalf("the summary:\n%s\nwant it to begin %q", out.String(), want)
	}
}

// A replay under -synctest of a game whose state is not all kept fails on
// the sync test; where the replay then diverged too, the summary names
// the world it wrote there. A run under -synctest whose scenes run no sync
// test says that nothing was checked.
func TestAppNamesTheDivergedWorldAfterAnotherError(t *testing.T) {
	leaky := func() (engine.Scene, error) {
		return engine.NewScene("Leaky", func(loop *engine.Loop) (engine.Scene, error) {
			st := core.New(loop, core.Options{})
			defer st.Release()
			e := st.World.Entry(st.World.Create(tallyC))
			var n int64 // not kept: the sync test's second pass sees it grown
			st.Sched.AddUpdate(0, "count", func(w donburi.World, ev engine.Event) {
				n++
				tallyC.Get(e).N += n
			})
			return st.Run()
		}), nil
	}
	dir := t.TempDir()
	t.Chdir(dir)
	rec := filepath.Join(dir, "leaky.input")
	var out bytes.Buffer
	app := &cli.App{Name: "leaky", Out: &out, Err: &out}
	if err := app.Run([]string{"-headless", "-seconds", "1", "-record", rec}, leaky); err != nil {
		t.Fatalf("%v\n%s", err, out.String())
	}
	out.Reset()
	app = &cli.App{Name: "leaky", Out: &out, Err: &out}
	err := app.Run([]string{"-headless", "-replay", rec, "-synctest", "2"}, leaky)
	if err == nil || !strings.Contains(err.Error(), "synctest") {
		t.Fatalf("the replay under -synctest: %v, want the sync test's error\n%s", err, out.String())
	}
	if !regexp.MustCompile(`\nchecksum [0-9a-f]{16} of the state where the run failed \(not a result: see the error\)\n`).MatchString(out.String()) {
		t.Errorf("a failed run's checksum line does not say the run failed:\n%s", out.String())
	}
	m := regexp.MustCompile(`the replay diverged at tick \d+ of scene 1 too: the replayed world there is in (diverged-1-\d+\.txt)`).FindStringSubmatch(out.String())
	if m == nil {
		t.Fatalf("the summary does not name the diverged world:\n%s", out.String())
	}
	if _, err := os.Stat(m[1]); err != nil {
		t.Fatalf("the summary names %s: %v", m[1], err)
	}

	if out, err := newAppGame().run("-headless", "-seconds", "1", "-synctest", "4"); err != nil ||
		!strings.Contains(out, "synctest: nothing checked: no scene simulated a tick again") {
		t.Fatalf("-synctest of a game with no sync test: %v\n%s", err, out)
	}
}

// Tally is a stage's game state, for the tests of -synctest.
type Tally struct{ N int64 }

var tallyC = donburi.NewComponentType[Tally]()

// -memory reports what the program allocated from the first tick to the
// end, a tick on average, and the collections; without it, nothing.
func TestAppMemoryLine(t *testing.T) {
	out, err := newAppGame().run("-headless", "-seconds", "1", "-memory")
	re := regexp.MustCompile(`\nmemory: \d+ allocations \(\d+ bytes\) from the first tick to the end, \d+\.\d\d a tick over 60 ticks; \d+ garbage collections\n`)
	if err != nil || !re.MatchString(out) {
		t.Fatalf("-memory: %v\n%s", err, out)
	}
	if out, err := newAppGame().run("-headless", "-seconds", "1"); err != nil || strings.Contains(out, "memory:") {
		t.Fatalf("without -memory: %v\n%s", err, out)
	}
}
