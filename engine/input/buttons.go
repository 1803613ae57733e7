package input

// A MouseButton is a button of the mouse. The values are ebiten's (v2).
type MouseButton int

// The mouse buttons.
const (
	MouseButtonLeft MouseButton = iota
	MouseButtonMiddle
	MouseButtonRight
	MouseButton3
	MouseButton4

	// MouseButtonMax is the largest mouse button.
	MouseButtonMax = MouseButton4
)

// A GamepadButton is a button of a gamepad in the standard layout (the
// W3C's, as ebiten's StandardGamepadButton): the face buttons on the right
// (RightBottom is A on an Xbox pad, cross on a PlayStation one), the
// D-pad on the left (LeftTop is up), shoulders and triggers at the front,
// the stick buttons and the buttons at the centre. The values are
// ebiten's (v2).
type GamepadButton int

// The standard layout's buttons.
const (
	GamepadRightBottom GamepadButton = iota
	GamepadRightRight
	GamepadRightLeft
	GamepadRightTop
	GamepadFrontTopLeft
	GamepadFrontTopRight
	GamepadFrontBottomLeft
	GamepadFrontBottomRight
	GamepadCenterLeft
	GamepadCenterRight
	GamepadLeftStick
	GamepadRightStick
	GamepadLeftTop
	GamepadLeftBottom
	GamepadLeftLeft
	GamepadLeftRight
	GamepadCenterCenter

	// GamepadButtonMax is the largest gamepad button.
	GamepadButtonMax = GamepadCenterCenter
)

// A GamepadAxis is an axis of a gamepad in the standard layout, in [-1, 1]:
// right and down are positive. The values are ebiten's (v2).
type GamepadAxis int

// The standard layout's axes.
const (
	AxisLeftStickHorizontal GamepadAxis = iota
	AxisLeftStickVertical
	AxisRightStickHorizontal
	AxisRightStickVertical

	// GamepadAxisMax is the largest axis.
	GamepadAxisMax = AxisRightStickVertical
)
