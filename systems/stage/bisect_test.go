package stage_test

import (
	"errors"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/fixedstep/fixedstep/components"
	"github.com/fixedstep/fixedstep/engine"
	"github.com/fixedstep/fixedstep/systems/physics"
	"github.com/fixedstep/fixedstep/systems/stage"
	"github.com/fixedstep/fixedstep/third_party/cp"
	"github.com/fixedstep/fixedstep/third_party/donburi"
	"github.com/fixedstep/fixedstep/third_party/donburi/filter"
)

// Gust is how hard the bisector scene's wind blows: game state of its own.
type Gust struct{ Strength float64 }

// GustC is the Gust component type.
var GustC = donburi.NewComponentType[Gust]()

// windy is a scene for the desync bisector: balls in a bin at 60 Hz, pushed
// by a wind system; a 10 Hz group changes the gust's strength. Its systems
// can be changed or made nondeterministic, as a build that drifts would be.
type windy struct {
	windScale float64 // 1: as recorded
	reversed  bool    // the wind system visits the balls in another order
	mapOrder  bool    // the wind adds its pushes up in a map's iteration order
	clock     bool    // the wind reads the wall clock
	swing     float64 // how much the weather changes the gust; 0: as recorded
	added     string  // a system added before physics (a build's new system); "": none
	addedLast bool    // the added system goes after physics instead
	pushes    bool    // the added system pushes the balls; false: it changes nothing
	noWind    bool    // the wind system is left out (a build that removed it)
}

func (s windy) scene() engine.Scene {
	return engine.NewScene("Windy", func(loop *engine.Loop) (engine.Scene, error) {
		st, err := stage.New(loop, stage.Options{
			Groups:  []engine.Group{{Name: "physics", Hz: 60}, {Name: "weather", Hz: 10}},
			Physics: &physics.Config{Gravity: cp.Vector{Y: 200}},
		})
		if err != nil {
			return nil, err
		}
		defer st.Release()
		st.Physics.SpawnWalls([]cp.Vector{{X: 0, Y: 0}, {X: 0, Y: 300}, {X: 400, Y: 300}, {X: 400, Y: 0}}, 4,
			&physics.BodyOptions{Friction: 0.5})
		for i := range 12 {
			st.Physics.SpawnCircle(6, &physics.BodyOptions{Position: cp.Vector{X: 40 + 25*float64(i), Y: 50 + 7*float64(i%3)},
				Friction: 0.5, Elasticity: 0.3})
		}
		gust := st.World.Entry(st.World.Create(GustC))
		GustC.SetValue(gust, Gust{Strength: 30})
		balls := donburi.NewQuery(filter.Contains(components.BodyC, components.TransformC))
		var bodies []*cp.Body
		wind := func(w donburi.World, ev engine.Event) {
			bodies = bodies[:0]
			for e := range balls.Iter(w) {
				if b := components.BodyC.Get(e).Body; b.GetType() == cp.BODY_DYNAMIC {
					bodies = append(bodies, b)
				}
			}
			if s.reversed {
				slices.Reverse(bodies)
			}
			g := GustC.Get(gust).Strength * s.windScale
			push := 0.0 // each ball is pushed by the pushes so far: order matters
			if s.mapOrder {
				m := map[int]float64{}
				for i := range bodies {
					m[i] = g * float64(i+1) / 7
				}
				for i, f := range m {
					push += f
					bodies[i].ApplyForceAtLocalPoint(cp.Vector{X: push * 0.01}, cp.Vector{})
				}
				return
			}
			if s.clock && time.Now().UnixNano()/1000%2 == 1 {
				g += 1e-9
			}
			for i, b := range bodies {
				push += g * float64(i+1) / 7
				b.ApplyForceAtLocalPoint(cp.Vector{X: push * 0.01}, cp.Vector{})
			}
		}
		swing := s.swing
		if swing == 0 {
			swing = 10
		}
		weather := func(w donburi.World, ev engine.Event) {
			GustC.Get(gust).Strength = 30 + swing*float64(ev.Tick%5)
		}
		if !s.noWind {
			st.Sched.AddUpdate(0, "wind", wind)
		}
		added := func(w donburi.World, ev engine.Event) {
			for e := range balls.Iter(w) {
				if b := components.BodyC.Get(e).Body; s.pushes && b.GetType() == cp.BODY_DYNAMIC {
					b.ApplyForceAtLocalPoint(cp.Vector{Y: -1}, cp.Vector{})
				}
			}
		}
		if s.added != "" && !s.addedLast {
			st.Sched.AddUpdate(0, s.added, added)
		}
		st.Sched.AddUpdate(0, "physics", st.Physics.Update)
		if s.added != "" && s.addedLast {
			st.Sched.AddUpdate(0, s.added, added)
		}
		st.Sched.
			AddUpdate(0, "end", func(w donburi.World, ev engine.Event) {
				if ev.Tick == 240 {
					st.End(nil)
				}
			}).
			AddUpdate(1, "weather", weather)
		return st.Run()
	})
}

// record plays the scene as built, recording with the bisector's detail.
func recordWindy(t *testing.T) *engine.InputLog {
	t.Helper()
	rec := &engine.InputLog{Detail: true}
	if err := engine.Run(windy{windScale: 1}.scene(), &engine.Options{Headless: &engine.Headless{FPS: 60}, Record: rec}); err != nil {
		t.Fatal(err)
	}
	return rec
}

// replayWindy replays rec with s and returns the divergence, if any.
func replayWindy(t *testing.T, rec *engine.InputLog, s windy, fps float64) *engine.DivergenceError {
	t.Helper()
	err := engine.Run(s.scene(), &engine.Options{Headless: &engine.Headless{FPS: fps}, Replay: rec})
	var de *engine.DivergenceError
	if err != nil && !errors.As(err, &de) {
		t.Fatalf("replay: %v", err)
	}
	return de
}

// A faithful replay passes every detailed check, at any frame rate.
func TestBisectorQuietWhenFaithful(t *testing.T) {
	rec := recordWindy(t)
	for _, fps := range []float64{24, 144} {
		if de := replayWindy(t, rec, windy{windScale: 1}, fps); de != nil {
			t.Fatalf("%v fps: %v", fps, de)
		}
	}
}

// A build whose system changed slightly (a constant, an iteration order)
// diverges, and the bisector names the system and the component types.
func TestBisectorNamesTheChangedSystem(t *testing.T) {
	rec := recordWindy(t)
	for _, c := range []struct {
		name  string
		build windy
	}{
		{"a constant", windy{windScale: 1 + 1e-12}},
		{"an iteration order", windy{windScale: 1, reversed: true}},
	} {
		de := replayWindy(t, rec, c.build, 37)
		if de == nil {
			t.Fatalf("%s: the replay did not diverge", c.name)
		}
		if de.System != "wind" || de.SystemTick != 1 || de.SystemGroup != "physics" || de.Tick != 1 ||
			!slices.Contains(de.Components, "Body") {
			t.Errorf("%s: %v", c.name, de)
		}
		t.Logf("%s: %v", c.name, de)
	}
	// A change in the 10 Hz group is found in that group, though the first
	// group's ticks are where the replay checks the state: its first tick is
	// due with the first group's tick 6, after it, so the replay stops after
	// tick 7 and names the weather's tick 1.
	de := replayWindy(t, rec, windy{windScale: 1, swing: 10 + 1e-9}, 144)
	if de == nil || de.System != "weather" || de.SystemGroup != "weather" || de.SystemTick != 1 || de.Tick != 7 ||
		!slices.Contains(de.Components, "Gust") {
		t.Errorf("the weather changed: %v", de)
	}
	t.Logf("the weather changed: %v", de)
}

// A nondeterminism (a map iteration, a wall-clock read) makes a replay of
// the very same build diverge, and the bisector names the system.
func TestBisectorCatchesNondeterminism(t *testing.T) {
	for _, c := range []struct {
		name  string
		build windy
	}{
		{"a map iteration", windy{windScale: 1, mapOrder: true}},
		{"a wall-clock read", windy{windScale: 1, clock: true}},
	} {
		rec := &engine.InputLog{Detail: true}
		err := engine.Run(c.build.scene(), &engine.Options{Headless: &engine.Headless{FPS: 60}, Record: rec})
		if err != nil {
			t.Fatal(err)
		}
		de := replayWindy(t, rec, c.build, 60)
		if de == nil {
			t.Fatalf("%s: the replay did not diverge", c.name)
		}
		if de.System != "wind" || !strings.Contains(de.Error(), `after system "wind"`) {
			t.Errorf("%s: %v", c.name, de)
		}
		t.Logf("%s: %v", c.name, de)
	}
}

// The bisector matches systems by name: a build that adds a system that
// changes nothing replays quietly; one whose new system changes the state
// is named at the first system the recording also ran, after the new one;
// one that no longer runs a system is named at the next, with the system it
// left out; one that runs two systems in another order is named at the
// first whose state differs, with what it ran before it.
func TestBisectorMatchesSystemsByName(t *testing.T) {
	rec := recordWindy(t)
	if de := replayWindy(t, rec, windy{windScale: 1, added: "watch"}, 60); de != nil {
		t.Errorf("a system added that changes nothing: %v", de)
	}
	de := replayWindy(t, rec, windy{windScale: 1, added: "lift", pushes: true}, 60)
	if de == nil || de.System != "physics" || de.SystemNote != `after "lift", which the recording did not run` || de.SystemTick != 1 {
		t.Errorf("a system added that pushes: %v", de)
	}
	t.Logf("a system added that pushes: %v", de)
	de = replayWindy(t, rec, windy{windScale: 1, noWind: true}, 60)
	if de == nil || de.System != "physics" || de.SystemNote != `the recording ran "wind" before it, this run had not` || de.SystemTick != 1 {
		t.Errorf("a system removed: %v", de)
	}
	t.Logf("a system removed: %v", de)
	// Two systems in another order: the state after the one the recording
	// ran first differs, and the note says what ran before it.
	rec = &engine.InputLog{Detail: true}
	if err := engine.Run(windy{windScale: 1, added: "watch"}.scene(), &engine.Options{Headless: &engine.Headless{FPS: 60}, Record: rec}); err != nil {
		t.Fatal(err)
	}
	de = replayWindy(t, rec, windy{windScale: 1, added: "watch", addedLast: true}, 60)
	if de == nil || de.System != "watch" || de.SystemNote != `this run ran "physics" before it, the recording after` || de.SystemTick != 1 {
		t.Errorf("two systems swapped: %v", de)
	}
	t.Logf("two systems swapped: %v", de)
}
