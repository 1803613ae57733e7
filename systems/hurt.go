package systems

import (
	"github.com/fixedstep/fixedstep/components"
	"github.com/fixedstep/fixedstep/systems/health"
	"github.com/fixedstep/fixedstep/third_party/donburi"
)

// FleeWhenHurt is an agent's choice to flee from the hits it takes: with
// it, a hit on the agent's health.Health (delivered to [AgentHurt]) sends
// it fleeing from where the hit came from, while its health's fraction
// after the hit is below Below (0: at any health). An agent without it
// takes its damage and goes on with what it was doing: a chase-only enemy.
type FleeWhenHurt struct {
	Below float64
}

// FleeWhenHurtC is the FleeWhenHurt component type.
var FleeWhenHurtC = donburi.NewComponentType[FleeWhenHurt]()

// AgentHurt is a health.System OnDamage handler for agents: for a hit on
// an entity with a components.Agent, it sets Agent.Health to the health's
// fraction after the hit (HP over Max), so that the AI's table, which
// flees a player seen below FleeHealth, sees it; and when the agent has a
// [FleeWhenHurt] whose Below the fraction is under (or 0), it makes the
// agent flee from the damage's From (components.Agent.Flee) at the next
// AI tick. Other hits it leaves alone. It allocates nothing.
//
//	hp.OnDamage(systems.AgentHurt)
func AgentHurt(w donburi.World, ev health.Event) {
	if !w.Valid(ev.Target) {
		return
	}
	e := w.Entry(ev.Target)
	if !e.HasComponent(components.AgentC) || !e.HasComponent(health.HealthC) {
		return
	}
	a := components.AgentC.Get(e)
	frac := health.HealthC.Get(e).Fraction()
	a.Health = frac
	if e.HasComponent(FleeWhenHurtC) {
		if below := FleeWhenHurtC.Get(e).Below; below == 0 || frac < below {
			a.Flee(ev.From)
		}
	}
}
