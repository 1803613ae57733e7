package systems_test

import (
	"testing"

	"github.com/fixedstep/fixedstep/components"
	"github.com/fixedstep/fixedstep/engine"
	"github.com/fixedstep/fixedstep/systems"
	"github.com/fixedstep/fixedstep/systems/health"
	"github.com/fixedstep/fixedstep/third_party/cp"
	"github.com/fixedstep/fixedstep/third_party/donburi"
)

// Fleeing from a hit is the agent's choice: a hit through package health
// lowers every agent's mirrored Health, and only an agent with
// FleeWhenHurt (under its Below) is sent fleeing from where it came from.
func TestAgentHurtIsTheAgentsChoice(t *testing.T) {
	w := donburi.NewWorld()
	spawn := func(flee *systems.FleeWhenHurt) donburi.Entity {
		e := w.Create(components.AgentC, health.HealthC)
		components.AgentC.SetValue(w.Entry(e), components.NewAgent(50, 100))
		health.HealthC.SetValue(w.Entry(e), health.Full(4, 0))
		if flee != nil {
			w.Entry(e).AddComponent(systems.FleeWhenHurtC)
			systems.FleeWhenHurtC.SetValue(w.Entry(e), *flee)
		}
		return e
	}
	chaser, timid, brave := spawn(nil), spawn(&systems.FleeWhenHurt{}), spawn(&systems.FleeWhenHurt{Below: 0.5})
	hp := health.New()
	hp.OnDamage(systems.AgentHurt)
	from := cp.Vector{X: 3, Y: 4}
	for _, e := range []donburi.Entity{chaser, timid, brave} {
		hp.Apply(w, e, health.Damage{Amount: 1, From: from})
	}
	hp.Update(w, engine.Event{Kind: engine.Update, Tick: 1})
	for _, c := range []struct {
		e    donburi.Entity
		name string
		hurt bool
	}{{chaser, "an agent without FleeWhenHurt", false}, {timid, "FleeWhenHurt{}", true}, {brave, "FleeWhenHurt{Below: 0.5} at 0.75", false}} {
		a := components.AgentC.Get(w.Entry(c.e))
		if a.Hurt != c.hurt || a.Health != 0.75 || c.hurt && a.Threat != from {
			t.Errorf("%s hit to 3 of 4: hurt %v (want %v), health %v, threat %v", c.name, a.Hurt, c.hurt, a.Health, a.Threat)
		}
	}
	hp.Apply(w, brave, health.Damage{Amount: 2, From: from})
	hp.Update(w, engine.Event{Kind: engine.Update, Tick: 2})
	if a := components.AgentC.Get(w.Entry(brave)); !a.Hurt || a.Health != 0.25 {
		t.Errorf("FleeWhenHurt{Below: 0.5} hit to 0.25: hurt %v, health %v", a.Hurt, a.Health)
	}
}
