package components

import (
	"math"

	"github.com/fixedstep/fixedstep/third_party/donburi"
)

// Pose is a position in world units and an angle in radians.
type Pose struct {
	X, Y, Angle float64
}

// Transform is where an entity is at the last two ticks of its simulation
// group: render systems draw it between them, at the loop's alpha.
//
// A system that moves an entity in a tick calls [Transform.Set] (or Step and
// Snap, as physics does), so that Prev holds the pose of the tick before.
// [Transform.Teleport] moves it without a trail: both poses jump, nothing is
// drawn in between. [Transform.Wrap] wraps it into a rectangle (a torus
// world) and shifts Prev by the same amount, so that the entity is drawn
// moving on, never streaking back across the world.
type Transform struct {
	Prev, Cur Pose
}

// TransformC is the Transform component type.
var TransformC = donburi.NewComponentType[Transform]()

// NewTransform returns a Transform resting at p.
func NewTransform(p Pose) Transform { return Transform{Prev: p, Cur: p} }

// Set records a new pose for this tick: Prev becomes the old Cur.
func (t *Transform) Set(p Pose) {
	t.Prev, t.Cur = t.Cur, p
}

// Teleport puts the entity at p with no interpolation from where it was.
func (t *Transform) Teleport(p Pose) {
	t.Prev, t.Cur = p, p
}

// Wrap wraps Cur into [minX, maxX) x [minY, maxY) and moves Prev by the same
// offset, so that interpolation never crosses the world. It reports whether
// it wrapped. A rectangle with no area leaves the transform alone.
func (t *Transform) Wrap(minX, minY, maxX, maxY float64) bool {
	w, h := maxX-minX, maxY-minY
	if !(w > 0 && h > 0) {
		return false
	}
	dx := wrapOffset(t.Cur.X, minX, w)
	dy := wrapOffset(t.Cur.Y, minY, h)
	if dx == 0 && dy == 0 {
		return false
	}
	t.Cur.X += dx
	t.Cur.Y += dy
	t.Prev.X += dx
	t.Prev.Y += dy
	return true
}

// wrapOffset returns what to add to v to bring it into [min, min+size).
func wrapOffset(v, min, size float64) float64 {
	if v >= min && v < min+size {
		return 0
	}
	return (min + mod(v-min, size)) - v
}

func mod(a, b float64) float64 {
	m := math.Mod(a, b)
	if m < 0 {
		m += b
	}
	if m >= b { // -tiny + b rounds to b
		m = 0
	}
	return m
}

// At returns the pose drawn at alpha in [0, 1]: positions blended linearly,
// the angle along the shortest arc.
func (t *Transform) At(alpha float64) Pose {
	return Pose{
		X:     t.Prev.X + float64((t.Cur.X-t.Prev.X)*alpha),
		Y:     t.Prev.Y + float64((t.Cur.Y-t.Prev.Y)*alpha),
		Angle: t.Prev.Angle + float64(AngleDiff(t.Prev.Angle, t.Cur.Angle)*alpha),
	}
}

// AngleDiff returns b-a brought into [-pi, pi): the shortest turn from a to b.
// When b-a is in that range already (the usual case, and the only one for
// angles that stay in [-pi, pi)), it returns b-a as it is, without the cost
// of math.Mod.
func AngleDiff(a, b float64) float64 {
	if d := b - a; -math.Pi <= d && d < math.Pi {
		return d
	}
	d := math.Mod(b-a+math.Pi, 2*math.Pi)
	if d < 0 {
		d += 2 * math.Pi
	}
	return d - math.Pi
}
