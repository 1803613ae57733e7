package physics

import (
	"reflect"

	"github.com/fixedstep/fixedstep/engine/state"
	"github.com/fixedstep/fixedstep/third_party/cp"
)

// How the state hasher (package engine/state) reads cp's bodies, shapes and
// constraints, whose state is behind unexported fields, wherever a
// component holds them, and the names it knows their types by. A program
// that hashes a world holding cp values without this package's systems (a
// game on cp alone) imports it for this:
//
//	import _ "github.com/fixedstep/fixedstep/systems/physics" // cp's state summaries
func init() {
	state.Summarize("cp.Body", summarizeBody)
	state.Summarize("cp.Shape", summarizeShape)
	state.Summarize("cp.Constraint", summarizeConstraint)
}

// summarizeBody: a cp body's type, mass and moment, position, velocity,
// angle, angular velocity, the force and torque accumulated for its next
// step, and whether it sleeps. Not its shapes (each entity's shapes are in
// its Shape component) nor its UserData (the entity).
func summarizeBody(b *cp.Body, w *state.Writer) {
	w.Text("Type", bodyTypeName(b.GetType()))
	pos, vel, f := b.Position(), b.Velocity(), b.Force()
	w.Float64s(bodyNames[:], []float64{b.Mass(), b.Moment(), pos.X, pos.Y, vel.X, vel.Y,
		b.Angle(), b.AngularVelocity(), f.X, f.Y, b.Torque()})
	w.Bool("Sleeping", b.IsSleeping())
}

var bodyNames = [...]string{"Mass", "Moment", "Position.X", "Position.Y", "Velocity.X", "Velocity.Y",
	"Angle", "AngularVelocity", "Force.X", "Force.Y", "Torque"}

func bodyTypeName(t int) string {
	switch t {
	case cp.BODY_DYNAMIC:
		return "dynamic"
	case cp.BODY_KINEMATIC:
		return "kinematic"
	case cp.BODY_STATIC:
		return "static"
	}
	return "unknown"
}

// summarizeShape: a cp shape's class and geometry in its body's frame
// (circle: radius and offset; segment: ends and radius; polygon: vertices
// and radius), sensor, friction, elasticity, mass, collision type and
// filter. Not its body (the Body component has it) nor its UserData.
func summarizeShape(s *cp.Shape, w *state.Writer) {
	switch c := s.Class.(type) {
	case *cp.Circle:
		w.Text("Class", "circle")
		cog := s.CenterOfGravity()
		w.Float64s(circleNames[:], []float64{c.Radius(), cog.X, cog.Y})
	case *cp.Segment:
		w.Text("Class", "segment")
		a, b := c.A(), c.B()
		w.Float64s(segmentNames[:], []float64{a.X, a.Y, b.X, b.Y, c.Radius()})
	case *cp.PolyShape:
		w.Text("Class", "poly")
		n := c.Count()
		w.Int("Verts.len", int64(n))
		w.Enter("Verts")
		for i := range n {
			w.EnterIndex(i)
			v := c.Vert(i)
			w.Float64("X", v.X)
			w.Float64("Y", v.Y)
			w.Leave()
		}
		w.Leave()
		w.Float64("Radius", c.Radius())
	case nil:
		w.Text("Class", "nil")
	default:
		w.Text("Class", reflect.TypeOf(c).String())
	}
	w.Bool("Sensor", s.Sensor())
	w.Float64s(shapeFloatNames[:], []float64{s.Friction(), s.Elasticity(), s.Mass()})
	w.Uint64s(shapeUintNames[:], []uint64{uint64(s.CollisionType()),
		uint64(s.Filter.Group), uint64(s.Filter.Categories), uint64(s.Filter.Mask)})
}

var (
	circleNames     = [...]string{"Radius", "Offset.X", "Offset.Y"}
	segmentNames    = [...]string{"A.X", "A.Y", "B.X", "B.Y", "Radius"}
	shapeFloatNames = [...]string{"Friction", "Elasticity", "Mass"}
	shapeUintNames  = [...]string{"CollisionType", "Filter.Group", "Filter.Categories", "Filter.Mask"}
)

// summarizeConstraint: a cp constraint's class (its Go type) and its
// limits. Not its bodies (they are other entities' Body components).
func summarizeConstraint(c *cp.Constraint, w *state.Writer) {
	if c.Class == nil {
		w.Text("Class", "nil")
	} else {
		w.Text("Class", reflect.TypeOf(c.Class).String())
	}
	w.Float64("MaxForce", c.MaxForce())
	w.Float64("MaxBias", c.MaxBias())
	w.Float64("ErrorBias", c.ErrorBias())
}
