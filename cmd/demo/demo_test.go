package main

import (
	"bytes"
	"fmt"
	"image/png"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/fixedstep/fixedstep/engine"
	"github.com/fixedstep/fixedstep/internal/cmdtest"
	"github.com/fixedstep/fixedstep/internal/windowtest"
)

// demoBin is the demo built once for the end-to-end tests.
var demoBin string

func TestMain(m *testing.M) { cmdtest.Main(m, "demo", &demoBin) }

var checksumRE = cmdtest.ChecksumRE

// output runs the built demo and returns what it printed and its exit code.
func output(t *testing.T, args ...string) (string, int) {
	t.Helper()
	return cmdtest.Output(t, demoBin, args...)
}

// run runs the built demo, which must succeed, and returns the checksum it
// printed last.
func run(t *testing.T, args ...string) string {
	t.Helper()
	_, sum := cmdtest.Run(t, demoBin, args...)
	return sum
}

func needDisplay(t *testing.T) {
	if os.Getenv("DISPLAY") == "" {
		if os.Getenv("CI") != "" {
			t.Fatal("no DISPLAY in CI: run the tests through make test (xvfb-run)")
		}
		t.Skip("no DISPLAY: run under xvfb-run -a, or make test")
	}
}

// The same seed gives the same checksum at 24, 60, 144 and 1000 frames per
// second, in separate processes; another seed gives another.
func TestChecksumIndependentOfFrameRate(t *testing.T) {
	want := run(t, "-headless", "-seconds", "8", "-seed", "5", "-fps", "60")
	for _, fps := range []string{"24", "144", "1000", "37"} {
		if got := run(t, "-headless", "-seconds", "8", "-seed", "5", "-fps", fps); got != want {
			t.Errorf("-fps %s: checksum %s, want %s", fps, got, want)
		}
	}
	if other := run(t, "-headless", "-seconds", "8", "-seed", "6"); other == want {
		t.Error("another seed gave the same checksum")
	}
	stress := run(t, "-headless", "-scene", "stress", "-bodies", "300", "-seconds", "2", "-fps", "30")
	if got := run(t, "-headless", "-scene", "stress", "-bodies", "300", "-seconds", "2", "-fps", "144"); got != stress {
		t.Errorf("stress: %s at 144 fps, %s at 30", got, stress)
	}
}

var replayedRE = regexp.MustCompile(`\nreplayed (\d+) scenes, (\d+) ticks, every checksum matched \((\d+) checked\)`)

// anyChecksumRE finds the checksum line where it is not the last.
var anyChecksumRE = regexp.MustCompile(`\nchecksum [0-9a-f]{16}\n`)

// A window run from the Title, its keys pressed through the X server
// (Enter: Play; the autopilot plays the Arena), recorded, replays headless
// at 24, 60 and 144 fps with no other flag: the same checksum, the same
// scenes and ticks, ending where the recording ended.
func TestWindowRecordingFromTheTitleReplaysHeadless(t *testing.T) {
	needDisplay(t)
	rec := filepath.Join(t.TempDir(), "title.input")
	p, err := windowtest.Start(exec.Command(demoBin, "-autopilot", "-seconds", "4", "-seed", "9", "-record", rec), "fixedstep demo")
	if err != nil {
		t.Fatal(err)
	}
	defer p.Close()
	if err := p.TapAll(100*time.Millisecond, 300*time.Millisecond, "Return"); err != nil { // after a little time on the Title
		t.Fatal(err)
	}
	out, err := p.Wait(windowtest.Stall)
	if err != nil {
		t.Fatalf("the window run: %v\n%s", err, out)
	}
	m := checksumRE.FindStringSubmatch(out)
	if m == nil || !strings.Contains(out, "run: 2 scenes (Title, Arena)") {
		t.Fatalf("the window run did not reach the Arena, or printed no checksum:\n%s", out)
	}
	window := m[1]
	for _, fps := range []string{"24", "60", "144"} {
		got, code := output(t, "-headless", "-replay", rec, "-fps", fps)
		c := checksumRE.FindStringSubmatch(got)
		if code != 0 || c == nil || c[1] != window || !replayedRE.MatchString(got) ||
			!strings.Contains(got, "run: 2 scenes (Title, Arena)") {
			t.Fatalf("-fps %s: exit %d, want checksum %s:\n%s", fps, code, window, got)
		}
	}
	t.Logf("window run:\n%s", out)
}

// -replay FILE with no other flag replays the run as recorded: its seed,
// scene, seconds and autopilot come from the file. A flag given with
// another value than the recording's is refused by name.
func TestReplayAloneReproducesTheRun(t *testing.T) {
	rec := filepath.Join(t.TempDir(), "arena.input")
	recorded := run(t, "-headless", "-seconds", "3", "-seed", "4", "-record", rec)
	out, code := output(t, "-headless", "-replay", rec, "-fps", "144")
	if c := checksumRE.FindStringSubmatch(out); code != 0 || c == nil || c[1] != recorded || !replayedRE.MatchString(out) {
		t.Fatalf("replay: exit %d, want checksum %s:\n%s", code, recorded, out)
	}
	if out, code := output(t, "-headless", "-replay", rec, "-seed", "5"); code != 2 ||
		!strings.Contains(out, "-seed 5: the recording was made with -seed 4") {
		t.Fatalf("a conflicting -seed: exit %d\n%s", code, out)
	}
	if os.Getenv("DISPLAY") != "" { // in a window, at the display's rate
		if got := run(t, "-replay", rec); got != recorded {
			t.Fatalf("replayed in a window: %s, recorded %s", got, recorded)
		}
	}
}

// -dump-at writes the world after a tick as text, byte-identical at any
// frame rate (and in separate processes), so that diff works.
func TestDumpAtIsTheSameAtAnyFrameRate(t *testing.T) {
	var dumps [][]byte
	for _, fps := range []string{"24", "144"} {
		dir := t.TempDir()
		cmd := exec.Command(demoBin, "-headless", "-seconds", "3", "-seed", "7", "-fps", fps, "-dump-at", "1:150")
		cmd.Dir = dir
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("-fps %s: %v\n%s", fps, err, out)
		}
		data, err := os.ReadFile(filepath.Join(dir, "dump-1-150.txt"))
		if err != nil {
			t.Fatal(err)
		}
		dumps = append(dumps, data)
	}
	if !bytes.Equal(dumps[0], dumps[1]) || !bytes.Contains(dumps[0], []byte("Tally.Score = ")) {
		t.Fatalf("dumps differ (%d and %d bytes), or hold no Tally", len(dumps[0]), len(dumps[1]))
	}
}

// A file with a flipped bit is refused as corrupt, naming the byte, before
// anything is replayed.
func TestCorruptRecordingIsRefused(t *testing.T) {
	rec := filepath.Join(t.TempDir(), "arena.input")
	run(t, "-headless", "-seconds", "2", "-record", rec)
	data, err := os.ReadFile(rec)
	if err != nil {
		t.Fatal(err)
	}
	data[len(data)/2] ^= 1
	if err := os.WriteFile(rec, data, 0o644); err != nil {
		t.Fatal(err)
	}
	out, code := output(t, "-headless", "-replay", rec)
	if code != 1 || !regexp.MustCompile(`corrupt file at byte \d+`).MatchString(out) || strings.Contains(out, "run:") {
		t.Fatalf("exit %d:\n%s", code, out)
	}
}

// SIGINT or SIGTERM in the middle of a recording ends the run as a closed
// window does: the recording is saved and replays to where it stopped, the
// summary is printed, and the exit status is the signal's (130, 143). After
// SIGKILL, the .partial file replays up to its last complete tick.
func TestKilledRecordingsReplay(t *testing.T) {
	for _, sig := range []syscall.Signal{syscall.SIGINT, syscall.SIGTERM, syscall.SIGKILL} {
		t.Run(sig.String(), func(t *testing.T) {
			rec := filepath.Join(t.TempDir(), "killed.input")
			cmd := exec.Command(demoBin, "-realtime", "-seconds", "60", "-record", rec)
			var out bytes.Buffer
			cmd.Stdout, cmd.Stderr = &out, &out
			if err := cmd.Start(); err != nil {
				t.Fatal(err)
			}
			// Wait for a second of play to reach the file, for as long as
			// the demo starts (its CPU time grows) or records (the file
			// grows).
			size := func() int64 {
				if fi, err := os.Stat(rec + ".partial"); err == nil {
					return fi.Size()
				}
				return -1
			}
			cpu := windowtest.CPUProgress(cmd.Process.Pid)
			watch := windowtest.NewWatch(func() string { return fmt.Sprintf("%s, %d bytes recorded", cpu(), size()) })
			for size() <= 2000 {
				if err := watch.Check(); err != nil {
					cmd.Process.Kill()
					cmd.Wait()
					t.Fatalf("waiting for a second of play in %s.partial: %v; output:\n%s", filepath.Base(rec), err, out.String())
				}
				time.Sleep(50 * time.Millisecond)
			}
			cmd.Process.Signal(sig)
			err := cmd.Wait()
			code := -1
			if ee, ok := err.(*exec.ExitError); ok {
				code = ee.ExitCode()
			}
			file := rec
			switch sig {
			case syscall.SIGKILL:
				file = rec + ".partial"
			default:
				if want := 128 + int(sig); code != want || !strings.Contains(out.String(), "recorded 1 scenes") ||
					anyChecksumRE.FindString(out.String()) == "" {
					t.Fatalf("exit %d, want %d, with the summary:\n%s", code, want, out.String())
				}
				if _, err := os.Stat(rec + ".partial"); !os.IsNotExist(err) {
					t.Fatalf("the .partial file is still there: %v", err)
				}
			}
			got, code := output(t, "-headless", "-replay", file)
			m := replayedRE.FindStringSubmatch(got)
			if code != 0 || m == nil || m[2] == "0" {
				t.Fatalf("replay of %s: exit %d\n%s", filepath.Base(file), code, got)
			}
			if sig == syscall.SIGKILL && !strings.Contains(got, "the recording was cut short there") {
				t.Fatalf("replay of the killed run does not say it was cut short:\n%s", got)
			}
			if sig != syscall.SIGKILL && anyChecksumRE.FindString(got) != anyChecksumRE.FindString(out.String()) {
				t.Fatalf("replay checksum differs:\n%s\nrecorded:\n%s", got, out.String())
			}
			t.Logf("%v: replayed %s ticks", sig, m[2])
		})
	}
}

// Every bad flag is an error before the first frame: the demo exits at once
// with a message naming the flag and status 2 (a file that cannot be
// replayed: 1), and plays nothing (no summary).
func TestBadFlagsAreRefusedBeforePlaying(t *testing.T) {
	dir := t.TempDir()
	partial := filepath.Join(dir, "old.input")
	os.WriteFile(partial+".partial", []byte("x"), 0o644)
	cases := []struct {
		args []string
		says string
	}{
		{[]string{"-headless", "-seconds", "NaN"}, "-seconds NaN: must be 0 (no limit) or a number"},
		{[]string{"-headless", "-seconds", "Inf"}, "-seconds +Inf: must be 0 (no limit) or a number"},
		{[]string{"-headless", "-seconds", "1e10"}, "-seconds 1e+10: must be 0 (no limit) or a number"},
		{[]string{"-headless", "-seconds", "1e-12"}, "-seconds 1e-12: must be 0 (no limit) or a number of seconds in [0.001,"},
		{[]string{"-headless", "-seconds", "-1"}, "-seconds -1: must be 0 (no limit) or a number"},
		{[]string{"-headless", "-bodies", "-5"}, "-bodies -5: must be in [0, 100000]"},
		{[]string{"-headless", "-scene", "stress", "-bodies", "100000000"}, "-bodies 100000000: must be in [0, 100000]"},
		{[]string{"-headless", "-fps", "1e9", "-seconds", "2"}, "-fps 1e+09: must be a frame rate in [1e-06, 1000]"},
		{[]string{"-headless", "-fps", "1e-7"}, "-fps 1e-07: must be a frame rate in [1e-06, 1000]"},
		{[]string{"-headless", "-fps", "0"}, "-fps 0: must be a frame rate"},
		{[]string{"-headless", "-fps", "NaN"}, "-fps NaN: must be a frame rate"},
		{[]string{"-frames", "0", "-screenshot", filepath.Join(dir, "a.png")}, "-frames 0: must be at least 1"},
		{[]string{"-screenshot", "/proc/x.png"}, "-screenshot /proc/x.png:"},
		{[]string{"-screenshot", dir}, "is a directory"},
		{[]string{"-headless", "-screenshot", filepath.Join(dir, "a.png")}, "needs a window: drop -headless"},
		{[]string{"-headless", "-record", "/proc/x"}, "-record /proc/x:"},
		{[]string{"-headless", "-record", dir}, "is a directory"},
		{[]string{"-headless", "-record", partial}, "the recording of a run that did not end"},
		{[]string{"-headless", "-replay", "/dev/zero"}, "not an input log"},
		{[]string{"-headless", "-replay", filepath.Join(dir, "missing")}, "no such file"},
		{[]string{"-headless", "-scene", "lobby"}, `no scene "lobby"`},
		{[]string{"-headless", "-scene", "title", "-autopilot=false"}, "-scene title: needs a window, -autopilot"},
		{[]string{"-nosuchflag"}, "flag provided but not defined"},
	}
	for _, c := range cases {
		start := time.Now()
		out, code := output(t, c.args...)
		if code == 0 || !strings.Contains(out, c.says) || strings.Contains(out, "run:") {
			t.Errorf("%s: exit %d, want an error saying %q:\n%s", strings.Join(c.args, " "), code, c.says, out)
		}
		if want := 2; !strings.HasPrefix(c.says, "not an input log") && !strings.HasPrefix(c.says, "no such file") && code != want {
			t.Errorf("%s: exit %d, want %d (a refused flag)", strings.Join(c.args, " "), code, want)
		}
		if d := time.Since(start); d > 10*time.Second {
			t.Errorf("%s: took %v to refuse", strings.Join(c.args, " "), d)
		}
	}
	if _, err := os.Stat(filepath.Join(dir, "a.png")); !os.IsNotExist(err) {
		t.Errorf("a refused screenshot left a file: %v", err)
	}
}

// -screenshot under Xvfb writes a PNG of the Arena with its sprites on it;
// -screenshot-at takes the frame drawn after the tick asked for, and stops
// there.
func TestScreenshotShowsTheArena(t *testing.T) {
	needDisplay(t)
	path := filepath.Join(t.TempDir(), "arena.png")
	out, code := output(t, "-scene", "arena", "-screenshot", path, "-screenshot-at", "1:30", "-seconds", "100")
	m := regexp.MustCompile(`run: 1 scenes \(Arena\), (\d+) ticks`).FindStringSubmatch(out)
	if code != 0 || m == nil {
		t.Fatalf("exit %d:\n%s", code, out)
	}
	// The frame drawn after tick 30 is the one whose ticks included it: a
	// busy machine's frame runs up to MaxUpdatesPerFrame ticks.
	if ticks, _ := strconv.Atoi(m[1]); ticks < 30 || ticks > 30+engine.DefaultMaxUpdatesPerFrame-1 {
		t.Fatalf("-screenshot-at 1:30 stopped the run after %d ticks, want 30 to %d", ticks, 30+engine.DefaultMaxUpdatesPerFrame-1)
	}
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	img, err := png.Decode(bytes.NewReader(data))
	if err != nil {
		t.Fatal(err)
	}
	b := img.Bounds()
	var floor, agent, player, star int
	for y := b.Min.Y; y < b.Max.Y; y++ {
		for x := b.Min.X; x < b.Max.X; x++ {
			r, g, bl, _ := img.At(x, y).RGBA()
			r, g, bl = r>>8, g>>8, bl>>8
			switch {
			case r == 34 && g == 40 && bl == 52:
				floor++
			case r > 200 && g > 70 && g < 140 && bl < 80: // the agents' orange
				agent++
			case r < 100 && g > 180 && bl > 200: // the player's cyan
				player++
			case r > 220 && g > 180 && bl < 90: // the stars' yellow
				star++
			}
		}
	}
	if b.Dx() != 960 || b.Dy() != 540 || floor < b.Dx()*b.Dy()/2 || agent < 10*100 || player < 50 || star < 3*50 {
		t.Fatalf("%dx%d: floor %d, agent %d, player %d, star %d pixels", b.Dx(), b.Dy(), floor, agent, player, star)
	}
}

// F12 in the window (a key pressed through the X server) saves the next
// frame to screenshot-<time>.png in the current folder, overlay and all.
func TestF12SavesAScreenshot(t *testing.T) {
	needDisplay(t)
	dir := t.TempDir()
	cmd := exec.Command(demoBin, "-scene", "arena", "-autopilot", "-seconds", "3")
	cmd.Dir = dir
	p, err := windowtest.Start(cmd, "fixedstep demo")
	if err != nil {
		t.Fatal(err)
	}
	defer p.Close()
	// F3, then F12 once the overlay's text is built (within its refresh)
	if err := p.TapAll(50*time.Millisecond, 600*time.Millisecond, "F3", "F12"); err != nil {
		t.Fatal(err)
	}
	out, err := p.Wait(windowtest.Stall)
	if err != nil {
		t.Fatalf("%v\n%s", err, out)
	}
	shots, _ := filepath.Glob(filepath.Join(dir, "screenshot-*.png"))
	if len(shots) != 1 || !strings.Contains(out, "screenshot saved to ") {
		t.Fatalf("screenshots %v:\n%s", shots, out)
	}
	data, err := os.ReadFile(shots[0])
	if err != nil {
		t.Fatal(err)
	}
	img, err := png.Decode(bytes.NewReader(data))
	if err != nil {
		t.Fatal(err)
	}
	var floor, panel int
	b := img.Bounds()
	for y := b.Min.Y; y < b.Max.Y; y++ {
		for x := b.Min.X; x < b.Max.X; x++ {
			r, g, bl, _ := img.At(x, y).RGBA()
			r, g, bl = r>>8, g>>8, bl>>8
			if r == 34 && g == 40 && bl == 52 {
				floor++
			}
			if x < 200 && y < 100 && r < 30 && g < 30 && bl < 30 { // the overlay's dark panel, top left
				panel++
			}
		}
	}
	if b.Dx() != 960 || floor < b.Dx()*b.Dy()/3 || panel < 2000 {
		t.Fatalf("%dx%d: %d floor pixels, %d overlay pixels", b.Dx(), b.Dy(), floor, panel)
	}
}

// In a window, P then comma steps the game back (the run re-run from the
// Arena's start to the tick before), twice; the game then plays on to its
// end. Its recording, written to a file as it ran, holds the run as it went
// on after the rewinds, and replays headless to its end.
func TestRewindInAWindow(t *testing.T) {
	needDisplay(t)
	rec := t.TempDir() + "/run.input"
	p, err := windowtest.Start(exec.Command(demoBin, "-scene", "arena", "-autopilot", "-seconds", "5", "-record", rec), "fixedstep demo")
	if err != nil {
		t.Fatal(err)
	}
	defer p.Close()
	time.Sleep(1200 * time.Millisecond)
	if err := p.TapAll(60*time.Millisecond, 300*time.Millisecond, "p"); err != nil {
		t.Fatal(err)
	}
	for n := 1; n <= 2; n++ { // each step back seen before the next: a key pressed while one re-runs the run goes unseen
		if err := stepBack(p, n); err != nil {
			t.Fatalf("%v\n%s", err, p.Output())
		}
	}
	if err := p.TapAll(60*time.Millisecond, 300*time.Millisecond, "p"); err != nil {
		t.Fatal(err)
	}
	out, err := p.Wait(windowtest.Stall)
	if err != nil {
		t.Fatalf("%v\n%s", err, out)
	}
	if n := strings.Count(out, "rewind: back to tick"); n != 2 || !strings.Contains(out, "run: 1 scenes (Arena), 300 ticks") {
		t.Fatalf("%d rewinds:\n%s", n, out)
	}
	t.Logf("%s", out)
	played := checksumRE.FindString(out)
	replay, err := exec.Command(demoBin, "-headless", "-replay", rec).CombinedOutput()
	if m := replayedRE.FindSubmatch(replay); err != nil || m == nil || string(m[2]) != "300" ||
		played == "" || checksumRE.FindString(string(replay)) != played {
		t.Fatalf("replaying the recording: %v\n%s", err, replay)
	}
}

// stepBack taps comma in p's window (paused) until it has printed its n'th
// step back, tapping again when 60 frames pass without it: a tap made while
// the step before re-runs the run is not seen.
func stepBack(p *windowtest.Program, n int) error {
	for try := 0; try < 3; try++ {
		if err := p.TapAll(60*time.Millisecond, 300*time.Millisecond, "comma"); err != nil {
			return err
		}
		for range 60 {
			if strings.Count(p.Output(), "rewind: back to tick") >= n {
				return nil
			}
			if err := p.WaitFrames(1, windowtest.Stall); err != nil {
				return err
			}
		}
	}
	return fmt.Errorf("no step back %d after three taps of comma", n)
}

// In a window with two CPUs or more (GOMAXPROCS), a frame's ticks run
// while the frame before is presented (window.Options.Serial); -serial runs
// them one after the other. The Arena on autopilot, recorded with a
// checksum every tick, is the same run either way: the same ticks and final
// checksum, and each window's recording replays headless with every tick's
// checksum matching.
func TestPipelinedWindowIsTheSerialRun(t *testing.T) {
	needDisplay(t)
	windowRun := func(extra ...string) (out, rec string) {
		t.Helper()
		rec = filepath.Join(t.TempDir(), "run.input")
		args := append([]string{"-scene", "arena", "-autopilot", "-seconds", "4", "-seed", "9", "-record", rec}, extra...)
		cmd := exec.Command(demoBin, args...)
		cmd.Env = append(os.Environ(), "GOMAXPROCS=2") // pipelined by default, whatever this machine's CPUs
		p, err := windowtest.Start(cmd, "fixedstep demo")
		if err != nil {
			t.Fatal(err)
		}
		defer p.Close()
		out, err = p.Wait(windowtest.Stall)
		if err != nil {
			t.Fatalf("%v: %v\n%s", args, err, out)
		}
		return out, rec
	}
	pipelinedRE := regexp.MustCompile(`\nwindow: (\d+) frames, (\d+) pipelined`)
	frames := func(out string) (drawn, pipelined int) {
		t.Helper()
		m := pipelinedRE.FindStringSubmatch(out)
		if m == nil {
			t.Fatalf("no window line:\n%s", out)
		}
		drawn, _ = strconv.Atoi(m[1])
		pipelined, _ = strconv.Atoi(m[2])
		return drawn, pipelined
	}
	pipeOut, pipeRec := windowRun()
	serialOut, serialRec := windowRun("-serial")
	if d, p := frames(pipeOut); p == 0 || p > d {
		t.Errorf("the default window run pipelined %d of %d frames", p, d)
	}
	if _, p := frames(serialOut); p != 0 {
		t.Errorf("-serial pipelined %d frames", p)
	}
	const ran = "run: 1 scenes (Arena), 240 ticks"
	sum := checksumRE.FindString(pipeOut)
	if !strings.Contains(pipeOut, ran) || !strings.Contains(serialOut, ran) || sum == "" || checksumRE.FindString(serialOut) != sum {
		t.Fatalf("pipelined:\n%s\nserial:\n%s", pipeOut, serialOut)
	}
	for _, rec := range []string{pipeRec, serialRec} {
		replay, code := output(t, "-headless", "-replay", rec)
		if m := replayedRE.FindStringSubmatch(replay); code != 0 || m == nil || m[3] != "240" || checksumRE.FindString(replay) != sum {
			t.Fatalf("replaying %s: exit %d\n%s", rec, code, replay)
		}
	}
	t.Logf("pipelined:\n%s\nserial:\n%s", pipeOut, serialOut)
}

// Without a display the windowed demo exits 1 and says what to do.
func TestNoDisplaySaysWhatToDo(t *testing.T) {
	cmd := exec.Command(demoBin, "-scene", "arena")
	for _, kv := range os.Environ() {
		if !strings.HasPrefix(kv, "DISPLAY=") && !strings.HasPrefix(kv, "WAYLAND_DISPLAY=") {
			cmd.Env = append(cmd.Env, kv)
		}
	}
	out, err := cmd.CombinedOutput()
	if ee, ok := err.(*exec.ExitError); !ok || ee.ExitCode() != 1 || !strings.Contains(string(out), "-headless") ||
		!strings.Contains(string(out), "xvfb-run") {
		t.Fatalf("exit %v:\n%s", err, out)
	}
}

// -realtime runs on the real clock and reports CPU use and tick timing error
// (their values are measured, not asserted: they depend on the machine).
func TestRealtimeReportsCPUAndTickError(t *testing.T) {
	out, err := exec.Command(demoBin, "-headless", "-realtime", "-seconds", "1").CombinedOutput()
	if err != nil {
		t.Fatalf("%v\n%s", err, out)
	}
	re := regexp.MustCompile(`realtime: .* CPU = [0-9.]+% of one core; tick timing error over 60 ticks: p50 \S+, p99 \S+`)
	if !re.Match(out) || checksumRE.Find(out) == nil {
		t.Fatalf("no realtime line, or the checksum is not last:\n%s", out)
	}
	t.Logf("%s", re.Find(out))
}

// F4 in the window shows the inspector; a click on the player (at the
// arena's centre when the Arena starts, with the camera there) picks it;
// the left arrow held moves it. A screenshot (F12) shows the panel at the
// top right, its component names and the values that changed in the last
// tick in their colours, and the player outlined. INSPECTOR_PNG=path keeps the
// screenshot (docs/inspector.png is one).
func TestInspectorInTheWindow(t *testing.T) {
	needDisplay(t)
	dir := t.TempDir()
	cmd := exec.Command(demoBin, "-scene", "arena", "-seconds", "4")
	cmd.Dir = dir
	x, err := windowtest.Start(cmd, "fixedstep demo")
	if err != nil {
		t.Fatal(err)
	}
	defer x.Close()
	err = x.TapSeen("F4")
	if err == nil {
		err = x.ClickSeen(480, 270, windowtest.ButtonLeft)
	}
	if err == nil { // the player runs left: its values change (drawn in yellow) as the shot is taken
		err = x.Press("Left")
	}
	if err == nil { // frames drawn with Left held, however slow they come
		err = x.WaitFrames(5, windowtest.Stall)
	}
	if err == nil {
		err = x.TapSeen("F12")
	}
	if err == nil { // Left is held until the frame is saved, however slow the frames come
		err = x.WaitOutput("screenshot saved to ")
	}
	if err == nil {
		err = x.Release("Left")
	}
	if err != nil {
		t.Fatal(err)
	}
	out, err := x.Wait(windowtest.Stall)
	if err != nil {
		t.Fatalf("%v\n%s", err, out)
	}
	shots, _ := filepath.Glob(filepath.Join(dir, "screenshot-*.png"))
	if len(shots) != 1 {
		t.Fatalf("screenshots %v:\n%s", shots, out)
	}
	data, err := os.ReadFile(shots[0])
	if err != nil {
		t.Fatal(err)
	}
	if keep := os.Getenv("INSPECTOR_PNG"); keep != "" {
		if err := os.WriteFile(keep, data, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	img, err := png.Decode(bytes.NewReader(data))
	if err != nil {
		t.Fatal(err)
	}
	b := img.Bounds()
	var dark, heading, changed, outline int
	for y := b.Min.Y; y < b.Max.Y; y++ {
		for x := b.Min.X; x < b.Max.X; x++ {
			r, g, bl, _ := img.At(x, y).RGBA()
			r, g, bl = r>>8, g>>8, bl>>8
			switch {
			case x >= b.Max.X-250 && y < 300 && r < 30 && g < 30 && bl < 30: // the panel's dark box
				dark++
			case x >= b.Max.X-400 && r > 90 && r < 150 && g > 180 && g < 235 && bl > 230: // component names
				heading++
			case x >= b.Max.X-400 && r > 230 && g > 190 && g < 240 && bl > 50 && bl < 120: // values changing
				changed++
			case x > 280 && x < 580 && y > 170 && y < 370 && r > 230 && g < 110 && bl > 200: // the outline's magenta
				outline++
			}
		}
	}
	if dark < 20000 || heading < 100 || changed < 50 || outline < 60 {
		t.Fatalf("%dx%d: panel %d dark pixels, %d heading, %d changed value pixels; outline %d pixels near the player",
			b.Dx(), b.Dy(), dark, heading, changed, outline)
	}
}
