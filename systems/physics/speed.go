package physics

import (
	"github.com/fixedstep/fixedstep/components"
	"github.com/fixedstep/fixedstep/third_party/donburi"
)

// SpeedLimit bounds the speed of its entity's body: before every step
// (Update), a body moving faster than Max is slowed to Max, its direction
// kept. BodyOptions.MaxSpeed gives an entity one; a game may set, change
// or remove it. It is a component, so the bound is part of the state
// (snapshots, saves, -synctest) as the body is. A sleeping body is left
// as it is; a Max of 0 or less bounds nothing.
type SpeedLimit struct {
	Max float64
}

// SpeedLimitC is the component of a body's speed limit.
var SpeedLimitC = donburi.NewComponentType[SpeedLimit]()

// limitSpeeds slows every awake body whose entity has a SpeedLimit to its
// bound, before the step moves it by its velocity. It allocates nothing.
func (p *Physics) limitSpeeds(w donburi.World) {
	for cols := range donburi.Columns2(p.limited, w, SpeedLimitC, components.BodyC) {
		limits, bodies := cols.A[:len(cols.Entities)], cols.B[:len(cols.Entities)]
		for i, e := range cols.Entities {
			b, limit := bodies[i].Body, limits[i].Max
			if !e.IsReady() || b == nil || limit <= 0 || b.IsSleeping() {
				continue
			}
			if v := b.Velocity(); v.LengthSq() > float64(limit*limit) {
				b.SetVelocityVector(v.Mult(limit / v.Length()))
			}
		}
	}
}
