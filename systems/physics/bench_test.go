package physics_test

import (
	"fmt"
	"slices"
	"testing"
	"time"

	"github.com/fixedstep/fixedstep/components"
	"github.com/fixedstep/fixedstep/engine"
	"github.com/fixedstep/fixedstep/systems/physics"
	"github.com/fixedstep/fixedstep/third_party/cp"
	"github.com/fixedstep/fixedstep/third_party/donburi"
	"github.com/fixedstep/fixedstep/third_party/donburi/filter"
)

func perEntity(b *testing.B, n int) {
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*n), "ns/entity")
}

// BenchmarkPhysics steps Chipmunk2D's SimpleTerrainCircles_N (bodies=N) and
// a pyramid of N boxes (pyramid=N), after 300 steps of settling, through the
// physics system, beside raw cp stepping the same scene, bare and with the
// same collision callbacks installed.
func BenchmarkPhysics(b *testing.B) {
	const settle = 300
	ev := engine.Event{Kind: engine.Update, DT: 1.0 / 60}
	for _, sc := range physicsBenches {
		n := sc.bodies
		for _, events := range []bool{true, false} {
			name := "engine"
			if !events {
				name = "engine-no-events"
			}
			b.Run(fmt.Sprintf("%s/%s", name, sc.name), func(b *testing.B) {
				skipLarge(b, n)
				w, p, _ := engineScene(sc, physics.Config{NoCollisionEvents: !events})
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
			b.Run(fmt.Sprintf("%s/%s", name, sc.name), func(b *testing.B) {
				skipLarge(b, n)
				space, _ := rawSceneOf(sc)
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

// BenchmarkPhysicsOverhead measures the physics system against raw cp on the
// same machine moment by moment: two identical scenes of BenchmarkPhysics
// (one through the engine, one raw, with or without collision callbacks on
// both) stepped in lockstep, alternating which goes first, each step timed.
// Their states stay identical, so each pair of steps does the same work; the
// median per-step ratio is immune to the drift of a shared machine.
func BenchmarkPhysicsOverhead(b *testing.B) {
	ev := engine.Event{Kind: engine.Update, DT: 1.0 / 60}
	for _, sc := range physicsBenches {
		n := sc.bodies
		for _, events := range []bool{false, true} {
			name := sc.name + "/no-events"
			if events {
				name = sc.name + "/events"
			}
			b.Run(name, func(b *testing.B) {
				skipLarge(b, n)
				w, p, _ := engineScene(sc, physics.Config{NoCollisionEvents: !events})
				space, _ := rawSceneOf(sc)
				if events {
					h := space.NewWildcardCollisionHandler(0)
					h.BeginFunc = func(*cp.Arbiter, *cp.Space, any) bool { return true }
					h.SeparateFunc = func(*cp.Arbiter, *cp.Space, any) {}
				}
				for range 300 {
					p.Update(w, ev)
					space.Step(ev.DT)
				}
				var engineNs, rawNs []float64
				i := 0
				for b.Loop() {
					engineStep := func() {
						t := time.Now()
						p.Update(w, ev)
						engineNs = append(engineNs, float64(time.Since(t)))
					}
					rawStep := func() {
						t := time.Now()
						space.Step(ev.DT)
						rawNs = append(rawNs, float64(time.Since(t)))
					}
					if i++; i%2 == 0 {
						engineStep()
						rawStep()
					} else {
						rawStep()
						engineStep()
					}
				}
				ratios := make([]float64, len(engineNs))
				for i := range engineNs {
					ratios[i] = engineNs[i] / rawNs[i]
				}
				b.ReportMetric(median(engineNs)/float64(n), "engine-ns/entity")
				b.ReportMetric(median(rawNs)/float64(n), "raw-ns/entity")
				b.ReportMetric((median(ratios)-1)*100, "overhead-%")
			})
		}
	}
}

// median returns the median of xs, reordering them.
func median(xs []float64) float64 {
	if len(xs) == 0 {
		return 0
	}
	slices.Sort(xs)
	return xs[len(xs)/2]
}
