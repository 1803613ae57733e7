package stage_test

import (
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/fixedstep/fixedstep/engine"
	"github.com/fixedstep/fixedstep/engine/input"
	"github.com/fixedstep/fixedstep/systems/physics"
	"github.com/fixedstep/fixedstep/systems/stage"
	"github.com/fixedstep/fixedstep/third_party/cp"
	"github.com/fixedstep/fixedstep/third_party/donburi"
)

// Counter is game state in a component.
type Counter struct{ N int64 }

var counterC = donburi.NewComponentType[Counter]()

// counting is a scene whose rule adds a scene variable to a component and
// then grows the variable: deterministic only if the variable is saved
// with the world (keep), which -synctest checks; a 10 Hz group runs too.
func counting(keep bool, ran *int64) engine.Scene {
	return engine.NewScene("Counting", func(loop *engine.Loop) (engine.Scene, error) {
		st, err := stage.New(loop, stage.Options{ // a faster third group ticks before the first group does
			Groups: []engine.Group{{Name: "logic", Hz: 60}, {Name: "slow", Hz: 10}, {Name: "fast", Hz: 240}}})
		if err != nil {
			return nil, err
		}
		defer st.Release()
		e := st.World.Entry(st.World.Create(counterC))
		var step int64 = 1
		if keep {
			stage.Keep(st, &step)
		}
		st.Sched.AddUpdate(0, "count", func(w donburi.World, ev engine.Event) {
			counterC.Get(e).N += step
			if ev.Tick == 120 {
				*ran = counterC.Get(e).N
				st.End(nil)
			}
		}).AddUpdate(1, "grow", func(w donburi.World, ev engine.Event) { step++ }).
			AddUpdate(2, "spin", func(w donburi.World, ev engine.Event) { counterC.Get(e).N ^= 1 })
		return st.Run()
	})
}

// With every piece of state saved, -synctest passes and the run ends as
// without it; with a scene variable left out, it fails at the first tick
// whose state differs, naming the system that read the variable and the
// component type that shows it.
func TestSyncTestChecksTheScene(t *testing.T) {
	var plain, synced int64
	if err := engine.Run(counting(true, &plain), nil); err != nil {
		t.Fatal(err)
	}
	if err := engine.Run(counting(true, &synced), &engine.Options{SyncTest: 8}); err != nil || synced != plain {
		t.Fatalf("-synctest 8 with the state kept: %v, counter %d, want %d", err, synced, plain)
	}
	var lost int64
	err := engine.Run(counting(false, &lost), &engine.Options{SyncTest: 8})
	var se *engine.SceneError
	if !errors.As(err, &se) || !strings.Contains(err.Error(), "stage: synctest: the state after tick") ||
		!strings.Contains(err.Error(), `it first differed after system "count" in tick 1 of group "logic"`) ||
		!strings.Contains(err.Error(), "component types that differ: "+counterC.Name()) {
		t.Fatalf("a variable left out: %v", err)
	}
	t.Log(err)
	if _, err := engine.NewLoop(nil, &engine.Options{SyncTest: engine.MaxSyncTest + 1}); !errors.As(err, new(*engine.ConfigError)) {
		t.Fatalf("SyncTest past MaxSyncTest: %v", err)
	}
}

// A step back from a keyframe under -synctest: the sync test starts its
// ring over from the tick stepped back to, rather than compare with the
// states of the ticks it left; the run ends as without either.
func TestSyncTestAfterAStepBack(t *testing.T) {
	var plain, synced int64
	if err := engine.Run(counting(true, &plain), nil); err != nil {
		t.Fatal(err)
	}
	back := false
	opts := &engine.Options{SyncTest: 4, Keyframes: 30, Record: &engine.InputLog{},
		OnEvent: []engine.EventHook{func(l *engine.Loop, ev engine.Event) {
			switch {
			case !back && ev.Kind == engine.Update && ev.Group == 0 && ev.Tick == 100:
				l.SetPaused(true)
			case !back && ev.Kind == engine.Input && l.Paused():
				back = true
				if err := l.Rewinder().Back(10); err != nil {
					t.Fatal(err)
				}
			case back && ev.Kind == engine.Input && l.Paused() && !l.Rewinder().Active():
				l.SetPaused(false)
			}
		}}}
	if err := engine.Run(counting(true, &synced), opts); err != nil || !back || synced != plain {
		t.Fatalf("-synctest 4 and a step back: %v (stepped back %v), counter %d, want %d", err, back, synced, plain)
	}
}

// The sync test's second pass gives each tick the input the first pass
// gave it, every player's (Event.Players as well as Event.Input), while
// LoopSession.Resimulating reports true: a system that moves by a player's input
// changing from tick to tick passes, and runs again only in the second
// pass's ticks.
func TestSyncTestGivesEveryPlayersInput(t *testing.T) {
	var again, first int64
	scene := engine.NewScene("Steering", func(loop *engine.Loop) (engine.Scene, error) {
		st, err := stage.New(loop, stage.Options{})
		if err != nil {
			return nil, err
		}
		defer st.Release()
		// A key held on every third tick, so the input changes from tick to tick.
		loop.SetTickInput(0, engine.TickInputFunc(func(ti engine.TickInfo, in *input.State) {
			in.SetKey(input.KeyArrowUp, ti.Tick%3 == 0)
		}))
		e := st.World.Entry(st.World.Create(counterC))
		st.Sched.AddUpdate(0, "steer", func(w donburi.World, ev engine.Event) {
			if loop.Session().Resimulating() {
				again++
			} else {
				first++
			}
			if ev.Player(0).KeyDown(input.KeyArrowUp) {
				counterC.Get(e).N += ev.Tick
			}
			if ev.Tick == 60 {
				st.End(nil)
			}
		})
		return st.Run()
	})
	if err := engine.Run(scene, &engine.Options{SyncTest: 4}); err != nil {
		t.Fatalf("-synctest 4, a player's input changing every tick: %v", err)
	}
	if first != 60 || again != 4*(60-4) {
		t.Fatalf("the system ran %d times in the first pass and %d with Resimulating; want 60 and %d", first, again, 4*(60-4))
	}
}

// Shot and Hull are a shooter's bullets and ship, for the sync test of
// bodies made while the game runs.
type Shot struct{ Life int }
type Hull struct{}

var (
	shotC = donburi.NewComponentType[Shot]()
	hullC = donburi.NewComponentType[Hull]()
)

// A game that makes bodies as it runs (a bullet every sixth tick, in an
// archetype that first appears then) passes -synctest: the second pass
// makes the archetype again after going back to before it, and the
// snapshots of the ring, restored in turn, each give back their world.
func TestSyncTestWithBodiesMadeAsItRuns(t *testing.T) {
	scene := engine.NewScene("Shoot", func(loop *engine.Loop) (engine.Scene, error) {
		st, err := stage.New(loop, stage.Options{Physics: &physics.Config{}})
		if err != nil {
			return nil, err
		}
		defer st.Release()
		st.Physics.SpawnWalls([]cp.Vector{{X: 0, Y: 0}, {X: 800, Y: 0}, {X: 800, Y: 600}}, 8, &physics.BodyOptions{Kind: physics.Static})
		st.Physics.SpawnCircle(14, &physics.BodyOptions{Position: cp.Vector{X: 100, Y: 100}}, hullC)
		st.World.Create(hullC) // an entity with no body, after the bodies
		st.Sched.AddUpdate(0, "physics", st.Physics.Update).
			AddUpdate(0, "fire", func(w donburi.World, ev engine.Event) {
				if ev.Tick%6 == 1 {
					e := st.Physics.SpawnCircle(4, &physics.BodyOptions{Position: cp.Vector{X: 100, Y: 100}, Sensor: true}, shotC)
					shotC.SetValue(w.Entry(e), Shot{Life: 100})
				}
			})
		return st.Run()
	})
	if err := engine.Run(scene, &engine.Options{SyncTest: 8, StopAt: 2 * time.Second, Headless: &engine.Headless{}}); err != nil {
		t.Fatal(err)
	}
}

// A body held to a speed (BodyOptions.MaxSpeed) passes -synctest, which
// writes the state as bytes before the first tick: the bound is a
// component, and the body steps with cp's own funcs, which the bytes hold.
func TestSyncTestWithASpeedLimit(t *testing.T) {
	var speed float64
	scene := engine.NewScene("Limited", func(loop *engine.Loop) (engine.Scene, error) {
		st, err := stage.New(loop, stage.Options{Physics: &physics.Config{}})
		if err != nil {
			return nil, err
		}
		defer st.Release()
		st.Physics.SpawnWalls([]cp.Vector{{X: 0, Y: 0}, {X: 800, Y: 0}, {X: 800, Y: 600}, {X: 0, Y: 600}, {X: 0, Y: 0}}, 8, nil)
		ball := st.Physics.SpawnCircle(6, &physics.BodyOptions{Position: cp.Vector{X: 100, Y: 100}, Velocity: cp.Vector{X: 2000, Y: 900},
			Elasticity: 1, MaxSpeed: 300})
		st.Sched.AddUpdate(0, "physics", st.Physics.Update).
			AddUpdate(0, "watch", func(w donburi.World, ev engine.Event) {
				speed = max(speed, st.Physics.Body(ball).Velocity().Length())
			})
		return st.Run()
	})
	if err := engine.Run(scene, &engine.Options{SyncTest: 8, StopAt: 2 * time.Second, Headless: &engine.Headless{}}); err != nil {
		t.Fatal(err)
	}
	if speed < 250 {
		t.Fatalf("the ball's speed after a step reached %v at most: the scene does not test the bound", speed)
	}
}
