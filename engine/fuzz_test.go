package engine_test

import (
	"encoding/binary"
	"math"
	"testing"
	"time"

	"github.com/fixedstep/fixedstep/engine"
)

// FuzzLoopDeltas feeds the loop random frame times (zero, backwards, huge) and
// configurations, and checks the invariants after every frame: alpha in [0,1),
// game time never goes back and moves at most MaxDelta, no frame runs more than
// MaxUpdatesPerFrame ticks of a group, every tick at its exact due time, and
// the tick count exact (Drop) or never ahead of game time (Carry).
func FuzzLoopDeltas(f *testing.F) {
	f.Add([]byte{0, 0, 0, 0, 0, 0, 0, 0}, uint8(5), false, false, uint16(60))
	f.Add([]byte{0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x7f, 1, 2, 3, 4, 5, 6, 7, 8}, uint8(1), true, false, uint16(1000))
	f.Add([]byte{0x10, 0x27, 0, 0, 0, 0, 0, 0x80, 0x40, 0x42, 0x0f, 0, 0, 0, 0, 0}, uint8(3), false, true, uint16(7))
	f.Add(binary.LittleEndian.AppendUint64(nil, uint64(16*time.Millisecond)), uint8(8), true, true, uint16(144))
	f.Fuzz(func(t *testing.T, deltas []byte, maxUpdates uint8, carry, noPacing bool, hz uint16) {
		if hz == 0 || len(deltas) > 8*4096 {
			t.Skip()
		}
		cfg := engine.Config{MaxUpdatesPerFrame: int(maxUpdates%16) + 1, NoPacing: noPacing}
		if carry {
			cfg.Overrun = engine.Carry
		}
		times := []time.Duration{0, 0}
		for i := 0; i+8 <= len(deltas); i += 8 {
			d := int64(binary.LittleEndian.Uint64(deltas[i:]))
			d %= int64(time.Hour) // backwards, zero or up to an hour
			times = append(times, times[len(times)-1]+time.Duration(d))
		}
		frameTime := func(n int64) time.Duration { return times[n] }
		h := engine.Headless{FrameTime: frameTime, Frames: int64(len(times) - 1)}
		loop, err := engine.NewHeadlessLoop(cfg, &h, nil)
		if err != nil {
			t.Fatal(err)
		}
		rates := []float64{float64(hz), float64(hz%97 + 3)}
		if err := loop.Start(engine.Group{Name: "a", Hz: rates[0]}, engine.Group{Name: "b", Hz: rates[1]}); err != nil {
			t.Fatal(err)
		}
		maxDelta := loop.Config().MaxDelta
		var last time.Duration // game time of the last render
		var inFrame [2]int
		var ticks [2]int64
		for loop.Next() {
			ev := loop.Event()
			switch ev.Kind {
			case engine.Input:
				inFrame = [2]int{}
				if ev.Time != last {
					t.Fatalf("frame %d: input at game time %v, the last frame drew %v", ev.Frame, ev.Time, last)
				}
			case engine.Update:
				ticks[ev.Group]++
				inFrame[ev.Group]++
				if inFrame[ev.Group] > cfg.MaxUpdatesPerFrame || ev.Tick != ticks[ev.Group] ||
					ev.Time != dueNs(ev.Tick, rates[ev.Group]) || !carry && ev.Time < last {
					t.Fatalf("frame %d: group %d tick %d at %v (%d this frame, game time %v)",
						ev.Frame, ev.Group, ev.Tick, ev.Time, inFrame[ev.Group], last)
				}
			case engine.Render:
				if ev.Time < last || ev.Time-last > maxDelta || math.IsNaN(ev.Alpha) || ev.Alpha < 0 || ev.Alpha >= 1 {
					t.Fatalf("frame %d: alpha %v time %v (was %v)", ev.Frame, ev.Alpha, ev.Time, last)
				}
				last = ev.Time
				for g, hz := range rates {
					due := ticksAt(ev.Time, int64(hz))
					if ticks[g] > due || !carry && ticks[g] != due {
						t.Fatalf("frame %d: group %d ran %d ticks, %d due at %v", ev.Frame, g, ticks[g], due, ev.Time)
					}
				}
			}
		}
		if err := loop.Err(); err != nil {
			t.Fatal(err)
		}
	})
}
