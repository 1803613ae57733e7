package input

import "math"

// Actions name what a player does (jump, fire, move left) and bind each
// name to keys, gamepad buttons and stick directions, so that a game reads
// its actions and the player rebinds them. They are read from a State: a
// tick's input, recorded and replayed as it is, so a replay sees the same
// actions as long as it runs with the same bindings (bindings are
// settings: a game that lets the player change them mid-run does it on a
// tick, from its menu's input, so that the replay does too). Reading an
// action allocates nothing.
type Actions struct {
	binds map[string]*Binding
	aims  map[string]*AimBinding // aim actions (aim.go)
}

// Binding is what triggers an action: any of its keys, any of its mouse
// buttons, any of its gamepad buttons on its pad, or its stick axis pushed
// past DeadZone in its direction.
type Binding struct {
	Keys    []Key
	Mouse   []MouseButton
	Buttons []GamepadButton
	Pad     int // the gamepad slot of Buttons and Axis

	// Axis, with AxisDir -1 or 1, makes the axis pushed that way (past
	// DeadZone, 0.5 when zero) hold the action; AxisDir 0: no axis.
	Axis     GamepadAxis
	AxisDir  float64
	DeadZone float64
}

// NewActions returns actions with the given bindings.
func NewActions(binds map[string]Binding) *Actions {
	a := &Actions{binds: map[string]*Binding{}}
	for name, b := range binds { //detcheck:ok each name bound apart: the order reaches nothing
		a.Bind(name, b)
	}
	return a
}

// Bind binds name to b, replacing what it was bound to.
func (a *Actions) Bind(name string, b Binding) {
	if a.binds == nil {
		a.binds = map[string]*Binding{}
	}
	a.binds[name] = &b
}

// Binding returns what name is bound to, and whether it is bound.
func (a *Actions) Binding(name string) (Binding, bool) {
	b, ok := a.binds[name]
	if !ok {
		return Binding{}, false
	}
	return *b, true
}

// Down reports whether action name is held in s: a key or button of it
// held, or its stick direction pushed. An unbound name is never down.
func (a *Actions) Down(s *State, name string) bool {
	b := a.binds[name]
	return b != nil && s != nil && (b.held(s) || b.axis(s) > 0)
}

// Pressed reports whether a key or button (mouse or gamepad) of action name went down in s
// (State's edges: the same window as KeyPressed). A stick direction makes
// no press.
func (a *Actions) Pressed(s *State, name string) bool {
	b := a.binds[name]
	if b == nil || s == nil {
		return false
	}
	for _, k := range b.Keys {
		if s.KeyPressed(k) {
			return true
		}
	}
	for _, m := range b.Mouse {
		if s.MouseJustPressed(m) {
			return true
		}
	}
	for _, btn := range b.Buttons {
		if s.GamepadPressed(b.Pad, btn) {
			return true
		}
	}
	return false
}

// Value returns how far action name is pushed, from 0 to 1: 1 for a key or
// a button held, the stick's push past the dead zone otherwise.
func (a *Actions) Value(s *State, name string) float64 {
	b := a.binds[name]
	if b == nil || s == nil {
		return 0
	}
	if b.held(s) {
		return 1
	}
	return b.axis(s)
}

// held reports whether a key or button of the binding is held.
func (b *Binding) held(s *State) bool {
	for _, k := range b.Keys {
		if s.KeyDown(k) {
			return true
		}
	}
	for _, m := range b.Mouse {
		if s.MouseDown(m) {
			return true
		}
	}
	for _, btn := range b.Buttons {
		if s.GamepadDown(b.Pad, btn) {
			return true
		}
	}
	return false
}

// axis returns how far the binding's stick direction is pushed past its
// dead zone, rescaled to (0, 1]; 0 when it is not.
func (b *Binding) axis(s *State) float64 {
	if b.AxisDir == 0 {
		return 0
	}
	dz := b.DeadZone
	if dz <= 0 || dz >= 1 {
		dz = 0.5
	}
	v := s.GamepadAxis(b.Pad, b.Axis)
	if math.Signbit(b.AxisDir) { // as Copysign(1, AxisDir) would: -0 too
		v = -v
	}
	if !(v > dz) {
		return 0
	}
	return min((v-dz)/(1-dz), 1)
}
