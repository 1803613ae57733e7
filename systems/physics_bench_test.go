package systems_test

import (
	"fmt"
	"testing"

	"github.com/jakecoffman/cp/v2"
	"github.com/yohamta/donburi"
	"github.com/yohamta/donburi/filter"

	"github.com/fixedstep/fixedstep/components"
	"github.com/fixedstep/fixedstep/engine"
	"github.com/fixedstep/fixedstep/systems"
)

func perEntity(b *testing.B, n int) {
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*n), "ns/entity")
}

// BenchmarkPhysics steps SimpleTerrainCircles_N (after 300 steps of settling)
// through the physics system, beside raw cp stepping the same scene, bare and
// with the same collision callbacks installed.
func BenchmarkPhysics(b *testing.B) {
	const settle = 300
	ev := engine.Event{Kind: engine.Update, DT: 1.0 / 60}
	for _, n := range []int{100, 1000, 5000} {
		for _, events := range []bool{true, false} {
			name := "engine"
			if !events {
				name = "engine-no-events"
			}
			b.Run(fmt.Sprintf("%s/bodies=%d", name, n), func(b *testing.B) {
				w, p, _ := physicsSceneConfig(n, systems.PhysicsConfig{NoCollisionEvents: !events})
				for range settle {
					p.Update(w, ev)
				}
				b.ReportAllocs()
				for b.Loop() {
					p.Update(w, ev)
				}
				perEntity(b, n)
			})
		}
		for _, callbacks := range []bool{false, true} {
			name := "raw-cp"
			if callbacks {
				name = "raw-cp-callbacks"
			}
			b.Run(fmt.Sprintf("%s/bodies=%d", name, n), func(b *testing.B) {
				space, _ := rawScene(n)
				if callbacks {
					h := space.NewWildcardCollisionHandler(0)
					h.BeginFunc = func(*cp.Arbiter, *cp.Space, any) bool { return true }
					h.SeparateFunc = func(*cp.Arbiter, *cp.Space, any) {}
				}
				for range settle {
					space.Step(ev.DT)
				}
				b.ReportAllocs()
				for b.Loop() {
					space.Step(ev.DT)
				}
				perEntity(b, n)
			})
		}
	}
}

// BenchmarkTransformSync is the physics system's copy of body poses into
// Transforms for 10,000 bodies, beside a raw donburi query loop doing the
// same work and a plain Go slice loop (the memory limit).
func BenchmarkTransformSync(b *testing.B) {
	const n = 10_000
	w, p, _ := physicsScene(n)
	b.Run("engine", func(b *testing.B) {
		for b.Loop() {
			p.Sync(w)
		}
		perEntity(b, n)
	})
	b.Run("raw-donburi", func(b *testing.B) {
		q := donburi.NewQuery(filter.Contains(components.TransformC, components.BodyC))
		for b.Loop() {
			for e := range q.Iter(w) {
				body := components.BodyC.Get(e).Body
				pos := body.Position()
				tr := components.TransformC.Get(e)
				tr.Prev = tr.Cur
				tr.Cur = components.Pose{X: pos.X, Y: pos.Y, Angle: body.Angle()}
			}
		}
		perEntity(b, n)
	})
	b.Run("go-slice", func(b *testing.B) {
		bodies := make([]*cp.Body, 0, n)
		p.Space().EachBody(func(body *cp.Body) { bodies = append(bodies, body) })
		trs := make([]components.Transform, len(bodies))
		for b.Loop() {
			for i, body := range bodies {
				pos := body.Position()
				trs[i].Prev = trs[i].Cur
				trs[i].Cur = components.Pose{X: pos.X, Y: pos.Y, Angle: body.Angle()}
			}
		}
		perEntity(b, n)
	})
}
