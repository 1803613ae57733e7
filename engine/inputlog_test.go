package engine_test

import (
	"bytes"
	"errors"
	"fmt"
	"maps"
	"math"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/fixedstep/fixedstep/engine"
	"github.com/fixedstep/fixedstep/engine/input"
)

// randomPlayer holds keys and moves the cursor at random, seeded.
type randomPlayer struct{ rng *rand.Rand }

func (p *randomPlayer) Sample(frame int64, in *input.State) {
	for _, k := range []input.Key{input.KeyArrowLeft, input.KeyArrowRight, input.KeySpace} {
		in.SetKey(k, p.rng.IntN(4) == 0)
	}
	in.CursorX, in.CursorY = float64(p.rng.IntN(640)), float64(p.rng.IntN(480))
	in.SetGamepadAxis(0, input.AxisLeftStickHorizontal, p.rng.Float64()*2-1)
}

// steer is a simulation driven by the input each tick sees.
type steer struct {
	p       pendulum
	presses int
	cursor  float64
}

// playScenes runs a two-scene chain (60+10 Hz, then 50 Hz) at a frame rate,
// driving a simulation with each tick's input, and returns its state.
func playScenes(t *testing.T, fps float64, input engine.InputSource, record, replay *engine.InputLog) [2]steer {
	t.Helper()
	out, err := playChecked(fps, input, record, replay, 0, nil)
	if err != nil {
		t.Fatal(err)
	}
	return out
}

// playChecked is playScenes with each scene's state checksum given to the
// loop, and the first scene's state nudged after its tick `nudge` (0: never),
// as a replay that went wrong would be.
func playChecked(fps float64, input engine.InputSource, record, replay *engine.InputLog, nudge int64, tick engine.TickInput) ([2]steer, error) {
	var out [2]steer
	scene := func(i int, groups []engine.Group, ticks int64, next engine.Scene) engine.Scene {
		return engine.NewScene("S", func(loop *engine.Loop) (engine.Scene, error) {
			s := &out[i]
			loop.Recording().SetChecksum(s.checksum)
			for ev := range loop.Events(groups...) {
				if ev.Kind != engine.Update {
					continue
				}
				s.update(ev)
				if i == 0 && ev.Group == 0 && ev.Tick == nudge {
					s.p.v += 1e-9
				}
				if ev.Group == 0 && ev.Tick == ticks {
					return next, nil
				}
			}
			return nil, loop.Err()
		})
	}
	second := scene(1, []engine.Group{{Name: "only", Hz: 50}}, 300, nil)
	first := scene(0, []engine.Group{{Name: "physics", Hz: 60}, {Name: "ai", Hz: 10}}, 600, second)
	opts := &engine.Options{Headless: &engine.Headless{FPS: fps}, Input: input, TickInput: tick, Record: record, Replay: replay}
	return out, engine.Run(first, opts)
}

// update runs one tick of the simulation with the input it sees.
func (s *steer) update(ev engine.Event) {
	in := ev.Input
	s.p.step(ev.DT, in.KeyDown(input.KeySpace) || in.KeyPressed(input.KeyArrowLeft))
	s.p.v += 0.01 * in.GamepadAxis(0, input.AxisLeftStickHorizontal)
	if in.KeyPressed(input.KeyArrowRight) {
		s.presses++
	}
	s.cursor += in.CursorX * float64(ev.Group+1)
}

// checksum hashes the simulation's state, FNV-1a over its bits.
func (s *steer) checksum() uint64 {
	h := uint64(14695981039346656037)
	for _, v := range []uint64{math.Float64bits(s.p.x), math.Float64bits(s.p.v), uint64(s.presses), math.Float64bits(s.cursor)} {
		for range 8 {
			h = (h ^ v&0xff) * 1099511628211
			v >>= 8
		}
	}
	return h
}

// Rule 4: input is recorded per tick, so a recording replays to the same state
// at another frame rate, through a file.
func TestRecordAndReplayAtAnotherFrameRate(t *testing.T) {
	log := &engine.InputLog{Seed: 99, Settings: map[string]string{"difficulty": "hard", "lives": "3"}}
	recorded := playScenes(t, 60, &randomPlayer{rand.New(rand.NewPCG(1, 2))}, log, nil)
	if recorded[0].presses == 0 || recorded[1].presses == 0 || log.Scenes() != 2 || log.Entries() < 100 {
		t.Fatalf("recording saw too little: %+v, %d scenes, %d entries", recorded, log.Scenes(), log.Entries())
	}
	path := filepath.Join(t.TempDir(), "run.input")
	if err := log.Save(path); err != nil {
		t.Fatal(err)
	}
	loaded, err := engine.LoadInputLog(path)
	if err != nil || loaded.Seed != 99 || !maps.Equal(loaded.Settings, log.Settings) || loaded.Entries() != log.Entries() {
		t.Fatalf("load: %v (seed %d, %d entries)", err, loaded.Seed, loaded.Entries())
	}
	for _, fps := range []float64{60, 24, 144, 1000} {
		// live input differs (another seed): the replay must win
		replayed := playScenes(t, fps, &randomPlayer{rand.New(rand.NewPCG(3, 4))}, nil, loaded)
		if replayed != recorded {
			t.Errorf("replay at %v fps: %+v, recorded %+v", fps, replayed, recorded)
		}
	}
	// Without the replay the other seed gives another state: the check above means something.
	if other := playScenes(t, 60, &randomPlayer{rand.New(rand.NewPCG(3, 4))}, nil, nil); other == recorded {
		t.Fatal("two input seeds gave the same state")
	}
}

// A replay whose scene runs other rates than the recording is an error.
func TestReplayWithOtherRatesFails(t *testing.T) {
	log := &engine.InputLog{}
	playScenes(t, 60, nil, log, nil)
	scene := engine.NewScene("Other", func(loop *engine.Loop) (engine.Scene, error) {
		for range loop.Events(engine.Group{Name: "p", Hz: 30}) {
		}
		return nil, loop.Err()
	})
	err := engine.Run(scene, &engine.Options{Headless: &engine.Headless{}, Replay: log})
	var se *engine.SceneError
	if !errors.As(err, &se) || se.Scene != "Other" {
		t.Fatalf("got %v", err)
	}
}

// A replay checks the recorded state checksums and stops at the first tick
// whose state differs, naming it; a clean replay passes every check.
func TestReplayStopsAtTheFirstDivergingTick(t *testing.T) {
	for _, every := range []int{0, 50} {
		log := &engine.InputLog{ChecksumEvery: every}
		recorded, err := playChecked(60, &randomPlayer{rand.New(rand.NewPCG(1, 2))}, log, nil, 0, nil)
		if err != nil {
			t.Fatal(err)
		}
		var buf bytes.Buffer
		if _, err := log.WriteTo(&buf); err != nil {
			t.Fatal(err)
		}
		loaded, err := engine.ParseInputLog(buf.Bytes())
		if err != nil {
			t.Fatal(err)
		}
		if replayed, err := playChecked(144, nil, nil, loaded, 0, nil); err != nil || replayed != recorded {
			t.Fatalf("every %d: a faithful replay: %v, state %+v, recorded %+v", every, err, replayed, recorded)
		}

		_, err = playChecked(144, nil, nil, loaded, 130, nil)
		var de *engine.DivergenceError
		if !errors.As(err, &de) {
			t.Fatalf("every %d: a nudged replay: got %v, want a *DivergenceError", every, err)
		}
		want := engine.DivergenceError{Scene: 1, Group: "physics", Tick: 130, Since: 129}
		text := "at tick 130 "
		if every == 50 {
			want.Tick, want.Since, text = 150, 100, "between ticks 101 and 150 "
		}
		if de.Scene != want.Scene || de.Group != want.Group || de.Tick != want.Tick || de.Since != want.Since ||
			de.Recorded == de.Replayed {
			t.Errorf("every %d: %+v, want %+v", every, *de, want)
		}
		if !strings.Contains(err.Error(), text) {
			t.Errorf("every %d: %q does not say %q", every, err, text)
		}
	}
}

// A checksum costs the file 10 bytes (tag, tick step and sum); replaying with
// checksums and input allocates nothing per frame.
func TestReplayWithChecksums(t *testing.T) {
	sizes := map[int]int{}
	logs := map[int]*engine.InputLog{}
	for _, every := range []int{1, 60} {
		log := &engine.InputLog{ChecksumEvery: every}
		if _, err := playChecked(60, &randomPlayer{rand.New(rand.NewPCG(1, 2))}, log, nil, 0, nil); err != nil {
			t.Fatal(err)
		}
		var buf bytes.Buffer
		if _, err := log.WriteTo(&buf); err != nil {
			t.Fatal(err)
		}
		sizes[every], logs[every] = buf.Len(), log
	}
	// 600 + 300 checksums against 10 + 5, 10 bytes each.
	if d, want := sizes[1]-sizes[60], (900-15)*10; d != want {
		t.Errorf("every tick: %d bytes, every 60: %d bytes; difference %d, want %d", sizes[1], sizes[60], d, want)
	}

	loop, err := engine.NewHeadlessLoop(engine.Config{}, &engine.Headless{FPS: 20}, &engine.Options{Replay: logs[1]})
	if err != nil {
		t.Fatal(err)
	}
	var s steer
	loop.Recording().SetChecksum(s.checksum)
	if err := loop.Start(engine.Group{Name: "physics", Hz: 60}, engine.Group{Name: "ai", Hz: 10}); err != nil {
		t.Fatal(err)
	}
	frame := func() {
		for loop.Next() {
			ev := loop.Event()
			if ev.Kind == engine.Render {
				return
			}
			if ev.Kind == engine.Update {
				s.update(ev)
			}
		}
		t.Fatalf("the replay stopped: %v", loop.Err())
	}
	frame()
	if allocs := testing.AllocsPerRun(150, frame); allocs != 0 {
		t.Fatalf("a replayed frame allocates %v times", allocs)
	}
	if n := loop.Ticks(0); n < 450 {
		t.Fatalf("only %d ticks were checked", n)
	}
}

// A path a recording cannot be written to is refused by Create, before the
// first frame, and nothing is left behind; so is a .partial file left by a
// run that did not end (it is a recording: it is not overwritten).
func TestRecordingPathRefusedBeforeTheFirstFrame(t *testing.T) {
	dir := t.TempDir()
	partial := filepath.Join(dir, "old.input")
	if err := os.WriteFile(partial+engine.PartialSuffix, []byte("a killed run"), 0o644); err != nil {
		t.Fatal(err)
	}
	for path, says := range map[string]string{
		dir:                                 "is a directory",
		"/proc/x":                           "/proc/x.partial",
		filepath.Join(dir, "no", "such.in"): "no such file or directory",
		partial:                             "the recording of a run that did not end",
		"":                                  "no file name",
	} {
		lg := &engine.InputLog{}
		err := lg.Create(path)
		if err == nil || !strings.Contains(err.Error(), says) {
			t.Errorf("%q: %v, want an error saying %q", path, err, says)
		}
		if err == nil {
			lg.Close()
		}
	}
	if data, err := os.ReadFile(partial + engine.PartialSuffix); err != nil || string(data) != "a killed run" {
		t.Fatalf("the old .partial file: %q, %v", data, err)
	}
	entries, _ := os.ReadDir(dir)
	if len(entries) != 1 {
		t.Fatalf("left behind: %v", entries)
	}
}

// A recording is written every second of game time as well as every tenth
// of a second of real time: a headless run faster than real time, killed,
// loses at most its last second. Here real time never asks for a write, and
// a run's file cut by its last byte still replays all but its last second.
func TestKilledFastRunLosesAtMostASecond(t *testing.T) {
	path := filepath.Join(t.TempDir(), "run.input")
	lg := &engine.InputLog{}
	if err := lg.Create(path); err != nil {
		t.Fatal(err)
	}
	defer engine.SetFlushEvery(time.Hour)()
	if _, err := playChecked(60, &randomPlayer{rand.New(rand.NewPCG(1, 2))}, lg, nil, 0, nil); err != nil {
		t.Fatal(err)
	}
	if err := lg.Close(); err != nil {
		t.Fatal(err)
	}
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	cut, err := engine.ParseInputLog(data[:len(data)-1])
	if err != nil {
		t.Fatal(err)
	}
	// The run: 600 ticks at 60 Hz, then 300 at 50 Hz, 16 s of game time.
	if lost := lg.Ticks() - cut.Ticks(); cut.Complete() || lost > 60 {
		t.Fatalf("the cut file replays %d of %d ticks (complete %v): it lost more than a second", cut.Ticks(), lg.Ticks(), cut.Complete())
	}
	t.Logf("a %d-byte recording of %d ticks, cut by a byte, keeps %d", len(data), lg.Ticks(), cut.Ticks())
}

// The run checksum sees every scene: two runs whose last scenes end in the
// same state, after first scenes that did not, differ in it.
func TestRunChecksumChainsEveryScene(t *testing.T) {
	run := func(first uint64) *engine.InputLog {
		results := engine.NewScene("Results", func(loop *engine.Loop) (engine.Scene, error) {
			loop.Recording().SetChecksum(func() uint64 { return 7 }) // an empty results screen
			for ev := range loop.Events() {
				if ev.Kind == engine.Update && ev.Tick == 3 {
					return nil, nil
				}
			}
			return nil, loop.Err()
		})
		play := engine.NewScene("Play", func(loop *engine.Loop) (engine.Scene, error) {
			loop.Recording().SetChecksum(func() uint64 { return first })
			for ev := range loop.Events() {
				if ev.Kind == engine.Update && ev.Tick == 10 {
					return results, nil
				}
			}
			return nil, loop.Err()
		})
		lg := &engine.InputLog{}
		if err := engine.Run(play, &engine.Options{Record: lg}); err != nil {
			t.Fatal(err)
		}
		return lg
	}
	a, b := run(1), run(2)
	if a.Scene(1).Checksum != b.Scene(1).Checksum {
		t.Fatal("the last scenes differ: the test shows nothing")
	}
	sa, okA := a.RunChecksum()
	sb, okB := b.RunChecksum()
	if !okA || !okB || sa == sb {
		t.Fatalf("run checksums %016x (%v) and %016x (%v): want two, different", sa, okA, sb, okB)
	}
	if again, _ := run(1).RunChecksum(); again != sa {
		t.Fatalf("the same run twice: %016x, then %016x", sa, again)
	}
	if _, ok := (&engine.InputLog{}).RunChecksum(); ok {
		t.Fatal("a log with no scene has a run checksum")
	}
}

// recordingOverOld puts an older recording at dir/run.input and starts a
// new one to that path, returning the path, the old bytes and the log.
func recordingOverOld(t *testing.T, dir string) (string, []byte, *engine.InputLog) {
	t.Helper()
	path := filepath.Join(dir, "run.input")
	old := []byte("an older recording")
	if err := os.WriteFile(path, old, 0o644); err != nil {
		t.Fatal(err)
	}
	lg := &engine.InputLog{}
	if err := lg.Create(path); err != nil {
		t.Fatal(err)
	}
	return path, old, lg
}

// A run that never began records nothing: Close removes the .partial file
// and leaves an older recording at the path as it was.
func TestNoSceneLeavesTheRecordingBefore(t *testing.T) {
	path, old, lg := recordingOverOld(t, t.TempDir())
	if err := engine.Run(nil, &engine.Options{Record: lg}); !errors.Is(err, engine.ErrNilScene) {
		t.Fatalf("Run(nil): %v", err)
	}
	if err := lg.Close(); err != nil {
		t.Fatal(err)
	}
	if data, err := os.ReadFile(path); err != nil || !bytes.Equal(data, old) {
		t.Fatalf("the older recording: %q, %v", data, err)
	}
	if _, err := os.Stat(path + engine.PartialSuffix); !errors.Is(err, os.ErrNotExist) {
		t.Fatalf("the .partial file: %v", err)
	}
}

// tinyDisk mounts a tmpfs of size bytes for the test, or skips it where
// mounting is not allowed (it needs root: make test runs as root in CI).
func tinyDisk(t *testing.T, size int) string {
	t.Helper()
	dir := t.TempDir()
	out, err := exec.Command("mount", "-t", "tmpfs", "-o", fmt.Sprintf("size=%d", size), "tmpfs", dir).CombinedOutput()
	if err != nil {
		if os.Getenv("CI") != "" && os.Geteuid() == 0 {
			t.Fatalf("mount a tmpfs: %v: %s", err, out)
		}
		t.Skipf("cannot mount a tmpfs to fill (needs root): %v: %s", err, out)
	}
	t.Cleanup(func() { exec.Command("umount", dir).Run() })
	return dir
}

// On a full disk, the recording's write fails during the run: the run ends
// with that error, and what was written stays in the .partial file, which
// replays. A failed Save leaves the file it would have replaced as it was.
func TestFullDiskLosesNoRecording(t *testing.T) {
	dir := tinyDisk(t, 16<<10)
	path, old, lg := recordingOverOld(t, dir)
	defer engine.SetFlushEvery(0)()
	_, err := playChecked(60, &randomPlayer{rand.New(rand.NewPCG(1, 2))}, lg, nil, 0, nil)
	if !errors.Is(err, syscall.ENOSPC) || !strings.Contains(err.Error(), path+engine.PartialSuffix) {
		t.Fatalf("a full disk: %v", err)
	}
	if err := lg.Close(); err == nil || !strings.Contains(err.Error(), path+engine.PartialSuffix) {
		t.Fatalf("Close: %v, want an error naming the .partial file", err)
	}
	cut, err := engine.LoadInputLog(path + engine.PartialSuffix)
	if err != nil || cut.Complete() || cut.Ticks() == 0 {
		t.Fatalf("the .partial file: %v (%v)", err, cut)
	}
	if data, err := os.ReadFile(path); err != nil || !bytes.Equal(data, old) {
		t.Fatalf("the older recording: %q, %v", data, err)
	}
	t.Logf("the full disk kept %s", cut)

	// Save writes a temporary file and renames it: failing, it leaves the old.
	os.Remove(path + engine.PartialSuffix)
	big := &engine.InputLog{}
	playChecked(60, &randomPlayer{rand.New(rand.NewPCG(1, 2))}, big, nil, 0, nil)
	if err := big.Save(path); !errors.Is(err, syscall.ENOSPC) {
		t.Fatalf("Save on a full disk: %v", err)
	}
	if data, err := os.ReadFile(path); err != nil || !bytes.Equal(data, old) {
		t.Fatalf("after a failed Save, the older recording: %q, %v", data, err)
	}
	if entries, _ := os.ReadDir(dir); len(entries) != 1 {
		t.Fatalf("a failed Save left %v", entries)
	}
}

// LoadInputLog refuses a missing file, a file that is no input log
// (/dev/zero, which never ends: refused by its header, before more is
// read) and a file too large (refused before it is read); what else it
// refuses is the format's (package inputlog's tests).
func TestLoadInputLogRefusesUnreadableFiles(t *testing.T) {
	if _, err := engine.LoadInputLog(filepath.Join(t.TempDir(), "missing")); err == nil {
		t.Error("a missing file loaded")
	}
	if _, err := engine.LoadInputLog("/dev/zero"); !errors.Is(err, engine.ErrBadInputLog) {
		t.Fatalf("/dev/zero: %v", err)
	}
	lg := &engine.InputLog{Seed: 5}
	playChecked(60, &randomPlayer{rand.New(rand.NewPCG(1, 2))}, lg, nil, 0, nil)
	var buf bytes.Buffer
	lg.WriteTo(&buf)
	sparse := filepath.Join(t.TempDir(), "huge.input")
	if err := os.WriteFile(sparse, buf.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Truncate(sparse, engine.MaxInputLogSize+1); err != nil {
		t.Fatal(err)
	}
	if _, err := engine.LoadInputLog(sparse); !errors.Is(err, engine.ErrBadInputLog) || !strings.Contains(err.Error(), "more than") {
		t.Fatalf("a huge file: %v", err)
	}
}

// A recording names the arithmetic it was made with (engine.Determinism):
// a replay of one made with another is refused by name before it runs; one
// that names none (an older engine's) replays, and says so if it diverges
// (a determinism record that makes no sense is refused by the parser:
// package inputlog's tests).
func TestRecordingNamesItsDeterminism(t *testing.T) {
	data := sessionLog(t, 2)
	lg, err := engine.ParseInputLog(data)
	if err != nil || lg.Determinism() != engine.Determinism {
		t.Fatalf("%v: a new recording names determinism %d, want %d", err, lg.Determinism(), engine.Determinism)
	}
	at := bytes.Index(data, []byte{'A', engine.Determinism})
	if at < 0 {
		t.Fatal("no determinism record")
	}
	other := bytes.Clone(data)
	other[at+1] = engine.Determinism + 1
	lg, err = engine.ParseInputLog(engine.ResealChunks(other))
	if err != nil {
		t.Fatal(err)
	}
	r := &duoRig{}
	err = engine.Run(r.scene(1, []engine.Group{{Name: "physics", Hz: 60}, {Name: "slow", Hz: 10}}, nil), &engine.Options{Replay: lg})
	if want := fmt.Sprintf("made with determinism version %d; this engine computes with %d", engine.Determinism+1, engine.Determinism); err == nil || !strings.Contains(err.Error(), want) {
		t.Fatalf("replaying a recording of another determinism: %v, want it refused saying %q", err, want)
	}
}

// A recording that names no determinism version (an older engine's) is
// replayed; when it diverges, the error says an older engine made it.
func TestUnversionedRecordingSaysSoWhenItDiverges(t *testing.T) {
	rec := &engine.InputLog{}
	if _, err := playChecked(60, nil, rec, nil, 0, keys); err != nil {
		t.Fatal(err)
	}
	var buf bytes.Buffer
	if _, err := rec.WriteTo(&buf); err != nil {
		t.Fatal(err)
	}
	data := buf.Bytes()
	at := bytes.Index(data, []byte{'A', engine.Determinism})
	if at < 0 {
		t.Fatal("no determinism record")
	}
	old := append(bytes.Clone(data[:at]), data[at+2:]...) // as an older engine wrote it
	lg, err := engine.ParseInputLog(engine.ResealChunks(fixChunkLength(old, -2)))
	if err != nil || lg.Determinism() != 0 {
		t.Fatalf("%v: determinism %d, want 0", err, lg.Determinism())
	}
	if _, err := playChecked(60, nil, nil, lg, 0, nil); err != nil {
		t.Fatalf("an unversioned recording that does not diverge: %v", err)
	}
	lg, _ = engine.ParseInputLog(engine.ResealChunks(fixChunkLength(old, -2)))
	_, err = playChecked(60, nil, nil, lg, 100, nil)
	var de *engine.DivergenceError
	if !errors.As(err, &de) || !de.Unversioned || !strings.Contains(err.Error(), "names no determinism version") {
		t.Fatalf("a nudged replay of an unversioned recording: %v", err)
	}
}
