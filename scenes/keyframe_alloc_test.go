// cp's debug build (-tags debug) allocates in its own checks every step.
//go:build !debug

package scenes

import (
	"runtime"
	"testing"

	"github.com/fixedstep/fixedstep/engine"
)

// Keyframes allocate nothing per tick: the Arena, recorded, with a
// keyframe before every tick (the ring of 16 goes round every 16 ticks),
// allocates, from tick 1,200 to 2,400, more than the same run without
// keyframes (its recording and cp's buffers grow now and then) on fewer
// than 2*KeyframeSlots ticks: only where the state reaches a size no slot
// has held yet (more contacts than ever), each slot's memory grows once.
// The process's allocation count also sees other goroutines, so each run
// is played twice and only an excess seen in both counts.
func TestKeyframesAllocateNothingPerTick(t *testing.T) {
	base1, base2 := arenaTickAllocs(t, 0), arenaTickAllocs(t, 0)
	key1, key2 := arenaTickAllocs(t, 1), arenaTickAllocs(t, 1)
	base := func(tick int64) uint64 { return min(base1[tick], base2[tick]) }
	excess := map[int64][2]uint64{}
	for tick, n := range key1 {
		if m := key2[tick]; n > base(tick) && m > base(tick) {
			excess[tick] = [2]uint64{min(n, m), base(tick)}
		}
	}
	if len(excess) >= 2*engine.KeyframeSlots {
		t.Errorf("%d of 1,200 ticks allocated more with keyframes (tick: [with, without]): %v", len(excess), excess)
	}
	t.Logf("ticks that allocated more with keyframes (a slot growing): %v", excess)
}

// arenaTickAllocs plays 2,400 ticks of the Arena, recorded, with a
// keyframe every `keyframes` ticks, and returns the allocations made
// around each tick from 1,200 on (the tick, its keyframe and the frame's).
func arenaTickAllocs(t *testing.T, keyframes int) map[int64]uint64 {
	opts := &Options{Seed: 5, Autopilot: true, Undying: true, Seconds: 60}
	var ms runtime.MemStats
	var last uint64
	allocs := map[int64]uint64{}
	hook := func(loop *engine.Loop, ev engine.Event) {
		if ev.Kind != engine.Update || ev.Group != 0 {
			return
		}
		runtime.ReadMemStats(&ms)
		if n := ms.Mallocs - last; ev.Tick > 1200 && n > 0 {
			allocs[ev.Tick] = n
		}
		last = ms.Mallocs
		if ev.Tick == 2400 {
			loop.Stop()
		}
	}
	err := engine.Run(&Arena{opts: opts}, &engine.Options{Headless: &engine.Headless{}, OnEvent: []engine.EventHook{hook},
		Record: &engine.InputLog{}, Keyframes: keyframes})
	if err != nil {
		t.Fatal(err)
	}
	return allocs
}
