package engine_test

import (
	"errors"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/fixedstep/fixedstep/engine"
	"github.com/fixedstep/fixedstep/engine/input"
)

// rewindRig is a two-scene chain driven by a random frame-sampled player: a
// Menu (30 Hz) that leaves on its tick 20, then Play (60 and 10 Hz), where
// at tick `pauseAt` the game pauses and asks to step back `back` ticks.
// sums[scene][tick] are the state checksums each tick left, per timeline
// played (a rewind starts a new one).
type rewindRig struct {
	pauseAt, back int64
	rewound       bool
	rewindErr     error
	plays         []map[int64]uint64 // per Play timeline: tick -> checksum
	resumed       []int64            // the first group's tick each Play timeline ended paused at
	menus         int
}

func (r *rewindRig) menu() engine.Scene {
	return engine.NewScene("Menu", func(loop *engine.Loop) (engine.Scene, error) {
		r.menus++
		var s steer
		loop.Recording().SetChecksum(s.checksum)
		for ev := range loop.Events(engine.Group{Name: "menu", Hz: 30}) {
			if ev.Kind == engine.Update {
				s.update(ev)
				if ev.Tick == 20 {
					return r.play(), nil
				}
			}
		}
		return nil, loop.Err()
	})
}

func (r *rewindRig) play() engine.Scene {
	return engine.NewScene("Play", func(loop *engine.Loop) (engine.Scene, error) {
		var s steer
		sums := map[int64]uint64{}
		r.plays = append(r.plays, sums)
		loop.Recording().SetChecksum(s.checksum)
		paused := 0
		for ev := range loop.Events(engine.Group{Name: "physics", Hz: 60}, engine.Group{Name: "ai", Hz: 10}) {
			switch ev.Kind {
			case engine.Update:
				s.update(ev)
				if ev.Group == 0 {
					sums[ev.Tick] = s.checksum()
				}
				if ev.Group == 0 && ev.Tick == r.pauseAt && !r.rewound {
					loop.SetPaused(true)
				}
			case engine.Input:
				if loop.Paused() && !r.rewound && !loop.Rewinder().Active() {
					r.rewound = true
					r.rewindErr = loop.Rewinder().Back(r.back)
				}
			case engine.Render:
				if loop.Paused() && r.rewound && !loop.Rewinder().Active() {
					if paused++; paused == 3 { // a few frames at the tick rewound to, then stop
						r.resumed = append(r.resumed, loop.Ticks(0))
						loop.Stop()
					}
				}
			}
		}
		return nil, loop.Err()
	})
}

// Rewind re-runs the run from its first scene with its own recording to the
// tick asked for, exactly (the same state checksum the tick left the first
// time, checked on the way against the recording), and pauses there, live.
// The recording, in memory or being written to a file, then holds the run
// as it went on from there: the file replays to the same state and end.
func TestRewindIsExact(t *testing.T) {
	for _, fps := range []float64{24, 60, 144} {
		r := &rewindRig{pauseAt: 300, back: 100}
		rec := &engine.InputLog{}
		path := t.TempDir() + "/run.input"
		if fps == 60 {
			if err := rec.Create(path); err != nil {
				t.Fatal(err)
			}
		}
		opts := &engine.Options{Headless: &engine.Headless{FPS: fps}, Record: rec,
			Input: &randomPlayer{rand.New(rand.NewPCG(4, 5))}, Restart: func() (engine.Scene, error) { return r.menu(), nil }}
		if err := engine.Run(r.menu(), opts); err != nil {
			t.Fatalf("%v fps: %v", fps, err)
		}
		if r.rewindErr != nil || len(r.plays) != 2 || r.menus != 2 || len(r.resumed) != 1 || r.resumed[0] != 200 {
			t.Fatalf("%v fps: rewind error %v, %d Play timelines, %d Menus, paused at %v", fps, r.rewindErr, len(r.plays), r.menus, r.resumed)
		}
		if first, again := r.plays[0][200], r.plays[1][200]; first != again || first == 0 {
			t.Fatalf("%v fps: tick 200 left %x the first time, %x after the rewind", fps, first, again)
		}
		if _, ok := r.plays[1][201]; ok {
			t.Fatalf("%v fps: the rewind went past tick 200", fps)
		}
		// The run's recording holds the run as it went on after the rewind.
		if rec.Scenes() != 2 || rec.Scene(1).Ticks[0] != 200 {
			t.Fatalf("%v fps: recording %v", fps, rec)
		}
		if fps != 60 {
			continue
		}
		if err := rec.Close(); err != nil {
			t.Fatal(err)
		}
		file, err := engine.LoadInputLog(path)
		if err != nil {
			t.Fatal(err)
		}
		if file.Scenes() != 2 || file.Scene(1).Ticks[0] != 200 || !file.Complete() {
			t.Fatalf("the file holds %v", file)
		}
		again := &rewindRig{pauseAt: -1}
		if err := engine.Run(again.menu(), &engine.Options{Headless: &engine.Headless{FPS: 37}, Replay: file}); err != nil {
			t.Fatalf("replaying the file: %v", err)
		}
		if len(again.plays) != 1 || again.plays[0][200] != r.plays[1][200] || !file.Replayed().Finished {
			t.Fatalf("the file replayed to tick 200's %x (want %x); %+v", again.plays[0][200], r.plays[1][200], file.Replayed())
		}
	}
}

// Rewind says why it cannot: not paused, no Restart.
func TestRewindRefusals(t *testing.T) {
	var errs []error
	scene := engine.NewScene("S", func(loop *engine.Loop) (engine.Scene, error) {
		for ev := range loop.Events() {
			if ev.Kind == engine.Update && ev.Tick == 5 {
				errs = append(errs, loop.Rewinder().Back(1))
				loop.SetPaused(true)
				errs = append(errs, loop.Rewinder().Back(1))
				loop.Stop()
			}
		}
		return nil, loop.Err()
	})
	if err := engine.Run(scene, &engine.Options{Headless: &engine.Headless{}, Record: &engine.InputLog{}}); err != nil {
		t.Fatal(err)
	}
	if len(errs) != 2 || !strings.Contains(errs[0].Error(), "only while paused") || !strings.Contains(errs[1].Error(), "Restart") {
		t.Fatalf("%v", errs)
	}
}

// A second Rewind in the frame of the first says that one is pending, and
// leaves it as it was: the first is the one taken.
func TestRewindTwiceInAFrame(t *testing.T) {
	var first, second error
	var resumed int64
	asked := false // across the scene made again by the rewind's re-run
	scene := engine.NewScene("S", func(loop *engine.Loop) (engine.Scene, error) {
		for ev := range loop.Events() {
			switch {
			case ev.Kind == engine.Update && ev.Tick == 30 && !asked:
				loop.SetPaused(true)
			case ev.Kind == engine.Input && loop.Paused() && !asked:
				asked = true
				first = loop.Rewinder().Back(10)
				second = loop.Rewinder().Back(3)
			case ev.Kind == engine.Render && asked && !loop.Rewinder().Active():
				resumed = loop.Ticks(0)
				loop.Stop()
			}
		}
		return nil, loop.Err()
	})
	opts := &engine.Options{Headless: &engine.Headless{}, Record: &engine.InputLog{}, Restart: func() (engine.Scene, error) { return scene, nil }}
	if err := engine.Run(scene, opts); err != nil {
		t.Fatal(err)
	}
	if first != nil {
		t.Fatalf("the first rewind: %v", first)
	}
	if second == nil || !strings.Contains(second.Error(), "a rewind to tick 20 is already pending") {
		t.Fatalf("the second rewind in the frame: %v, want one that says a rewind to tick 20 is pending", second)
	}
	if resumed != 20 {
		t.Fatalf("the run resumed at tick %d, want 20 (the first rewind's)", resumed)
	}
}

// In a replay, a rewind re-runs the replay to the tick and pauses, still
// replaying: unpaused, it plays on as recorded, to the recording's end.
func TestRewindInAReplay(t *testing.T) {
	rec := &engine.InputLog{}
	if _, err := playGame(60, false, engine.Options{Input: presses{40: input.KeyEscape, 90: input.KeyQ}, Record: rec}); err != nil {
		t.Fatal(err)
	}
	recorded, _ := playGame(60, false, engine.Options{Replay: rec})
	var g *game
	rewound, resumed := false, false
	mk := func() (engine.Scene, error) {
		g = &game{}
		return g.first(), nil
	}
	first, _ := mk()
	opts := &engine.Options{Headless: &engine.Headless{FPS: 50}, Replay: rec, Restart: mk,
		OnEvent: []engine.EventHook{func(loop *engine.Loop, ev engine.Event) {
			if scene, _ := loop.Scene(); scene != 2 || ev.Kind != engine.Input || loop.Rewinder().Active() {
				return
			}
			switch {
			case !rewound && loop.Ticks(0) >= 20:
				loop.SetPaused(true)
				rewound = true
				if err := loop.Rewinder().Back(15); err != nil {
					t.Error(err)
				}
			case rewound && !resumed && loop.Paused():
				if loop.Ticks(0) != 5 && loop.Ticks(0) != 6 { // 15 before the 20 or 21 it paused at
					t.Errorf("the replay paused at tick %d after the rewind", loop.Ticks(0))
				}
				resumed = true
				loop.SetPaused(false)
			}
		}}}
	if err := engine.Run(first, opts); err != nil {
		t.Fatal(err)
	}
	if !rewound || !resumed || g.menu != recorded.menu || g.play != recorded.play || !rec.Replayed().Finished {
		t.Fatalf("rewound %v, resumed %v; state %+v %+v, want %+v %+v; %+v", rewound, resumed, g.play, g.menu,
			recorded.play, recorded.menu, rec.Replayed())
	}
}

// A step back from a keyframe, past records written to the file already,
// leaves the .partial file whole until the next write replaces it: a kill
// right after the step back keeps the run recorded before it. The file
// closed at the end holds the run as it went on from the step back.
func TestStepBackKeepsThePartialRecordingWhole(t *testing.T) {
	path := filepath.Join(t.TempDir(), "run.input")
	rec := &engine.InputLog{}
	if err := rec.Create(path); err != nil {
		t.Fatal(err)
	}
	var after []byte
	rewound, read := false, false
	scene := engine.NewScene("Play", func(loop *engine.Loop) (engine.Scene, error) {
		var s steer
		loop.Recording().SetChecksum(s.checksum)
		loop.Recording().SetSceneState(&steerState{s: &s})
		for ev := range loop.Events(engine.Group{Name: "physics", Hz: 60}) {
			switch ev.Kind {
			case engine.Update:
				s.update(ev)
				if ev.Tick == 1200 && !rewound {
					loop.SetPaused(true)
				}
			case engine.Input:
				if loop.Paused() && !rewound {
					rewound = true
					if err := loop.Rewinder().Back(30); err != nil {
						return nil, err
					}
				}
			case engine.Render:
				if rewound && !read && !loop.Rewinder().Active() {
					read = true
					after, _ = os.ReadFile(rec.Path()) // what a kill now would leave
					loop.Stop()
				}
			}
		}
		return nil, loop.Err()
	})
	opts := &engine.Options{Headless: &engine.Headless{FPS: 60}, Record: rec, Keyframes: 60,
		Input: &randomPlayer{rand.New(rand.NewPCG(4, 5))}}
	if err := engine.Run(scene, opts); err != nil {
		t.Fatal(err)
	}
	if err := rec.Close(); err != nil {
		t.Fatal(err)
	}
	killed, err := engine.ParseInputLog(after)
	if err != nil || killed.Ticks() < 1100 {
		t.Fatalf("a kill right after the step back leaves %v (%v); want most of the 1,200 ticks recorded", killed, err)
	}
	closed, err := engine.LoadInputLog(path)
	if err != nil || closed.Ticks() != 1170 || !closed.Complete() {
		t.Fatalf("the recording closed after the step back: %v (%v); want the 1,170 ticks run, complete", closed, err)
	}
	if _, err := os.Stat(path + ".partial.new"); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("the rewrite's file is left beside the recording: %v", err)
	}
}

// A step back asked for in the frame the run stops (Stop, as a window
// closed by the player): the Stop wins, whether the step back was to a
// keyframe or a re-run from the first scene, with or without
// Options.Restart; the scene runs once and the run ends at the tick it
// had reached.
func TestStopInTheFrameOfAStepBack(t *testing.T) {
	for _, c := range []struct {
		name      string
		keyframes int
		restart   bool
	}{{"keyframe", 60, false}, {"keyframe, Restart", 60, true}, {"re-run", 0, true}} {
		runs, asked := 0, false
		var last int64
		play := func() engine.Scene {
			return engine.NewScene("Play", func(loop *engine.Loop) (engine.Scene, error) {
				runs++
				var s steer
				loop.Recording().SetChecksum(s.checksum)
				loop.Recording().SetSceneState(&steerState{s: &s})
				for ev := range loop.Events(engine.Group{Name: "physics", Hz: 60}) {
					switch ev.Kind {
					case engine.Update:
						s.update(ev)
						last = ev.Tick
						if ev.Tick == 200 && !asked {
							loop.SetPaused(true)
						}
					case engine.Input:
						if loop.Paused() && !asked {
							asked = true
							if err := loop.Rewinder().Back(10); err != nil {
								t.Fatalf("%s: Rewind: %v", c.name, err)
							}
							loop.Stop()
						}
					}
				}
				return nil, loop.Err()
			})
		}
		opts := &engine.Options{Headless: &engine.Headless{FPS: 60}, Record: &engine.InputLog{}, Keyframes: c.keyframes}
		if c.restart {
			opts.Restart = func() (engine.Scene, error) { return play(), nil }
		}
		if err := engine.Run(play(), opts); err != nil || runs != 1 || last != 200 || opts.Record.Ticks() != 200 {
			t.Errorf("%s: Run: %v; the scene ran %d times, to tick %d, %d ticks recorded; want once, to tick 200", c.name, err, runs, last, opts.Record.Ticks())
		}
	}
}
