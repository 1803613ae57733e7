package gfx

import (
	"image"

	"github.com/hajimehoshi/ebiten/v2"

	"github.com/fixedstep/fixedstep/components"
	"github.com/fixedstep/fixedstep/engine/detmath"
)

// View returns the transform from world coordinates to the coordinates of
// screen for camera c at pose at: at's position lands on the centre of screen,
// one world unit spans Zoom pixels, and the world turns by -at.Angle about the
// centre. Its inverse (GeoM.Invert) maps screen points, such as the cursor,
// back into the world. View allocates nothing.
func View(c *components.Camera, at components.Pose, screen image.Rectangle) ebiten.GeoM {
	z := c.Zoom
	if z == 0 {
		z = 1
	}
	sin, cos := 0.0, 1.0
	if at.Angle != 0 {
		sin, cos = detmath.Sincos(at.Angle)
	}
	// Translate(-at), Rotate(-Angle), Scale(z), Translate(centre), in one step.
	a, b := float64(z*cos), float64(z*sin)
	c2, d := float64(-z*sin), float64(z*cos)
	cx := float64(screen.Min.X+screen.Max.X) / 2
	cy := float64(screen.Min.Y+screen.Max.Y) / 2
	var g ebiten.GeoM
	g.SetElement(0, 0, a)
	g.SetElement(0, 1, b)
	g.SetElement(1, 0, c2)
	g.SetElement(1, 1, d)
	g.SetElement(0, 2, cx-(float64(a*at.X)+float64(b*at.Y)))
	g.SetElement(1, 2, cy-(float64(c2*at.X)+float64(d*at.Y)))
	return g
}
