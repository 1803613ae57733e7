// Package aim turns each player's aim into where an entity aims in the
// world, every tick: the right stick, four keys or the mouse (through the
// scene's camera), read from the tick's input with an aim action
// (input.Actions.Aim), so that a replay, a rollback and a netplay peer
// aim where the player aimed. An [Aimer] keeps the direction (the last
// one while nothing aims), the point aimed at, whether the fire action is
// held, and can turn its body to face the aim rather than the way it
// moves: the facing of a twin-stick shooter.
//
//	sys := aim.NewSystem(cp.Vector{X: 640, Y: 360}) // the game's screen, in pixels
//	st.Sched.AddUpdate(g, "player", pc.Update).AddUpdate(g, "aim", sys.Update).AddUpdate(g, "physics", st.Physics.Update)
//	ship := st.Physics.SpawnCircle(12, opts, components.PlayerC, aim.AimerC)
//	aim.AimerC.SetValue(st.World.Entry(ship), aim.Aimer{Face: true})
//
// Package systems/shoot fires along an Aimer's direction while it fires.
package aim

import (
	"math"

	"github.com/fixedstep/fixedstep/components"
	"github.com/fixedstep/fixedstep/engine"
	"github.com/fixedstep/fixedstep/engine/detmath"
	"github.com/fixedstep/fixedstep/engine/input"
	"github.com/fixedstep/fixedstep/systems/camera"
	"github.com/fixedstep/fixedstep/third_party/cp"
	"github.com/fixedstep/fixedstep/third_party/donburi"
	"github.com/fixedstep/fixedstep/third_party/donburi/filter"
)

// Aimer is an entity that aims: its setting and what the system found
// this tick, state that a replay and a rollback restore.
type Aimer struct {
	// Face turns the entity's body to face the aim (its angle set to the
	// aim's, its spin stopped) every tick that something aims: a sprite
	// that points along +X looks where it aims, not where it goes. Leave
	// components.Player.Face off, or schedule the aim system after
	// systems.PlayerControl, which would turn it the way it moves.
	Face bool

	// Dir is the direction aimed, of length 1, y down: the last aim,
	// kept while nothing aims; +X before the first.
	Dir cp.Vector
	// Point is the world point aimed at: the cursor through the camera
	// when the mouse aims, else the entity's position plus Dir.
	Point cp.Vector
	// Aiming: something aimed this tick (the stick, a key or the mouse).
	Aiming bool
	// Fire: the system's fire action is held this tick; Pressed: it went
	// down since the last tick.
	Fire, Pressed bool
}

// AimerC is the Aimer component type.
var AimerC = donburi.NewComponentType[Aimer]()

// Direction returns Dir, or +X before anything aimed.
func (a *Aimer) Direction() cp.Vector {
	if a.Dir == (cp.Vector{}) {
		return cp.Vector{X: 1}
	}
	return a.Dir
}

// DefaultActions returns the aim system's actions for gamepad slot pad:
// "aim" on the right stick, I, J, K and L (up, left, down, right: the
// arrows and WASD move a player) and the mouse; "fire" on the left mouse
// button, Space and the right trigger. A game rebinds them (a settings
// menu) with Bind and BindAim.
func DefaultActions(pad int) *input.Actions {
	a := input.NewActions(map[string]input.Binding{
		"fire": {Keys: []input.Key{input.KeySpace}, Mouse: []input.MouseButton{input.MouseButtonLeft},
			Buttons: []input.GamepadButton{input.GamepadFrontBottomRight}, Pad: pad},
	})
	a.BindAim("aim", input.AimBinding{
		Stick: input.StickRight, Pad: pad,
		Up: []input.Key{input.KeyI}, Down: []input.Key{input.KeyK},
		Left: []input.Key{input.KeyJ}, Right: []input.Key{input.KeyL},
		Mouse: true,
	})
	return a
}

// System is the aim system: every tick it reads each Aimer's player's aim
// and fire actions and updates the Aimer.
type System struct {
	// Actions are the bindings, with the aim action "aim" and the fire
	// action "fire" (NewSystem: DefaultActions(0)).
	Actions *input.Actions
	// Screen is the game's screen in pixels (its logical size: the
	// window's ScreenWidth and ScreenHeight), the cursor's frame, which
	// camera.ToWorld needs to find the world under it.
	Screen cp.Vector

	aimers *donburi.Query
}

// NewSystem returns the aim system of a game whose screen is screen
// pixels, with DefaultActions(0).
func NewSystem(screen cp.Vector) *System {
	return &System{
		Actions: DefaultActions(0),
		Screen:  screen,
		aimers:  donburi.NewQuery(filter.Contains(AimerC, components.TransformC)),
	}
}

// Update is the system: for every entity with an Aimer and a Transform, in
// the world's query order, the tick's input of its player (ev.Input, or
// with a components.Seat that seat's player's, as
// systems.PlayerControl reads it; none: nothing aims or fires) aims it:
// a direction from the stick or the keys, or the cursor turned into the
// world through the camera (camera.ToWorld) and aimed at from the
// entity's position (its Transform's Cur: where the last step left it). A
// cursor on the entity keeps the last direction. With Face, a body turns
// to the aim. Schedule it before the systems that read the aim (shooting)
// in the physics group; it makes no structural change and allocates
// nothing.
func (s *System) Update(w donburi.World, ev engine.Event) {
	for e := range s.aimers.Iter(w) {
		a := AimerC.Get(e)
		in := ev.Input
		if e.HasComponent(components.SeatC) {
			in = ev.Player(components.SeatC.Get(e).Player)
		}
		at := components.TransformC.Get(e).Cur
		pos := cp.Vector{X: at.X, Y: at.Y}
		got := s.Actions.Aim(in, "aim")
		a.Fire, a.Pressed = s.Actions.Down(in, "fire"), s.Actions.Pressed(in, "fire")
		a.Aiming = got.Kind != input.AimNone
		switch got.Kind {
		case input.AimDirection:
			a.Dir = cp.Vector{X: got.X, Y: got.Y}
			a.Point = pos.Add(a.Dir)
		case input.AimCursor:
			a.Point = camera.ToWorld(w, s.Screen, cp.Vector{X: got.X, Y: got.Y})
			if d := a.Point.Sub(pos); d != (cp.Vector{}) {
				a.Dir = unit(d)
			}
		default:
			a.Point = pos.Add(a.Direction())
		}
		if a.Face && a.Aiming && e.HasComponent(components.BodyC) {
			if b := components.BodyC.Get(e).Body; b != nil {
				d := a.Direction()
				b.SetAngle(detmath.Atan2(d.Y, d.X))
				b.SetAngularVelocity(0)
			}
		}
	}
}

// unit returns d scaled to length 1, its products rounded.
func unit(d cp.Vector) cp.Vector {
	l := math.Sqrt(float64(d.X*d.X) + float64(d.Y*d.Y))
	return cp.Vector{X: d.X / l, Y: d.Y / l}
}
