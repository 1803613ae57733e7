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

// KeyFrom is a TickInput that holds key down from tick n of the group on:
// the tick n sees it pressed. It is a menu's autopilot (a second on a
// title, then Enter: loop.SetTickInput(0, engine.KeyFrom(input.KeyEnter, 60))).
func KeyFrom(key input.Key, n int64) TickInput {
	return TickInputFunc(func(t TickInfo, in *input.State) { in.SetKey(key, t.Tick >= n) })
}

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
