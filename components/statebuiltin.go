package components

import (
	"encoding"
	"encoding/binary"
	"image"
	"math/rand/v2"
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
	reflect.TypeFor[rand.PCG]():          summarizePCG,
	reflect.TypeFor[rand.ChaCha8]():      summarizeChaCha8,
}

func init() {
	// A rand.Rand is its Source, an unexported field: read it where the
	// Go release this was built with keeps it (checked here; if not, a
	// rand.Rand shows no state).
	t := reflect.TypeFor[rand.Rand]()
	if f, ok := t.FieldByName("src"); ok && f.Offset == 0 && f.Type == reflect.TypeFor[rand.Source]() {
		builtins[t] = summarizeRand
	}
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

// summarizePCG: a rand.PCG's state (its binary encoding), so that two runs
// whose random sources have drawn differently differ.
func summarizePCG(p unsafe.Pointer, w *StateWriter) {
	w.binary("State", (*rand.PCG)(p))
}

// summarizeChaCha8: a rand.ChaCha8's state, as summarizePCG. Its encoding
// allocates (in some builds), so the hash reads the fields that the
// encoding is made of (its seed, its position in the stream, its read
// buffer) where reflection says they are.
func summarizeChaCha8(p unsafe.Pointer, w *StateWriter) {
	if w.dump || !chacha.ok {
		w.binary("State", (*rand.ChaCha8)(p))
		return
	}
	w.buf = append(w.buf, unsafe.Slice((*byte)(unsafe.Add(p, chacha.seed)), 32)...)
	w.buf = binary.LittleEndian.AppendUint32(w.buf, *(*uint32)(unsafe.Add(p, chacha.c)))
	w.buf = binary.LittleEndian.AppendUint32(w.buf, *(*uint32)(unsafe.Add(p, chacha.i)))
	w.buf = binary.LittleEndian.AppendUint64(w.buf, uint64(*(*int)(unsafe.Add(p, chacha.readLen))))
	w.buf = append(w.buf, unsafe.Slice((*byte)(unsafe.Add(p, chacha.readBuf)), 8)...)
}

// chacha is where a rand.ChaCha8 keeps its state, found by reflection; ok
// is false if its fields are not the ones read here.
var chacha = func() (l struct {
	ok                           bool
	seed, c, i, readLen, readBuf uintptr
}) {
	t := reflect.TypeFor[rand.ChaCha8]()
	st, ok1 := t.FieldByName("state")
	rl, ok2 := t.FieldByName("readLen")
	rb, ok3 := t.FieldByName("readBuf")
	if !ok1 || !ok2 || !ok3 || st.Type.Kind() != reflect.Struct || rl.Type.Kind() != reflect.Int ||
		rb.Type != reflect.TypeFor[[8]byte]() {
		return l
	}
	seed, ok4 := st.Type.FieldByName("seed")
	c, ok5 := st.Type.FieldByName("c")
	i, ok6 := st.Type.FieldByName("i")
	if !ok4 || !ok5 || !ok6 || seed.Type != reflect.TypeFor[[4]uint64]() ||
		c.Type.Kind() != reflect.Uint32 || i.Type.Kind() != reflect.Uint32 {
		return l
	}
	l.ok = true
	l.seed, l.c, l.i = st.Offset+seed.Offset, st.Offset+c.Offset, st.Offset+i.Offset
	l.readLen, l.readBuf = rl.Offset, rb.Offset
	return l
}()

// summarizeRand: a rand.Rand's source, as an interface field would be.
func summarizeRand(p unsafe.Pointer, w *StateWriter) {
	w.iface(sourceType, p)
}

var sourceType = reflect.TypeFor[rand.Source]()

// binary writes m's binary encoding: in the hash its bytes and length, in
// the dump as hex. An encoding error writes the error's text.
func (w *StateWriter) binary(name string, m encoding.BinaryAppender) {
	if !w.dump {
		start := len(w.buf)
		var err error
		if w.buf, err = m.AppendBinary(w.buf); err != nil {
			w.buf = w.buf[:start]
			w.Text(name, err.Error())
			return
		}
		w.buf = binary.LittleEndian.AppendUint64(w.buf, uint64(len(w.buf)-start))
		return
	}
	b, err := m.AppendBinary(nil)
	if err != nil {
		w.Text(name, err.Error())
		return
	}
	w.line(name, appendHex(w.val[:0], b))
}
