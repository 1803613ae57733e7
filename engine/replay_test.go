package engine_test

import (
	"bytes"
	"errors"
	"math"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/fixedstep/fixedstep/engine"
	"github.com/fixedstep/fixedstep/engine/input"
)

// presses is a frame-sampled input that holds each key from its frame on,
// for a few frames: what a player at a keyboard does.
type presses map[int64]input.Key

func (p presses) Sample(frame int64, in *input.State) {
	for f, k := range p {
		if frame >= f && frame < f+4 {
			in.SetKey(k, true)
		}
	}
}

// game is a two-scene chain: Play (60 and 10 Hz) leaves on Esc for Menu
// (30 Hz), which ends the game on Q. Both decide on Update events, as the
// engine's rule asks, unless onInput: then Play leaves on an Input event.
type game struct {
	onInput bool
	play    steer
	menu    steer
	ended   [2][]int64 // ticks of each group where each scene ended
}

func (g *game) first() engine.Scene {
	return engine.NewScene("Play", func(loop *engine.Loop) (engine.Scene, error) {
		loop.Recording().SetChecksum(g.play.checksum)
		for ev := range loop.Events(engine.Group{Name: "physics", Hz: 60}, engine.Group{Name: "ai", Hz: 10}) {
			switch {
			case ev.Kind == engine.Input && g.onInput && ev.Input.KeyPressed(input.KeyEscape):
				g.ended[0] = []int64{loop.Ticks(0), loop.Ticks(1)}
				return g.second(), nil
			case ev.Kind == engine.Update:
				g.play.update(ev)
				if !g.onInput && ev.Input.KeyPressed(input.KeyEscape) {
					g.ended[0] = []int64{loop.Ticks(0), loop.Ticks(1)}
					return g.second(), nil
				}
			}
		}
		return nil, loop.Err()
	})
}

func (g *game) second() engine.Scene {
	return engine.NewScene("Menu", func(loop *engine.Loop) (engine.Scene, error) {
		loop.Recording().SetChecksum(g.menu.checksum)
		for ev := range loop.Events(engine.Group{Name: "menu", Hz: 30}) {
			if ev.Kind == engine.Update {
				g.menu.update(ev)
				if ev.Input.KeyPressed(input.KeyQ) {
					g.ended[1] = []int64{loop.Ticks(0)}
					return nil, nil
				}
			}
		}
		return nil, loop.Err()
	})
}

// playGame runs a game at fps with the options given.
func playGame(fps float64, onInput bool, opts engine.Options) (*game, error) {
	g := &game{onInput: onInput}
	opts.Headless = &engine.Headless{FPS: fps}
	return g, engine.Run(g.first(), &opts)
}

// A chain whose scenes decide on Update events replays at any frame rate to
// the same state and ends where the recording ended, by itself: the replay
// gets no input but the recording's, and nothing tells it when to stop.
func TestReplayEndsWhereTheRecordingEnded(t *testing.T) {
	rec := &engine.InputLog{Seed: 3}
	recorded, err := playGame(60, false, engine.Options{Input: presses{40: input.KeyEscape, 90: input.KeyQ}, Record: rec})
	if err != nil {
		t.Fatal(err)
	}
	if rec.Scenes() != 2 || !rec.Complete() || rec.Scene(0).End != engine.EndReturned || rec.Scene(1).End != engine.EndReturned ||
		rec.Scene(0).Name != "Play" || rec.Scene(1).Name != "Menu" {
		t.Fatalf("recording: %v", rec)
	}
	var buf bytes.Buffer
	if _, err := rec.WriteTo(&buf); err != nil {
		t.Fatal(err)
	}
	for _, fps := range []float64{24, 60, 144} {
		lg, err := engine.ParseInputLog(buf.Bytes())
		if err != nil {
			t.Fatal(err)
		}
		replayed, err := playGame(fps, false, engine.Options{Replay: lg})
		if err != nil {
			t.Fatalf("%v fps: %v", fps, err)
		}
		r := lg.Replayed()
		if replayed.play != recorded.play || replayed.menu != recorded.menu || !r.Finished || r.Scenes != 2 ||
			r.Ticks != lg.Ticks() || r.Checked < r.Ticks-2 {
			t.Errorf("%v fps: state %+v %+v, want %+v %+v; report %+v of %d ticks", fps, replayed.play, replayed.menu,
				recorded.play, recorded.menu, r, lg.Ticks())
		}
		for i := range replayed.ended {
			if !slicesEqual(replayed.ended[i], recorded.ended[i]) {
				t.Errorf("%v fps: scene %d ended at ticks %v, recorded %v", fps, i+1, replayed.ended[i], recorded.ended[i])
			}
		}
	}
}

func slicesEqual(a, b []int64) bool {
	return len(a) == len(b) && (len(a) == 0 || string(int64Bytes(a)) == string(int64Bytes(b)))
}

func int64Bytes(s []int64) []byte {
	var b []byte
	for _, v := range s {
		for i := range 8 {
			b = append(b, byte(v>>(8*i)))
		}
	}
	return b
}

// A scene that decides on an Input event records fine, but its decision is
// not replayed (Input events carry live input): the replay stops within a
// frame of the tick where the recording's scene ended, with a *ReplayError
// that names the scene, the group, the tick and the likely cause; never a
// hang.
func TestDecisionOnAnInputEventIsNamed(t *testing.T) {
	rec := &engine.InputLog{}
	if _, err := playGame(60, true, engine.Options{Input: presses{40: input.KeyEscape, 90: input.KeyQ}, Record: rec}); err != nil {
		t.Fatal(err)
	}
	end := rec.Scene(0).Ticks
	for _, fps := range []float64{24, 60, 144} {
		g, err := playGame(fps, true, engine.Options{Replay: rec})
		var re *engine.ReplayError
		if !errors.As(err, &re) || re.Scene != 1 || re.Name != "Play" || re.Group != "physics" || re.Ended != end[0] ||
			!strings.Contains(err.Error(), "Input event") {
			t.Fatalf("%v fps: got %v, want a *ReplayError naming Play, physics and tick %d", fps, err, end[0])
		}
		if g.ended[0] != nil {
			t.Fatalf("%v fps: the scene ended in the replay at %v", fps, g.ended[0])
		}
		t.Logf("%v fps: %v", fps, err)
	}
}

// A replayed scene that ends before its recording did is named too.
func TestReplayedSceneEndingEarlyIsNamed(t *testing.T) {
	rec := &engine.InputLog{}
	if _, err := playGame(60, false, engine.Options{Input: presses{40: input.KeyEscape, 90: input.KeyQ}, Record: rec}); err != nil {
		t.Fatal(err)
	}
	early := engine.NewScene("Play", func(loop *engine.Loop) (engine.Scene, error) {
		for ev := range loop.Events(engine.Group{Name: "physics", Hz: 60}, engine.Group{Name: "ai", Hz: 10}) {
			if ev.Kind == engine.Update && ev.Tick == 10 {
				return nil, nil
			}
		}
		return nil, loop.Err()
	})
	err := engine.Run(early, &engine.Options{Headless: &engine.Headless{}, Replay: rec})
	var re *engine.ReplayError
	if !errors.As(err, &re) || re.Name != "Play" || re.Tick != 10 || re.Ended != rec.Scene(0).Ticks[0] {
		t.Fatalf("got %v", err)
	}
	other := engine.NewScene("Other", func(loop *engine.Loop) (engine.Scene, error) {
		for range loop.Events(engine.Group{Name: "physics", Hz: 60}, engine.Group{Name: "ai", Hz: 10}) {
		}
		return nil, loop.Err()
	})
	err = engine.Run(other, &engine.Options{Headless: &engine.Headless{}, Replay: rec})
	if !errors.As(err, &re) || !strings.Contains(err.Error(), "the recording has scene Play here") {
		t.Fatalf("another scene: got %v", err)
	}
	rates := engine.NewScene("Play", func(loop *engine.Loop) (engine.Scene, error) {
		for range loop.Events(engine.Group{Name: "physics", Hz: 30}) {
		}
		return nil, loop.Err()
	})
	err = engine.Run(rates, &engine.Options{Headless: &engine.Headless{}, Replay: rec})
	if !errors.As(err, &re) || !strings.Contains(err.Error(), "[physics 30 Hz]; the recording's scene ran [physics 60 Hz, ai 10 Hz]") {
		t.Fatalf("other rates: got %v", err)
	}
}

// Where the recording's loop stopped (here a headless frame limit; in a
// window, closing it), the replay stops too, at the same tick, by itself.
func TestReplayStopsWhereTheRecordingStopped(t *testing.T) {
	rec := &engine.InputLog{}
	g := &game{}
	opts := &engine.Options{Headless: &engine.Headless{FPS: 50, Frames: 77}, Record: rec,
		Input: presses{20: input.KeyEscape}}
	if err := engine.Run(g.first(), opts); err != nil {
		t.Fatal(err)
	}
	if rec.Scenes() != 2 || rec.Scene(1).End != engine.EndStopped {
		t.Fatalf("recording: %v", rec)
	}
	for _, fps := range []float64{30, 240} {
		replayed, err := playGame(fps, false, engine.Options{Replay: rec})
		if err != nil || replayed.play != g.play || replayed.menu != g.menu || !rec.Replayed().Finished {
			t.Fatalf("%v fps: %v, %+v, want %+v", fps, err, replayed.menu, g.menu)
		}
	}
}

// A scripted per-tick input gives one game at any frame rate, and its
// recording replays to it; the same script sampled per frame does not.
func TestScriptedTickInputIsFrameRateIndependent(t *testing.T) {
	script := engine.TickInputFunc(func(t engine.TickInfo, in *input.State) {
		if t.Group != 0 {
			return
		}
		in.SetKey(input.KeySpace, t.Tick%50 < 7)
		in.SetKey(input.KeyArrowRight, t.Tick%31 == 0) // one tick long: a press every 31 ticks
		in.CursorX = float64(t.Tick % 640)
		in.SetGamepadAxis(0, input.AxisLeftStickHorizontal, math.Sin(float64(t.Tick)/9))
	})
	run := func(fps float64, opts engine.Options) ([2]steer, error) {
		return playChecked(fps, nil, opts.Record, opts.Replay, 0, opts.TickInput)
	}
	want, err := run(60, engine.Options{TickInput: script})
	if err != nil {
		t.Fatal(err)
	}
	if want[0].presses == 0 {
		t.Fatalf("the script pressed nothing: %+v", want)
	}
	for _, fps := range []float64{24, 37, 144, 1000} {
		if got, err := run(fps, engine.Options{TickInput: script}); err != nil || got != want {
			t.Errorf("%v fps: %v, %+v, want %+v", fps, err, got, want)
		}
	}
	rec := &engine.InputLog{}
	if got, err := run(37, engine.Options{TickInput: script, Record: rec}); err != nil || got != want {
		t.Fatalf("recording: %v", err)
	}
	if got, err := run(144, engine.Options{Replay: rec}); err != nil || got != want || !rec.Replayed().Finished {
		t.Fatalf("replay: %v, %+v", err, got)
	}
	// Sampled per frame instead, the same function gives another game at another rate.
	perFrame := engine.InputFunc(func(frame int64, in *input.State) {
		script(engine.TickInfo{Tick: frame}, in)
	})
	a, _ := playChecked(24, perFrame, nil, nil, 0, nil)
	b, _ := playChecked(144, perFrame, nil, nil, 0, nil)
	if a == b {
		t.Fatal("a frame-sampled script gave the same game at 24 and 144 fps: the test above proves nothing")
	}
}

// A scene's own tick input (an autopilot reading its world) wins over
// Options.TickInput for its group, and is cleared for the next scene.
func TestSceneTickInput(t *testing.T) {
	var seen, pressedB [3][]bool
	scene := func(i int, own bool, next engine.Scene) engine.Scene {
		return engine.NewScene("S", func(loop *engine.Loop) (engine.Scene, error) {
			if own {
				loop.SetTickInput(0, engine.TickInputFunc(func(t engine.TickInfo, in *input.State) {
					in.SetKey(input.KeyA, true)
				}))
			}
			for ev := range loop.Events() {
				if ev.Kind == engine.Update {
					seen[i] = append(seen[i], ev.Input.KeyDown(input.KeyA))
					pressedB[i] = append(pressedB[i], ev.Input.KeyPressed(input.KeyB))
					if ev.Tick == 3 {
						return next, nil
					}
				}
			}
			return nil, loop.Err()
		})
	}
	run := engine.TickInputFunc(func(t engine.TickInfo, in *input.State) { in.SetKey(input.KeyB, true) })
	err := engine.Run(scene(0, true, scene(1, false, scene(2, false, nil))), &engine.Options{Headless: &engine.Headless{}, TickInput: run})
	if err != nil || len(seen[0]) != 3 || !seen[0][0] || seen[1][0] {
		t.Fatalf("%v: %v", err, seen)
	}
	// B, held by the run's TickInput in the second and third scenes, is
	// pressed on each one's first tick (compared with nothing held, though
	// the scene before held it), then only held.
	if want := []bool{true, false, false}; !slices.Equal(pressedB[1], want) || !slices.Equal(pressedB[2], want) {
		t.Fatalf("B pressed in the second and third scenes' ticks: %v, want %v", pressedB[1:], want)
	}
}

// Recorded to a file as it runs, a recording cut short by a kill (here: the
// .partial file copied in the middle of the run) replays up to its last
// complete tick, and stops there.
func TestCutShortRecordingReplaysToItsLastTick(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "run.input")
	rec := &engine.InputLog{Seed: 8}
	if err := rec.Create(path); err != nil {
		t.Fatal(err)
	}
	var snapshot []byte
	var sums = map[int64]uint64{}
	var s steer
	scene := engine.NewScene("Long", func(loop *engine.Loop) (engine.Scene, error) {
		loop.Recording().SetChecksum(s.checksum)
		for ev := range loop.Events(engine.Group{Name: "physics", Hz: 60}) {
			if ev.Kind == engine.Update {
				s.update(ev)
				sums[ev.Tick] = s.checksum()
				if ev.Tick == 1500 && snapshot == nil {
					data, err := os.ReadFile(path + engine.PartialSuffix)
					if err != nil {
						return nil, err
					}
					snapshot = data
				}
			}
		}
		return nil, loop.Err()
	})
	// Chunks go to the file at most every 100 ms of real time, and this run
	// takes less than that: write one every frame, as a slow game would.
	defer engine.SetFlushEvery(0)()
	opts := &engine.Options{Headless: &engine.Headless{FPS: 60, Frames: 2000}, Record: rec,
		Input: &randomPlayer{rand.New(rand.NewPCG(5, 6))}}
	if err := engine.Run(scene, opts); err != nil {
		t.Fatal(err)
	}
	if err := rec.Close(); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(path + engine.PartialSuffix); !os.IsNotExist(err) {
		t.Fatalf("the .partial file is still there after Close: %v", err)
	}
	whole, err := engine.LoadInputLog(path)
	if err != nil || !whole.Complete() {
		t.Fatalf("the closed file: %v, complete %v", err, whole != nil && whole.Complete())
	}
	cut, err := engine.ParseInputLog(snapshot)
	if err != nil {
		t.Fatal(err)
	}
	last := cut.Scene(0).Ticks[0]
	if cut.Complete() || cut.Scene(0).End != engine.EndNone || last == 0 || last > 1500 {
		t.Fatalf("cut short at tick 1500: %v", cut)
	}
	var r steer
	replay := engine.NewScene("Long", func(loop *engine.Loop) (engine.Scene, error) {
		loop.Recording().SetChecksum(r.checksum)
		for ev := range loop.Events(engine.Group{Name: "physics", Hz: 60}) {
			if ev.Kind == engine.Update {
				r.update(ev)
			}
		}
		return nil, loop.Err()
	})
	if err := engine.Run(replay, &engine.Options{Headless: &engine.Headless{FPS: 144}, Replay: cut}); err != nil {
		t.Fatal(err)
	}
	if got := cut.Replayed(); !got.Finished || got.Ticks != last || r.checksum() != sums[last] {
		t.Fatalf("replayed %+v, state %x, recorded %x at tick %d", got, r.checksum(), sums[last], last)
	}
	t.Logf("the snapshot at tick 1500 holds %d ticks in %d bytes", last, len(snapshot))
}

// A recording whose stored checksum is damaged (the chunk's own checksum
// recomputed over it) makes a replay diverge there, but the bisector's
// detail says what is true: no system's state and no component type
// differs, so the recorded checksum is not the state's.
func TestDamagedChecksumSaysNothingDiffers(t *testing.T) {
	play := func(opts *engine.Options) error {
		var x, v float64
		scene := engine.NewScene("Spring", func(loop *engine.Loop) (engine.Scene, error) {
			sum := func() uint64 { return math.Float64bits(x) ^ math.Float64bits(v)<<1 }
			loop.Recording().SetChecksum(sum)
			loop.Recording().SetStateParts(func(dst []engine.StatePart) []engine.StatePart {
				return append(dst, engine.StatePart{Name: "Position", Sum: math.Float64bits(x)},
					engine.StatePart{Name: "Velocity", Sum: math.Float64bits(v)})
			})
			for ev := range loop.Events() {
				if ev.Kind != engine.Update {
					continue
				}
				v -= x * ev.DT
				loop.Recording().AfterSystem(ev, "spring")
				x += v * ev.DT
				loop.Recording().AfterSystem(ev, "move")
				if ev.Tick == 120 {
					return nil, nil
				}
			}
			return nil, loop.Err()
		})
		x = 1
		return engine.Run(scene, opts)
	}
	rec := &engine.InputLog{Detail: true}
	if err := play(&engine.Options{Record: rec}); err != nil {
		t.Fatal(err)
	}
	if !engine.DamageChecksum(rec, 0, 70) {
		t.Fatal("no checksum at tick 70")
	}
	path := filepath.Join(t.TempDir(), "damaged.input")
	if err := rec.Save(path); err != nil {
		t.Fatal(err)
	}
	damaged, err := engine.LoadInputLog(path)
	if err != nil {
		t.Fatal(err)
	}
	err = play(&engine.Options{Replay: damaged, Headless: &engine.Headless{FPS: 37}})
	var de *engine.DivergenceError
	if !errors.As(err, &de) || de.Tick != 70 || de.System != "" || len(de.Components) != 0 ||
		!de.SystemsChecked || !de.ComponentsChecked {
		t.Fatalf("got %v (%+v)", err, de)
	}
	if !strings.Contains(err.Error(), "yet no system's state and no component type differs from the recording's detail") {
		t.Fatalf("the message does not say nothing differs: %v", err)
	}
	t.Log(err)
}
