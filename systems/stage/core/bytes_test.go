package core_test

import (
	"errors"
	"math/rand/v2"
	"testing"

	"github.com/fixedstep/fixedstep/engine"
	"github.com/fixedstep/fixedstep/engine/state"
	"github.com/fixedstep/fixedstep/systems/stage/core"
	"github.com/fixedstep/fixedstep/third_party/donburi"
	"github.com/fixedstep/fixedstep/third_party/donburi/filter"
)

type stroller struct{ X, Y, VX, VY float64 }

var (
	strollerC = donburi.NewComponentType[stroller]()
	strollers = donburi.NewQuery(filter.Contains(strollerC))
)

// walkScene is a scene of strollers that a random source kept with Keep
// turns and multiplies, and a counter it keeps. At tick `at` it calls
// atTick first (before the walk); after every tick it gives sum the
// tick's checksum.
func walkScene(ticks, at int64, atTick func(st *core.Stage) error, sum func(tick int64, s uint64)) engine.Scene {
	return engine.NewScene("Walk", func(loop *engine.Loop) (engine.Scene, error) {
		st := core.New(loop, core.Options{})
		defer st.Release()
		rng := rand.NewPCG(7, 8)
		born := 0
		core.Keep(st, rng)
		core.Keep(st, &born)
		r := rand.New(rng)
		for range 3 {
			e := st.World.Entry(st.World.Create(strollerC))
			strollerC.SetValue(e, stroller{VX: 1})
		}
		var failed error
		st.Sched.AddUpdate(0, "walk", func(w donburi.World, ev engine.Event) {
			if ev.Tick == at && atTick != nil && failed == nil {
				failed = atTick(st)
			}
			var gone []donburi.Entity
			strollers.Each(w, func(e *donburi.Entry) {
				v := strollerC.Get(e)
				v.X, v.Y = v.X+v.VX, v.Y+v.VY
				if r.IntN(10) == 0 {
					v.VX, v.VY = v.VY, -v.VX
				}
				if r.IntN(40) == 0 {
					gone = append(gone, e.Entity())
				}
			})
			for _, e := range gone {
				w.Remove(e)
			}
			if r.IntN(4) == 0 {
				born++
				strollerC.SetValue(w.Entry(w.Create(strollerC)), stroller{X: float64(born), VY: r.Float64()})
			}
		}).AddUpdate(0, "sum", func(w donburi.World, ev engine.Event) {
			sum(ev.Tick, state.Checksum(w))
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

// stateScene is a scene that runs `ticks` ticks, calls atTick at tick
// `at` (before its own work) and gives sum every tick's checksum.
type stateScene func(ticks, at int64, atTick func(st *core.Stage) error, sum func(tick int64, s uint64)) engine.Scene

// checkStateCarries writes the state of a run of scene at tick `at` and
// reads it into a stage the same scene code set up, in another run: every
// tick's checksum from there to `ticks` must be the first run's. Then
// bytes cut short must be refused and leave the stage as it was. It
// returns the bytes.
func checkStateCarries(t *testing.T, scene stateScene, at, ticks int64) []byte {
	t.Helper()
	var saved []byte
	want := map[int64]uint64{}
	write := scene(ticks, at, func(st *core.Stage) (err error) {
		saved, err = st.AppendState(nil)
		return err
	}, func(tick int64, s uint64) { want[tick] = s })
	if err := engine.Run(write, &engine.Options{Headless: &engine.Headless{}}); err != nil {
		t.Fatal(err)
	}
	got := map[int64]uint64{}
	read := scene(ticks-at+1, 1, func(st *core.Stage) error { return st.ReadState(saved) },
		func(tick int64, s uint64) { got[tick+at-1] = s })
	if err := engine.Run(read, &engine.Options{Headless: &engine.Headless{}}); err != nil {
		t.Fatal(err)
	}
	for tick := at; tick <= ticks; tick++ {
		if got[tick] != want[tick] || want[tick] == 0 {
			t.Fatalf("tick %d: checksum %x after reading the bytes, %x in the run that wrote them", tick, got[tick], want[tick])
		}
	}
	t.Logf("the state at tick %d: %d bytes", at, len(saved))

	var before, after uint64
	damaged := scene(3, 2, func(st *core.Stage) error {
		before = state.Checksum(st.World)
		err := st.ReadState(saved[:len(saved)-1])
		after = state.Checksum(st.World)
		if err == nil {
			return errors.New("bytes cut short read")
		}
		return nil
	}, func(int64, uint64) {})
	if err := engine.Run(damaged, &engine.Options{Headless: &engine.Headless{}}); err != nil || before != after {
		t.Fatalf("damaged bytes: %v; the world's checksum %x before, %x after", err, before, after)
	}
	return saved
}

// A stage's state written as bytes at a tick and read into a stage the
// same scene code set up, in another run, goes on as the first run did:
// every tick's checksum after it the same; damaged bytes leave the stage
// as it was.
func TestStageStateBytes(t *testing.T) { checkStateCarries(t, walkScene, 100, 200) }
