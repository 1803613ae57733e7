package engine_test

import (
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/fixedstep/fixedstep/engine"
)

// steerState is a steer simulation as a SceneState: a copy per slot.
type steerState struct {
	s        *steer
	slots    [engine.KeyframeSlots]steer
	restores int
}

func (k *steerState) SaveState(slot int) error    { k.slots[slot] = *k.s; return nil }
func (k *steerState) RestoreState(slot int) error { *k.s = k.slots[slot]; k.restores++; return nil }

// keyframeRig is one scene (60 and 10 Hz) with its state as a SceneState,
// where at tick `pauseAt` of the first group the game pauses, steps back
// `back` ticks, and goes on to tick `end`.
type keyframeRig struct {
	pauseAt, back, end int64

	setups   int              // the scene's Run calls
	first    map[int64]uint64 // the first pass: tick -> checksum
	resim    int64            // ticks of the first group simulated again by the rewind
	pausedAt int64            // where the rewind left the game, paused
	final    uint64
	state    *steerState
	rewound  bool // the step back was asked for (once in the run, re-runs included)
	err      error
}

func (r *keyframeRig) scene() engine.Scene {
	return engine.NewScene("Play", func(loop *engine.Loop) (engine.Scene, error) {
		r.setups++
		var s steer
		r.state = &steerState{s: &s}
		loop.Recording().SetChecksum(s.checksum)
		loop.Recording().SetSceneState(r.state)
		for ev := range loop.Events(engine.Group{Name: "physics", Hz: 60}, engine.Group{Name: "ai", Hz: 10}) {
			switch ev.Kind {
			case engine.Update:
				s.update(ev)
				if ev.Group != 0 {
					continue
				}
				if loop.Rewinder().Active() {
					r.resim++
				} else if !r.rewound {
					r.first[ev.Tick] = s.checksum()
				}
				if ev.Tick == r.pauseAt && !r.rewound {
					loop.SetPaused(true)
				}
				if ev.Tick == r.end {
					r.final = s.checksum()
					loop.Stop()
				}
			case engine.Input:
				if loop.Paused() && !r.rewound {
					r.rewound = true
					r.err = loop.Rewinder().Back(r.back)
				} else if loop.Paused() && !loop.Rewinder().Active() {
					r.pausedAt = loop.Ticks(0)
					if got, want := s.checksum(), r.first[r.pausedAt]; got != want {
						r.err = fmt.Errorf("after the step back to tick %d the state is %x; the first pass left %x", r.pausedAt, got, want)
					}
					loop.SetPaused(false)
				}
			}
		}
		return nil, loop.Err()
	})
}

// A step back restores the last keyframe at or before the tick it goes to
// and simulates only the ticks after it again (here 25 of them, from the
// keyframe after tick 600 to tick 625), without running the scene's setup
// again, to the state the first pass left there; the run then goes on and
// its recording, in memory or written to a file, replays alone to the same
// end, at any frame rate.
func TestKeyframeRewindIsExact(t *testing.T) {
	for _, fps := range []float64{24, 60, 144} {
		r := &keyframeRig{pauseAt: 700, back: 75, end: 900, first: map[int64]uint64{}}
		rec := &engine.InputLog{}
		path := t.TempDir() + "/run.input"
		if fps == 60 {
			if err := rec.Create(path); err != nil {
				t.Fatal(err)
			}
		}
		opts := &engine.Options{Headless: &engine.Headless{FPS: fps}, Record: rec, Keyframes: 60,
			Input: &randomPlayer{rand.New(rand.NewPCG(4, 5))}}
		if err := engine.Run(r.scene(), opts); err != nil {
			t.Fatalf("%v fps: %v", fps, err)
		}
		if r.err != nil || r.setups != 1 || r.state.restores != 1 || r.resim != 25 || r.pausedAt != 625 {
			t.Fatalf("%v fps: %v; %d setups, %d restores, %d ticks simulated again, paused at %d",
				fps, r.err, r.setups, r.state.restores, r.resim, r.pausedAt)
		}
		if fps == 60 {
			if err := rec.Close(); err != nil {
				t.Fatal(err)
			}
			var err error
			if rec, err = engine.LoadInputLog(path); err != nil {
				t.Fatal(err)
			}
		}
		again := &keyframeRig{pauseAt: -1, end: -1, first: map[int64]uint64{}}
		if err := engine.Run(again.scene(), &engine.Options{Headless: &engine.Headless{FPS: 37}, Replay: rec}); err != nil {
			t.Fatalf("%v fps: replaying the recording: %v", fps, err)
		}
		if got := again.first[900]; got != r.final || !rec.Replayed().Finished || rec.Replayed().Checked < 900 {
			t.Fatalf("%v fps: the recording replayed to %x, the run ended on %x; %+v", fps, got, r.final, rec.Replayed())
		}
	}
}

// In a replay, a step back from a keyframe pauses still replaying;
// unpaused, the replay plays on as recorded and checks every tick to the
// recording's end.
func TestKeyframeRewindInAReplay(t *testing.T) {
	rec := &engine.InputLog{}
	live := &keyframeRig{pauseAt: -1, end: 900, first: map[int64]uint64{}}
	if err := engine.Run(live.scene(), &engine.Options{Headless: &engine.Headless{FPS: 50}, Record: rec,
		Input: &randomPlayer{rand.New(rand.NewPCG(6, 7))}}); err != nil {
		t.Fatal(err)
	}
	r := &keyframeRig{pauseAt: 500, back: 130, end: 900, first: map[int64]uint64{}}
	if err := engine.Run(r.scene(), &engine.Options{Headless: &engine.Headless{FPS: 75}, Replay: rec, Keyframes: 60}); err != nil {
		t.Fatal(err)
	}
	if r.err != nil || r.setups != 1 || r.pausedAt != 370 || r.resim != 10 || r.final != live.final || !rec.Replayed().Finished {
		t.Fatalf("%v; %d setups, paused at %d, %d ticks simulated again, ended on %x (recorded %x); %+v",
			r.err, r.setups, r.pausedAt, r.resim, r.final, live.final, rec.Replayed())
	}
}

// A step back further than the keyframes reach re-runs the run from its
// first scene (Options.Restart), exactly, as without keyframes; without
// Restart it says so.
func TestKeyframeRewindPastTheRing(t *testing.T) {
	r := &keyframeRig{pauseAt: 700, back: 650, end: 800, first: map[int64]uint64{}}
	opts := &engine.Options{Headless: &engine.Headless{}, Record: &engine.InputLog{}, Keyframes: 20,
		Input:   &randomPlayer{rand.New(rand.NewPCG(8, 9))},
		Restart: func() (engine.Scene, error) { return r.scene(), nil }}
	if err := engine.Run(r.scene(), opts); err != nil {
		t.Fatal(err)
	}
	if r.err != nil || r.setups != 2 || r.pausedAt != 50 {
		t.Fatalf("%v; %d setups, paused at %d", r.err, r.setups, r.pausedAt)
	}
	r = &keyframeRig{pauseAt: 700, back: 650, end: 800, first: map[int64]uint64{}}
	opts.Restart, opts.Record = nil, &engine.InputLog{}
	if err := engine.Run(r.scene(), opts); err != nil {
		t.Fatal(err)
	}
	if r.err == nil || r.setups != 1 {
		t.Fatalf("a step back past the keyframes without Restart: %v, %d setups", r.err, r.setups)
	}
}

// bigState is a steerState that says its keyframes hold more than
// KeyframeMaxBytes allows.
type bigState struct {
	steerState
	saves int
}

func (k *bigState) SaveState(slot int) error {
	k.saves++
	return k.steerState.SaveState(slot)
}

func (k *bigState) StateBytes(int) int { return engine.KeyframeMaxBytes/engine.KeyframeSlots + 1 }

// A keyframe larger than KeyframeMaxBytes/KeyframeSlots is the timeline's
// last: the loop says why and takes no more (a step back past it re-runs
// the run: see TestKeyframeRewindPastTheRing).
func TestKeyframesStopWhenTooLarge(t *testing.T) {
	var stopped error
	state := &bigState{}
	scene := engine.NewScene("S", func(loop *engine.Loop) (engine.Scene, error) {
		var s steer
		state.s = &s
		loop.Recording().SetChecksum(s.checksum)
		loop.Recording().SetSceneState(state)
		for ev := range loop.Events() {
			if ev.Kind == engine.Update {
				s.update(ev)
				if ev.Tick == 300 {
					stopped = loop.Rewinder().KeyframesStopped()
					loop.Stop()
				}
			}
		}
		return nil, loop.Err()
	})
	if err := engine.Run(scene, &engine.Options{Headless: &engine.Headless{}, Record: &engine.InputLog{}, Keyframes: 60}); err != nil {
		t.Fatal(err)
	}
	if stopped == nil || !strings.Contains(stopped.Error(), "KiB") || state.saves != 1 {
		t.Errorf("keyframes stopped: %v, after %d keyframes; want one, and why", stopped, state.saves)
	}
}
