package components_test

import (
	"math"
	"testing"

	"github.com/fixedstep/fixedstep/components"
)

func TestTransformInterpolation(t *testing.T) {
	tr := components.NewTransform(components.Pose{X: 10, Y: 0})
	tr.Set(components.Pose{X: 30, Y: 10})
	if p := tr.At(0); p.X != 10 || p.Y != 0 {
		t.Fatalf("alpha 0: %+v", p)
	}
	if p := tr.At(0.5); p.X != 20 || p.Y != 5 {
		t.Fatalf("alpha 0.5: %+v", p)
	}
	tr.Teleport(components.Pose{X: 100, Y: 100})
	if p := tr.At(0.5); p.X != 100 || p.Y != 100 {
		t.Fatalf("teleported, alpha 0.5: %+v", p)
	}
}

func TestTransformAngleTakesTheShortestArc(t *testing.T) {
	deg := math.Pi / 180
	tr := components.Transform{Prev: components.Pose{Angle: 350 * deg}, Cur: components.Pose{Angle: 10 * deg}}
	if a := math.Mod(tr.At(0.5).Angle, 2*math.Pi); math.Abs(a) > 1e-9 && math.Abs(a-2*math.Pi) > 1e-9 {
		t.Fatalf("350 -> 10 degrees at alpha 0.5: %v degrees, want 0", a/deg)
	}
	for _, c := range [][3]float64{{0, 90, 90}, {90, 0, -90}, {170, -170, 20}, {-170, 170, -20}, {0, 180, -180}} {
		if d := components.AngleDiff(c[0]*deg, c[1]*deg) / deg; math.Abs(d-c[2]) > 1e-9 {
			t.Errorf("AngleDiff(%v, %v) = %v, want %v", c[0], c[1], d, c[2])
		}
	}
}

// Wrapping moves both poses by the same offset: drawn between them, the entity
// continues past the edge instead of streaking back across the world.
func TestTransformWrapNeverCrossesTheWorld(t *testing.T) {
	tr := components.NewTransform(components.Pose{X: 195, Y: 50})
	tr.Set(components.Pose{X: 205, Y: 50}) // moved 10 right, past the edge of a 200-wide world
	if !tr.Wrap(0, 0, 200, 100) {
		t.Fatal("did not wrap")
	}
	if tr.Cur.X != 5 || tr.Prev.X != -5 {
		t.Fatalf("wrapped to prev %v cur %v, want -5 and 5", tr.Prev.X, tr.Cur.X)
	}
	for _, a := range []float64{0, 0.25, 0.5, 0.75, 1} {
		if x := tr.At(a).X; x < -5 || x > 5 {
			t.Fatalf("alpha %v: drawn at x=%v, across the world", a, x)
		}
	}
	tr = components.NewTransform(components.Pose{X: -450, Y: 250})
	tr.Wrap(0, 0, 200, 100)
	if tr.Cur.X != 150 || tr.Cur.Y != 50 || tr.Prev != tr.Cur {
		t.Fatalf("far outside: %+v", tr)
	}
	if tr.Wrap(0, 0, 200, 100) || tr.Wrap(0, 0, 0, 100) {
		t.Fatal("wrapped an entity inside the world, or into an empty one")
	}
}
