package systems_test

import (
	"testing"

	"github.com/fixedstep/fixedstep/components"
	"github.com/fixedstep/fixedstep/third_party/cp"
	"github.com/fixedstep/fixedstep/third_party/donburi"
)

// routeCall is what a Router was asked.
type routeCall struct {
	e           donburi.Entity
	pos, target cp.Vector
}

// fixedRouter gives every agent in its list the waypoint wp, and the rest
// none; it records what it was asked.
type fixedRouter struct {
	wp     cp.Vector
	routed map[donburi.Entity]bool
	calls  []routeCall
}

func (r *fixedRouter) Waypoint(w donburi.World, e donburi.Entity, pos, target cp.Vector) (cp.Vector, bool) {
	r.calls = append(r.calls, routeCall{e, pos, target})
	return r.wp, r.routed[e]
}

// A chasing agent heads for the waypoint its Router gives, at full speed;
// given none it arrives at the player as without a Router. Agents that do
// not chase are not asked.
func TestAIRouterWaypoint(t *testing.T) {
	s := newAIScene(1)
	near := components.NewAgent(2, 20)
	near.SlowRadius = 100 // arriving, it would crawl
	routed := s.addAgent(cp.Vector{}, near)
	plain := s.addAgent(cp.Vector{Y: 1}, near)
	blind := components.NewAgent(2, 20)
	blind.SightRange = 0
	idle := s.addAgent(cp.Vector{Y: -1}, blind)
	player := s.addPlayer(cp.Vector{X: 5})
	components.BodyC.Get(s.w.Entry(player)).Body.SetType(cp.BODY_KINEMATIC)
	r := &fixedRouter{wp: cp.Vector{X: 0, Y: -10}, routed: map[donburi.Entity]bool{routed: true}}
	s.ai.Router = r
	s.ai.Update(s.w, aiTick)

	if a := s.agent(routed); a.State != components.AgentChase || a.Desired != (cp.Vector{Y: -2}) {
		t.Errorf("routed agent: %v, desired %v; want Chase at (0, -2)", a.State, a.Desired)
	}
	if a := s.agent(plain); a.State != components.AgentChase || a.Desired.Length() >= 1 || a.Desired.X <= 0 {
		t.Errorf("unrouted agent: %v, desired %v; want arriving at the player slowly", a.State, a.Desired)
	}
	if len(r.calls) != 2 {
		t.Fatalf("the router was asked %d times: %v", len(r.calls), r.calls)
	}
	for _, c := range r.calls {
		if c.e == idle || c.target != (cp.Vector{X: 5}) {
			t.Errorf("the router was asked %v", c)
		}
	}
	if c := r.calls[0]; c.e != routed || c.pos != (cp.Vector{}) {
		t.Errorf("first call %v, want the routed agent at its place", c)
	}
}
