package engine

import (
	"sync/atomic"
	"time"
)

// A Clock tells the time as a monotonic duration since an origin of its own.
// The loop reads it once per frame. Time is integer nanoseconds throughout the
// engine: nothing accumulates floating-point seconds.
type Clock interface {
	Now() time.Duration
}

// RealClock is the monotonic wall clock. Its origin is the moment it was made.
// Now does not allocate.
type RealClock struct{ start time.Time }

// NewRealClock returns a RealClock that reads zero now.
func NewRealClock() *RealClock { return &RealClock{start: time.Now()} } //detcheck:ok the real clock paces frames; ticks count game time

// Now returns the monotonic time elapsed since the clock was made.
func (c *RealClock) Now() time.Duration { return time.Since(c.start) } //detcheck:ok the real clock paces frames; ticks count game time

// ManualClock is a clock that moves only when told to: the clock of tests and of
// deterministic headless simulation. It is safe to read and move from several
// goroutines, and never allocates. The zero value reads zero.
type ManualClock struct{ now atomic.Int64 }

// NewManualClock returns a ManualClock that reads start.
func NewManualClock(start time.Duration) *ManualClock {
	c := &ManualClock{}
	c.now.Store(int64(start))
	return c
}

// Now returns the clock's current reading.
func (c *ManualClock) Now() time.Duration { return time.Duration(c.now.Load()) }

// Advance moves the clock by d, which may be negative (a clock that goes
// backwards is one of the things the loop is built to survive).
func (c *ManualClock) Advance(d time.Duration) { c.now.Add(int64(d)) }

// Set moves the clock to t.
func (c *ManualClock) Set(t time.Duration) { c.now.Store(int64(t)) }
