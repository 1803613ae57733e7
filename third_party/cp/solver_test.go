package cp_test

import (
	"math"
	"testing"

	upstream "github.com/jakecoffman/cp/v2"

	"github.com/fixedstep/fixedstep/third_party/cp"
)

// jointKinds are cp's joints, one of each.
var jointKinds = []string{"pivot", "pin", "slide", "groove", "spring", "rotaryspring", "rotarylimit", "ratchet", "gear", "motor"}

// jointLib is a physicsLib that joins bodies too.
type jointLib interface {
	physicsLib
	// join adds a joint of the kind between the i-th and j-th bodies of
	// the space (in EachBody's order; -1 is the space's static body).
	join(kind string, i, j int)
}

func (l *forkLib) join(kind string, i, j int) {
	var bodies []*cp.Body
	l.s.EachBody(func(b *cp.Body) { bodies = append(bodies, b) })
	at := func(k int) *cp.Body {
		if k < 0 {
			return l.s.StaticBody
		}
		return bodies[k]
	}
	a, b := at(i), at(j)
	var c *cp.Constraint
	switch kind {
	case "pivot":
		c = cp.NewPivotJoint(a, b, a.Position().Add(b.Position()).Mult(0.5))
	case "pin":
		c = cp.NewPinJoint(a, b, cp.Vector{X: 2}, cp.Vector{Y: 2})
	case "slide":
		c = cp.NewSlideJoint(a, b, cp.Vector{}, cp.Vector{}, 5, 30)
	case "groove":
		c = cp.NewGrooveJoint(a, b, cp.Vector{X: -10}, cp.Vector{X: 10}, cp.Vector{})
	case "spring":
		c = cp.NewDampedSpring(a, b, cp.Vector{}, cp.Vector{}, 20, 100, 5)
	case "rotaryspring":
		c = cp.NewDampedRotarySpring(a, b, 0, 1000, 10)
	case "rotarylimit":
		c = cp.NewRotaryLimitJoint(a, b, -1, 1)
	case "ratchet":
		c = cp.NewRatchetJoint(a, b, 0, 0.5)
	case "gear":
		c = cp.NewGearJoint(a, b, 0, 2)
	case "motor":
		c = cp.NewSimpleMotor(a, b, 1)
	}
	l.s.AddConstraint(c)
}

func (l *upstreamLib) join(kind string, i, j int) {
	var bodies []*upstream.Body
	l.s.EachBody(func(b *upstream.Body) { bodies = append(bodies, b) })
	at := func(k int) *upstream.Body {
		if k < 0 {
			return l.s.StaticBody
		}
		return bodies[k]
	}
	a, b := at(i), at(j)
	var c *upstream.Constraint
	switch kind {
	case "pivot":
		c = upstream.NewPivotJoint(a, b, a.Position().Add(b.Position()).Mult(0.5))
	case "pin":
		c = upstream.NewPinJoint(a, b, upstream.Vector{X: 2}, upstream.Vector{Y: 2})
	case "slide":
		c = upstream.NewSlideJoint(a, b, upstream.Vector{}, upstream.Vector{}, 5, 30)
	case "groove":
		c = upstream.NewGrooveJoint(a, b, upstream.Vector{X: -10}, upstream.Vector{X: 10}, upstream.Vector{})
	case "spring":
		c = upstream.NewDampedSpring(a, b, upstream.Vector{}, upstream.Vector{}, 20, 100, 5)
	case "rotaryspring":
		c = upstream.NewDampedRotarySpring(a, b, 0, 1000, 10)
	case "rotarylimit":
		c = upstream.NewRotaryLimitJoint(a, b, -1, 1)
	case "ratchet":
		c = upstream.NewRatchetJoint(a, b, 0, 0.5)
	case "gear":
		c = upstream.NewGearJoint(a, b, 0, 2)
	case "motor":
		c = upstream.NewSimpleMotor(a, b, 1)
	}
	l.s.AddConstraint(c)
}

// jointedCircles is SimpleTerrainCircles with 200 balls, in pairs joined
// by each of cp's joints in turn, every fifth pair's second ball joined
// to the static body instead (so that constraints and arbiters share
// bodies, the static one included).
func jointedCircles(l jointLib) {
	terrainCircles(l, 200, false)
	for i := 0; i+1 < 200; i += 2 {
		j := i + 1
		if i%10 == 8 {
			j = -1
		}
		l.join(jointKinds[i/2%len(jointKinds)], i, j)
	}
}

// With joints of every kind between bodies that collide, the copy's
// contact solver, which keeps the bodies' velocities in its own slices
// during the solve, gives upstream's bodies bit for bit after every step.
func TestJointsStepAsUpstream(t *testing.T) {
	if compilerFuses {
		t.Skip("the compiler fuses for this CPU: upstream's products fuse, this copy's are rounded")
	}
	fork, up := &forkLib{}, &upstreamLib{}
	jointedCircles(fork)
	jointedCircles(up)
	arbiters := 0
	for step := 1; step <= 400; step++ {
		fork.step(1.0 / 60)
		up.step(1.0 / 60)
		a, b := fork.state(), up.state()
		if len(a) != len(b) {
			t.Fatalf("step %d: %d bodies, upstream %d", step, len(a)/6, len(b)/6)
		}
		for i := range a {
			if math.Float64bits(a[i]) != math.Float64bits(b[i]) {
				t.Fatalf("step %d: body %d's value %d is %v, upstream's %v", step, i/6, i%6, a[i], b[i])
			}
		}
		fork.s.EachBody(func(b *cp.Body) { b.EachArbiter(func(*cp.Arbiter) { arbiters++ }) })
	}
	if arbiters == 0 {
		t.Fatal("no arbiter: the scene does not test contacts beside joints")
	}
}
