package devtools_test

import (
	"fmt"
	"strings"

	"github.com/fixedstep/fixedstep/engine"
	"github.com/fixedstep/fixedstep/systems/devtools"
	"github.com/fixedstep/fixedstep/systems/physics"
	"github.com/fixedstep/fixedstep/third_party/cp"
	"github.com/fixedstep/fixedstep/third_party/donburi"
)

// An inspector picks what is at a point of the screen, as a click does, and
// shows its components. A Stage has one already (Stage.Inspector, F4);
// headless, as here, screen points are world points and Draw only keeps the
// text up to date.
func ExampleInspector() {
	w := donburi.NewWorld()
	phys := physics.New(w, physics.Config{})
	phys.SpawnCircle(5, &physics.BodyOptions{Position: cp.Vector{X: 10, Y: 20}, Velocity: cp.Vector{X: 3}})

	ins := devtools.NewInspector(nil, nil, phys, &devtools.InspectorOptions{Visible: true})
	if e, ok := ins.Pick(w, 12, 21); ok { // a point on the ball
		ins.Select(e)
	}
	ins.Draw(w, engine.Event{Kind: engine.Render})
	for line := range strings.Lines(ins.Text()) {
		if !strings.Contains(line, "Shapes[0].") { // the shape's settings, left out here
			fmt.Print(line)
		}
	}
	// Output:
	// inspector  e1v0  3 components
	// [-] Body
	//     Body.Type             "dynamic"
	//     Body.Mass             1
	//     Body.Moment           12.5
	//     Body.Position         X=10  Y=20
	//     Body.Velocity         X=3  Y=0
	//     Body.Angle            0
	//     Body.AngularVelocity  0
	//     Body.Force            X=0  Y=0
	//     Body.Torque           0
	//     Body.Sleeping         false
	// [-] Shape
	//     Shapes.len                   1
	// [-] Transform
	//     Prev  X=10  Y=20  Angle=0
	//     Cur   X=10  Y=20  Angle=0
}
