package scenes

import (
	"fmt"
	"runtime"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/fixedstep/fixedstep/components"
	"github.com/fixedstep/fixedstep/engine"
	"github.com/fixedstep/fixedstep/internal/racetest"
	"github.com/fixedstep/fixedstep/scenes/arena"
	"github.com/fixedstep/fixedstep/third_party/donburi"
	"github.com/fixedstep/fixedstep/third_party/donburi/filter"
)

// soakSample is the state of the process and of the Arena at one moment of
// game time.
type soakSample struct {
	game              time.Duration // game time
	wall              time.Duration // since the run began
	heapAlloc         uint64        // bytes, after two runtime.GC
	heapInuse         uint64
	entities, nonBody int // world.Len(), and those of them without a Body
	bodies, shapes    int // in the cp space
	goroutines        int
}

// TestSoakArena plays one hour of game time (216,000 physics ticks at 60 Hz,
// 36,000 AI ticks at 10 Hz) of the Arena, headless on a manual clock (as
// fast as the CPU goes), with the seeded autopilot, an undying player and
// Churn: 6 props removed and 6 spawned every game second, 21,600 of each in
// the hour. It samples every minute of game time and checks, after a warm-up
// of 5 minutes (the first 5 samples):
//
//   - Heap: every later sample's HeapAlloc (live heap after two
//     runtime.GC, so that sync.Pool's victim cache is dropped too) is within
//     ±5% of the sample at 5:00. A fixed reference, not the median: a leak
//     grows the heap steadily, so the last samples drift furthest from the
//     first, and a median would move with the drift and hide half of it. The
//     5:00 sample is taken once the world, cp's pools and caches and the
//     runtime's have grown to their working size (the samples before it show
//     that growth).
//   - Entities: every entity with a Body has exactly one body in the space,
//     and no other body is there: world.Len() - entities without a Body =
//     bodies in the space, at every sample. The entities without a Body
//     (wall decor, the camera, donburi's event buses) are as many at every
//     later sample as at 5:00: donburi creates an event type's bus entity at
//     its first Subscribe or Publish, and CollisionSeparate's (no subscriber
//     in the Arena) appears at the first separation, so the early samples
//     may hold one fewer.
//   - Goroutines: as many at every sample as at the first.
//
// It logs the samples as a table. make soak runs it; -short skips it.
func TestSoakArena(t *testing.T) {
	if testing.Short() {
		t.Skip("one hour of game time: run with make soak (skipped under -short)")
	}
	racetest.Long(t)
	const (
		hz     = 60
		hour   = 3600 // game seconds
		every  = 60   // game seconds between samples
		warmup = 5 * 60
		churn  = 6 // of the Arena's 12 props, every game second
	)
	opts := &Options{Seed: 7, Seconds: hour, Autopilot: true, Undying: true, Churn: churn}
	sc := &Arena{opts: opts}
	nonBodies := donburi.NewQuery(filter.Not(filter.Contains(components.BodyC)))
	var samples []soakSample
	var ticks int64
	start := time.Now()
	sample := func(ev engine.Event) {
		runtime.GC()
		runtime.GC()
		var ms runtime.MemStats
		runtime.ReadMemStats(&ms)
		s := soakSample{game: ev.Time, wall: time.Since(start), heapAlloc: ms.HeapAlloc, heapInuse: ms.HeapInuse,
			entities: sc.st.World.Len(), nonBody: nonBodies.Count(sc.st.World), goroutines: runtime.NumGoroutine()}
		s.bodies, s.shapes = sc.st.Physics.Bodies()
		samples = append(samples, s)
	}
	onEvent := func(_ *engine.Loop, ev engine.Event) {
		if ev.Kind != engine.Update || ev.Group != 0 {
			return
		}
		ticks = ev.Tick
		// before the tick's systems run: tick 1 is the state as built,
		// tick k*3600 the state after k game minutes
		if ev.Tick == 1 || ev.Tick%(every*hz) == 0 {
			sample(ev)
		}
	}
	if err := engine.Run(sc, &engine.Options{Headless: &engine.Headless{}, OnEvent: []engine.EventHook{onEvent}}); err != nil {
		t.Fatal(err)
	}
	wall := time.Since(start)
	if ticks != hour*hz || len(samples) != hour/every+1 {
		t.Fatalf("the Arena ran %d physics ticks (%d samples), want %d (%d)", ticks, len(samples), hour*hz, hour/every+1)
	}
	if want := arena.Props + churn*hour; sc.game.Spawned() != want { // churned at ticks 60, 120, ... 216,000
		t.Fatalf("%d props spawned, want %d", sc.game.Spawned(), want)
	}

	var tab strings.Builder
	fmt.Fprintf(&tab, "%8s %9s %12s %12s %9s %8s %7s %7s %11s\n",
		"game", "wall", "HeapAlloc", "HeapInuse", "entities", "nonBody", "bodies", "shapes", "goroutines")
	for _, s := range samples {
		fmt.Fprintf(&tab, "%8v %9v %12d %12d %9d %8d %7d %7d %11d\n", s.game, s.wall.Round(time.Millisecond),
			s.heapAlloc, s.heapInuse, s.entities, s.nonBody, s.bodies, s.shapes, s.goroutines)
	}
	t.Logf("one hour of Arena game time with %d props churned a second (%d spawned): %v wall\n%s",
		churn, sc.game.Spawned(), wall.Round(time.Millisecond), tab.String())

	i := slices.IndexFunc(samples, func(s soakSample) bool { return s.game >= warmup*time.Second })
	ref, later := samples[i], samples[i+1:]
	first := samples[0]
	for _, s := range samples {
		if s.entities-s.nonBody != s.bodies || s.game > ref.game && s.nonBody != ref.nonBody || s.goroutines != first.goroutines {
			t.Errorf("at %v: %d entities, %d without a body (%d at %v), %d bodies in the space, %d goroutines (%d at the start)",
				s.game, s.entities, s.nonBody, ref.nonBody, ref.game, s.bodies, s.goroutines, first.goroutines)
		}
	}
	lo, hi := later[0].heapAlloc, later[0].heapAlloc
	for _, s := range later {
		lo, hi = min(lo, s.heapAlloc), max(hi, s.heapAlloc)
	}
	pct := func(v uint64) float64 { return 100 * (float64(v) - float64(ref.heapAlloc)) / float64(ref.heapAlloc) }
	t.Logf("HeapAlloc after the warm-up: at %v %d bytes; later min %d (%+.2f%%), max %d (%+.2f%%), last %d (%+.2f%%)",
		ref.game, ref.heapAlloc, lo, pct(lo), hi, pct(hi), later[len(later)-1].heapAlloc, pct(later[len(later)-1].heapAlloc))
	if pct(lo) < -5 || pct(hi) > 5 {
		t.Errorf("the heap is not flat within 5%% of %d bytes (at %v): min %d, max %d", ref.heapAlloc, ref.game, lo, hi)
	}
}
