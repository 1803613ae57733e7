package window_test

import (
	"testing"

	"github.com/hajimehoshi/ebiten/v2"

	"github.com/fixedstep/fixedstep/engine/input"
)

// The engine's keys, buttons and axes are ebiten's, number for number, so
// that the window driver maps one to the other by conversion and a
// recording stores what either side calls a key as the same number.
func TestInputNumbersAreEbitens(t *testing.T) {
	if int(input.KeyMax) != int(ebiten.KeyMax) {
		t.Fatalf("input.KeyMax %d, ebiten.KeyMax %d", input.KeyMax, ebiten.KeyMax)
	}
	for k := ebiten.Key(0); k <= ebiten.KeyMax; k++ {
		if got, want := input.Key(k).String(), k.String(); got != want {
			t.Errorf("key %d: %q, ebiten calls it %q", k, got, want)
		}
	}
	if input.Key(-1).String() != "" || input.Key(input.KeyMax+1).String() != "" {
		t.Error("a number that is no key has a name")
	}
	pairs := []struct {
		name      string
		got, want int
	}{
		{"MouseButtonLeft", int(input.MouseButtonLeft), int(ebiten.MouseButtonLeft)},
		{"MouseButtonMiddle", int(input.MouseButtonMiddle), int(ebiten.MouseButtonMiddle)},
		{"MouseButtonRight", int(input.MouseButtonRight), int(ebiten.MouseButtonRight)},
		{"MouseButtonMax", int(input.MouseButtonMax), int(ebiten.MouseButtonMax)},
		{"GamepadRightBottom", int(input.GamepadRightBottom), int(ebiten.StandardGamepadButtonRightBottom)},
		{"GamepadFrontBottomRight", int(input.GamepadFrontBottomRight), int(ebiten.StandardGamepadButtonFrontBottomRight)},
		{"GamepadLeftTop", int(input.GamepadLeftTop), int(ebiten.StandardGamepadButtonLeftTop)},
		{"GamepadCenterCenter", int(input.GamepadCenterCenter), int(ebiten.StandardGamepadButtonCenterCenter)},
		{"GamepadButtonMax", int(input.GamepadButtonMax), int(ebiten.StandardGamepadButtonMax)},
		{"AxisLeftStickVertical", int(input.AxisLeftStickVertical), int(ebiten.StandardGamepadAxisLeftStickVertical)},
		{"AxisRightStickHorizontal", int(input.AxisRightStickHorizontal), int(ebiten.StandardGamepadAxisRightStickHorizontal)},
		{"GamepadAxisMax", int(input.GamepadAxisMax), int(ebiten.StandardGamepadAxisMax)},
	}
	for _, p := range pairs {
		if p.got != p.want {
			t.Errorf("input.%s = %d, ebiten's is %d", p.name, p.got, p.want)
		}
	}
}
