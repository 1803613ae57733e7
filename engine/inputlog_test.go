package engine_test

import (
	"bytes"
	"errors"
	"math"
	"math/rand/v2"
	"path/filepath"
	"strings"
	"testing"

	"github.com/hajimehoshi/ebiten/v2"

	"github.com/fixedstep/fixedstep/engine"
)

// randomPlayer holds keys and moves the cursor at random, seeded.
type randomPlayer struct{ rng *rand.Rand }

func (p *randomPlayer) Sample(frame int64, in *engine.InputState) {
	for _, k := range []ebiten.Key{ebiten.KeyLeft, ebiten.KeyRight, ebiten.KeySpace} {
		in.SetKey(k, p.rng.IntN(4) == 0)
	}
	in.CursorX, in.CursorY = float64(p.rng.IntN(640)), float64(p.rng.IntN(480))
	in.SetGamepadAxis(0, ebiten.StandardGamepadAxisLeftStickHorizontal, p.rng.Float64()*2-1)
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
	out, err := playChecked(fps, input, record, replay, 0)
	if err != nil {
		t.Fatal(err)
	}
	return out
}

// playChecked is playScenes with each scene's state checksum given to the
// loop, and the first scene's state nudged after its tick `nudge` (0: never),
// as a replay that went wrong would be.
func playChecked(fps float64, input engine.InputSource, record, replay *engine.InputLog, nudge int64) ([2]steer, error) {
	var out [2]steer
	scene := func(i int, groups []engine.Group, ticks int64, next engine.Scene) engine.Scene {
		return engine.NewScene("S", func(loop *engine.Loop) (engine.Scene, error) {
			s := &out[i]
			loop.SetChecksum(s.checksum)
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
	opts := &engine.Options{Headless: &engine.Headless{FPS: fps}, Input: input, Record: record, Replay: replay}
	return out, engine.Run(first, opts)
}

// update runs one tick of the simulation with the input it sees.
func (s *steer) update(ev engine.Event) {
	in := ev.Input
	s.p.step(ev.DT, in.KeyDown(ebiten.KeySpace) || in.KeyPressed(ebiten.KeyLeft))
	s.p.v += 0.01 * in.GamepadAxis(0, ebiten.StandardGamepadAxisLeftStickHorizontal)
	if in.KeyPressed(ebiten.KeyRight) {
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
	log := &engine.InputLog{Seed: 99, Note: "options: hard"}
	recorded := playScenes(t, 60, &randomPlayer{rand.New(rand.NewPCG(1, 2))}, log, nil)
	if recorded[0].presses == 0 || recorded[1].presses == 0 || log.Scenes() != 2 || log.Entries() < 100 {
		t.Fatalf("recording saw too little: %+v, %d scenes, %d entries", recorded, log.Scenes(), log.Entries())
	}
	path := filepath.Join(t.TempDir(), "run.input")
	if err := log.Save(path); err != nil {
		t.Fatal(err)
	}
	loaded, err := engine.LoadInputLog(path)
	if err != nil || loaded.Seed != 99 || loaded.Note != log.Note || loaded.Entries() != log.Entries() {
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

// A truncated, corrupt or wrong-version log is an error, never a panic.
func TestParseInputLogRejectsBadData(t *testing.T) {
	log := &engine.InputLog{Seed: 5}
	playScenes(t, 60, &randomPlayer{rand.New(rand.NewPCG(1, 2))}, log, nil)
	var buf bytes.Buffer
	if _, err := log.WriteTo(&buf); err != nil {
		t.Fatal(err)
	}
	good := buf.Bytes()
	if _, err := engine.ParseInputLog(good); err != nil {
		t.Fatal(err)
	}
	wrongVersion := bytes.Clone(good)
	wrongVersion[8] = 9
	bad := map[string][]byte{
		"empty":         nil,
		"magic":         append([]byte("NOTALOG!"), good[8:]...),
		"version":       wrongVersion,
		"truncated":     good[:len(good)/2],
		"trailing":      append(bytes.Clone(good), 0),
		"huge count":    append(bytes.Clone(good[:18]), 0xff, 0xff, 0xff, 0xff, 0x0f),
		"header only":   good[:18],
		"one byte less": good[:len(good)-1],
	}
	for name, data := range bad {
		if _, err := engine.ParseInputLog(data); !errors.Is(err, engine.ErrBadInputLog) {
			t.Errorf("%s: got %v", name, err)
		}
	}
	if _, err := engine.LoadInputLog(filepath.Join(t.TempDir(), "missing")); err == nil {
		t.Error("a missing file loaded")
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
		recorded, err := playChecked(60, &randomPlayer{rand.New(rand.NewPCG(1, 2))}, log, nil, 0)
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
		if replayed, err := playChecked(144, nil, nil, loaded, 0); err != nil || replayed != recorded {
			t.Fatalf("every %d: a faithful replay: %v, state %+v, recorded %+v", every, err, replayed, recorded)
		}

		_, err = playChecked(144, nil, nil, loaded, 130)
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

// A checksum costs the file 9 bytes (tick step and sum); replaying with
// checksums and input allocates nothing per frame.
func TestReplayWithChecksums(t *testing.T) {
	sizes := map[int]int{}
	logs := map[int]*engine.InputLog{}
	for _, every := range []int{1, 60} {
		log := &engine.InputLog{ChecksumEvery: every}
		if _, err := playChecked(60, &randomPlayer{rand.New(rand.NewPCG(1, 2))}, log, nil, 0); err != nil {
			t.Fatal(err)
		}
		var buf bytes.Buffer
		if _, err := log.WriteTo(&buf); err != nil {
			t.Fatal(err)
		}
		sizes[every], logs[every] = buf.Len(), log
	}
	// 600 + 300 checksums against 10 + 5; the two counts above 127 take one
	// more byte each.
	if d, want := sizes[1]-sizes[60], (900-15)*9+2; d != want {
		t.Errorf("every tick: %d bytes, every 60: %d bytes; difference %d, want %d", sizes[1], sizes[60], d, want)
	}

	loop, err := engine.NewHeadlessLoop(engine.Config{}, &engine.Headless{FPS: 20}, &engine.Options{Replay: logs[1]})
	if err != nil {
		t.Fatal(err)
	}
	var s steer
	loop.SetChecksum(s.checksum)
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

// Version 1 logs (before checksums) still load; a newer version does not.
func TestParseInputLogVersions(t *testing.T) {
	v1 := append([]byte("FSTEPINP"), 1, 0, 7, 0, 0, 0, 0, 0, 0, 0, 1, 1)
	v1 = append(v1, make([]byte, 8)...) // rate 0 Hz: bad, so give 60 Hz
	copy(v1[len(v1)-8:], []byte{0, 0, 0, 0, 0, 0, 0x4e, 0x40})
	v1 = append(v1, 0) // no entries
	lg, err := engine.ParseInputLog(v1)
	if err != nil || lg.Seed != 7 || lg.Scenes() != 1 {
		t.Fatalf("version 1: %v", err)
	}
	v3 := bytes.Clone(v1)
	v3[8] = 3
	if _, err := engine.ParseInputLog(v3); !errors.Is(err, engine.ErrBadInputLog) || !strings.Contains(err.Error(), "version 3") {
		t.Fatalf("version 3: %v", err)
	}
}
