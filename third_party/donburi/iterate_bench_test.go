package donburi_test

import (
	"fmt"
	"testing"
	"time"

	upstream "github.com/yohamta/donburi"
	upfilter "github.com/yohamta/donburi/filter"

	"github.com/fixedstep/fixedstep/third_party/donburi"
	"github.com/fixedstep/fixedstep/third_party/donburi/filter"
)

// The components of BenchmarkIterate: every entity's velocity is added to
// its position (read one component, write the other).
type (
	iterPos struct{ X, Y float64 }
	iterVel struct{ X, Y float64 }
	iterTag struct{}
	iterOff struct{}
)

var (
	iterPosC = donburi.NewComponentType[iterPos]()
	iterVelC = donburi.NewComponentType[iterVel]()
	iterTagC = donburi.NewComponentType[iterTag]()
	iterOffC = donburi.NewComponentType[iterOff]()

	upIterPosC = upstream.NewComponentType[iterPos]()
	upIterVelC = upstream.NewComponentType[iterVel]()
	upIterTagC = upstream.NewComponentType[iterTag]()
	upIterOffC = upstream.NewComponentType[iterOff]()
)

// iterateArchetype is the archetype of BenchmarkIterate's i-th entity: the
// entities are made in turn in four archetypes (position and velocity, one
// with a tag, one with another, one with both), as a game makes them,
// so that an archetype's values are not next to each other in memory.
func iterateArchetype(i int) (tag, off bool) { return i%2 == 1, i%4 >= 2 }

// BenchmarkIterate is the two-component update (every entity's velocity
// added to its position) over n entities in four archetypes: by upstream
// donburi's Query.Each; by this copy's Each, Iter and IterStable; by its
// Columns2, as its doc says to index the columns (Columns2), with a bounds
// check on each component (Columns2-indexed), and without the check of
// Entity.IsReady (Columns2-unchecked); and over a slice of structs (the
// floor: what is left beside Columns2-unchecked is the pointer per
// component). Its metric ns/entity is
// the time of one update over the entities. Columns2-vs-upstream runs
// Columns2 and upstream's Each in turn on twin worlds, each update timed,
// and reports the ratio of their times (ratio) and each one's ns/entity.
func BenchmarkIterate(b *testing.B) {
	for _, n := range []int{1_000, 10_000} {
		b.Run(fmt.Sprintf("entities=%d/upstream-Each", n), func(b *testing.B) {
			w, q := upstreamIterWorld(n)
			for b.Loop() {
				updateUpstream(w, q)
			}
			perEntity(b, n)
		})
		b.Run(fmt.Sprintf("entities=%d/Each", n), func(b *testing.B) {
			w, q := iterWorld(n)
			for b.Loop() {
				q.Each(w, func(e *donburi.Entry) {
					p, v := iterPosC.Get(e), iterVelC.Get(e)
					p.X += v.X
					p.Y += v.Y
				})
			}
			perEntity(b, n)
		})
		b.Run(fmt.Sprintf("entities=%d/Iter", n), func(b *testing.B) {
			w, q := iterWorld(n)
			for b.Loop() {
				for e := range q.Iter(w) {
					p, v := iterPosC.Get(e), iterVelC.Get(e)
					p.X += v.X
					p.Y += v.Y
				}
			}
			perEntity(b, n)
		})
		b.Run(fmt.Sprintf("entities=%d/IterStable", n), func(b *testing.B) {
			w, q := iterWorld(n)
			for b.Loop() {
				for e := range q.IterStable(w) {
					p, v := iterPosC.Get(e), iterVelC.Get(e)
					p.X += v.X
					p.Y += v.Y
				}
			}
			perEntity(b, n)
		})
		b.Run(fmt.Sprintf("entities=%d/Columns2", n), func(b *testing.B) {
			w, q := iterWorld(n)
			for b.Loop() {
				updateColumns(w, q)
			}
			perEntity(b, n)
		})
		b.Run(fmt.Sprintf("entities=%d/Columns2-indexed", n), func(b *testing.B) {
			w, q := iterWorld(n)
			for b.Loop() {
				for cols := range donburi.Columns2(q, w, iterPosC, iterVelC) {
					for i, e := range cols.Entities {
						if !e.IsReady() {
							continue
						}
						p, v := cols.A[i], cols.B[i]
						p.X += v.X
						p.Y += v.Y
					}
				}
			}
			perEntity(b, n)
		})
		b.Run(fmt.Sprintf("entities=%d/Columns2-unchecked", n), func(b *testing.B) {
			w, q := iterWorld(n)
			for b.Loop() {
				for cols := range donburi.Columns2(q, w, iterPosC, iterVelC) {
					vs := cols.B[:len(cols.A)]
					for i, p := range cols.A {
						v := vs[i]
						p.X += v.X
						p.Y += v.Y
					}
				}
			}
			perEntity(b, n)
		})
		b.Run(fmt.Sprintf("entities=%d/slice", n), func(b *testing.B) {
			type pv struct{ p, v iterPos }
			s := make([]pv, n)
			for i := range s {
				s[i].v = iterPos{X: 1, Y: 2}
			}
			for b.Loop() {
				for i := range s {
					s[i].p.X += s[i].v.X
					s[i].p.Y += s[i].v.Y
				}
			}
			perEntity(b, n)
		})
		b.Run(fmt.Sprintf("entities=%d/Columns2-vs-upstream", n), func(b *testing.B) {
			w, q := iterWorld(n)
			uw, uq := upstreamIterWorld(n)
			var cols, up time.Duration
			for i := 0; b.Loop(); i++ {
				if i%2 == 0 {
					cols += timed(func() { updateColumns(w, q) })
					up += timed(func() { updateUpstream(uw, uq) })
				} else {
					up += timed(func() { updateUpstream(uw, uq) })
					cols += timed(func() { updateColumns(w, q) })
				}
			}
			b.ReportMetric(float64(cols)/float64(up), "ratio")
			b.ReportMetric(float64(cols)/float64(b.N)/float64(n), "ns/entity")
			b.ReportMetric(float64(up)/float64(b.N)/float64(n), "upstream-ns/entity")
		})
	}
}

// updateColumns is BenchmarkIterate's update by Columns2, its columns
// indexed as its doc says.
func updateColumns(w donburi.World, q *donburi.Query) {
	for cols := range donburi.Columns2(q, w, iterPosC, iterVelC) {
		ps, vs := cols.A[:len(cols.Entities)], cols.B[:len(cols.Entities)]
		for i, e := range cols.Entities {
			if !e.IsReady() {
				continue
			}
			p, v := ps[i], vs[i]
			p.X += v.X
			p.Y += v.Y
		}
	}
}

// updateUpstream is BenchmarkIterate's update by upstream's Query.Each.
func updateUpstream(w upstream.World, q *upstream.Query) {
	q.Each(w, func(e *upstream.Entry) {
		p, v := upIterPosC.Get(e), upIterVelC.Get(e)
		p.X += v.X
		p.Y += v.Y
	})
}

func timed(f func()) time.Duration {
	start := time.Now()
	f()
	return time.Since(start)
}

func perEntity(b *testing.B, n int) {
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/float64(n), "ns/entity")
}

// iterWorld makes BenchmarkIterate's world in this copy, with an archetype
// the query does not match between the others.
func iterWorld(n int) (donburi.World, *donburi.Query) {
	w := donburi.NewWorld()
	for i := range n {
		cs := []donburi.IComponentType{iterPosC, iterVelC}
		tag, off := iterateArchetype(i)
		if tag {
			cs = append(cs, iterTagC)
		}
		if off {
			cs = append(cs, iterOffC)
		}
		e := w.Entry(w.Create(cs...))
		iterVelC.SetValue(e, iterVel{X: 1, Y: 2})
		if i%10 == 0 {
			w.Create(iterPosC)
		}
	}
	return w, donburi.NewQuery(filter.Contains(iterPosC, iterVelC))
}

// upstreamIterWorld is iterWorld in upstream donburi.
func upstreamIterWorld(n int) (upstream.World, *upstream.Query) {
	w := upstream.NewWorld()
	for i := range n {
		cs := []upstream.IComponentType{upIterPosC, upIterVelC}
		tag, off := iterateArchetype(i)
		if tag {
			cs = append(cs, upIterTagC)
		}
		if off {
			cs = append(cs, upIterOffC)
		}
		e := w.Entry(w.Create(cs...))
		upIterVelC.SetValue(e, iterVel{X: 1, Y: 2})
		if i%10 == 0 {
			w.Create(upIterPosC)
		}
	}
	return w, upstream.NewQuery(upfilter.Contains(upIterPosC, upIterVelC))
}
