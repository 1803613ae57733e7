package input_test

import (
	"math"
	"testing"

	"github.com/fixedstep/fixedstep/engine/input"
)

// A KeySet holds every key and nothing else: a value that is no key is
// never held and setting it does nothing.
func TestKeySet(t *testing.T) {
	var s input.KeySet
	for k := input.Key(0); k <= input.KeyMax; k++ {
		s.Set(k, true)
		if !s.Has(k) {
			t.Fatalf("key %v set, not held", k)
		}
	}
	s.Set(input.KeyMax+1, true)
	s.Set(-1, true)
	if s.Has(input.KeyMax+1) || s.Has(-1) {
		t.Fatal("a value that is no key is held")
	}
	s.Set(input.KeyA, false)
	if s.Has(input.KeyA) || !s.Has(input.KeyB) {
		t.Fatal("letting go of A changed another key")
	}
}

// Edges are derived from two samples' held state; a group's pending input
// collects the edges of every frame until its tick, and keeps the latest
// held state; clearing forgets edges and wheel motion only.
func TestEdges(t *testing.T) {
	var prev, cur input.State
	prev.SetKey(input.KeyA, true)
	cur.SetKey(input.KeyB, true)
	cur.SetMouseButton(input.MouseButtonRight, true)
	cur.SetGamepadButton(1, input.GamepadLeftTop, true)
	cur.DeriveEdges(&prev)
	if !cur.KeyPressed(input.KeyB) || !cur.KeyReleased(input.KeyA) || cur.KeyPressed(input.KeyA) ||
		!cur.MouseJustPressed(input.MouseButtonRight) || !cur.GamepadPressed(1, input.GamepadLeftTop) {
		t.Fatalf("derived edges: %+v", cur)
	}
	var pending input.State
	pending.Accumulate(&cur)
	next := cur
	next.ClearEdges()
	next.WheelY = 1
	pending.Accumulate(&next)
	pending.Accumulate(&next)
	if !pending.KeyPressed(input.KeyB) || !pending.KeyDown(input.KeyB) || pending.WheelY != 2 {
		t.Fatalf("accumulated: pressed B %v, held B %v, wheel %v", pending.KeyPressed(input.KeyB),
			pending.KeyDown(input.KeyB), pending.WheelY)
	}
	pending.ClearEdges()
	if pending.KeyPressed(input.KeyB) || !pending.KeyDown(input.KeyB) || pending.WheelY != 0 ||
		!pending.GamepadDown(1, input.GamepadLeftTop) || pending.GamepadPressed(1, input.GamepadLeftTop) {
		t.Fatalf("cleared: %+v", pending)
	}
}

// Same compares floats by their bits: -0 differs from +0, a NaN is the
// same as itself, where == says otherwise.
func TestSame(t *testing.T) {
	var a, b input.State
	a.SetGamepadAxis(0, input.AxisLeftStickHorizontal, math.Copysign(0, -1))
	b.SetGamepadAxis(0, input.AxisLeftStickHorizontal, 0)
	if a.Same(&b) || a != b {
		t.Fatal("-0 and +0: Same must tell them apart (== does not)")
	}
	a.CursorX, b = math.NaN(), a
	b.CursorX = a.CursorX
	if !a.Same(&b) || a == b {
		t.Fatal("the same NaN: Same must call it the same (== does not)")
	}
	if a.GamepadAxis(input.MaxGamepads, 0) != 0 || a.GamepadAxis(0, input.GamepadAxisMax+1) != 0 {
		t.Fatal("an axis of no pad or no axis is not 0")
	}
}
