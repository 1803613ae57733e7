package cli

import (
	"fmt"
	"time"

	"github.com/fixedstep/fixedstep/engine"
)

// frameProbe times a real-clock run's frames (a window's, or -realtime's),
// for the summary's frames line: each frame's own work, from its Input
// event (Options.OnEvent) to the end of its drawing (Options.AfterFrame):
// the input sample, the ticks due (a session's rollbacks and the ticks it
// simulates again among them), the systems' drawing; and the time from one
// frame's start to the next's, which adds the wait for the next frame: the
// display's (a window's vsync, a browser's animation frame) or the
// headless driver's sleep to its next frame or tick. Headless there is
// nothing to wait for but the clock, so the second says how late frames
// came, not what a display would show. Both are kept in fixed histograms:
// timing a frame allocates nothing. A nil probe does nothing.
type frameProbe struct {
	start, last time.Time // the frame's start; the one before's
	work, apart engine.Histogram
}

// event is told of every event (Options.OnEvent): an Input opens a frame.
func (p *frameProbe) event(_ *engine.Loop, ev engine.Event) {
	if p == nil || ev.Kind != engine.Input {
		return
	}
	now := time.Now()
	if !p.last.IsZero() {
		p.apart.Record(now.Sub(p.last))
	}
	p.start, p.last = now, now
}

// afterFrame is told once the scene has drawn a frame (Options.AfterFrame).
func (p *frameProbe) afterFrame(*engine.Loop, engine.Event) {
	if p == nil || p.start.IsZero() {
		return
	}
	p.work.Record(time.Since(p.start))
	p.start = time.Time{}
}

// line says how long the frames took; "" when none was drawn.
func (p *frameProbe) line() string {
	if p == nil || p.work.Count() == 0 {
		return ""
	}
	q := func(h *engine.Histogram, f float64) time.Duration { return h.Quantile(f).Round(time.Microsecond) }
	return fmt.Sprintf("frames: %d timed; a frame's work (its input to its drawing done) p50 %v, p99 %v, max %v; "+
		"from a frame's start to the next's p50 %v, p99 %v, max %v",
		p.work.Count(), q(&p.work, 0.5), q(&p.work, 0.99), p.work.Max().Round(time.Microsecond),
		q(&p.apart, 0.5), q(&p.apart, 0.99), p.apart.Max().Round(time.Microsecond))
}
