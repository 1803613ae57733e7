package arena

import (
	"math"
	"math/rand/v2"

	"github.com/fixedstep/fixedstep/components"
	"github.com/fixedstep/fixedstep/engine"
	"github.com/fixedstep/fixedstep/engine/input"
	"github.com/fixedstep/fixedstep/third_party/cp"
)

// Pilot plays one player of an Arena: it heads for the nearest star,
// shies away from agents close by, and wanders a little, all from the game
// state and a source seeded with the game's seed and the player's number,
// and moves the left stick of gamepad 0 that way. As the physics group's
// tick input (engine.TickInput, Options.Autopilot) a run depends only on
// the seed, at any frame rate, and its recording replays without it; a
// server's bot calls Steer between ticks.
type Pilot struct {
	rng    *rand.Rand
	arena  *Arena
	player int // whose body it steers
	wobble cp.Vector
}

// NewPilot returns a pilot of player p of a.
func (a *Arena) NewPilot(p int) *Pilot {
	return &Pilot{rng: rand.New(rand.NewPCG(a.opts.Seed, 3+uint64(p)*0x100)), arena: a, player: p}
}

// SampleTick moves the stick for tick t.
func (p *Pilot) SampleTick(t engine.TickInfo, in *input.State) { p.Steer(t.Tick, in) }

// Steer moves the stick of in for tick; it leaves in as it is once the
// game has been released.
func (p *Pilot) Steer(tick int64, in *input.State) {
	a := p.arena
	e := a.players[p.player]
	if !a.world.Valid(e) {
		return
	}
	pos := components.BodyC.Get(a.world.Entry(e)).Body.Position()
	dir := p.steer(a, pos, tick)
	in.SetGamepadAxis(0, input.AxisLeftStickHorizontal, dir.X)
	in.SetGamepadAxis(0, input.AxisLeftStickVertical, dir.Y)
}

func (p *Pilot) steer(a *Arena, pos cp.Vector, tick int64) cp.Vector {
	if tick%30 == 1 {
		p.wobble = cp.Vector{X: p.rng.Float64()*2 - 1, Y: p.rng.Float64()*2 - 1}.Mult(0.4)
	}
	var target cp.Vector
	best := math.Inf(1)
	for e := range a.stars.Iter(a.world) {
		sp := components.BodyC.Get(e).Body.Position()
		if d := sp.DistanceSq(pos); d < best {
			best, target = d, sp
		}
	}
	dir := target.Sub(pos).Normalize()
	for e := range a.agents.Iter(a.world) {
		ap := components.BodyC.Get(e).Body.Position()
		if d := ap.Distance(pos); d < 70 && d > 0 {
			dir = dir.Add(pos.Sub(ap).Mult(1.5 / d))
		}
	}
	return dir.Add(p.wobble).Clamp(1)
}
