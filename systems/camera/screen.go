package camera

import (
	"github.com/fixedstep/fixedstep/components"
	"github.com/fixedstep/fixedstep/engine/detmath"
	"github.com/fixedstep/fixedstep/third_party/cp"
	"github.com/fixedstep/fixedstep/third_party/donburi"
	"github.com/fixedstep/fixedstep/third_party/donburi/filter"
)

// views finds the camera the render system draws through: the first entity
// with a Camera and a Transform.
var views = donburi.NewQuery(filter.Contains(components.CameraC, components.TransformC))

// ToWorld returns the world point drawn at point p of a screen of size
// screen (in the screen's pixels, from its top-left corner: the cursor of
// an input.State, on a game whose screen is that size), through the camera
// the render system draws with (the first entity with a components.Camera
// and a Transform; see gfx.View), as it stood after the last tick (its
// Transform's Cur: a frame draws it between its last two poses, so a
// cursor over a moving view is off by at most the camera's last step).
// Without a camera a world unit is a screen pixel, as the render system
// draws it. The camera's pose is simulation state, and the cursor is the
// tick's recorded input, so an update system that aims with it aims the
// same in a replay, at any frame rate, on any CPU (every product rounded).
// It allocates nothing.
func ToWorld(w donburi.World, screen, p cp.Vector) cp.Vector {
	e, ok := views.First(w)
	if !ok {
		return p
	}
	return View(components.CameraC.Get(e), components.TransformC.Get(e).Cur, screen, p)
}

// View returns the world point that camera c at pose at draws at point p
// of a screen of size screen: the inverse of gfx.View on the screen's
// rectangle from (0, 0). A zero Zoom is 1, as gfx.View takes it.
func View(c *components.Camera, at components.Pose, screen, p cp.Vector) cp.Vector {
	z := c.Zoom
	if z == 0 {
		z = 1
	}
	u, v := p.X-screen.X/2, p.Y-screen.Y/2
	if at.Angle != 0 {
		sin, cos := detmath.Sincos(at.Angle)
		u, v = float64(cos*u)-float64(sin*v), float64(sin*u)+float64(cos*v)
	}
	return cp.Vector{X: at.X + u/z, Y: at.Y + v/z}
}
