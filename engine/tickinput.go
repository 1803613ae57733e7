package engine

import (
	"fmt"
	"time"

	"github.com/fixedstep/fixedstep/engine/input"
)

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
// read the game state the previous ticks left. It must not allocate if
// ticks are to stay allocation-free.
//
// # What a source may hold
//
// A source is the player, not the game: its input for a tick is taken
// once, recorded, and the record is what every tick simulated again gets.
// A replay does not ask it; nor do the ticks a session's rollback
// simulates again ([Options.Session]), the sync test's second pass
// ([Options.SyncTest]) or a step back from a keyframe ([Rewinder.Back]):
// they restore the scene's state and give the ticks after it their
// recorded input. So a source may keep state of its own (a random source,
// a plan, a counter), which moves on once per tick asked, and may read the
// game's state, but its state must not be part of the scene's: what a
// rollback restores (stage.Keep, a component) would go back without the
// source being asked again, and its next answers would be drawn from
// there, taking the run elsewhere than the run without the rollback.
// stage.Stage refuses such a source by name: a value kept with stage.Keep
// that changes while the loop asks a source ends the run, and so, under
// the sync test, does a change to the world (see [SamplerCheck]). Going on from a save, or re-running the run from fresh
// scenes for a step back further than the keyframes reach, the loop asks
// the sources made anew for every tick again, their answers replaced by
// the recording's, so that such state is where it was when the tick was
// recorded.
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

// KeyFrom is a TickInput that holds key down from tick n of the group on:
// the tick n sees it pressed. It is a menu's autopilot (a second on a
// title, then Enter: loop.SetTickInput(0, engine.KeyFrom(input.KeyEnter, 60))).
func KeyFrom(key input.Key, n int64) TickInput {
	return TickInputFunc(func(t TickInfo, in *input.State) { in.SetKey(key, t.Tick >= n) })
}

// SetTickInput makes src the input of every tick of group g (an index into
// the scene's groups), in place of the devices' or [Options.TickInput]: the
// scene's autopilot or bot, which may read its world. It is asked once per
// tick and may keep state of its own, but not in the scene's state (see
// [TickInput]: what a source may hold). nil gives the group back to them.
// [Run] clears it before each scene, so a scene sets its own, before or
// after [Loop.Start]. A negative g panics (a programming error).
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

// A SamplerCheck is a [SceneState] that checks what a [TickInput] changes
// of the scene's state: the loop calls BeforeSample right before it asks a
// source for a tick's input and AfterSample right after, and an error from
// AfterSample fails the loop (the tick is still delivered; the event
// stream ends after it). stage.Stage's is one: it refuses a source that
// changes a value the scene keeps (stage.Keep), naming the source and the
// value. Both are called on the loop's goroutine and should allocate
// nothing.
type SamplerCheck interface {
	SceneState
	BeforeSample()
	AfterSample(src TickInput, t TickInfo) error
}

// askSource asks src for the input of tick t into in, checked by the scene's
// state when it is a SamplerCheck.
func (l *Loop) askSource(src TickInput, t TickInfo, in *input.State) {
	c, _ := l.rec.state.(SamplerCheck)
	if c == nil {
		src.SampleTick(t, in)
		return
	}
	c.BeforeSample()
	src.SampleTick(t, in)
	if err := c.AfterSample(src, t); err != nil {
		l.fail(err)
	}
}

// tickInputOf gives tick g.ticks of group i its players' input (rule 4),
// from one of four sources:
//
//   - a session's (Options.Session): every player's input, the local
//     player's taken live, as below, once a tick;
//   - a replay's: the input the tick saw when recorded;
//   - a tick source's (SetTickInput, Options.TickInput), asked with the
//     live input, which it keeps or overrides;
//   - the devices' (the driver's or Options.Input): every press since the
//     group's last tick.
func (l *Loop) tickInputOf(i int, g *group) {
	switch {
	case l.net.session != nil:
		l.net.tickInput(l, i, g)
	case l.rec.replay != nil:
		l.replayedInput(i, g)
	default:
		l.liveInput(i, g, &g.players[0])
	}
}

// replayedInput gives group g's tick the recording's input: the live
// presses since the group's last tick are spent on it. A tick source is
// still asked when a run that goes on live from here needs it asked as it
// was (see asksAgain), its answer replaced by the recording's.
func (l *Loop) replayedInput(i int, g *group) {
	l.rec.replayInput(i, g.ticks, g.players[:l.players])
	g.pending.ClearEdges()
	g.srcPrev = g.players[0] // what the source gave when recorded: a run going on live from here derives its edges from it
	if src := l.tickSource(i); src != nil && l.rec.asksAgain(i) {
		l.scratch = g.pending
		l.askSource(src, TickInfo{Scene: l.sceneName, Group: i, Tick: g.ticks, Time: g.lastDue}, &l.scratch)
	}
}

// liveInput sets in to the live input of group g's tick: the devices'
// presses since its last tick, then the tick source's, which keeps the
// live edges it does not override.
func (l *Loop) liveInput(i int, g *group, in *input.State) {
	*in = g.pending
	g.pending.ClearEdges()
	if src := l.tickSource(i); src != nil {
		live := *in
		l.askSource(src, TickInfo{Scene: l.sceneName, Group: i, Tick: g.ticks, Time: g.lastDue}, in)
		in.DeriveEdges(&g.srcPrev)
		in.AddEdges(&live)
		g.srcPrev = *in
	}
}
