package scenes

import (
	"hash"
	"hash/fnv"
	"math"
	"slices"

	"github.com/yohamta/donburi"
	"github.com/yohamta/donburi/filter"

	"github.com/fixedstep/fixedstep/components"
)

// checksum hashes the simulation state of every entity: transforms, body
// velocities and agents, in entity order.
func checksum(w donburi.World, extra ...float64) uint64 {
	h := fnv.New64a()
	q := donburi.NewQuery(filter.Contains(components.TransformC))
	var ents []donburi.Entity
	q.Each(w, func(e *donburi.Entry) { ents = append(ents, e.Entity()) })
	slices.Sort(ents)
	for _, e := range ents {
		entry := w.Entry(e)
		tr := components.TransformC.Get(entry)
		writeFloats(h, float64(e.Id()), tr.Cur.X, tr.Cur.Y, tr.Cur.Angle)
		if entry.HasComponent(components.BodyC) {
			v := components.BodyC.Get(entry).Body.Velocity()
			writeFloats(h, v.X, v.Y)
		}
		if entry.HasComponent(components.AgentC) {
			a := components.AgentC.Get(entry)
			writeFloats(h, float64(a.State), a.Health, a.Desired.X, a.Desired.Y)
		}
	}
	writeFloats(h, extra...)
	return h.Sum64()
}

func writeFloats(h hash.Hash64, vs ...float64) {
	var b [8]byte
	for _, v := range vs {
		u := math.Float64bits(v)
		for i := range b {
			b[i] = byte(u >> (8 * i))
		}
		h.Write(b[:])
	}
}
