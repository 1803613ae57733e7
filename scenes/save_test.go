package scenes

import (
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"testing"
	"time"

	"github.com/fixedstep/fixedstep/engine"
	"github.com/fixedstep/fixedstep/engine/input"
	"github.com/fixedstep/fixedstep/internal/racetest"
)

// saveRun plays a demo scene headless, recorded, going on from load (nil:
// from the start), and saving after tick `at` of the first group when at
// > 0. It returns the run's checksum (every tick's state, chained),
// the save's path, and what check said of the scene at the save.
func saveRun(t *testing.T, first func() engine.Scene, load *engine.Save, at int64, check func() bool) (sum uint64, path string, ok bool) {
	t.Helper()
	rec := &engine.InputLog{}
	var saveErr error
	if at > 0 {
		path = filepath.Join(t.TempDir(), "game.sav")
	}
	after := func(loop *engine.Loop, ev engine.Event) {
		if at > 0 && ev.Group == 0 && ev.Tick == at {
			ok = check == nil || check()
			loop.Save(path, func(err error) { saveErr = err })
		}
	}
	err := engine.Run(first(), &engine.Options{Headless: &engine.Headless{FPS: 50}, Record: rec, Load: load, AfterUpdate: []engine.EventHook{after}})
	if err != nil || saveErr != nil {
		t.Fatalf("%v; saving: %v", err, saveErr)
	}
	sum, done := rec.RunChecksum()
	if !done {
		t.Fatalf("no run checksum")
	}
	return sum, path, ok
}

// saveLoadContinue saves the game at each tick of ats, loads the save and
// plays on: the run ends with the checksum of the run that was never
// saved, and so does the run that saved.
func saveLoadContinue(t *testing.T, first func() engine.Scene, ats []int64, check func() bool) {
	t.Helper()
	want, _, _ := saveRun(t, first, nil, 0, nil)
	for _, at := range ats {
		saved, path, ok := saveRun(t, first, nil, at, check)
		if !ok {
			t.Fatalf("tick %d: the scene was not as the test needs it at the save", at)
		}
		save, err := engine.LoadSave(path)
		if err != nil {
			t.Fatal(err)
		}
		loaded, _, _ := saveRun(t, first, save, 0, nil)
		if saved != want || loaded != want {
			t.Fatalf("saved after tick %d: the run that saved ended on %x, the run loaded from it on %x; the run that did not save on %x",
				at, saved, loaded, want)
		}
	}
}

// Save, load, continue equals the uninterrupted run at ten random ticks
// of the Arena from tick 1,000 on (its agents fighting, its props pushed
// about, its random sources drawn from).
func TestArenaSaveLoadContinue(t *testing.T) {
	racetest.Long(t)
	rng := rand.New(rand.NewPCG(22, 23))
	ats := make([]int64, 10)
	for i := range ats {
		ats[i] = 1000 + rng.Int64N(1400)
	}
	slices.Sort(ats)
	t.Logf("saved after ticks %v", ats)
	opts := &Options{Seed: 9, Autopilot: true, Undying: true, Seconds: 40}
	saveLoadContinue(t, func() engine.Scene { return &Arena{opts: opts} }, ats, nil)
}

// Save, load, continue equals the uninterrupted run in the Stress scene
// with its pile asleep at the save (cp's sleeping components, with their
// idle times and cached contacts, are what the load must reach).
func TestStressSaveLoadContinue(t *testing.T) {
	racetest.Long(t)
	var s *Stress
	opts := &Options{Seed: 3, Bodies: 300, Seconds: 10}
	first := func() engine.Scene {
		s = &Stress{opts: opts}
		return s
	}
	asleep := func() bool { return s.st.Physics.Sleeping() > 0 }
	saveLoadContinue(t, first, []int64{420, 555}, asleep)
}

// BenchmarkLoad is what going on from a save of the Arena costs one and
// ten minutes into the game (headless; the autopilot played the run that
// saved), until the first frame drawn after it. how=state: the save's state
// read (the Arena's setup, then the state put in), as a player's load is;
// how=simulated: the saved run simulated again, checked, from the first
// scene to the save's tick, as a load with a tick-input source to ask for
// every tick is (here one that gives no input). ms/read is LoadSave's
// (reading and checking the file, its recording parsed), before the load;
// KiB/save is the file's size, its state included.
func BenchmarkLoad(b *testing.B) {
	if testing.Short() {
		b.Skip("a section of its own in BENCHMARKS.md: not under -short (make bench-full runs it)")
	}
	for _, c := range []struct {
		name string
		at   int64
	}{{"at=1m", 3600}, {"at=10m", 36000}} {
		path, size := arenaSave(b, c.at)
		for _, how := range []string{"state", "simulated"} {
			b.Run(c.name+"/how="+how, func(b *testing.B) {
				var total, reading time.Duration
				for b.Loop() {
					read := time.Now()
					s, err := engine.LoadSave(path)
					if err != nil {
						b.Fatal(err)
					}
					reading += time.Since(read)
					start := time.Now()
					var took time.Duration
					stop := func(loop *engine.Loop, ev engine.Event) {
						if ev.Kind == engine.Render && !loop.Rewinder().Active() && took == 0 {
							took = time.Since(start)
							loop.Stop()
						}
					}
					opts := &engine.Options{Headless: &engine.Headless{}, Record: &engine.InputLog{}, Load: s,
						OnEvent: []engine.EventHook{stop}}
					if how == "simulated" {
						opts.TickInput = noInput
					}
					if err := engine.Run(&Arena{opts: &Options{Seed: 3, Undying: true, Seconds: float64(c.at)/60 + 10}}, opts); err != nil || took == 0 {
						b.Fatal(err, took)
					}
					total += took
				}
				b.ReportMetric(float64(total.Microseconds())/1000/float64(b.N), "ms/load")
				b.ReportMetric(float64(reading.Microseconds())/1000/float64(b.N), "ms/read")
				b.ReportMetric(float64(size)/1024, "KiB/save")
			})
		}
	}
}

// noInput is a tick-input source that gives no input.
var noInput = engine.TickInputFunc(func(engine.TickInfo, *input.State) {})

// arenaSave plays the Arena with the autopilot and saves it after tick at;
// it returns the save's path and size.
func arenaSave(tb testing.TB, at int64) (string, int64) {
	tb.Helper()
	opts := &Options{Seed: 3, Autopilot: true, Undying: true, Seconds: float64(at)/60 + 10}
	path := filepath.Join(tb.TempDir(), "arena.sav")
	var saveErr error
	save := func(loop *engine.Loop, ev engine.Event) {
		if ev.Group == 0 && ev.Tick == at {
			loop.Save(path, func(err error) { saveErr = err })
			loop.Stop()
		}
	}
	if err := engine.Run(&Arena{opts: opts}, &engine.Options{Headless: &engine.Headless{}, Record: &engine.InputLog{},
		AfterUpdate: []engine.EventHook{save}}); err != nil || saveErr != nil {
		tb.Fatal(err, saveErr)
	}
	fi, err := os.Stat(path)
	if err != nil {
		tb.Fatal(err)
	}
	return path, fi.Size()
}

// A save of the Arena holds its state, and a player's load (no autopilot)
// reads it: the run goes on, tick for tick, as a load that simulates the
// saved run again (with a tick-input source that gives no input, which
// makes it simulate) does: the same run checksum, every tick's state
// chained, before the save and after; the first simulates no tick of the
// save's.
func TestArenaLoadsState(t *testing.T) {
	racetest.Long(t)
	path, _ := arenaSave(t, 1500)
	var sums [2]uint64
	for i, src := range []engine.TickInput{nil, noInput} {
		s, err := engine.LoadSave(path)
		if err != nil || !s.HoldsState() {
			t.Fatalf("%v; holds its state: %v", err, s != nil && s.HoldsState())
		}
		rec := &engine.InputLog{}
		first := int64(-1) // the first tick the Arena simulated
		see := func(_ *engine.Loop, ev engine.Event) {
			if ev.Kind == engine.Update && ev.Group == 0 && first < 0 {
				first = ev.Tick
			}
		}
		err = engine.Run(&Arena{opts: &Options{Seed: 3, Undying: true, Seconds: 30}}, &engine.Options{Headless: &engine.Headless{},
			Record: rec, Load: s, TickInput: src, OnEvent: []engine.EventHook{see}})
		if err != nil {
			t.Fatal(err)
		}
		if want := []int64{1501, 1}[i]; first != want {
			t.Fatalf("load %d: the Arena's first tick simulated is %d, want %d", i, first, want)
		}
		var done bool
		if sums[i], done = rec.RunChecksum(); !done {
			t.Fatal("no run checksum")
		}
	}
	if sums[0] != sums[1] {
		t.Fatalf("run checksum %x loading the state, %x simulating the save", sums[0], sums[1])
	}
}
