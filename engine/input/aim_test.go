package input_test

import (
	"fmt"
	"math"
	"testing"

	"github.com/fixedstep/fixedstep/engine/input"
)

// An aim action aims with the stick past its dead zone first (a unit
// direction), then with its keys (eight directions, opposites cancel),
// then with the cursor; an unbound name, a nil state and a stick at rest
// with no key and no mouse do not aim; a stick or cursor that is no
// number counts as not aiming. Reading it allocates nothing.
func TestAim(t *testing.T) {
	a := input.NewActions(nil)
	a.BindAim("aim", input.AimBinding{
		Stick: input.StickRight, Pad: 1, DeadZone: 0.3,
		Up: []input.Key{input.KeyI}, Down: []input.Key{input.KeyK},
		Left: []input.Key{input.KeyJ}, Right: []input.Key{input.KeyL},
		Mouse: true,
	})
	var s input.State
	s.CursorX, s.CursorY = 200, 120
	want := func(what string, got, w input.Aim) {
		t.Helper()
		if got.Kind != w.Kind || math.Abs(got.X-w.X) > 1e-15 || math.Abs(got.Y-w.Y) > 1e-15 {
			t.Errorf("%s: %v %v, %v; want %v %v, %v", what, got.Kind, got.X, got.Y, w.Kind, w.X, w.Y)
		}
	}
	want("cursor only", a.Aim(&s, "aim"), input.Aim{Kind: input.AimCursor, X: 200, Y: 120})

	s.SetKey(input.KeyL, true)
	s.SetKey(input.KeyI, true)
	want("L and I", a.Aim(&s, "aim"), input.Aim{Kind: input.AimDirection, X: math.Sqrt2 / 2, Y: -math.Sqrt2 / 2})
	s.SetKey(input.KeyJ, true)
	want("J, L and I: left and right cancel", a.Aim(&s, "aim"), input.Aim{Kind: input.AimDirection, Y: -1})

	s.SetGamepadAxis(1, input.AxisRightStickHorizontal, 0.2)
	s.SetGamepadAxis(1, input.AxisRightStickVertical, 0.1)
	want("stick inside its dead zone: the keys aim", a.Aim(&s, "aim"), input.Aim{Kind: input.AimDirection, Y: -1})
	s.SetGamepadAxis(1, input.AxisRightStickHorizontal, -0.3)
	s.SetGamepadAxis(1, input.AxisRightStickVertical, 0.4)
	want("stick pushed (-0.3, 0.4)", a.Aim(&s, "aim"), input.Aim{Kind: input.AimDirection, X: -0.6, Y: 0.8})
	s.SetGamepadAxis(1, input.AxisRightStickVertical, math.NaN())
	want("a NaN axis: the keys aim", a.Aim(&s, "aim"), input.Aim{Kind: input.AimDirection, Y: -1})

	s = input.State{CursorX: math.Inf(1)}
	want("an infinite cursor", a.Aim(&s, "aim"), input.Aim{})
	want("unbound", a.Aim(&s, "fire"), input.Aim{})
	want("nil state", a.Aim(nil, "aim"), input.Aim{})
	a.BindAim("pad", input.AimBinding{Stick: input.StickLeft})
	want("left stick at rest, no mouse", a.Aim(&s, "pad"), input.Aim{})
	s.SetGamepadAxis(0, input.AxisLeftStickVertical, -1)
	want("left stick up", a.Aim(&s, "pad"), input.Aim{Kind: input.AimDirection, Y: -1})
	if b, ok := a.AimBinding("pad"); !ok || b.Stick != input.StickLeft {
		t.Errorf("AimBinding(pad) = %+v, %v", b, ok)
	}
	if _, ok := a.AimBinding("fire"); ok {
		t.Error("AimBinding(fire): bound")
	}
	if n := testing.AllocsPerRun(100, func() { _ = a.Aim(&s, "pad") }); n != 0 {
		t.Errorf("Aim allocates %v times", n)
	}
}

// A mouse button held or pressed holds or presses an action bound to it.
func TestActionsMouse(t *testing.T) {
	a := input.NewActions(map[string]input.Binding{"fire": {Mouse: []input.MouseButton{input.MouseButtonLeft}}})
	var prev, s input.State
	s.SetMouseButton(input.MouseButtonLeft, true)
	s.DeriveEdges(&prev)
	if !a.Down(&s, "fire") || !a.Pressed(&s, "fire") || a.Value(&s, "fire") != 1 {
		t.Errorf("left button went down: down %v pressed %v value %v", a.Down(&s, "fire"), a.Pressed(&s, "fire"), a.Value(&s, "fire"))
	}
	prev = s
	s.DeriveEdges(&prev)
	if !a.Down(&s, "fire") || a.Pressed(&s, "fire") {
		t.Errorf("left button held: down %v pressed %v", a.Down(&s, "fire"), a.Pressed(&s, "fire"))
	}
}

// An example of an aim action: the right stick, IJKL or the mouse.
func ExampleActions_Aim() {
	a := input.NewActions(nil)
	a.BindAim("aim", input.AimBinding{
		Stick: input.StickRight,
		Up:    []input.Key{input.KeyI}, Down: []input.Key{input.KeyK},
		Left: []input.Key{input.KeyJ}, Right: []input.Key{input.KeyL},
		Mouse: true,
	})
	var s input.State
	s.CursorX, s.CursorY = 320, 180
	fmt.Println(a.Aim(&s, "aim"))
	s.SetKey(input.KeyK, true)
	fmt.Println(a.Aim(&s, "aim"))
	s.SetGamepadAxis(0, input.AxisRightStickHorizontal, 1)
	fmt.Println(a.Aim(&s, "aim"))
	// Output:
	// {AimCursor 320 180}
	// {AimDirection 0 1}
	// {AimDirection 1 0}
}
