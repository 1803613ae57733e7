package core_test

import (
	"errors"
	"math/rand/v2"
	"regexp"
	"strings"
	"testing"

	"github.com/fixedstep/fixedstep/engine"
	"github.com/fixedstep/fixedstep/engine/input"
	"github.com/fixedstep/fixedstep/systems/stage/core"
	"github.com/fixedstep/fixedstep/third_party/donburi"
)

// Walker is game state in a component: where the player walked to.
type Walker struct{ X int64 }

var walkerC = donburi.NewComponentType[Walker]()

// autopilot is a tick-input source with a random source of its own: it
// holds Right or Left at random, and reads the game (it turns back at the
// walls).
type autopilot struct {
	rng *rand.PCG
	st  *core.Stage
	me  donburi.Entity
}

func (a *autopilot) SampleTick(_ engine.TickInfo, in *input.State) {
	x := walkerC.Get(a.st.World.Entry(a.me)).X
	right := a.rng.Uint64()%2 == 0
	if x > 20 || x < -20 {
		right = x < 0
	}
	in.SetKey(input.KeyArrowRight, right)
	in.SetKey(input.KeyArrowLeft, !right)
}

// walk is a scene where the autopilot walks a Walker for 300 ticks; with
// keepPilot the scene keeps the autopilot's random source with the stage
// (core.Keep), which a source must not do. flip, when set, is a value the
// scene keeps that an input system flips on the frame's Input event: state
// a rollback does not repeat.
func walk(keepPilot, flip bool, done *int64) engine.Scene {
	return engine.NewScene("Walk", func(loop *engine.Loop) (engine.Scene, error) {
		st := core.New(loop, core.Options{Groups: []engine.Group{{Name: "physics", Hz: 60}}})
		defer st.Release()
		me := st.World.Create(walkerC)
		pilot := &autopilot{rng: rand.NewPCG(5, 6), st: st, me: me}
		if keepPilot {
			core.Keep(st, pilot.rng)
		}
		loop.SetTickInput(0, pilot)
		var mirrored bool
		if flip {
			core.Keep(st, &mirrored)
			st.Sched.AddInput("mirror", func(w donburi.World, ev engine.Event) {
				if ev.Frame == 100 {
					mirrored = !mirrored
				}
			})
		}
		st.Sched.AddUpdate(0, "walk", func(w donburi.World, ev engine.Event) {
			step := int64(1)
			if mirrored {
				step = 2
			}
			p := walkerC.Get(w.Entry(me))
			switch {
			case ev.Input.KeyDown(input.KeyArrowRight):
				p.X += step
			case ev.Input.KeyDown(input.KeyArrowLeft):
				p.X -= step
			}
			if ev.Tick == 300 {
				*done = p.X
				st.End(nil)
			}
		})
		return st.Run()
	})
}

// runWalk runs walk with opts (a new recording in it) and returns where the
// walker ended, the run checksum and the run's error.
func runWalk(keepPilot, flip bool, opts engine.Options) (int64, uint64, error) {
	var x int64
	opts.Record = &engine.InputLog{}
	err := engine.Run(walk(keepPilot, flip, &x), &opts)
	sum, _ := opts.Record.RunChecksum()
	return x, sum, err
}

// An autopilot with a random source of its own, not kept with the stage,
// is the player: -synctest 8 simulates every tick again from its recorded
// input, never asks the autopilot again, and ends with the plain run's
// run checksum (every tick's state the same), at any frame rate; so does
// the plain run's recording replayed under -synctest 8.
func TestSyncTestDoesNotChangeARunWithAnAutopilot(t *testing.T) {
	var x int64
	rec := &engine.InputLog{}
	if err := engine.Run(walk(false, false, &x), &engine.Options{Record: rec}); err != nil {
		t.Fatal(err)
	}
	plain, _ := rec.RunChecksum()
	for _, fps := range []float64{0, 24, 144} {
		sx, synced, err := runWalk(false, false, engine.Options{SyncTest: 8, Headless: &engine.Headless{FPS: fps}})
		if err != nil || sx != x || synced != plain {
			t.Fatalf("-synctest 8 at %v fps: %v; walked to %d with run checksum %016x, the plain run to %d with %016x",
				fps, err, sx, synced, x, plain)
		}
	}
	rx, replayed, err := runWalk(false, false, engine.Options{SyncTest: 8, Replay: rec})
	if err != nil || rx != x || replayed != plain || rec.Replayed().Checked != 300 {
		t.Fatalf("the recording under -synctest 8: %v; walked to %d with run checksum %016x, the plain run to %d with %016x; %+v",
			err, rx, replayed, x, plain, rec.Replayed())
	}
}

// keptAt is how the errors name the autopilot's random source: its type
// and the line of this file that kept it.
var keptAt = regexp.MustCompile(`rand\.PCG \(kept at core/sampler_test\.go:\d+\)`)

// An autopilot whose random source the scene keeps with the stage would be
// put back by every rollback without being asked again: -synctest 8 would
// end elsewhere than the plain run, silently. The stage refuses it by
// name, in a plain run, under -synctest 8 and with keyframes for a step
// back alike, on the first tick the autopilot draws.
func TestAutopilotStateKeptIsRefused(t *testing.T) {
	for name, opts := range map[string]engine.Options{
		"plain":       {},
		"synctest 8":  {SyncTest: 8},
		"a step back": {Keyframes: 30},
	} {
		_, _, err := runWalk(true, false, opts)
		var se *engine.SceneError
		if !errors.As(err, &se) || !strings.Contains(err.Error(), "the tick-input source *core_test.autopilot changed") ||
			!keptAt.MatchString(err.Error()) || !strings.Contains(err.Error(), `tick 1 of group "physics"`) ||
			!strings.Contains(err.Error(), "a source must not keep its state with Keep") {
			t.Fatalf("%s: %v", name, err)
		}
		if name == "plain" {
			t.Log(err)
		}
	}
}

// A kept value changed on an Input event (a decision no replay and no
// rollback repeats) ends -synctest at the first tick whose kept values
// differ when simulated again, naming the value.
func TestSyncTestNamesAKeptValueThatDiffers(t *testing.T) {
	if _, _, err := runWalk(false, true, engine.Options{}); err != nil {
		t.Fatal(err)
	}
	_, _, err := runWalk(false, true, engine.Options{SyncTest: 8, Headless: &engine.Headless{FPS: 60}})
	if err == nil || !strings.Contains(err.Error(), "stage: synctest: the values kept outside the world after tick") ||
		!regexp.MustCompile(`: bool \(kept at core/sampler_test\.go:\d+\)`).MatchString(err.Error()) {
		t.Fatalf("a kept value flipped on an Input event, -synctest 8: %v", err)
	}
	t.Log(err)
}

// A tick-input source that changes the world (here, moves the walker
// itself) is refused under -synctest as it does, naming the component
// type: a rollback restores the world without asking it again.
func TestSyncTestRefusesASourceThatChangesTheWorld(t *testing.T) {
	scene := engine.NewScene("Push", func(loop *engine.Loop) (engine.Scene, error) {
		st := core.New(loop, core.Options{Groups: []engine.Group{{Name: "physics", Hz: 60}}})
		defer st.Release()
		me := st.World.Create(walkerC)
		loop.SetTickInput(0, engine.TickInputFunc(func(ti engine.TickInfo, in *input.State) {
			walkerC.Get(st.World.Entry(me)).X++ // the source's own state, in the world
		}))
		st.Sched.AddUpdate(0, "rules", func(w donburi.World, ev engine.Event) {
			if ev.Tick == 60 {
				st.End(nil)
			}
		})
		return st.Run()
	})
	err := engine.Run(scene, &engine.Options{SyncTest: 8})
	if err == nil || !strings.Contains(err.Error(), "stage: synctest: the tick-input source engine.TickInputFunc changed the world (component types "+walkerC.Name()+")") ||
		!strings.Contains(err.Error(), `tick 1 of group "physics"`) {
		t.Fatalf("a source that moves the walker, -synctest 8: %v", err)
	}
}
