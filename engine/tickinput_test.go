package engine_test

import (
	"math/rand/v2"
	"testing"

	"github.com/fixedstep/fixedstep/engine"
	"github.com/fixedstep/fixedstep/engine/input"
)

// countingSource is a tick input with state of its own (a random source,
// not the scene's), counting how often each tick of group 0 is asked.
type countingSource struct {
	rng   *rand.Rand
	asked map[int64]int
}

func (c *countingSource) SampleTick(ti engine.TickInfo, in *input.State) {
	if ti.Group == 0 {
		c.asked[ti.Tick]++
	}
	in.SetKey(input.KeySpace, c.rng.IntN(3) == 0)
}

// A tick input answers each tick once: a step back, from a keyframe or by
// re-running the run, gives the ticks it simulates again their recorded
// input without asking Options.TickInput again, so that a source with
// state of its own is asked once for ticks up to the one stepped back to,
// and again only for the ticks the run then plays anew.
func TestTickInputAnswersEachTickOnce(t *testing.T) {
	for _, keyframes := range []int{60, 0} {
		r := &keyframeRig{pauseAt: 700, back: 75, end: 800, first: map[int64]uint64{}}
		src := &countingSource{rng: rand.New(rand.NewPCG(1, 2)), asked: map[int64]int{}}
		opts := &engine.Options{Headless: &engine.Headless{FPS: 60}, Record: &engine.InputLog{}, Keyframes: keyframes,
			TickInput: src, Restart: func() (engine.Scene, error) { return r.scene(), nil }}
		if err := engine.Run(r.scene(), opts); err != nil || r.err != nil || r.pausedAt != 625 {
			t.Fatalf("keyframes %d: %v, %v; paused at %d", keyframes, err, r.err, r.pausedAt)
		}
		for tick := int64(1); tick <= 800; tick++ {
			want := 1
			if tick > 625 && tick <= 700 {
				want = 2 // played, then played anew after the step back
			}
			if got := src.asked[tick]; got != want {
				t.Fatalf("keyframes %d: tick %d was asked for %d times, want %d", keyframes, tick, got, want)
			}
		}
	}
}
