package input_test

import (
	"math"
	"testing"

	"github.com/fixedstep/fixedstep/engine/input"
)

// An action is down when any of its keys or buttons is held or its stick
// direction is pushed; pressed on a key's or button's edge; its value the
// stick's push past the dead zone, 1 for a key. Rebinding replaces the
// binding; an unbound name is never down. Reading allocates nothing.
func TestActions(t *testing.T) {
	a := input.NewActions(map[string]input.Binding{
		"jump": {Keys: []input.Key{input.KeySpace, input.KeyW}, Buttons: []input.GamepadButton{input.GamepadRightBottom}},
		"left": {Keys: []input.Key{input.KeyArrowLeft}, Axis: input.AxisLeftStickHorizontal, AxisDir: -1, DeadZone: 0.2},
	})
	var prev, s input.State
	s.SetKey(input.KeyW, true)
	s.DeriveEdges(&prev)
	if !a.Down(&s, "jump") || !a.Pressed(&s, "jump") || a.Down(&s, "left") || a.Down(&s, "fire") {
		t.Errorf("W held: jump down %v pressed %v, left %v, fire %v", a.Down(&s, "jump"), a.Pressed(&s, "jump"), a.Down(&s, "left"), a.Down(&s, "fire"))
	}
	prev, s = s, input.State{}
	s.SetKey(input.KeyW, true)
	s.SetGamepadAxis(0, input.AxisLeftStickHorizontal, -0.6)
	s.DeriveEdges(&prev)
	if a.Pressed(&s, "jump") || !a.Down(&s, "left") || math.Abs(a.Value(&s, "left")-0.5) > 1e-12 {
		t.Errorf("W still held, stick 0.6 left: jump pressed %v, left down %v value %v (want 0.5)", a.Pressed(&s, "jump"), a.Down(&s, "left"), a.Value(&s, "left"))
	}
	a.Bind("jump", input.Binding{Keys: []input.Key{input.KeyK}})
	if a.Down(&s, "jump") {
		t.Errorf("jump rebound to K: still down with W")
	}
	if b, ok := a.Binding("jump"); !ok || len(b.Keys) != 1 || b.Keys[0] != input.KeyK {
		t.Errorf("Binding(jump) = %+v, %v", b, ok)
	}
	if n := testing.AllocsPerRun(100, func() { _ = a.Down(&s, "left") && a.Pressed(&s, "jump") || a.Value(&s, "left") > 2 }); n != 0 {
		t.Errorf("reading actions allocates %v times", n)
	}
}
