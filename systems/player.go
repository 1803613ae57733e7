package systems

import (
	"math"

	"github.com/fixedstep/fixedstep/components"
	"github.com/fixedstep/fixedstep/engine"
	"github.com/fixedstep/fixedstep/engine/detmath"
	"github.com/fixedstep/fixedstep/engine/input"
	"github.com/fixedstep/fixedstep/third_party/cp"
	"github.com/fixedstep/fixedstep/third_party/donburi"
	"github.com/fixedstep/fixedstep/third_party/donburi/filter"
)

// PlayerControl is the system that drives every entity with a
// [components.Player] and a [components.Body] from its player's input for
// the tick: engine.Event.Input, or for an entity with a
// [components.Seat], that seat's player's (engine.Event.Player), as in a
// networked game or a local one (core.Stage.SetSeats: each seat's input
// holds only its device, a half of the keyboard or a pad in slot 0, so
// two players on one keyboard each move by their own keys). A seat the
// run has no player for (a run of one player, and a second seat) steers
// nowhere: the body brakes, and a game that wants it driven drives it
// with a system of its own. The arrow keys or
// WASD, plus the left stick of the player's gamepad slot, make a direction
// of length at most 1
// ([PlayerInput]); the body is pushed towards that direction times
// Player.Speed with the force that would reach it in one step, cut to
// Player.Force, added to the forces already on the body. So a player
// accelerates at up to Force/mass, holds Speed, and brakes with the same
// force when the keys are let go. With Player.Face the body turns to face
// the direction.
//
// A kinematic body (a Breakout paddle; see [Kinematic]) has no mass to push:
// its velocity is set to the direction times Speed at once, Force unused,
// cut so that it stays within Player.Min and Player.Max (walls do not stop
// it). A static body is left alone.
//
// Schedule it in the physics group before the physics system
// (sched.AddUpdate(g, "player", pc.Update).AddUpdate(g, "physics",
// physics.Update)): cp clears a body's forces after each step. It works in
// world coordinates with y down, as the render system draws them: up (arrow
// up, W, stick up) is -Y. It reads only the tick's input, so a recording
// replays it exactly, and allocates nothing.
//
// An autopilot, a script or a network peer drives a player through its
// input: an engine.TickInput that moves the keys or the stick, so that it is
// recorded and replayed like a player.
type PlayerControl struct {
	players *donburi.Query
}

// NewPlayerControl returns the player system.
func NewPlayerControl() *PlayerControl {
	return &PlayerControl{players: donburi.NewQuery(filter.Contains(components.PlayerC, components.BodyC))}
}

// Update is the system: one tick of ev.DT seconds for every player, in the
// world's query order, each driven by its player's input: ev.Input, or for
// an entity with a components.Seat, that player's (ev.Player(Seat.Player)).
// Without input (nil ev.Input, or a seat the run has no player for) a
// player steers nowhere: it brakes.
func (pc *PlayerControl) Update(w donburi.World, ev engine.Event) {
	if !(ev.DT > 0) {
		return
	}
	for e := range pc.players.Iter(w) {
		pl := components.PlayerC.Get(e)
		body := components.BodyC.Get(e).Body
		if body == nil {
			continue
		}
		in := ev.Input
		if e.HasComponent(components.SeatC) {
			in = ev.Player(components.SeatC.Get(e).Player)
		}
		var dir cp.Vector
		if in != nil {
			dir = PlayerInput(in, pl.Pad, pl.DeadZone)
			switch pl.Axis {
			case components.AxisX:
				dir = cp.Vector{X: axisOnly(in, pl, true)}
			case components.AxisY:
				dir = cp.Vector{Y: axisOnly(in, pl, false)}
			}
		}
		want := dir.Mult(pl.Speed)
		switch body.GetType() {
		case cp.BODY_DYNAMIC:
			f := want.Sub(body.Velocity()).Mult(body.Mass() / ev.DT).Clamp(pl.Force)
			body.SetForce(body.Force().Add(f))
		case cp.BODY_KINEMATIC:
			pos := body.Position()
			want.X = withinBounds(pos.X, want.X, pl.Min.X, pl.Max.X, ev.DT)
			want.Y = withinBounds(pos.Y, want.Y, pl.Min.Y, pl.Max.Y, ev.DT)
			body.SetVelocityVector(want)
		default:
			continue
		}
		if pl.Face && dir.Length() > 0.1 {
			body.SetAngle(detmath.Atan2(dir.Y, dir.X))
			body.SetAngularVelocity(0)
		}
	}
}

// withinBounds is the velocity v cut so that a step of dt from x ends within
// [lo, hi], or v itself when hi is not above lo (no bounds on that axis).
func withinBounds(x, v, lo, hi, dt float64) float64 {
	if !(hi > lo) {
		return v
	}
	return (min(max(x+float64(v*dt), lo), hi) - x) / dt
}

// axisOnly is the input along one axis alone (a paddle's), in [-1, 1]: the
// keys of that axis, whatever else is held, and the stick's lean along it,
// past the dead zone.
func axisOnly(in *input.State, pl *components.Player, horizontal bool) float64 {
	neg, altNeg, pos, altPos := input.KeyArrowLeft, input.KeyA, input.KeyArrowRight, input.KeyD
	axis := input.AxisLeftStickHorizontal
	if !horizontal {
		neg, altNeg, pos, altPos = input.KeyArrowUp, input.KeyW, input.KeyArrowDown, input.KeyS
		axis = input.AxisLeftStickVertical
	}
	v := 0.0
	if in.KeyDown(neg) || in.KeyDown(altNeg) {
		v--
	}
	if in.KeyDown(pos) || in.KeyDown(altPos) {
		v++
	}
	dz := pl.DeadZone
	switch {
	case dz == 0:
		dz = 0.15
	case dz < 0:
		dz = 0
	}
	if a := in.GamepadAxis(pl.Pad, axis); math.Abs(a) > dz && dz < 1 && finite(a) {
		v += math.Copysign(min((math.Abs(a)-dz)/(1-dz), 1), a)
	}
	return max(-1, min(1, v))
}

// PlayerInput returns the direction a player asks for in, of length at most
// 1 (y down: up is -Y): each of the arrow keys and WASD counts 1 along its
// axis, and the left stick of gamepad slot pad adds its lean. A stick
// leaning less than deadZone (0 to 1; 0 means 0.15, negative none) counts as
// centred, and a lean beyond it is rescaled to reach 1 at the rim. A pad
// that is not there (or a slot out of range) adds nothing.
func PlayerInput(in *input.State, pad int, deadZone float64) cp.Vector {
	var d cp.Vector
	if in.KeyDown(input.KeyArrowLeft) || in.KeyDown(input.KeyA) {
		d.X--
	}
	if in.KeyDown(input.KeyArrowRight) || in.KeyDown(input.KeyD) {
		d.X++
	}
	if in.KeyDown(input.KeyArrowUp) || in.KeyDown(input.KeyW) {
		d.Y--
	}
	if in.KeyDown(input.KeyArrowDown) || in.KeyDown(input.KeyS) {
		d.Y++
	}
	stick := cp.Vector{
		X: in.GamepadAxis(pad, input.AxisLeftStickHorizontal),
		Y: in.GamepadAxis(pad, input.AxisLeftStickVertical),
	}
	switch {
	case deadZone == 0:
		deadZone = 0.15
	case deadZone < 0:
		deadZone = 0
	}
	if l := stick.Length(); l <= deadZone || deadZone >= 1 || !finite(l) {
		stick = cp.Vector{}
	} else if deadZone > 0 {
		stick = stick.Mult(min((l-deadZone)/(1-deadZone), 1) / l)
	}
	return d.Add(stick).Clamp(1)
}

func finite(x float64) bool { return x-x == 0 }
