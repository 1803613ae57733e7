package engine

import (
	"errors"
	"fmt"
	"time"
)

// Rewind: stepping the game back while paused, exactly. With keyframes
// (Options.Keyframes and a scene that gives its SceneState: keyframe.go)
// the loop restores the last keyframe at or before the tick wanted and
// simulates the few ticks after it again, in the current scene:
// BenchmarkStepBack (package scenes) measures it flat in the game's length.
// Without one, the loop re-runs the run from its first scene
// (Options.Restart makes a fresh one) with the run's own recording, or the
// recording being replayed, at full speed: every frame of the re-run
// delivers all the ticks up to the end of the scene it runs, or up to the
// tick wanted. Either way the recording's checksums are checked on the way,
// and there the loop pauses, and the game goes on live (or, in a replay,
// replaying). A re-run's cost is that of simulating the run so far again
// (BenchmarkStepBack's rerun/at=1m).

// Rewinder steps a paused game back, exactly (see [Rewinder.Back]). Reach
// it with [Loop.Rewinder]:
//
//	if err := loop.Rewinder().Back(1); err != nil { ... }
//
// It is a handle on the loop, free to copy: getting it allocates nothing.
// Call its methods from the loop's goroutine.
type Rewinder struct{ l *Loop }

// Rewinder returns the loop's rewinder (see [Rewinder]).
func (l *Loop) Rewinder() Rewinder { return Rewinder{l} }

// seekTarget is where a rewind goes: after tick `tick` of the first group of
// timeline `scene`, live (the run's own recording) or replaying.
type seekTarget struct {
	scene    int
	tick     int64
	live     bool
	keyframe bool        // from a keyframe of the current timeline (keyframe.go)
	load     *Save       // going on from a save (savegame.go): not paused after
	state    *savedState // the save's state, to jump to (savestate.go)
}

// errRewind ends a chain that is to be re-run for a rewind.
var errRewind = errors.New("engine: rewind")

// Back steps the game back n ticks of the first group (to the scene's
// start at most) while paused, and stays paused there. It is exact: the
// game is deterministic and the recording's checksums are checked on the
// way. From a keyframe (see Options.Keyframes) it restores the scene's
// state and simulates fewer than Options.Keyframes ticks again, before the
// frame's ticks; otherwise it re-runs the run from its first scene to there,
// at full speed: the scene's Run returns (its release runs) and is made
// anew by the re-run.
//
// The run's recording ([Options.Record]) then holds the run as it goes on
// from there: what was recorded after the tick is dropped, in memory and,
// for a log being written to a file ([InputLog.Create]), in the file too.
//
// It needs the run recorded or replayed, and a keyframe or
// [Options.Restart] (cli.App sets both); otherwise, when not paused, or
// while a rewind asked for earlier is still pending or under way, it
// returns an error that says why and does nothing. A scene that ends
// before the step back is taken (a Stop in the same frame, a failure, a
// closed window) drops it: the run ends as it stood. Call it from the loop's
// goroutine (an input system: devtools.Keys binds it to the comma key).
func (r Rewinder) Back(n int64) error {
	l := r.l
	switch {
	case !l.paused:
		return errors.New("engine: rewind: only while paused")
	case n < 1:
		return fmt.Errorf("engine: rewind %d ticks: at least 1", n)
	case l.rec.replay == nil && l.rec.record == nil:
		return errors.New("engine: rewind: the run is neither recorded nor replayed")
	case !l.begun:
		return errors.New("engine: rewind: no scene timeline to rewind")
	case l.rec.rewind != nil:
		return fmt.Errorf("engine: rewind: a rewind to tick %d is already pending (it is taken before the frame's ticks)", l.rec.rewind.tick)
	case l.rec.seek != nil:
		return fmt.Errorf("engine: rewind: a rewind to tick %d is already under way", l.rec.seek.tick)
	}
	t := &seekTarget{scene: l.scenes, tick: max(l.groups[0].ticks-n, 0), live: l.rec.replay == nil}
	if t.keyframe = l.rec.keyframeFor(t.tick); t.keyframe {
		l.rec.rewind = t // restored before the frame's ticks (see restoreKeyframe)
		return nil
	}
	if l.rec.restart == nil {
		return errors.New("engine: rewind: the run has no Options.Restart to make its first scene again")
	}
	l.rec.rewind = t
	l.stopped = true
	return nil
}

// Active reports whether a rewind is under way: asked for (the scene is
// about to return, to be made anew) or re-running the run.
func (r Rewinder) Active() bool { return r.l.rec.rewind != nil || r.l.rec.seek != nil }

// runChains runs the chain from first, again from a fresh first scene
// (Options.Restart) each time a rewind asks for it.
func (l *Loop) runChains(first Scene) error {
	first, err := l.firstScene(first)
	if err != nil {
		return err
	}
	for {
		err = runChain(l, first)
		if err != errRewind {
			return err
		}
		if first, err = l.startSeek(); err != nil {
			return err
		}
	}
}

// startSeek readies the loop to re-run the chain to the rewind's target and
// returns the first scene to run it from.
func (l *Loop) startSeek() (Scene, error) {
	r := &l.rec
	t := *r.rewind
	r.rewind = nil
	first, err := r.restart()
	if err != nil {
		return nil, fmt.Errorf("engine: rewind: Options.Restart: %w", err)
	}
	if first == nil {
		return nil, errors.New("engine: rewind: Options.Restart gave no scene")
	}
	if t.live {
		// The recording up to the target, to replay; the run records anew.
		g := &l.groups[0]
		at := g.rate.Due(t.tick)
		counts := make([]int64, len(l.groups))
		for i := range l.groups {
			counts[i] = l.groups[i].rate.TicksAt(at)
		}
		r.replay = r.record.prefix(t.scene, counts)
		r.record.log.Restart()
	} else {
		r.replay.replayed = ReplayReport{}
	}
	r.seek = &t
	l.scenes, l.ranBefore, l.net.base = 0, 0, 0
	l.begun, l.stopped, l.err, l.rec.again = false, false, nil, false // stopWanted stays: a Stop since the chain ended (another goroutine's) still ends the run
	return first, nil
}

// asksAgain reports whether the re-run under way asks the tick source of
// group g again for a recorded tick (its answer replaced by the
// recording's), so that a source with state of its own (an autopilot's
// random source) is where it was when the tick was recorded: a source
// answers each tick once. So a run that goes on from a save asks every
// source (a new run: they have answered nothing yet), and a rewind's re-run
// from a fresh first scene asks the sources of the scenes it makes anew
// (Loop.SetTickInput's) but not Options.TickInput, which answered those
// ticks already. A step back from a keyframe asks none: its sources
// answered the ticks it simulates again, whose recorded input they get, as
// a session's rollback and the sync test do.
func (r *recorder) asksAgain(g int) bool {
	switch t := r.seek; {
	case t == nil || !t.live || t.keyframe:
		return false
	case t.load != nil:
		return true
	}
	return g < len(r.loop.tickSrc) && r.loop.tickSrc[g] != nil
}

// seekTime is the game time a frame of the re-run goes to: the end of the
// recorded timeline, or the target in the target's timeline.
func (l *Loop) seekTime() time.Duration {
	g, r := &l.groups[0], &l.rec
	switch {
	case l.scenes == r.seek.scene && r.seek.load != nil:
		return l.loadTime(r.replayed.Ticks)
	case l.scenes == r.seek.scene:
		return g.rate.Due(r.seek.tick)
	case r.replayed != nil:
		return max(l.gameTime, g.rate.Due(r.replayed.Ticks[0]))
	}
	return l.gameTime
}

// seekFrameDone ends the re-run once a frame of the target's timeline has
// delivered its ticks: the loop pauses there, live or replaying; a load
// checks the state against the save's and goes on.
func (r *recorder) seekFrameDone() error {
	if r.loop.scenes != r.seek.scene {
		return nil
	}
	t := r.seek
	if t.live {
		r.replay, r.replayed = nil, nil
	}
	r.seek = nil
	if t.load != nil {
		return r.loadDone(t.load)
	}
	r.loop.paused = true
	return nil
}
