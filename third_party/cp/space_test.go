package cp

import "testing"

func TestSpace_ShapeQuery(t *testing.T) {
	space := NewSpace()
	circle := space.AddShape(NewCircle(space.StaticBody, 1, Vector{}))
	space.ShapeQuery(circle, func(shape *Shape, points *ContactPointSet) {
		t.Fatal("Shouldn't collide with itself")
	})
	box := NewBox(NewBody(1, 1), 1, 1, 1)

	var called int
	space.ShapeQuery(box, func(shape *Shape, points *ContactPointSet) {
		called++
	})
	if called != 1 {
		t.Error("Expected box to collide with circle")
	}

	box.body.SetPosition(Vector{3, 0})
	space.ShapeQuery(box, func(shape *Shape, points *ContactPointSet) {
		t.Error("Box should be just out of range")
	})
}

func TestSpace_ReindexShape(t *testing.T) {
	space := NewSpace()
	circle := space.AddShape(NewCircle(space.StaticBody, 1, Vector{}))
	bb1 := circle.bb
	space.ReindexShape(circle)
	bb2 := circle.bb
	// check unchanged
	if got, want := bb1.String(), bb2.String(); got != want {
		t.Errorf("got [%[1]v:%[1]T] want [%[2]v:%[2]T]", got, want)
	}
	circle.body.SetPosition(Vector{X: 12.0, Y: 34.0})
	space.ReindexShape(circle)
	bb3 := circle.bb
	// check changed
	if got, want := bb2.String(), bb3.String(); got == want {
		t.Errorf("got [%[1]v:%[1]T] want [%[2]v:%[2]T]", got, want)
	}
}

// ArbiterFor finds the arbiter of two touching shapes in either order, with
// its contacts; none for shapes that never touched; Count 0 once they part,
// and nil a few steps later. It allocates nothing.
func TestSpace_ArbiterFor(t *testing.T) {
	space := NewSpace()
	floor := space.AddShape(NewSegment(space.StaticBody, Vector{-100, 0}, Vector{100, 0}, 1))
	body := space.AddBody(NewBody(1, MomentForCircle(1, 0, 5, Vector{})))
	body.SetPosition(Vector{0, 5.5})
	ball := space.AddShape(NewCircle(body, 5, Vector{}))
	far := space.AddShape(NewCircle(space.StaticBody, 5, Vector{500, 500}))
	space.Step(1.0 / 60)
	arb := space.ArbiterFor(ball, floor)
	if arb == nil || space.ArbiterFor(floor, ball) != arb || arb.Count() == 0 {
		t.Fatalf("touching: arbiter %v (the other way round %v)", arb, space.ArbiterFor(floor, ball))
	}
	if a, b := arb.Shapes(); a != floor && a != ball || b != floor && b != ball {
		t.Errorf("the arbiter's shapes are not the pair's")
	}
	if space.ArbiterFor(ball, far) != nil {
		t.Error("an arbiter for shapes that never touched")
	}
	if n := testing.AllocsPerRun(100, func() { space.ArbiterFor(ball, floor) }); n != 0 {
		t.Errorf("ArbiterFor allocates %v times", n)
	}
	body.SetPosition(Vector{0, 100})
	space.Step(1.0 / 60)
	if arb := space.ArbiterFor(ball, floor); arb == nil || arb.Count() != 0 {
		t.Errorf("a step after parting: %v, want the cached arbiter with no contacts", arb)
	}
	for range 5 {
		space.Step(1.0 / 60)
	}
	if arb := space.ArbiterFor(ball, floor); arb != nil {
		t.Errorf("steps after parting: %v, want nil", arb)
	}
}
