package input

import "math"

// Aiming: a twin-stick game aims with the right stick, with four keys
// (IJKL, the arrow keys of a player who moves with WASD), or with the
// mouse. An aim action reads all three from a tick's State, which holds
// the stick's axes, the keys and the cursor (recorded and replayed, and
// sent over netplay, as the rest of the State is), so a replay aims where
// the player aimed. The cursor is a point on the screen: package
// systems/camera turns it into the world through the scene's camera
// (camera.ToWorld), and package systems/aim does it for every aiming
// entity, in the tick.

// Stick is a gamepad stick of the standard layout, for an aim action.
type Stick uint8

// The sticks. StickNone (the zero value) binds no stick.
const (
	StickNone Stick = iota
	StickLeft
	StickRight
)

// axes returns the stick's horizontal and vertical axes, and whether it is
// a stick.
func (s Stick) axes() (GamepadAxis, GamepadAxis, bool) {
	switch s {
	case StickLeft:
		return AxisLeftStickHorizontal, AxisLeftStickVertical, true
	case StickRight:
		return AxisRightStickHorizontal, AxisRightStickVertical, true
	}
	return 0, 0, false
}

// AimBinding is what aims an aim action, in this order of precedence: the
// stick of gamepad slot Pad pushed past DeadZone, then the keys (Up, Down,
// Left, Right: eight directions; opposite keys cancel), then, with Mouse,
// the cursor. The first that aims gives the tick's [Aim].
type AimBinding struct {
	Stick    Stick
	Pad      int
	DeadZone float64 // of the stick's push, 0 to 1; 0 (or 1 and more) means 0.25

	Up, Down, Left, Right []Key

	// Mouse makes the cursor aim when neither the stick nor the keys do.
	Mouse bool
}

// AimKind says what an [Aim] holds.
type AimKind uint8

// The kinds of aim.
const (
	// AimNone: nothing aims this tick (the stick at rest, no aim key held,
	// no mouse bound). A game keeps the last aim, or aims where it moves.
	AimNone AimKind = iota
	// AimDirection: X, Y is a direction of length 1, y down (up is -Y),
	// from the stick or the keys.
	AimDirection
	// AimCursor: X, Y is the cursor on the screen, in the screen's pixels
	// (State.CursorX, CursorY); turn it into the world through the camera
	// (camera.ToWorld), then aim from the aiming entity towards it.
	AimCursor
)

func (k AimKind) String() string {
	switch k {
	case AimNone:
		return "AimNone"
	case AimDirection:
		return "AimDirection"
	case AimCursor:
		return "AimCursor"
	}
	return "AimKind(?)"
}

// Aim is where an aim action points in a tick (see [Actions.Aim]).
type Aim struct {
	Kind AimKind
	X, Y float64
}

// BindAim binds aim action name to b, replacing what it was bound to. An
// aim action and a button action ([Actions.Bind]) may share a name: they
// are kept apart.
func (a *Actions) BindAim(name string, b AimBinding) {
	if a.aims == nil {
		a.aims = map[string]*AimBinding{}
	}
	a.aims[name] = &b
}

// AimBinding returns what aim action name is bound to, and whether it is
// bound.
func (a *Actions) AimBinding(name string) (AimBinding, bool) {
	b, ok := a.aims[name]
	if !ok {
		return AimBinding{}, false
	}
	return *b, true
}

// Aim returns where aim action name points in s: a direction from the
// stick or the keys, or the cursor, as its binding orders them
// ([AimBinding]); AimNone for an unbound name, a nil s, or when nothing
// aims. A stick axis that is not a finite number counts as at rest, and a
// cursor that is not finite does not aim. The direction is computed with
// every product rounded, so it is the same bits on every CPU. It allocates
// nothing.
func (a *Actions) Aim(s *State, name string) Aim {
	b := a.aims[name]
	if b == nil || s == nil {
		return Aim{}
	}
	if h, v, ok := b.Stick.axes(); ok {
		x, y := s.GamepadAxis(b.Pad, h), s.GamepadAxis(b.Pad, v)
		dz := b.DeadZone
		if dz <= 0 || dz >= 1 {
			dz = 0.25
		}
		if l := math.Sqrt(float64(x*x) + float64(y*y)); l > dz && l-l == 0 {
			return Aim{Kind: AimDirection, X: x / l, Y: y / l}
		}
	}
	var x, y float64
	if anyDown(s, b.Left) {
		x--
	}
	if anyDown(s, b.Right) {
		x++
	}
	if anyDown(s, b.Up) {
		y--
	}
	if anyDown(s, b.Down) {
		y++
	}
	if x != 0 || y != 0 {
		if x != 0 && y != 0 {
			x, y = x*math.Sqrt2/2, y*math.Sqrt2/2 // exact: a product by ±1
		}
		return Aim{Kind: AimDirection, X: x, Y: y}
	}
	if b.Mouse && s.CursorX-s.CursorX == 0 && s.CursorY-s.CursorY == 0 {
		return Aim{Kind: AimCursor, X: s.CursorX, Y: s.CursorY}
	}
	return Aim{}
}

// anyDown reports whether a key of keys is held in s.
func anyDown(s *State, keys []Key) bool {
	for _, k := range keys {
		if s.KeyDown(k) {
			return true
		}
	}
	return false
}
