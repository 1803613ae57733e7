package engine_test

import (
	"bytes"
	"errors"
	"math/rand/v2"
	"path/filepath"
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
	var out [2]steer
	scene := func(i int, groups []engine.Group, ticks int64, next engine.Scene) engine.Scene {
		return engine.NewScene("S", func(loop *engine.Loop) (engine.Scene, error) {
			s := &out[i]
			for ev := range loop.Events(groups...) {
				if ev.Kind != engine.Update {
					continue
				}
				in := ev.Input
				s.p.step(ev.DT, in.KeyDown(ebiten.KeySpace) || in.KeyPressed(ebiten.KeyLeft))
				s.p.v += 0.01 * in.GamepadAxis(0, ebiten.StandardGamepadAxisLeftStickHorizontal)
				if in.KeyPressed(ebiten.KeyRight) {
					s.presses++
				}
				s.cursor += in.CursorX * float64(ev.Group+1)
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
	if err := engine.Run(first, opts); err != nil {
		t.Fatal(err)
	}
	return out
}

// Rule 4: input is recorded per tick, so a recording replays to the same state
// at another frame rate, through a file.
func TestRecordAndReplayAtAnotherFrameRate(t *testing.T) {
	log := &engine.InputLog{Seed: 99}
	recorded := playScenes(t, 60, &randomPlayer{rand.New(rand.NewPCG(1, 2))}, log, nil)
	if recorded[0].presses == 0 || recorded[1].presses == 0 || log.Scenes() != 2 || log.Entries() < 100 {
		t.Fatalf("recording saw too little: %+v, %d scenes, %d entries", recorded, log.Scenes(), log.Entries())
	}
	path := filepath.Join(t.TempDir(), "run.input")
	if err := log.Save(path); err != nil {
		t.Fatal(err)
	}
	loaded, err := engine.LoadInputLog(path)
	if err != nil || loaded.Seed != 99 || loaded.Entries() != log.Entries() {
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
