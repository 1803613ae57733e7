package core_test

import (
	"bytes"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/fixedstep/fixedstep/engine"
	"github.com/fixedstep/fixedstep/engine/state"
	"github.com/fixedstep/fixedstep/systems/physics"
	"github.com/fixedstep/fixedstep/systems/stage/core"
	"github.com/fixedstep/fixedstep/third_party/cp"
	"github.com/fixedstep/fixedstep/third_party/donburi"
	"github.com/fixedstep/fixedstep/third_party/donburi/filter"
)

type pbBall struct{ Hits int }

var (
	pbBallC = donburi.NewComponentType[pbBall]()
	pbBalls = donburi.NewQuery(filter.Contains(pbBallC))
)

// pileScene drops balls into a room with a one-way shelf made at its tick 30
// (a collision type the physics watches from then on): a kept random
// source spawns and removes them, OnCollide counts hits in the balls,
// OnTouch and a CollisionBegin subscriber count into kept counters. At
// tick `at` it calls atTick first; after every tick it gives sum the
// tick's checksum, with the kept counters in it.
func pileScene(ticks, at int64, atTick func(st *core.Stage) error, sum func(tick int64, s uint64)) engine.Scene {
	return engine.NewScene("Pile", func(loop *engine.Loop) (engine.Scene, error) {
		st, pl := newPile(loop)
		defer st.Release()
		p, r := st.Physics, rand.New(pl.rng)
		n, begins, touches := &pl.n, &pl.begins, &pl.touches
		var failed error
		st.Sched.AddUpdate(0, "pile", func(w donburi.World, ev engine.Event) {
			if ev.Tick == at && atTick != nil && failed == nil {
				failed = atTick(st)
			}
			*n++
			if *n == 30 {
				p.SpawnBox(80, 6, &physics.BodyOptions{Kind: physics.Static, Position: cp.Vector{X: 100, Y: 150}, OneWay: cp.Vector{Y: -1}})
			}
			if *n%4 == 0 {
				p.SpawnCircle(4+4*r.Float64(), &physics.BodyOptions{Position: cp.Vector{X: 20 + 160*r.Float64(), Y: 20},
					Velocity: cp.Vector{X: 100 * (r.Float64() - 0.5)}, Elasticity: 0.5, Friction: 0.5}, pbBallC)
			}
			if r.IntN(10) == 0 {
				if e, ok := pbBalls.First(w); ok {
					w.Remove(e.Entity())
				}
			}
		})
		st.Sched.AddUpdate(0, "physics", p.Update)
		st.Sched.AddUpdate(0, "sum", func(w donburi.World, ev engine.Event) {
			sum(ev.Tick, state.Checksum(w)^uint64(*begins)<<32^uint64(*touches))
			if ev.Tick == ticks {
				st.End(nil)
			}
		})
		if _, err := st.Run(); err != nil {
			return nil, err
		}
		return nil, failed
	})
}

// pile is what pileScene keeps outside its world.
type pile struct {
	rng                *rand.PCG
	n, begins, touches int // n: the scene's ticks, which the run that reads the bytes numbers from 1
}

// newPile sets up pileScene's stage on loop: its room, its handlers, and
// what it keeps.
func newPile(loop *engine.Loop) (*core.Stage, *pile) {
	st := core.New(loop, core.Options{Physics: &physics.Config{Gravity: cp.Vector{Y: 400}}})
	p := st.Physics
	pl := &pile{rng: rand.NewPCG(3, 9)}
	core.Keep(st, pl.rng)
	core.Keep(st, &pl.n)
	core.Keep(st, &pl.begins)
	core.Keep(st, &pl.touches)
	p.SpawnWalls([]cp.Vector{{X: 0, Y: 0}, {X: 0, Y: 300}, {X: 200, Y: 300}, {X: 200, Y: 0}}, 2, &physics.BodyOptions{Friction: 0.7})
	p.OnCollide(pbBallC, pbBallC, func(w donburi.World, c physics.Contact) {
		pbBallC.Get(w.Entry(c.A)).Hits++
	})
	p.OnTouch(pbBallC, nil, func(donburi.World, physics.Contact) { pl.touches++ })
	physics.CollisionBegin.Subscribe(st.World, func(donburi.World, physics.Collision) { pl.begins++ })
	return st, pl
}

// FuzzStageState reads bytes as a stage's state into a stage set up by
// the scene code that wrote the seeds (pileScene's, at ticks 0, 40 and
// 120): anything is an error or a state, never a panic; a state read
// writes bytes that read back to themselves.
func FuzzStageState(f *testing.F) {
	for _, at := range []int64{1, 40, 120} {
		var b []byte
		scene := pileScene(at, at, func(st *core.Stage) (err error) { b, err = st.AppendState(nil); return err },
			func(int64, uint64) {})
		if err := engine.Run(scene, &engine.Options{Headless: &engine.Headless{}}); err != nil {
			f.Fatal(err)
		}
		f.Add(b)
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		loop, err := engine.NewHeadlessLoop(engine.Config{}, &engine.Headless{}, nil)
		if err != nil {
			t.Fatal(err)
		}
		st, _ := newPile(loop)
		defer st.Release()
		if st.ReadState(b) != nil {
			return
		}
		again, err := st.AppendState(nil)
		if err != nil {
			t.Fatalf("a state read cannot be written: %v", err)
		}
		if err := st.ReadState(again); err != nil {
			t.Fatalf("a state written cannot be read: %v", err)
		}
		if third, err := st.AppendState(nil); err != nil || !bytes.Equal(third, again) {
			t.Fatalf("a state written and read again writes other bytes: %v", err)
		}
	})
}

// A stage with physics written as bytes at a tick and read into a stage
// the same scene code set up, in another run, goes on as the first run
// did: every tick's checksum after it the same, the contacts, touches and
// collision events reported too, so cp's hidden state (arbiters, cached
// impulses, the spatial index), the touching pairs and the event bus's
// subscribers came back. Bytes cut short leave the stage as it was.
func TestStageStateBytesWithPhysics(t *testing.T) { checkStateCarries(t, pileScene, 120, 300) }

// A UserData of the game's own on a cp object is refused by name.
func TestStageStateBytesRefusesForeignUserData(t *testing.T) {
	loop, err := engine.NewHeadlessLoop(engine.Config{}, &engine.Headless{}, nil)
	if err != nil {
		t.Fatal(err)
	}
	st := core.New(loop, core.Options{Physics: &physics.Config{}})
	defer st.Release()
	e := st.Physics.SpawnCircle(4, &physics.BodyOptions{})
	st.Physics.Body(e).UserData = "mine"
	if _, err := st.AppendState(nil); err == nil || !strings.Contains(err.Error(), "UserData") || !strings.Contains(err.Error(), "string") {
		t.Fatalf("a string in a body's UserData: %v", err)
	}
}

type pbImage struct{ Pixels []byte }
type pbLook struct{ Image *pbImage }

var pbLookC = donburi.NewComponentType[pbLook]()

// A component that points to an asset of the scene is written by the
// asset's name (core.Name) and read as the reading scene's asset of that
// name, or one Find makes; an asset with no name is refused, saying how
// to name it.
func TestStageStateBytesNamesAssets(t *testing.T) {
	newStage := func() (*core.Stage, map[string]*pbImage) {
		loop, err := engine.NewHeadlessLoop(engine.Config{}, &engine.Headless{}, nil)
		if err != nil {
			t.Fatal(err)
		}
		st := core.New(loop, core.Options{})
		imgs := map[string]*pbImage{"ball": {[]byte{1}}, "wall": {[]byte{2}}}
		core.Name(st, "ball", imgs["ball"])
		core.Name(st, "wall", imgs["wall"])
		return st, imgs
	}
	w, wimgs := newStage()
	defer w.Release()
	for _, name := range []string{"ball", "wall", "ball"} {
		pbLookC.SetValue(w.World.Entry(w.World.Create(pbLookC)), pbLook{Image: wimgs[name]})
	}
	made := &pbImage{[]byte{3}}
	core.Name(w, "made/1", made)
	pbLookC.SetValue(w.World.Entry(w.World.Create(pbLookC)), pbLook{Image: made})
	b, err := w.AppendState(nil)
	if err != nil {
		t.Fatal(err)
	}
	r, rimgs := newStage()
	defer r.Release()
	if err := r.ReadState(b); err == nil || !strings.Contains(err.Error(), `"made/1"`) {
		t.Fatalf("a name the reading scene has no asset of: %v", err)
	}
	var found *pbImage
	core.Find(r, func(name string) *pbImage {
		if name == "made/1" {
			found = &pbImage{[]byte{3}}
			return found
		}
		return nil
	})
	if err := r.ReadState(b); err != nil {
		t.Fatal(err)
	}
	var got []*pbImage
	pbLooks := donburi.NewQuery(filter.Contains(pbLookC))
	pbLooks.Each(r.World, func(e *donburi.Entry) { got = append(got, pbLookC.Get(e).Image) })
	if len(got) != 4 || got[0] != rimgs["ball"] || got[1] != rimgs["wall"] || got[2] != rimgs["ball"] || got[3] != found {
		t.Fatalf("read %v, want the reading scene's ball, wall, ball and the one Find made", got)
	}
	pbLookC.SetValue(w.World.Entry(w.World.Create(pbLookC)), pbLook{Image: &pbImage{}})
	if _, err := w.AppendState(nil); err == nil || !strings.Contains(err.Error(), "no name") {
		t.Fatalf("an asset with no name: %v", err)
	}
}
