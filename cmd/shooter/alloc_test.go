// cp's debug build (-tags debug) allocates in its own checks every step.
//go:build !debug

package main

import (
	"runtime"
	"testing"
	"time"

	"github.com/fixedstep/fixedstep/engine"
	"github.com/fixedstep/fixedstep/engine/input"
	"github.com/fixedstep/fixedstep/internal/cmdtest"
	"github.com/fixedstep/fixedstep/systems/shoot"
)

// Once the shots' pool has grown to the most in flight, a tick allocates
// nothing while the ship fires without a pause, turning its aim round the
// four ways, and its shots fly and end on the walls: PlayerControl, the aim
// system, the physics step, the shoot system with its hits, the health
// system, the rules, the HUD's text cache and the headless frame around
// them. No wave comes (the calm before it is held off): a drone's body in
// contact makes cp allocate. The process's allocation count also sees
// other goroutines, so the game is played twice: the game is
// deterministic, and an allocation of its own comes back at the same tick.
func TestFiringAllocatesNothing(t *testing.T) {
	cmdtest.AllocatedTwice(t, "the ticks from 301 on", func() map[int]uint64 { return tickAllocations(t) })
}

// tickAllocations plays 20 s of a game firing at the walls and returns the
// ticks from 301 on that saw allocations, with their count.
func tickAllocations(t *testing.T) map[int]uint64 {
	aims := [...]input.Key{input.KeyI, input.KeyL, input.KeyK, input.KeyJ}
	keys := func(tk engine.TickInfo, in *input.State) {
		for i, k := range aims {
			in.SetKey(k, int(tk.Tick/45%4) == i)
		}
		in.SetKey(input.KeySpace, true)
	}
	var ms runtime.MemStats
	var ticks, fired int
	var last uint64
	allocs := map[int]uint64{} // tick: allocations since the check before
	p := &Play{Settings: Settings{Seed: 1, HP: 5}}
	err := engine.Run(p, &engine.Options{
		Headless:  &engine.Headless{FPS: 60},
		StopAt:    20 * time.Second,
		TickInput: engine.TickInputFunc(keys),
		OnEvent: []engine.EventHook{func(_ *engine.Loop, ev engine.Event) {
			if ev.Kind != engine.Update || ev.Group != 0 || p.st == nil || p.st.Ended() {
				return
			}
			p.calm = 1 << 30 // no wave
			ticks++
			runtime.ReadMemStats(&ms)
			if n := ms.Mallocs - last; ticks > 300 && n > 0 {
				allocs[ticks] = n
			}
			last = ms.Mallocs
			fired = int(shoot.GunC.Get(p.st.World.Entry(p.ships[0])).Fired)
		}},
	})
	if err != nil {
		t.Fatal(err)
	}
	if ticks != 1200 || fired < 150 {
		t.Fatalf("%d ticks, %d shots fired", ticks, fired)
	}
	return allocs
}
