package engine_test

import (
	"fmt"
	"math"
	"math/rand/v2"
	"testing"
	"time"

	"github.com/fixedstep/fixedstep/engine"
)

// Frame pacing as figures. A simulated display refreshes at displayHz; frame
// n is shown at its vsync time (n-1)/displayHz, but the clock the loop reads
// for it is off by a seeded jitter, uniform in ±jitter (the scheduling noise
// of a real frame). A 60 Hz group moves a body at a constant speed. Measured
// over the frames after the first:
//
//   - the share of frames that run the expected number of ticks: the ticks
//     due between the previous vsync and this one (at 60 Hz, always one);
//     for the engine and for a plain accumulator (Config.NoPacing) on the
//     same frames;
//   - the spread (standard deviation, in pixels) of the body's per-frame
//     displacement on screen: drawn by the engine at the position
//     interpolated with the render alpha; drawn by the engine at its last
//     tick's position; and as a plain Update/Draw loop shows it (the plain
//     accumulator, drawing the last tick's position). A perfectly smooth
//     motion has spread 0. The first two frames are left out: interpolation
//     starts once two ticks have run.
type pacing struct {
	share, plainShare float64 // frames with the expected tick count, 0..1
	// displacement spreads, px
	spreadInterp, spreadLast, spreadPlain float64
	step                                  float64 // the ideal displacement per frame, px
}

const (
	pacingSpeed  = 600.0 // px/s: 10 px per 60 Hz tick
	pacingFrames = 10_000
)

func measurePacing(tb testing.TB, displayHz float64, jitter time.Duration, seed uint64) pacing {
	tb.Helper()
	rng := rand.New(rand.NewPCG(seed, uint64(displayHz)))
	noise := make([]time.Duration, pacingFrames+2)
	for i := range noise {
		noise[i] = time.Duration(rng.Int64N(int64(2*jitter)+1)) - jitter
	}
	vsync := fps(displayHz)
	frameTime := func(n int64) time.Duration { return vsync(n) + noise[n] }

	run := func(cfg engine.Config) (expected int, interp, last []float64) {
		loop := newLoop(tb, cfg, engine.Headless{FrameTime: frameTime}, engine.Group{Name: "physics", Hz: 60})
		var prev, cur float64 // the body's x at the last two ticks
		for i, f := range runFrames(tb, loop, pacingFrames+1) {
			for _, u := range f.updates {
				prev, cur = cur, pacingSpeed*float64(u.Time)/1e9
			}
			interp = append(interp, prev+f.render.Alpha*(cur-prev))
			last = append(last, cur)
			if i == 0 {
				continue
			}
			due := ticksAt(vsync(int64(i+1)), 60) - ticksAt(vsync(int64(i)), 60)
			if int64(len(f.updates)) == due {
				expected++
			}
		}
		return expected, interp, last
	}
	n, interp, last := run(engine.Config{})
	plain, _, plainLast := run(engine.Config{NoPacing: true})
	return pacing{
		share:        float64(n) / pacingFrames,
		plainShare:   float64(plain) / pacingFrames,
		spreadInterp: displacementSpread(interp[2:]),
		spreadLast:   displacementSpread(last[2:]),
		spreadPlain:  displacementSpread(plainLast[2:]),
		step:         pacingSpeed / displayHz,
	}
}

// displacementSpread is the standard deviation of xs[i]-xs[i-1].
func displacementSpread(xs []float64) float64 {
	var sum, sq float64
	n := float64(len(xs) - 1)
	for i := 1; i < len(xs); i++ {
		d := xs[i] - xs[i-1]
		sum += d
		sq += d * d
	}
	mean := sum / n
	return math.Sqrt(max(sq/n-mean*mean, 0))
}

// The figures hold what the loop promises: at 60 Hz with ±1 ms of jitter
// every frame runs exactly one tick (a plain accumulator misses many) and the
// interpolated body moves the same distance every frame; at 144 Hz, where
// frames run 0 or 1 ticks, interpolation turns 0/10 px jumps into an even
// glide, its spread a small fraction of the step.
func TestPacingFigures(t *testing.T) {
	for _, hz := range []float64{60, 144} {
		p := measurePacing(t, hz, time.Millisecond, 1)
		t.Logf("%v Hz display, ±1 ms jitter: expected tick count in %.2f%% of frames (plain accumulator %.2f%%); "+
			"displacement spread %.3f px interpolated, %.3f px at the last tick, %.3f px in a plain Update/Draw loop (step %.2f px)",
			hz, 100*p.share, 100*p.plainShare, p.spreadInterp, p.spreadLast, p.spreadPlain, p.step)
		if hz == 60 && (p.share != 1 || p.spreadInterp > 1e-5 || p.plainShare > 0.9) {
			t.Errorf("60 Hz: %+v: want every frame one tick, no spread, and the plain accumulator worse", p)
		}
		if p.spreadInterp > p.spreadPlain/5 || p.spreadInterp > p.step/5 || p.share < p.plainShare {
			t.Errorf("%v Hz: %+v: want the interpolated spread under a fifth of the plain loop's and of the step", hz, p)
		}
	}
}

// BenchmarkPacing reports the frame pacing figures (see pacing) for 60 and
// 144 Hz displays with ±1 ms of seeded jitter, 10,000 frames each, as
// metrics: expected-ticks-% (plain-expected-% for the plain accumulator),
// spread-interp-px (the engine, interpolated) and spread-plain-px (a plain
// Update/Draw loop). Its time per op is the simulation's.
func BenchmarkPacing(b *testing.B) {
	for _, hz := range []float64{60, 144} {
		b.Run(fmt.Sprintf("display=%vHz", hz), func(b *testing.B) {
			var p pacing
			for b.Loop() {
				p = measurePacing(b, hz, time.Millisecond, 1)
			}
			b.ReportMetric(100*p.share, "expected-ticks-%")
			b.ReportMetric(100*p.plainShare, "plain-expected-%")
			b.ReportMetric(p.spreadInterp, "spread-interp-px")
			b.ReportMetric(p.spreadPlain, "spread-plain-px")
		})
	}
}
