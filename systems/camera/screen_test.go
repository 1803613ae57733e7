package camera_test

import (
	"image"
	"math"
	"testing"

	"github.com/fixedstep/fixedstep/components"
	"github.com/fixedstep/fixedstep/components/gfx"
	"github.com/fixedstep/fixedstep/systems/camera"
	"github.com/fixedstep/fixedstep/third_party/cp"
	"github.com/fixedstep/fixedstep/third_party/donburi"
)

// ToWorld is the inverse of the view the render system draws with: a
// world point drawn at a screen point (gfx.View) comes back from it, for
// a camera zoomed, turned and moved; without a camera the screen is the
// world. It allocates nothing.
func TestToWorld(t *testing.T) {
	w := donburi.NewWorld()
	screen := cp.Vector{X: 320, Y: 180}
	if p := camera.ToWorld(w, screen, cp.Vector{X: 3, Y: 4}); p != (cp.Vector{X: 3, Y: 4}) {
		t.Errorf("no camera: %v, want the screen point", p)
	}
	cam := camera.Spawn(w, components.Camera{Zoom: 2}, camera.Follow{})
	if p := camera.ToWorld(w, screen, cp.Vector{X: 160, Y: 90}); p != (cp.Vector{}) {
		t.Errorf("the screen's centre: %v, want the camera's position (0, 0)", p)
	}
	for _, at := range []components.Pose{{X: 100, Y: -40}, {X: -7, Y: 12, Angle: 0.7}, {X: 1e4, Y: 3, Angle: -2.5}} {
		for _, zoom := range []float64{0, 2, 0.5, -1} {
			components.CameraC.Get(w.Entry(cam)).Zoom = zoom
			components.TransformC.Get(w.Entry(cam)).Teleport(at)
			g := gfx.View(&components.Camera{Zoom: zoom}, at, image.Rect(0, 0, 320, 180))
			for _, world := range []cp.Vector{{X: at.X, Y: at.Y}, {X: at.X + 30, Y: at.Y - 50}, {X: 0, Y: 0}} {
				sx, sy := g.Apply(world.X, world.Y)
				back := camera.ToWorld(w, screen, cp.Vector{X: sx, Y: sy})
				if back.Distance(world) > 1e-9*max(1, math.Abs(at.X)) {
					t.Errorf("camera at %+v zoom %v: %v drawn at (%v, %v), back to %v", at, zoom, world, sx, sy, back)
				}
			}
		}
	}
	if n := testing.AllocsPerRun(100, func() { camera.ToWorld(w, screen, cp.Vector{X: 1, Y: 2}) }); n != 0 {
		t.Errorf("ToWorld allocates %v times", n)
	}
}
