package systems

import (
	"hash/fnv"
	"math"
	"slices"

	"github.com/yohamta/donburi"
	"github.com/yohamta/donburi/filter"

	"github.com/fixedstep/fixedstep/components"
)

// defaultChecksum returns a hash of world's simulation state: every
// entity's id and Transform, and its body's velocity, in entity order.
func defaultChecksum(w donburi.World) func() uint64 {
	q := donburi.NewQuery(filter.Contains(components.TransformC))
	var ents []donburi.Entity
	var buf [8]byte
	return func() uint64 {
		h := fnv.New64a()
		put := func(v float64) {
			u := math.Float64bits(v)
			for i := range buf {
				buf[i] = byte(u >> (8 * i))
			}
			h.Write(buf[:])
		}
		ents = ents[:0]
		q.Each(w, func(e *donburi.Entry) { ents = append(ents, e.Entity()) })
		slices.Sort(ents)
		for _, e := range ents {
			entry := w.Entry(e)
			tr := components.TransformC.Get(entry)
			put(float64(e))
			put(tr.Cur.X)
			put(tr.Cur.Y)
			put(tr.Cur.Angle)
			if entry.HasComponent(components.BodyC) {
				v := components.BodyC.Get(entry).Body.Velocity()
				put(v.X)
				put(v.Y)
			}
		}
		return h.Sum64()
	}
}
