// cp's debug build (-tags debug) allocates in its own checks every step.
//go:build !debug

package main

import (
	"runtime"
	"testing"

	"github.com/fixedstep/fixedstep/engine"
	"github.com/fixedstep/fixedstep/engine/input"
	"github.com/fixedstep/fixedstep/internal/cmdtest"
)

// Once warmed up (the wall has stepped down once, at 15 s, and cp has
// grown its buffers for it), a tick allocates nothing while the ball waits
// on the paddle and the paddle moves (no contact: cp allocates for every
// contact): the game's systems, PlayerControl, the physics step, the 10 Hz
// wall group with its second step down at 30 s, and the headless frame
// around them. The process's allocation count also sees other goroutines
// (the runtime's, the race detector's), so the game is played twice: the
// game is deterministic, and an allocation of its own comes back at the
// same tick.
func TestTicksAllocateNothing(t *testing.T) {
	cmdtest.AllocatedTwice(t, "the ticks from 1001 on", func() map[int]uint64 { return tickAllocations(t) })
}

// tickAllocations plays 40 s of a game with the ball held on the paddle and
// returns the ticks from 1001 on that saw allocations, with their count.
func tickAllocations(t *testing.T) map[int]uint64 {
	keys := func(tk engine.TickInfo, in *input.State) {
		in.SetKey(input.KeyArrowLeft, tk.Tick%40 < 20)
		in.SetKey(input.KeyArrowRight, tk.Tick%40 >= 20)
	}
	var ms runtime.MemStats
	var ticks int
	var last uint64
	allocs := map[int]uint64{} // tick: allocations since the check before
	p := &Play{Settings: Settings{Seed: 1, Lives: 3}}
	play(t, p, 40, engine.TickInputFunc(keys), func(p *Play) {
		ticks++
		runtime.ReadMemStats(&ms)
		if n := ms.Mallocs - last; ticks > 1000 && n > 0 {
			allocs[ticks] = n
		}
		last = ms.Mallocs
		if !p.serving {
			t.Fatal("the ball was served")
		}
	})
	if ticks != 2400 {
		t.Fatalf("%d ticks", ticks)
	}
	return allocs
}
