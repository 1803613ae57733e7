package engine

import (
	"errors"
	"fmt"
	"slices"
	"time"

	"github.com/fixedstep/fixedstep/engine/input"
)

// The loop's side of recording and replaying (rule 10): every timeline a
// scene starts is recorded with the scene's name and groups and ends with
// how and where it ended; a replay checks that its scenes start the same
// timelines, feeds their ticks the recorded input, and ends where the
// recording ended.

// ErrGameTimeLimit ends a loop whose game time would pass what a
// time.Duration holds (292 years): the loop stops with it rather than wrap
// around, once game time is within two MaxDelta of the largest Duration.
var ErrGameTimeLimit = errors.New("engine: game time reached the largest time.Duration (292 years): the loop stopped rather than wrap around")

// A TickInput gives the ticks of a group their input by itself, one tick at
// a time: an autopilot, a script, a bot, a remote player. Because it is
// asked once per tick, never per frame, what it gives is the same at any
// frame rate; it is recorded like live input, so a replay needs no source.
//
// SampleTick fills in what tick t sees as held (SetKey, SetMouseButton,
// cursor, wheel motion, gamepads), as an [InputSource] does. in arrives
// holding the live input as the tick would see it (the devices', or
// [Options.Input]'s): a source may keep what it does not drive (an autopilot
// that leaves Esc to the player) or clear it (*in = input.State{}) to be the
// tick's only input. The loop then derives edges from the held state the
// group's tick before saw (a scene's first tick compares with nothing held:
// a key held from it is pressed on it, whatever the scene before held), and
// keeps the live input's own edges. It is
// called as the tick is delivered, before the scene handles it, so it may
// read the game state the previous ticks left.
// During a replay it is not called: ticks get their recorded input. It must
// not allocate if ticks are to stay allocation-free.
type TickInput interface {
	SampleTick(t TickInfo, in *input.State)
}

// TickInfo says which tick a [TickInput] is asked for.
type TickInfo struct {
	Scene string        // the scene's name (see SceneName), "" outside Run
	Group int           // the group's index in the scene's groups
	Tick  int64         // the group's tick: 1, 2, ... since the scene started its timeline
	Time  time.Duration // its due time in the scene's timeline
}

// TickInputFunc adapts a function to a [TickInput].
type TickInputFunc func(t TickInfo, in *input.State)

// SampleTick calls f.
func (f TickInputFunc) SampleTick(t TickInfo, in *input.State) { f(t, in) }

// SetTickInput makes src the input of every tick of group g (an index into
// the scene's groups), in place of the devices' or [Options.TickInput]: the
// scene's autopilot or bot, which may read its world. nil gives the group
// back to them. [Run] clears it before each scene, so a scene sets its own,
// before or after [Loop.Start]. A negative g panics (a programming error).
func (l *Loop) SetTickInput(g int, src TickInput) {
	if g < 0 {
		panic(fmt.Sprintf("engine: SetTickInput(%d): no such group", g))
	}
	for len(l.tickSrc) <= g {
		l.tickSrc = append(l.tickSrc, nil)
	}
	l.tickSrc[g] = src
}

// tickSource returns the tick input of group g, nil for the frame's sample.
func (l *Loop) tickSource(g int) TickInput {
	if g < len(l.tickSrc) && l.tickSrc[g] != nil {
		return l.tickSrc[g]
	}
	return l.tickInput
}

// startTimeline records the timeline Start began, and checks a replay's.
func (l *Loop) startTimeline(groups []Group) error {
	l.replayEnd, l.replayOver = nil, 0
	b := &l.bisect
	b.pos, b.names, b.sums, b.partCur, b.found = 0, b.names[:0], b.sums[:0], 0, nil
	b.cursor = slices.Grow(b.cursor[:0], len(groups))[:len(groups)]
	clear(b.cursor)
	if l.record != nil {
		l.record.beginScene(l.sceneName, groups)
	}
	if l.replay == nil {
		return nil
	}
	ok, err := l.replay.startReplay(l.scenes-1, l.sceneName, l.groups)
	if err != nil {
		l.fail(err)
		return err
	}
	if !ok { // the recording was cut short before this timeline: so is the replay
		l.replay.replayed.Finished = true
		l.stopped = true
		return nil
	}
	l.replayEnd = &l.replay.scenes[l.scenes-1]
	return nil
}

// endTimeline records how the current timeline ended and, in a replay,
// checks that it did not end before its recording's.
func (l *Loop) endTimeline(end SceneEnd, cause error) error {
	if !l.begun {
		return nil
	}
	l.begun = false
	l.ranBefore += l.groups[0].lastDue
	if l.record != nil {
		l.record.setTicks(l.groups)
		l.record.endScene(end, cause)
	}
	rs := l.replayEnd
	if rs == nil {
		return nil
	}
	l.replay.replayed.Ticks += l.groups[0].ticks
	if f := l.bisect.found; f != nil && l.err == nil { // found since the last check
		g := &l.groups[0]
		de := &DivergenceError{Scene: l.scenes, Name: l.sceneName, Group: g.Name, Tick: g.ticks, Since: l.checkSince}
		l.explain(de, -1)
		return de
	}
	same := true
	for i := range l.groups {
		g := &l.groups[i]
		if g.ticks < rs.ticks[i] && (end == EndReturned || end == EndRestarted) {
			return &ReplayError{Scene: l.scenes, Name: l.sceneName, Group: g.Name, Tick: g.ticks, Ended: rs.ticks[i],
				Reason: fmt.Sprintf("it %s after tick %d of group %q, but its recording ran to tick %d: %s",
					end, g.ticks, g.Name, rs.ticks[i], decisionHint)}
		}
		same = same && g.ticks == rs.ticks[i]
	}
	if same && l.scenes == len(l.replay.scenes) {
		l.replay.replayed.Finished = true
	}
	return nil
}

// reachedReplayEnd is called when the next tick would run past the tick
// where the recording's timeline ended.
func (l *Loop) reachedReplayEnd() {
	rs := l.replayEnd
	switch rs.end {
	case EndReturned, EndRestarted: // the scene must end now: see Next
		if l.replayOver == 0 {
			l.replayOver = 1
		}
	case EndFailed:
		l.fail(&ReplayError{Scene: l.scenes, Name: l.sceneName, Group: l.groups[0].Name, Tick: l.groups[0].ticks,
			Ended: rs.ticks[0], Reason: fmt.Sprintf("the recording failed after tick %d of group %q (%s), the replay ran on",
				rs.ticks[0], l.groups[0].Name, rs.err)})
	default: // the recording's loop stopped here, or the recording ends here: so does the replay
		if l.scenes == len(l.replay.scenes) {
			l.replay.replayed.Finished = true
		}
		l.stopped = true
	}
}

// ranPast is the error of a replayed scene that did not end where its
// recording's did.
func (l *Loop) ranPast() error {
	rs, g := l.replayEnd, &l.groups[0]
	return &ReplayError{Scene: l.scenes, Name: l.sceneName, Group: g.Name, Tick: g.ticks, Ended: rs.ticks[0],
		Reason: fmt.Sprintf("the recording's scene %s after tick %d of group %q, the replayed scene ran on: %s",
			rs.end, rs.ticks[0], g.Name, decisionHint)}
}

// finish ends a run: the recording is marked whole and its file written.
func (l *Loop) finish(err error) error {
	l.release()
	if l.record != nil {
		if ferr := l.record.finish(); ferr != nil && err == nil {
			err = ferr
		}
	}
	return err
}
