package engine

import (
	"fmt"
	"time"

	"github.com/fixedstep/fixedstep/engine/internal/rate"
)

// Headless runs the loop with no window and no GPU, on the caller's goroutine.
// Render events carry a nil Screen.
//
// With a manual clock (the default) it runs as fast as it can at a virtual
// frame rate, and is deterministic: frame n happens at exactly FrameTime(n).
// With Realtime it reads the real clock and sleeps until the next frame or tick
// is due, so an idle server costs almost no CPU.
type Headless struct {
	// FPS is the virtual frame rate: frame n (n = 1, 2, ...) is at clock time
	// (n-1)/FPS s, computed in integers so that an hour of frames does not
	// drift. 0 means 60.
	FPS float64

	// FrameTime, if set, gives the clock time of frame n relative to frame 1
	// (FrameTime(1) is taken as 0), replacing FPS: jittered or irregular frames
	// for tests. It must not go backwards by more than the test means it to.
	FrameTime func(n int64) time.Duration

	// Clock is the clock to read. Nil means a new ManualClock (a RealClock with
	// Realtime). A *ManualClock is advanced by the driver from frame to frame;
	// a test may also move it (a clock jump while a scene loads).
	Clock Clock

	// Realtime runs at the speed of the real clock, sleeping between frames.
	Realtime bool

	// Frames and Duration, when positive, stop the loop (as Stop does) after
	// that many frames, or once the clock has moved Duration past frame 1.
	Frames   int64
	Duration time.Duration
}

type headlessDriver struct {
	h       Headless
	clock   Clock
	manual  *ManualClock // the clock the driver moves, nil in real time
	frames  rate.Rate    // the virtual frame rate
	frame   int64        // frames begun
	start   time.Duration
	lastNow time.Duration
	loop    *Loop
}

// NewHeadlessLoop returns a loop driven by h, for driving a scene by hand in
// tests and tools. opts supplies the context, input, recording and replay;
// its Config and Headless fields are ignored (cfg and h are used). A bad
// field is a *ConfigError that names it.
func NewHeadlessLoop(cfg Config, h *Headless, opts *Options) (*Loop, error) {
	d, err := newHeadlessDriver(h)
	if err != nil {
		return nil, err
	}
	o := Options{}
	if opts != nil {
		o = *opts
	}
	o.Config = cfg
	return NewLoop(d, &o)
}

// newHeadlessDriver checks h and returns its driver.
func newHeadlessDriver(h *Headless) (*headlessDriver, error) {
	d := &headlessDriver{h: *h, clock: h.Clock}
	fps := h.FPS
	if fps == 0 {
		fps = DefaultHz
	}
	r, ok := rate.New(fps)
	if !ok {
		return nil, &ConfigError{"Headless.FPS", h.FPS, fmt.Sprintf("must be a finite rate in [%g, %g] Hz (0: DefaultHz)", rate.MinHz, rate.MaxHz)}
	}
	if h.Frames < 0 {
		return nil, &ConfigError{"Headless.Frames", h.Frames, "must not be negative (0 means no limit)"}
	}
	if h.Duration < 0 {
		return nil, &ConfigError{"Headless.Duration", h.Duration, "must not be negative (0 means no limit)"}
	}
	d.frames = r
	if d.clock == nil {
		if h.Realtime {
			d.clock = NewRealClock()
		} else {
			d.clock = NewManualClock(0)
		}
	}
	if m, ok := d.clock.(*ManualClock); ok {
		if h.Realtime {
			return nil, &ConfigError{"Headless.Clock", "*ManualClock", "a manual clock cannot run in real time"}
		}
		d.manual = m
	}
	return d, nil
}

// attach gives the driver its loop, whose next tick it sleeps until.
func (d *headlessDriver) attach(l *Loop) { d.loop = l }

// frameTime is the clock time of frame n relative to frame 1.
func (d *headlessDriver) frameTime(n int64) time.Duration {
	if d.h.FrameTime != nil {
		return d.h.FrameTime(n) - d.h.FrameTime(1)
	}
	return d.frames.Due(n - 1)
}

// BeginFrame moves the manual clock to the next frame, or sleeps until it
// in real time.
func (d *headlessDriver) BeginFrame() (time.Duration, bool) {
	if d.h.Frames > 0 && d.frame >= d.h.Frames {
		return 0, false
	}
	d.frame++
	switch {
	case d.frame == 1:
	case d.manual != nil:
		d.manual.Advance(d.frameTime(d.frame) - d.frameTime(d.frame-1))
	case d.h.Realtime:
		d.sleep()
	}
	now := d.clock.Now()
	if d.frame == 1 {
		d.start = now
	}
	d.lastNow = now
	if d.h.Duration > 0 && now-d.start > d.h.Duration {
		return 0, false
	}
	return now, true
}

// sleep waits until the next frame (frames slip: the next is one frame period
// after the last) or the next tick, whichever is due first.
func (d *headlessDriver) sleep() {
	wake := d.lastNow + d.frames.Period()
	switch l := d.loop; {
	case l.net.hold: // a session holds game time: for a whole frame
	case l.net.waiting: // a session's input is on its way: try again soon
		wake = min(wake, d.lastNow+sessionPoll)
	case !l.paused && l.scaleNum > 0 && len(l.groups) > 0:
		next := l.groups[0].nextDue
		for i := range l.groups {
			next = min(next, l.groups[i].nextDue)
		}
		// Game time lags the clock by the pacing carry (real time not yet
		// turned into game time); then game time to real time: divide by
		// the time scale.
		wait := time.Duration(float64(next-l.gameTime-l.pacingCarry) * scaleOne / float64(l.scaleNum)) //detcheck:ok how long to sleep, not game state
		wake = min(wake, d.lastNow+max(wait, 0))
	}
	for {
		wait := wake - d.clock.Now()
		if wait <= 0 || d.loop.stopWanted.Load() {
			return
		}
		sleep(min(wait, stopPoll))
	}
}

// sessionPoll is how long the real-time driver sleeps while a session's
// next tick waits for its players' input.
const sessionPoll = 2 * time.Millisecond

// stopPoll is the longest the real-time driver sleeps at once: Stop or a
// cancelled context reaches a loop that waits for its next frame (a slow
// virtual frame rate, a pause) within it.
const stopPoll = 20 * time.Millisecond

// BeginRender draws nothing: Render events carry no screen.
func (d *headlessDriver) BeginRender() (any, bool) { return nil, true }
