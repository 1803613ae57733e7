package engine

import (
	"errors"
	"math"
	"math/bits"
	"time"
)

// Game time: how a frame's real time becomes game time (rules 3, 5 and 7
// of the loop), apart from the loop's events; and what a game changes of
// it: pause, single steps, the time scale.

// advance moves game time by the real time since the previous frame (rule 3),
// scaled, clamped to MaxDelta and paced (rule 7). Real time is counted once:
// a clock that went back adds nothing until it passes its latest reading. It
// fails the loop with ErrGameTimeLimit when game time would pass what a
// time.Duration holds.
func (l *Loop) advance(now time.Duration) bool {
	if !l.clockSeen {
		l.clockSeen, l.lastNow, l.lastRead = true, now, now
		if l.rec.seek == nil {
			return true
		}
	}
	if now < l.lastRead {
		l.stats.ClockBackwards++
	}
	l.lastRead = now
	real := max(now-l.lastNow, 0)
	l.lastNow = max(l.lastNow, now)
	if l.gameTime > math.MaxInt64-2*l.cfg.MaxDelta { // a frame adds at most MaxDelta, its pacing carry another
		l.fail(ErrGameTimeLimit)
		return false
	}
	l.stepping = false
	if l.rec.seek != nil { // a rewind's re-run: every tick up to where it goes, in this frame
		l.pacingCarry = 0
		l.gameTime = l.seekTime()
		return true
	}
	if l.paused || l.focusPaused || l.net.hold { // a session holds game time while it runs ahead of the others
		l.pacingCarry = 0
		if l.stepWanted && !l.focusPaused {
			l.stepWanted, l.stepping = false, true
			l.gameTime = max(l.gameTime, l.groups[0].nextDue)
		}
		return true
	}
	d := l.scale(real)
	if d > l.cfg.MaxDelta {
		addSaturated(&l.stats.Clamped, d-l.cfg.MaxDelta)
		l.pacingCarry = 0
		l.gameTime += l.cfg.MaxDelta
	} else {
		l.gameTime = l.pace(d)
	}
	l.catchUp()
	return true
}

// catchUp moves game time on to the session's ticks when the run has
// fallen behind them (Follower.Behind): as many ticks of the first group
// as the frame may run, counting those game time has made due already.
func (l *Loop) catchUp() {
	if l.net.behind <= 0 {
		return
	}
	g := &l.groups[0]
	k := min(l.net.behind, int64(l.cfg.MaxUpdatesPerFrame))
	if t := g.rate.Due(g.ticks + k); t > l.gameTime {
		l.gameTime, l.pacingCarry = t, 0
		l.net.stats.CaughtUp++
	}
}

// scale multiplies real time by the time scale in fixed point, carrying the
// remainder so that scaled time never drifts.
func (l *Loop) scale(real time.Duration) time.Duration {
	if l.scaleNum == scaleOne {
		return real
	}
	hi, lo := bits.Mul64(uint64(real), l.scaleNum)
	lo, carry := bits.Add64(lo, l.scaleRem, 0)
	hi += carry
	if hi >= scaleOne {
		return math.MaxInt64
	}
	q, r := bits.Div64(hi, lo, scaleOne)
	l.scaleRem = r
	if q > math.MaxInt64 {
		return math.MaxInt64
	}
	return time.Duration(q)
}

// pace returns the game time after adding d (rule 7). When d plus the carried
// difference is within the tolerance of n >= 1 whole steps of the first group,
// game time moves by exactly n of its ticks, keeping its phase, so that the
// frame runs exactly n ticks; the difference is carried into the next frame.
// Otherwise game time moves by d plus the carry.
func (l *Loop) pace(d time.Duration) time.Duration {
	t := l.gameTime
	x := d + l.pacingCarry
	if x > l.cfg.MaxDelta {
		addSaturated(&l.stats.Clamped, x-l.cfg.MaxDelta)
		x = l.cfg.MaxDelta
	}
	if l.cfg.NoPacing {
		return t + x
	}
	g := &l.groups[0]
	p := g.rate.Period()
	if n := int64((x + p/2) / p); x > 0 && n >= 1 {
		if diff := x - time.Duration(n)*p; diff >= -l.pacingTol && diff <= l.pacingTol {
			k := g.rate.TicksAt(t)
			target := g.rate.Due(k+n) + (t - g.rate.Due(k))
			if next := g.rate.Due(k + n + 1); target >= next {
				target = next - 1
			}
			if target > t && target-t <= l.cfg.MaxDelta {
				l.pacingCarry = x - (target - t)
				return target
			}
		}
	}
	adv := max(x, 0)
	l.pacingCarry = x - adv
	return t + adv
}

// dropOverrun applies the Drop policy (rule 5) before the frame's ticks run:
// it finds the first tick that would exceed its group's MaxUpdatesPerFrame,
// and moves game time back to the last tick due before that one, so that every
// tick due at the new game time runs in this frame and none later does. The
// time cut is counted in Dropped.
func (l *Loop) dropOverrun() {
	limit := int64(l.cfg.MaxUpdatesPerFrame)
	cut := time.Duration(math.MaxInt64)
	for i := range l.groups {
		g := &l.groups[i]
		if c := g.rate.Due(g.ticks + limit + 1); c <= l.gameTime {
			cut = min(cut, c)
		}
	}
	if cut == math.MaxInt64 {
		return
	}
	t := l.tickedUntil // the frame's starting time: game time never goes back
	for i := range l.groups {
		g := &l.groups[i]
		t = max(t, g.rate.Due(g.rate.TicksAt(cut-1)))
	}
	addSaturated(&l.stats.Dropped, l.gameTime-t)
	l.gameTime, l.pacingCarry = t, 0
}

// Paused reports whether game time is stopped by [Loop.SetPaused]. It does
// not report a hold for lost focus: see [Loop.FocusPaused].
func (l *Loop) Paused() bool { return l.paused }

// FocusPaused reports whether game time is held because the window lost
// focus and window.Options.PauseOnFocusLoss is set. The hold works as a pause
// (no ticks, frames render with a frozen alpha, no catch-up afterwards) but
// apart from [Loop.SetPaused]: regaining focus ends the hold and leaves the
// scene's own pause as it was; a single step asked for during the hold runs
// once the hold ends. It is the driver's state, kept across scenes.
func (l *Loop) FocusPaused() bool { return l.focusPaused }

// SetPaused stops or restarts game time. While paused no tick runs and frames
// still render, with alpha frozen. Presses made while paused are kept for the
// next tick of each group (rule 4: none is lost), so they act on resume or on
// a single step. A networked run (Options.Session) cannot pause: the other
// players play on; there it does nothing.
func (l *Loop) SetPaused(p bool) {
	if l.net.session != nil {
		return
	}
	l.paused = p
	l.stepWanted = false
}

// Step asks for a single step while paused: the next frame runs exactly one
// tick of the first group, and all the ticks of other groups due by then
// (the one frame where MaxUpdatesPerFrame does not bound them, so that a slow
// first group can be stepped). It does nothing when not paused.
func (l *Loop) Step() {
	if l.paused {
		l.stepWanted = true
	}
}

// TimeScale returns the factor applied to elapsed time.
func (l *Loop) TimeScale() float64 { return float64(l.scaleNum) / scaleOne }

// SetTimeScale sets the factor applied to elapsed time from the next frame on:
// 0.5 is half speed, 0 freezes game time. The scale is the player's setting:
// it carries over to the next scenes (pause does not). A negative, NaN, infinite or huge
// scale is a *ConfigError and changes nothing. The scale is kept to 1/2^20.
// A networked run (Options.Session) keeps the other players' pace: there
// it is an error, and changes nothing.
func (l *Loop) SetTimeScale(s float64) error {
	if err := checkScale("TimeScale", s); err != nil {
		return err
	}
	if l.net.session != nil {
		return errors.New("engine: SetTimeScale: a networked run keeps the other players' pace")
	}
	l.scaleNum, l.scaleRem = scaleFixed(s), 0
	return nil
}
