package physics_test

import (
	"errors"
	"math"
	"testing"

	"github.com/fixedstep/fixedstep/components"
	"github.com/fixedstep/fixedstep/systems/physics"
	"github.com/fixedstep/fixedstep/third_party/cp"
	"github.com/fixedstep/fixedstep/third_party/donburi"
	"github.com/fixedstep/fixedstep/third_party/donburi/filter"
)

// Sync, which reads the bodies an archetype at a time, moves every
// Transform in four archetypes, after removals and a reused id, to its
// body's pose (the old one becoming Prev); and of two bad bodies it
// reports the one Query.Iter visits first.
func TestSyncAcrossArchetypes(t *testing.T) {
	w := donburi.NewWorld()
	p := physics.New(w, physics.Config{})
	tagA, tagB := donburi.NewTag(), donburi.NewTag()
	spawn := func(i int) donburi.Entity {
		body := cp.NewBody(1, cp.MomentForCircle(1, 0, 1, cp.Vector{}))
		body.SetPosition(cp.Vector{X: float64(10 * i), Y: float64(-i)})
		comps := [][]donburi.IComponentType{nil, {tagA}, {tagB}, {tagA, tagB}}[i%4]
		return p.Spawn(body, []*cp.Shape{cp.NewCircle(body, 1, cp.Vector{})}, comps...)
	}
	var ents []donburi.Entity
	for i := range 40 {
		ents = append(ents, spawn(i))
	}
	for _, e := range ents[5:12] {
		w.Remove(e)
	}
	ents = append(ents[:5:5], ents[12:]...)
	ents = append(ents, spawn(40)) // reuses a freed id

	for i, e := range ents {
		p.Body(e).SetPosition(cp.Vector{X: float64(i), Y: float64(2 * i)})
		p.Body(e).SetAngle(float64(i) / 8)
	}
	before := map[donburi.Entity]components.Pose{}
	for _, e := range ents {
		before[e] = components.TransformC.Get(w.Entry(e)).Cur
	}
	p.Sync(w)
	for _, e := range ents {
		b, tr := p.Body(e), components.TransformC.Get(w.Entry(e))
		want := components.Pose{X: b.Position().X, Y: b.Position().Y, Angle: b.Angle()}
		if tr.Cur != want || tr.Prev != before[e] {
			t.Errorf("entity %v: Transform %+v, want Cur %+v and Prev %+v", e, *tr, want, before[e])
		}
	}

	var order []donburi.Entity
	for e := range donburi.NewQuery(filter.Contains(components.TransformC, components.BodyC)).Iter(w) {
		order = append(order, e.Entity())
	}
	second, first := order[len(order)-3], order[4] // in other archetypes
	p.Body(second).SetVelocity(math.NaN(), 0)
	p.Body(first).SetVelocity(0, math.Inf(1))
	p.Sync(w)
	var bad *physics.BadBodyError
	if !errors.As(p.Err(), &bad) || bad.Entity != first || bad.Field != "velocity" {
		t.Errorf("Sync reported %v, want the velocity of %v, the first Iter visits", p.Err(), first)
	}
}
