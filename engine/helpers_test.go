package engine_test

import (
	"math/big"
	"testing"
	"time"

	"github.com/fixedstep/fixedstep/engine"
)

// newLoop returns a headless loop on a manual clock, started with groups.
func newLoop(t testing.TB, cfg engine.Config, h engine.Headless, groups ...engine.Group) *engine.Loop {
	t.Helper()
	loop, err := engine.NewHeadlessLoop(cfg, &h, nil)
	if err != nil {
		t.Fatal(err)
	}
	if err := loop.Start(groups...); err != nil {
		t.Fatal(err)
	}
	return loop
}

// frame is what one frame of the loop delivered.
type frame struct {
	n       int64
	updates []engine.Event
	render  engine.Event
}

// runFrames runs the loop for n frames and returns them.
func runFrames(t testing.TB, loop *engine.Loop, n int) []frame {
	t.Helper()
	frames := make([]frame, 0, n)
	var cur frame
	for len(frames) < n && loop.Next() {
		ev := loop.Event()
		switch ev.Kind {
		case engine.Input:
			cur = frame{n: ev.Frame}
		case engine.Update:
			in := *ev.Input // the loop reuses it: keep a copy
			ev.Input = &in
			cur.updates = append(cur.updates, ev)
		case engine.Render:
			cur.render = ev
			frames = append(frames, cur)
		}
	}
	if len(frames) < n {
		t.Fatalf("loop stopped after %d of %d frames: %v", len(frames), n, loop.Err())
	}
	return frames
}

// dueNs is tick k's due time at hz computed independently of the engine, with
// big rationals: floor(k * 1e9 / hz).
func dueNs(k int64, hz float64) time.Duration {
	r := new(big.Rat).SetInt64(k)
	r.Mul(r, big.NewRat(int64(time.Second), 1))
	h := new(big.Rat)
	h.SetFloat64(hz)
	r.Quo(r, h)
	q := new(big.Int).Quo(r.Num(), r.Denom())
	return time.Duration(q.Int64())
}

// ticksAt is how many ticks of an integer rate hz are due at game time t:
// the largest k with floor(k*1e9/hz) <= t.
func ticksAt(t time.Duration, hz int64) int64 {
	return ((int64(t)+1)*hz - 1) / int64(time.Second)
}

// fps returns frame times for a constant frame rate, exact to the nanosecond
// over any span: frame n at round((n-1)*1e9/hz).
func fps(hz float64) func(int64) time.Duration {
	return func(n int64) time.Duration {
		return time.Duration((float64(n-1)*1e9)/hz + 0.5)
	}
}
