package engine

import (
	"time"

	"github.com/fixedstep/fixedstep/engine/input"
)

// EventKind says what an [Event] asks the scene to do.
type EventKind uint8

const (
	// Input opens every frame: the frame's input sample, before its updates.
	Input EventKind = iota + 1
	// Update is one fixed step of one rate group.
	Update
	// Render closes every frame: draw the state, blended by Alpha.
	Render
)

func (k EventKind) String() string {
	switch k {
	case Input:
		return "Input"
	case Update:
		return "Update"
	case Render:
		return "Render"
	}
	return "EventKind(?)"
}

// An Event is one step of the loop. Every frame is one Input event, then the
// Update events due in that frame in due-time order, then one Render event.
// Pointers in an Event point into the loop and are valid until the next call
// to [Loop.Next]: copy what must be kept.
type Event struct {
	Kind  EventKind
	Frame int64 // frames since the loop began, counting from 1

	// Time is game time in this scene's timeline: for an Update the due time of
	// its tick (Tick/Hz seconds), for a Render the time drawn, for an Input the
	// time of the frame before (input arrives at the state last drawn). Under
	// Drop (the default) it never goes back from one event to the next; under
	// Carry, ticks owed arrive after a Render that showed a later time.
	Time time.Duration

	// Update: which group (its index in the scene's groups), which of its
	// ticks (1, 2, ... since the scene started), and its fixed step in seconds
	// (exactly 1/Hz, the same every tick).
	Group int
	Tick  int64
	DT    float64

	// Render: how far game time is past the first group's last tick, in units of
	// its step, in [0, 1); ExtDT is the same distance as a duration, for
	// extrapolation. Screen is what the driver gives to draw on: the
	// window driver's *ebiten.Image (package engine/window reads it:
	// window.Screen(ev)), nil headless. The loop never looks at it.
	Alpha  float64
	ExtDT  time.Duration
	Screen any

	// Input: the frame's sample (edges since the previous frame). Update: what
	// this tick of this group sees (edges since this group's previous tick);
	// in a run of several players, the first player's, the same on every
	// player's machine. Nil in Render events.
	Input *input.State

	// Players, in an Update event, is every player's input for the tick,
	// by player number, what Input is for the first: Players[0] is *Input.
	// It holds one player but in a networked run (Options.Session) and its
	// replays, where it holds the session's players, each from their own
	// machine's devices or TickInput. Nil in Input and Render events.
	Players []input.State
}

// Player returns player p's input for the tick (see Event.Players), nil
// when the run has no such player: a system that drives player p reads it,
// and does nothing for a player who is not there.
func (e *Event) Player(p int) *input.State {
	if uint(p) >= uint(len(e.Players)) {
		return nil
	}
	return &e.Players[p]
}

// Seconds returns Time in seconds.
func (e *Event) Seconds() float64 { return e.Time.Seconds() }
