// Package sideview is a side-view character controller for platform
// games: running on the ground and in the air, slopes, jumps with coyote
// time, a buffered press and a height the button holds, moving platforms
// that carry, one-way platforms passed from below and dropped through on
// demand, ground and walls found with their normals.
//
// A character is an entity spawned by the physics system (a dynamic body
// with a shape; physics.BodyOptions.Moment math.Inf(1) keeps it upright)
// with a Character component: its settings, and the state the controller
// keeps in it (on the ground, the ground's normal, the walls touched, the
// jump's timers), so that a recording replays it, a step back or a
// snapshot restores it and the state checksum covers it. The Controller
// system reads each tick's input and sets the body's velocity before the
// physics step; the world is y down, as the render system draws it.
//
//	ctl := sideview.NewController(st.Physics)
//	st.Sched.AddUpdate(g, "controller", ctl.Update).AddUpdate(g, "physics", st.Physics.Update)
//	e := st.Physics.SpawnBox(12, 24, &physics.BodyOptions{Position: start, Moment: math.Inf(1)}, sideview.CharacterC)
//	sideview.CharacterC.SetValue(st.World.Entry(e), sideview.Character{RunSpeed: 180})
//
// # Outline
//
//   - Character and Controller: the controller;
//   - Mover and MoverSystem: kinematic platforms moved along a path (from
//     Tiled: MoverFrom), exactly, and never through a character squeezed
//     against the static ground (Character.Crushed says so);
//   - Patrol, Looks, Ahead: enemies that walk, a character's clips, what
//     lies ahead;
//   - Hero and Rules: the genre's rules, each optional (a game lists those
//     it wants): stomp with a bounce, hurt with knockback and invulnerable
//     ticks, lives, checkpoints and respawn, a kill plane, pickups counted,
//     a crush costing a life.
package sideview

import (
	"math"

	"github.com/fixedstep/fixedstep/components"
	"github.com/fixedstep/fixedstep/engine"
	"github.com/fixedstep/fixedstep/engine/detmath"
	"github.com/fixedstep/fixedstep/engine/input"
	"github.com/fixedstep/fixedstep/systems/physics"
	"github.com/fixedstep/fixedstep/third_party/cp"
	"github.com/fixedstep/fixedstep/third_party/donburi"
	"github.com/fixedstep/fixedstep/third_party/donburi/filter"
)

// Character is a side-view character: its settings (zero takes the
// default named) and the controller's state.
type Character struct {
	RunSpeed    float64 // world units a second; 200
	GroundAccel float64 // how fast it reaches RunSpeed on the ground, units/s²; 2000
	AirAccel    float64 // the same in the air; 1000
	JumpSpeed   float64 // upward speed at take-off; 420
	JumpCut     float64 // what a jump's upward speed keeps when the button is let go early; 0.45
	MaxFall     float64 // the fastest fall; 700
	CoyoteTime  float64 // seconds after leaving the ground in which a jump still takes off; 0.1
	BufferTime  float64 // seconds a jump pressed in the air waits for the ground; 0.1
	DropTime    float64 // seconds it falls through one-way platforms after Down and Jump on one; 0.25
	MaxSlope    float64 // the steepest ground, radians from level (steeper is a wall); 50°

	// The controller's state, from the contacts of the last physics step.
	OnGround     bool
	GroundNormal cp.Vector      // unit, from the ground up to the character
	GroundVel    cp.Vector      // the ground's velocity under it (a moving platform's)
	Ground       donburi.Entity // the ground's entity (donburi.Null: none, or a shape of no entity)
	OnOneWay     bool           // the ground is a one-way platform
	WallNormal   cp.Vector      // from a wall it touches to it (zero: none); X > 0 is a wall on its left
	Coyote       float64        // seconds left in which a jump still takes off
	Buffered     float64        // seconds left of a jump press waiting for the ground
	Rising       bool           // in a jump whose height the button still holds
	Jumped       bool           // took off in the last tick (for a sound, a puff of dust)
	Dropping     float64        // seconds left of falling through one-way platforms

	// Crushed says it was squeezed in the last step between a kinematic
	// body moving into it (a Mover, a lift) and a static one on its other
	// side, CrushedBy the kinematic body's entity: true on every tick it
	// stays squeezed. A Mover holds still rather than push it through the
	// static body; what being crushed means is the game's (Rules: a life).
	Crushed   bool
	CrushedBy donburi.Entity
}

// CharacterC is the component of a side-view character.
var CharacterC = donburi.NewComponentType[Character]()

func (c *Character) or(v *float64, def float64) float64 {
	if *v == 0 {
		return def
	}
	return *v
}

// Controls are a tick's commands to a character.
type Controls struct {
	Move        float64 // -1 (left) to 1 (right)
	Jump        bool    // the jump button is held
	JumpPressed bool    // and went down since the last tick
	Down        bool    // down is held (with a jump press on a one-way platform: drop through)
}

// DefaultActions returns the controller's actions, bound to the arrows
// or A and D ("left", "right"), Space, Up or W ("jump"), Down or S
// ("down"), and gamepad slot pad's D-pad, left stick and bottom face
// button. A game rebinds them with Actions.Bind (a settings menu).
func DefaultActions(pad int) *input.Actions {
	stick := input.AxisLeftStickHorizontal
	return input.NewActions(map[string]input.Binding{
		"left": {Keys: []input.Key{input.KeyArrowLeft, input.KeyA}, Buttons: []input.GamepadButton{input.GamepadLeftLeft},
			Pad: pad, Axis: stick, AxisDir: -1, DeadZone: 0.2},
		"right": {Keys: []input.Key{input.KeyArrowRight, input.KeyD}, Buttons: []input.GamepadButton{input.GamepadLeftRight},
			Pad: pad, Axis: stick, AxisDir: 1, DeadZone: 0.2},
		"jump": {Keys: []input.Key{input.KeySpace, input.KeyArrowUp, input.KeyW},
			Buttons: []input.GamepadButton{input.GamepadRightBottom}, Pad: pad},
		"down": {Keys: []input.Key{input.KeyArrowDown, input.KeyS}, Buttons: []input.GamepadButton{input.GamepadLeftBottom},
			Pad: pad, Axis: input.AxisLeftStickVertical, AxisDir: 1},
	})
}

// ActionControls reads a character's commands from the tick's input
// through actions "left", "right", "jump" and "down" (see DefaultActions).
func ActionControls(a *input.Actions, in *input.State) Controls {
	if in == nil {
		return Controls{}
	}
	return Controls{
		Move:        max(-1, min(a.Value(in, "right")-a.Value(in, "left"), 1)),
		Jump:        a.Down(in, "jump"),
		JumpPressed: a.Pressed(in, "jump"),
		Down:        a.Down(in, "down"),
	}
}

// Controller is the side-view controller system.
type Controller struct {
	// Actions are the player's bindings (NewController: DefaultActions(0)).
	Actions *input.Actions

	// Controls gives a character its commands for the tick: from the
	// tick's input (a player; in is nil on a tick without input) or from
	// the entity's own components. Nil: every character reads Actions
	// (ActionControls). A character with a Patrol walks by itself whatever
	// Controls says. An autopilot drives a player through the input (an
	// engine.TickInput), so that it records and replays like a player.
	Controls func(e *donburi.Entry, in *input.State) Controls

	// Physics, if set (NewController's), lets patrols turn at ledges
	// (Patrol.Ledges): a query a step ahead of their feet.
	Physics *physics.Physics

	chars *donburi.Query
	// the DropThrough tags to add and remove once the loop over the
	// characters is done (no structural change inside a query)
	dropOn, dropOff []donburi.Entity
}

// NewController returns the controller system; phys, if not nil, lets
// patrols turn at ledges (Patrol.Ledges).
func NewController(phys *physics.Physics) *Controller {
	return &Controller{Actions: DefaultActions(0), Physics: phys,
		chars: donburi.NewQuery(filter.Contains(CharacterC, components.BodyC))}
}

// Update is the system: for every character, its contacts read (a crush
// by a kinematic body that is not a Mover's included: see
// Character.Crushed), its timers run, and its velocity set from the tick's
// controls. Schedule it in the physics group right before the physics
// system (before the MoverSystem, when there are movers). It allocates
// nothing.
func (ctl *Controller) Update(w donburi.World, ev engine.Event) {
	if !(ev.DT > 0) {
		return
	}
	for e := range ctl.chars.Iter(w) {
		c := CharacterC.Get(e)
		body := components.BodyC.Get(e).Body
		if body == nil || body.GetType() != cp.BODY_DYNAMIC {
			continue
		}
		var in Controls
		switch {
		case e.HasComponent(PatrolC):
			in = ctl.patrol(e, c)
		case ctl.Controls != nil:
			in = ctl.Controls(e, ev.Input)
		default:
			in = ActionControls(ctl.Actions, ev.Input)
		}
		c.sense(body, detmath.Cos(c.or(&c.MaxSlope, 50*math.Pi/180)))
		c.Crushed, c.CrushedBy = false, donburi.Null
		if k, ok := crusher(w, body); ok {
			c.Crushed = true
			c.CrushedBy, _ = k.UserData.(donburi.Entity)
		}
		switch c.drop(in, ev.DT) {
		case dropStarts:
			ctl.dropOn = append(ctl.dropOn, e.Entity())
		case dropEnds:
			ctl.dropOff = append(ctl.dropOff, e.Entity())
		}
		c.move(body, in, ev.DT)
	}
	for _, e := range ctl.dropOn {
		if entry := w.Entry(e); !entry.HasComponent(physics.DropThroughC) {
			entry.AddComponent(physics.DropThroughC)
		}
	}
	for _, e := range ctl.dropOff {
		if entry := w.Entry(e); entry.HasComponent(physics.DropThroughC) {
			entry.RemoveComponent(physics.DropThroughC)
		}
	}
	ctl.dropOn, ctl.dropOff = ctl.dropOn[:0], ctl.dropOff[:0]
}

// A drop is what drop asks of a character's DropThrough tag.
type drop uint8

const (
	dropNone drop = iota
	dropStarts
	dropEnds
)

// sense reads the body's contacts of the last step: the ground (the
// contact whose normal points most upward, within the slope), its
// velocity, and a wall.
func (c *Character) sense(body *cp.Body, minUp float64) {
	c.OnGround, c.OnOneWay = false, false
	c.GroundNormal, c.GroundVel, c.WallNormal = cp.Vector{}, cp.Vector{}, cp.Vector{}
	c.Ground = donburi.Null
	best := minUp
	body.EachArbiter(func(arb *cp.Arbiter) {
		n := arb.Normal().Neg() // from the other shape to the character
		_, other := arb.Shapes()
		switch up := -n.Y; {
		case up >= best:
			best = up
			c.OnGround, c.GroundNormal = true, n
			c.OnOneWay = other.CollisionType() == physics.OneWayCollisionType
			set := arb.ContactPointSet()
			c.GroundVel = other.Body().VelocityAtWorldPoint(set.Points[0].PointB)
			c.Ground, _ = other.Body().UserData.(donburi.Entity)
		case math.Abs(n.X) >= minUp:
			c.WallNormal = n
		}
	})
}

// drop starts and ends a fall through one-way platforms (Down with a jump
// press on one), and says whether the DropThrough tag goes on or off.
func (c *Character) drop(in Controls, dt float64) drop {
	if in.Down && in.JumpPressed && c.OnGround && c.OnOneWay {
		c.Dropping = c.or(&c.DropTime, 0.25)
		return dropStarts
	}
	if c.Dropping > 0 {
		if c.Dropping -= dt; c.Dropping <= 0 {
			c.Dropping = 0
			return dropEnds
		}
	}
	return dropNone
}

// move runs the jump's timers and sets the body's velocity: along the
// ground (relative to it, so that a moving platform carries), or in the
// air; a jump takes off from the ground or within the coyote time, and a
// press waits the buffer time for the ground.
func (c *Character) move(body *cp.Body, in Controls, dt float64) {
	if c.Rising && body.Velocity().Sub(c.GroundVel).Dot(c.GroundNormal) > 0 {
		c.OnGround = false // taking off: the ground it leaves is behind it
	}
	if c.OnGround {
		c.Coyote = c.or(&c.CoyoteTime, 0.1)
	} else {
		c.Coyote = max(c.Coyote-dt, 0)
	}
	switch {
	case in.JumpPressed && !(in.Down && c.OnOneWay && c.OnGround):
		c.Buffered = c.or(&c.BufferTime, 0.1)
	default:
		c.Buffered = max(c.Buffered-dt, 0)
	}
	target := float64(in.Move * c.or(&c.RunSpeed, 200))
	v := body.Velocity()
	if c.OnGround && c.Dropping == 0 {
		n := c.GroundNormal
		t := cp.Vector{X: -n.Y, Y: n.X} // along the ground, rightwards
		rel := v.Sub(c.GroundVel)
		along := approach(rel.Dot(t), target, float64(c.or(&c.GroundAccel, 2000)*dt))
		v = c.GroundVel.Add(t.Mult(along)).Add(n.Mult(rel.Dot(n)))
	} else {
		v.X = approach(v.X, target, float64(c.or(&c.AirAccel, 1000)*dt))
	}
	c.Jumped = c.Buffered > 0 && c.Coyote > 0
	if c.Jumped {
		v.Y = min(c.GroundVel.Y, 0) - c.or(&c.JumpSpeed, 420)
		c.Buffered, c.Coyote, c.Rising = 0, 0, true
	}
	if c.Rising && v.Y >= 0 {
		c.Rising = false
	}
	if c.Rising && !in.Jump {
		v.Y = float64(v.Y * c.or(&c.JumpCut, 0.45))
		c.Rising = false
	}
	v.Y = min(v.Y, c.or(&c.MaxFall, 700))
	body.SetVelocityVector(v)
}

// approach moves x towards target by at most step.
func approach(x, target, step float64) float64 {
	if x < target {
		return min(x+step, target)
	}
	return max(x-step, target)
}
