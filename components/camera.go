package components

import "github.com/fixedstep/fixedstep/third_party/donburi"

// Camera makes an entity the point of view that sprites are drawn through.
// The camera entity also has a [Transform], moved by systems like any other
// and interpolated like any other, so that a camera following a body does not
// judder: its pose is the world point drawn at the centre of the screen, and
// its Angle turns the view (a camera turned by +a shows the world turned by
// -a). The render system uses the first entity with both components, and
// gfx.View gives its transform from world to screen.
type Camera struct {
	// Zoom is how many screen pixels one world unit covers; 0 means 1.
	// A negative zoom turns the view by half a turn.
	Zoom float64
}

// CameraC is the Camera component type.
var CameraC = donburi.NewComponentType[Camera]()
