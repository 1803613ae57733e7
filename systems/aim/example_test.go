package aim_test

import (
	"fmt"

	"github.com/fixedstep/fixedstep/components"
	"github.com/fixedstep/fixedstep/engine"
	"github.com/fixedstep/fixedstep/engine/input"
	"github.com/fixedstep/fixedstep/systems/aim"
	"github.com/fixedstep/fixedstep/systems/camera"
	"github.com/fixedstep/fixedstep/systems/physics"
	"github.com/fixedstep/fixedstep/third_party/cp"
	"github.com/fixedstep/fixedstep/third_party/donburi"
)

// A ship aims at the cursor through a camera zoomed 2, then with the
// right stick, and faces its aim.
func Example() {
	w := donburi.NewWorld()
	phys := physics.New(w, physics.Config{})
	ship := phys.SpawnCircle(8, &physics.BodyOptions{Position: cp.Vector{X: 100, Y: 50}}, aim.AimerC)
	aim.AimerC.SetValue(w.Entry(ship), aim.Aimer{Face: true})
	cam := camera.Spawn(w, components.Camera{Zoom: 2}, camera.Follow{})
	components.TransformC.Get(w.Entry(cam)).Teleport(components.Pose{X: 100, Y: 50})
	sys := aim.NewSystem(cp.Vector{X: 320, Y: 180})

	var in input.State
	in.CursorX, in.CursorY = 160+80, 90 // 80 pixels right of the centre: 40 units right of the ship
	sys.Update(w, engine.Event{Kind: engine.Update, Input: &in})
	a := aim.AimerC.Get(w.Entry(ship))
	fmt.Printf("mouse: dir (%v, %v), point (%v, %v), facing %v\n", a.Dir.X, a.Dir.Y, a.Point.X, a.Point.Y, phys.Body(ship).Angle())

	in.SetGamepadAxis(0, input.AxisRightStickVertical, -0.9)
	sys.Update(w, engine.Event{Kind: engine.Update, Input: &in})
	fmt.Printf("stick: dir (%v, %v), facing %.4f\n", a.Dir.X, a.Dir.Y, phys.Body(ship).Angle())
	// Output:
	// mouse: dir (1, 0), point (140, 50), facing 0
	// stick: dir (0, -1), facing -1.5708
}
