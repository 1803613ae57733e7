package components

import (
	"image"
	"reflect"
	"unsafe"

	"github.com/hajimehoshi/ebiten/v2"
	"github.com/jakecoffman/cp/v2"
)

// builtins are the summaries of types whose state is behind unexported
// fields or handles: what the hash and the dump read of them, wherever they
// appear (by value, behind a pointer, in a slice or an interface).
var builtins = map[reflect.Type]func(p unsafe.Pointer, w *StateWriter){
	reflect.TypeFor[cp.Body]():           summarizeBody,
	reflect.TypeFor[cp.Shape]():          summarizeShape,
	reflect.TypeFor[cp.Constraint]():     summarizeConstraint,
	reflect.TypeFor[ebiten.Image]():      summarizeImage,
	reflect.TypeFor[ebiten.ColorScale](): summarizeColorScale,
	reflect.TypeFor[ebiten.GeoM]():       summarizeGeoM,
}

// summarizeBody: a cp body's type, mass and moment, position, velocity,
// angle, angular velocity, the force and torque accumulated for its next
// step, and whether it sleeps. Not its shapes (each entity's shapes are in
// its Shape component) nor its UserData (the entity).
func summarizeBody(p unsafe.Pointer, w *StateWriter) {
	b := (*cp.Body)(p)
	w.Text("Type", bodyTypeName(b.GetType()))
	pos, vel, f := b.Position(), b.Velocity(), b.Force()
	w.float64s(bodyNames[:], []float64{b.Mass(), b.Moment(), pos.X, pos.Y, vel.X, vel.Y,
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
func summarizeShape(p unsafe.Pointer, w *StateWriter) {
	s := (*cp.Shape)(p)
	switch c := s.Class.(type) {
	case *cp.Circle:
		w.Text("Class", "circle")
		w.Float64("Radius", c.Radius())
		writeVector(w, "Offset", s.CenterOfGravity())
	case *cp.Segment:
		w.Text("Class", "segment")
		writeVector(w, "A", c.A())
		writeVector(w, "B", c.B())
		w.Float64("Radius", c.Radius())
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
	w.float64s(shapeFloatNames[:], []float64{s.Friction(), s.Elasticity(), s.Mass()})
	w.uint64s(shapeUintNames[:], []uint64{uint64(s.CollisionType()),
		uint64(s.Filter.Group), uint64(s.Filter.Categories), uint64(s.Filter.Mask)})
}

var (
	shapeFloatNames = [...]string{"Friction", "Elasticity", "Mass"}
	shapeUintNames  = [...]string{"CollisionType", "Filter.Group", "Filter.Categories", "Filter.Mask"}
)

// summarizeConstraint: a cp constraint's class (its Go type) and its
// limits. Not its bodies (they are other entities' Body components).
func summarizeConstraint(p unsafe.Pointer, w *StateWriter) {
	c := (*cp.Constraint)(p)
	if c.Class == nil {
		w.Text("Class", "nil")
	} else {
		w.Text("Class", reflect.TypeOf(c.Class).String())
	}
	w.Float64("MaxForce", c.MaxForce())
	w.Float64("MaxBias", c.MaxBias())
	w.Float64("ErrorBias", c.ErrorBias())
}

// summarizeImage: an ebiten image's bounds, which for a sub-image of an
// atlas is its rectangle in the atlas: the same in every process, and
// different when a sprite switches to another frame of its atlas. Not its
// pixels (reading them needs the GPU, and costs a transfer), so two images
// of equal bounds cut from different atlases look the same. A disposed
// image is written as such.
func summarizeImage(p unsafe.Pointer, w *StateWriter) {
	r, ok := imageBounds((*ebiten.Image)(p))
	if !ok {
		w.Text("Disposed", "disposed")
		return
	}
	w.int64s(boundsNames[:], []int64{int64(r.Min.X), int64(r.Min.Y), int64(r.Max.X), int64(r.Max.Y)})
}

var boundsNames = [...]string{"Bounds.Min.X", "Bounds.Min.Y", "Bounds.Max.X", "Bounds.Max.Y"}

// imageBounds returns img.Bounds(), or false when img is disposed (ebiten
// then panics, and gives no other way to ask).
func imageBounds(img *ebiten.Image) (r image.Rectangle, ok bool) {
	defer func() {
		if recover() != nil {
			ok = false
		}
	}()
	return img.Bounds(), true
}

// summarizeColorScale: the four scales, as R, G, B, A return them (the
// zero value is 1, 1, 1, 1).
func summarizeColorScale(p unsafe.Pointer, w *StateWriter) {
	c := (*ebiten.ColorScale)(p)
	w.Float32("R", c.R())
	w.Float32("G", c.G())
	w.Float32("B", c.B())
	w.Float32("A", c.A())
}

// summarizeGeoM: the six elements of the matrix [[A B Tx] [C D Ty]], as
// Element returns them (the zero value is the identity).
func summarizeGeoM(p unsafe.Pointer, w *StateWriter) {
	g := (*ebiten.GeoM)(p)
	w.Float64("A", g.Element(0, 0))
	w.Float64("B", g.Element(0, 1))
	w.Float64("Tx", g.Element(0, 2))
	w.Float64("C", g.Element(1, 0))
	w.Float64("D", g.Element(1, 1))
	w.Float64("Ty", g.Element(1, 2))
}

func writeVector(w *StateWriter, name string, v cp.Vector) {
	w.Enter(name)
	w.Float64("X", v.X)
	w.Float64("Y", v.Y)
	w.Leave()
}
