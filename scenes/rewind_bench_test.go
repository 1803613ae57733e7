package scenes

import (
	"testing"
	"time"

	"github.com/fixedstep/fixedstep/engine"
	"github.com/fixedstep/fixedstep/systems/physics"
)

// stepBack plays the Arena (headless, the autopilot playing) to tick `at`
// of its physics group, pauses, steps back one tick, and returns how long
// the step back took: from Rewinder.Back to the first frame drawn at the tick
// it went to. With keyframes (Options.Keyframes) the step back restores
// the last keyframe and simulates the ticks after it again; without, it
// re-runs the Arena from its start. It also returns the checksum the
// first pass left at tick at-1 and the one after the step back, and how
// many times the Arena's setup ran.
func stepBack(tb testing.TB, at int64, keyframes int) (took time.Duration, first, again uint64, setups, keyBytes int) {
	tb.Helper()
	opts := &Options{Seed: 3, Autopilot: true, Undying: true, Seconds: float64(at)/60 + 10}
	var asked time.Time
	rewound := false
	var st *Arena
	arena := func() (engine.Scene, error) {
		setups++
		st = &Arena{opts: opts}
		return st, nil
	}
	hook := func(loop *engine.Loop, ev engine.Event) {
		switch {
		case !rewound && ev.Kind == engine.Update && ev.Group == 0 && ev.Tick == at:
			loop.SetPaused(true)
		case !rewound && ev.Kind == engine.Input && loop.Paused():
			rewound = true
			asked = time.Now()
			if err := loop.Rewinder().Back(1); err != nil {
				tb.Fatal(err)
			}
		case rewound && ev.Kind == engine.Render && !loop.Rewinder().Active() && took == 0:
			took = time.Since(asked)
			again = st.st.State.Sum(st.st.World)
			var snap physics.Snapshot // what a keyframe of the Arena holds, but a few kept values
			if err := st.st.Physics.Snapshot(&snap); err != nil {
				tb.Fatal(err)
			}
			keyBytes = snap.Bytes()
			loop.Stop()
		}
	}
	after := func(loop *engine.Loop, ev engine.Event) {
		if !rewound && ev.Group == 0 && ev.Tick == at-1 {
			first = st.st.State.Sum(st.st.World)
		}
	}
	scene, _ := arena()
	err := engine.Run(scene, &engine.Options{Headless: &engine.Headless{}, OnEvent: []engine.EventHook{hook}, AfterUpdate: []engine.EventHook{after},
		Record: &engine.InputLog{}, Restart: arena, Keyframes: keyframes})
	if err != nil || took == 0 {
		tb.Fatalf("%v, the step back took %v", err, took)
	}
	return took, first, again, setups, keyBytes
}

// A step back from a keyframe in the Arena leaves the state the first pass
// left at that tick, without running the Arena's setup again.
func TestArenaStepBackFromAKeyframe(t *testing.T) {
	_, first, again, setups, _ := stepBack(t, 1000, engine.DefaultKeyframes)
	if first == 0 || first != again || setups != 1 {
		t.Fatalf("tick 999 left %x, the step back %x; the setup ran %d times", first, again, setups)
	}
}

// BenchmarkStepBack is what a step back (the dev keys' comma) costs in the
// Arena one and ten minutes into the game, from keyframes a second apart
// (the window's default): restoring the last keyframe and simulating the
// 59 ticks after it again, the most it ever simulates. Its ms/rewind is
// flat in the game's length and under a 60 Hz frame (16.7 ms); MiB/ring
// is the memory of the KeyframeSlots keyframes (the last 16 s). The
// sub-benchmark rerun/at=1m is the same step back without keyframes (the
// Arena re-run from its start), for the ratio.
func BenchmarkStepBack(b *testing.B) {
	if testing.Short() {
		b.Skip("a section of its own in BENCHMARKS.md: not under -short (make bench-full runs it)")
	}
	for _, c := range []struct {
		name      string
		at        int64
		keyframes int
	}{{"at=1m", 3600, engine.DefaultKeyframes}, {"at=10m", 36000, engine.DefaultKeyframes}, {"rerun/at=1m", 3600, 0}} {
		b.Run(c.name, func(b *testing.B) {
			var total time.Duration
			var keyBytes int
			for b.Loop() {
				took, _, _, _, n := stepBack(b, c.at, c.keyframes)
				total += took
				keyBytes = n
			}
			b.ReportMetric(float64(total.Microseconds())/1000/float64(b.N), "ms/rewind")
			if c.keyframes > 0 {
				b.ReportMetric(float64(keyBytes*engine.KeyframeSlots)/(1<<20), "MiB/ring")
			}
		})
	}
}
