package components

import (
	"github.com/fixedstep/fixedstep/third_party/cp"
	"github.com/fixedstep/fixedstep/third_party/donburi"
)

// Player marks the entity the player drives, and how: the arrow keys or WASD,
// or the left stick of gamepad slot Pad, push its body with up to Force
// (newtons in world units) towards a top speed of Speed (units per second).
// The system that does it is systems.PlayerControl; it runs in the tick, on
// the tick's input, before physics steps.
type Player struct {
	Force, Speed float64
	Pad          int

	// DeadZone is how far (0 to 1) the stick must lean before it counts:
	// a stick at rest drifts a little. Beyond it the lean is rescaled to
	// still reach full speed at the rim. Zero means 0.15; negative, none.
	DeadZone float64

	// Face turns the body to face the way the player steers (its angle set,
	// its spin stopped) whenever the input leans more than a tenth of the
	// way: for a top-down character whose sprite points along +X.
	Face bool

	// Axis keeps the player on one axis: AxisX for a paddle that moves
	// left and right (Up and Down do nothing, and a diagonal is as fast as
	// Left or Right), AxisY for one that moves up and down; 0 moves both ways.
	Axis Axis

	// Min and Max, on each axis where Max is above Min, are the bounds of a
	// kinematic player's position: PlayerControl cuts its velocity so that
	// no step takes it past them (it stops at the edge, and a body outside
	// is brought back to it in one step). A kinematic body passes through
	// walls, so a paddle needs them; a dynamic player is held by walls
	// instead, and they leave it alone. Min.X = 40, Max.X = 600 keeps a
	// paddle's centre within x 40 to 600, free on y.
	Min, Max cp.Vector
}

// Axis is an axis a player may be held to (see Player.Axis).
type Axis uint8

// The axes.
const (
	AxisBoth Axis = iota
	AxisX
	AxisY
)

// PlayerC is the Player component type.
var PlayerC = donburi.NewComponentType[Player]()

// Seat says which player of a run of several drives a Player entity:
// engine.Event.Players[Seat.Player], from 0. The players are a networked
// run's, or the seats of one machine or several (local multiplayer:
// core.Stage.SetSeats, input.Seats), each seat's input holding only its
// device's keys or its pad (in slot 0: leave Player.Pad 0). An entity
// without one is the first player's, and reads the machine's whole input.
type Seat struct {
	Player int
}

// SeatC is the Seat component type.
var SeatC = donburi.NewComponentType[Seat]()
