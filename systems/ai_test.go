package systems_test

import (
	"math"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/fixedstep/fixedstep/components"
	"github.com/fixedstep/fixedstep/engine"
	"github.com/fixedstep/fixedstep/systems"
	"github.com/fixedstep/fixedstep/third_party/cp"
	"github.com/fixedstep/fixedstep/third_party/donburi"
	"github.com/fixedstep/fixedstep/third_party/donburi/filter"
)

// aiScene is a world of agents in a real cp space, built by hand the way
// Physics.Spawn builds it (Transform, Body, Shape; UserData = entity), and
// stepped by aiScene.physics, which does what the physics system does in a
// tick: steer agents with SteeringForce, step, copy poses to Transforms.
type aiScene struct {
	w      donburi.World
	space  *cp.Space
	ai     *systems.AI
	player donburi.Entity
	agents []donburi.Entity
	steer  *donburi.Query // Agent + Body
	moving *donburi.Query // Transform + Body
}

const aiRadius = 0.5 // every body is a circle of this radius

func newAIScene(seed uint64) *aiScene {
	s := &aiScene{
		w:      donburi.NewWorld(),
		space:  cp.NewSpace(),
		steer:  donburi.NewQuery(filter.Contains(components.AgentC, components.BodyC)),
		moving: donburi.NewQuery(filter.Contains(components.TransformC, components.BodyC)),
	}
	s.ai = systems.NewAI(s.w, s.space, seed)
	return s
}

// spawn adds an entity with a dynamic circle body of mass 1 at pos.
func (s *aiScene) spawn(pos cp.Vector, comps ...donburi.IComponentType) donburi.Entity {
	body := s.space.AddBody(cp.NewBody(1, cp.MomentForCircle(1, 0, aiRadius, cp.Vector{})))
	body.SetPosition(pos)
	shape := s.space.AddShape(cp.NewCircle(body, aiRadius, cp.Vector{}))
	types := append([]donburi.IComponentType{components.TransformC, components.BodyC, components.ShapeC}, comps...)
	e := s.w.Create(types...)
	body.UserData, shape.UserData = e, e
	entry := s.w.Entry(e)
	components.TransformC.SetValue(entry, components.NewTransform(components.Pose{X: pos.X, Y: pos.Y}))
	components.BodyC.SetValue(entry, components.Body{Body: body})
	components.ShapeC.SetValue(entry, components.Shape{Shapes: []*cp.Shape{shape}})
	return e
}

func (s *aiScene) addAgent(pos cp.Vector, a components.Agent) donburi.Entity {
	e := s.spawn(pos, components.AgentC)
	components.AgentC.SetValue(s.w.Entry(e), a)
	s.agents = append(s.agents, e)
	return e
}

func (s *aiScene) addPlayer(pos cp.Vector) donburi.Entity {
	s.player = s.spawn(pos, components.PlayerC)
	return s.player
}

// removeEntity takes e out of the world and its body and shapes out of the space.
func (s *aiScene) removeEntity(e donburi.Entity) {
	entry := s.w.Entry(e)
	for _, sh := range components.ShapeC.Get(entry).Shapes {
		s.space.RemoveShape(sh)
	}
	s.space.RemoveBody(components.BodyC.Get(entry).Body)
	s.w.Remove(e)
}

// teleport puts e at pos, at rest, in the space and in its Transform.
func (s *aiScene) teleport(e donburi.Entity, pos cp.Vector) {
	entry := s.w.Entry(e)
	body := components.BodyC.Get(entry).Body
	body.SetPosition(pos)
	body.SetVelocity(0, 0)
	for _, sh := range components.ShapeC.Get(entry).Shapes {
		s.space.ReindexShape(sh)
	}
	components.TransformC.Get(entry).Teleport(components.Pose{X: pos.X, Y: pos.Y})
}

func (s *aiScene) agent(e donburi.Entity) *components.Agent {
	return components.AgentC.Get(s.w.Entry(e))
}

func (s *aiScene) pos(e donburi.Entity) cp.Vector {
	return components.BodyC.Get(s.w.Entry(e)).Body.Position()
}

func (s *aiScene) vel(e donburi.Entity) cp.Vector {
	return components.BodyC.Get(s.w.Entry(e)).Body.Velocity()
}

// physics is one physics tick, as the physics system runs it.
func (s *aiScene) physics(w donburi.World, ev engine.Event) {
	for e := range s.steer.Iter(w) {
		b := components.BodyC.Get(e).Body
		b.SetForce(components.AgentC.Get(e).SteeringForce(b.Velocity(), b.Mass(), ev.DT))
	}
	s.space.Step(ev.DT)
	for e := range s.moving.Iter(w) {
		b := components.BodyC.Get(e).Body
		p := b.Position()
		components.TransformC.Get(e).Set(components.Pose{X: p.X, Y: p.Y, Angle: b.Angle()})
	}
}

var (
	physicsTick = engine.Event{Kind: engine.Update, DT: 1.0 / 60}
	aiTick      = engine.Event{Kind: engine.Update, DT: 1.0 / systems.AIHz}
)

// run runs n physics ticks at 60 Hz and, after every sixth, an AI tick at
// 10 Hz: the order in which the loop delivers the two groups.
func (s *aiScene) run(n int) {
	for i := 1; i <= n; i++ {
		s.physics(s.w, physicsTick)
		if i%6 == 0 {
			s.ai.Update(s.w, aiTick)
		}
	}
}

// follow runs a body of mass 1 at from for seconds, at 60 Hz, steered
// towards the velocity desired(pos) recomputed at 10 Hz, as the AI and the
// physics system would; it returns the positions after each physics tick.
func follow(t *testing.T, from cp.Vector, a components.Agent, seconds float64, desired func(pos cp.Vector) cp.Vector) []cp.Vector {
	t.Helper()
	space := cp.NewSpace()
	body := space.AddBody(cp.NewBody(1, cp.MomentForCircle(1, 0, aiRadius, cp.Vector{})))
	body.SetPosition(from)
	space.AddShape(cp.NewCircle(body, aiRadius, cp.Vector{}))
	var path []cp.Vector
	for i := range int(math.Round(seconds * 60)) {
		if i%6 == 0 {
			a.Desired = desired(body.Position())
			if l := a.Desired.Length(); l > a.MaxSpeed*(1+1e-12) {
				t.Fatalf("desired speed %v > MaxSpeed %v", l, a.MaxSpeed)
			}
		}
		body.SetForce(a.SteeringForce(body.Velocity(), body.Mass(), physicsTick.DT))
		space.Step(physicsTick.DT)
		path = append(path, body.Position())
	}
	return path
}

func near(a, b, tol float64) bool { return math.Abs(a-b) <= tol }

func TestSeekHeadsForTargetAtMaxSpeed(t *testing.T) {
	pos, target := cp.Vector{X: 1, Y: 1}, cp.Vector{X: 4, Y: 5}
	v := systems.Seek(pos, target, 2)
	if !near(v.X, 1.2, 1e-12) || !near(v.Y, 1.6, 1e-12) {
		t.Fatalf("Seek = %v, want (1.2, 1.6)", v)
	}
	if v := systems.Seek(target, target, 2); v != (cp.Vector{}) {
		t.Fatalf("Seek on target = %v, want zero", v)
	}

	// Steered by physics towards a far target, the agent reaches MaxSpeed
	// along the line to it and covers the distance at that speed.
	a := components.NewAgent(2, 20)
	far := cp.Vector{X: 100, Y: 50}
	path := follow(t, cp.Vector{}, a, 3, func(p cp.Vector) cp.Vector { return systems.Seek(p, far, a.MaxSpeed) })
	end := path[len(path)-1]
	if d := end.Length(); d < 2*2.5 || d > 2*3 {
		t.Fatalf("after 3 s the agent is %v from its start, want about 2 units/s × 3 s", d)
	}
	if cross := math.Abs(end.Cross(far.Normalize())); cross > 1e-6 {
		t.Fatalf("the agent strayed %v off the line to the target", cross)
	}
	if speed := path[len(path)-1].Sub(path[len(path)-2]).Length() * 60; !near(speed, 2, 1e-6) {
		t.Fatalf("speed after 3 s = %v, want MaxSpeed 2", speed)
	}
}

func TestFleeRunsAwayAtMaxSpeed(t *testing.T) {
	v := systems.Flee(cp.Vector{X: 1, Y: 1}, cp.Vector{X: 4, Y: 5}, 2)
	if !near(v.X, -1.2, 1e-12) || !near(v.Y, -1.6, 1e-12) {
		t.Fatalf("Flee = %v, want (-1.2, -1.6)", v)
	}
	if v := systems.Flee(cp.Vector{X: 3}, cp.Vector{X: 3}, 2); v != (cp.Vector{}) {
		t.Fatalf("Flee from its own position = %v, want zero", v)
	}
	a := components.NewAgent(2, 20)
	threat := cp.Vector{X: 1, Y: 0}
	path := follow(t, cp.Vector{}, a, 3, func(p cp.Vector) cp.Vector { return systems.Flee(p, threat, a.MaxSpeed) })
	prev := threat.Distance(cp.Vector{})
	for i, p := range path {
		d := p.Distance(threat)
		if d < prev-1e-12 {
			t.Fatalf("tick %d: distance from the threat fell from %v to %v", i, prev, d)
		}
		prev = d
	}
	if end := path[len(path)-1]; end.X > -5 || math.Abs(end.Y) > 1e-9 {
		t.Fatalf("after 3 s the agent is at %v, want about (-5.x, 0)", end)
	}
}

func TestArriveSlowsDownAndStops(t *testing.T) {
	target := cp.Vector{X: 10}
	if v := systems.Arrive(cp.Vector{}, target, 2, 4); !near(v.X, 2, 1e-12) || v.Y != 0 {
		t.Fatalf("outside the slowing radius Arrive = %v, want (2, 0)", v)
	}
	if v := systems.Arrive(cp.Vector{X: 9}, target, 2, 4); !near(v.X, 0.5, 1e-12) || v.Y != 0 {
		t.Fatalf("1 unit from target with radius 4 Arrive = %v, want (0.5, 0)", v)
	}
	if v := systems.Arrive(target, target, 2, 4); v != (cp.Vector{}) {
		t.Fatalf("on target Arrive = %v, want zero", v)
	}
	if v := systems.Arrive(cp.Vector{X: 9}, target, 2, 0); !near(v.X, 2, 1e-12) {
		t.Fatalf("with no slowing radius Arrive = %v, want Seek's (2, 0)", v)
	}

	a := components.NewAgent(2, 20) // SlowRadius 2: 1 s of running
	path := follow(t, cp.Vector{}, a, 12, func(p cp.Vector) cp.Vector {
		return systems.Arrive(p, target, a.MaxSpeed, a.SlowRadius)
	})
	maxX := 0.0
	for _, p := range path {
		maxX = max(maxX, p.X)
	}
	end := path[len(path)-1]
	speed := end.Sub(path[len(path)-2]).Length() * 60
	if end.Distance(target) > 0.01 || speed > 0.01 || maxX > target.X+0.01 {
		t.Fatalf("after 12 s: %v from the target at speed %v, farthest x %v; want stopped on it, no overshoot",
			end.Distance(target), speed, maxX)
	}
	// It still runs at full speed before the slowing radius.
	if v := path[3*60].Sub(path[3*60-1]).Length() * 60; !near(v, 2, 1e-6) {
		t.Fatalf("speed 3 s in (6 units from the target) = %v, want 2", v)
	}
}

func TestWanderIsSmoothAndSeeded(t *testing.T) {
	const maxSpeed, maxTurn, jitter = 3.0, 0.3, 0.6
	walk := func(seed uint64) []cp.Vector {
		rng := rand.New(rand.NewPCG(seed, 1))
		angle := 0.0
		heading := cp.Vector{}
		var out []cp.Vector
		for range 2000 {
			heading = systems.Wander(heading, &angle, maxTurn, jitter, maxSpeed, rng)
			out = append(out, heading)
		}
		return out
	}
	vs := walk(1)
	var quadrants [4]int
	for i, v := range vs {
		if !near(v.Length(), maxSpeed, 1e-9) {
			t.Fatalf("call %d: speed %v, want MaxSpeed %v", i, v.Length(), maxSpeed)
		}
		if i > 0 {
			turn := math.Abs(components.AngleDiff(vs[i-1].ToAngle(), v.ToAngle()))
			if turn > maxTurn+1e-9 {
				t.Fatalf("call %d: turned %v rad, want at most %v", i, turn, maxTurn)
			}
		}
		q := 0
		if v.X < 0 {
			q++
		}
		if v.Y < 0 {
			q += 2
		}
		quadrants[q]++
	}
	for q, n := range quadrants {
		if n < 100 {
			t.Fatalf("headings per quadrant %v: quadrant %d hardly visited, the wander does not wander", quadrants, q)
		}
	}
	if !slices.Equal(vs, walk(1)) {
		t.Fatal("the same seed gave another walk")
	}
	if slices.Equal(vs, walk(2)) {
		t.Fatal("another seed gave the same walk")
	}
	// From rest, the agent sets off in the direction of its wander angle.
	angle := 1.0
	v := systems.Wander(cp.Vector{}, &angle, maxTurn, 0, maxSpeed, rand.New(rand.NewPCG(1, 1)))
	if !near(v.ToAngle(), 1, 1e-12) || !near(v.Length(), maxSpeed, 1e-12) {
		t.Fatalf("from rest Wander = %v, want speed %v at angle 1", v, maxSpeed)
	}
}

func TestSeparationPushesAwayFromNeighbours(t *testing.T) {
	pos := cp.Vector{}
	cases := []struct {
		name       string
		neighbours []cp.Vector
		want       cp.Vector
	}{
		{"none", nil, cp.Vector{}},
		{"one at half the radius", []cp.Vector{{X: 1}}, cp.Vector{X: -2}}, // (1 - 1/2) × 4
		{"one beyond the radius", []cp.Vector{{X: 2.5}}, cp.Vector{}},
		{"itself", []cp.Vector{pos}, cp.Vector{}},
		{"two opposite", []cp.Vector{{X: 1}, {X: -1}}, cp.Vector{}},
		{"two above", []cp.Vector{{X: 1, Y: 1}, {X: -1, Y: 1}}, cp.Vector{Y: -2 * (1 - math.Sqrt2/2) * math.Sqrt2 / 2 * 4}},
		{"crowded", []cp.Vector{{X: 0.1}, {X: 0.1, Y: 0.1}, {Y: 0.1}}, cp.Vector{X: -4 / math.Sqrt2, Y: -4 / math.Sqrt2}},
	}
	for _, c := range cases {
		got := systems.Separation(pos, c.neighbours, 2, 4)
		if !near(got.X, c.want.X, 1e-9) || !near(got.Y, c.want.Y, 1e-9) {
			t.Errorf("%s: Separation = %v, want %v", c.name, got, c.want)
		}
	}

	// Two idle agents dropped on each other part to about their separation
	// radius and stay there.
	s := newAIScene(1)
	a := components.NewAgent(2, 20)
	a.IdleTime, a.Timer, a.SeparationRadius = 100, 100, 2
	e1 := s.addAgent(cp.Vector{}, a)
	e2 := s.addAgent(cp.Vector{X: 0.2, Y: 0.1}, a)
	s.ai.Update(s.w, aiTick)
	if d := s.agent(e1).Desired; d.X >= 0 || d.Length() == 0 {
		t.Fatalf("the left agent wants %v, want to go left", d)
	}
	s.run(5 * 60)
	if d := s.pos(e1).Distance(s.pos(e2)); d < 1.6 || d > 2.05 {
		t.Fatalf("after 5 s the agents are %v apart, want about their separation radius 2", d)
	}
	if st := s.agent(e1).State; st != components.AgentIdle {
		t.Fatalf("state %v, want Idle", st)
	}
}

func TestNeighboursMatchesBruteForce(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 3))
	var g systems.Neighbours
	var got []cp.Vector
	for round := range 20 {
		n := 1 + rng.IntN(300)
		pts := make([]cp.Vector, n)
		for i := range pts {
			pts[i] = cp.Vector{X: rng.Float64()*40 - 20, Y: rng.Float64()*40 - 20}
		}
		if round%2 == 0 && n > 1 {
			pts[1] = pts[0] // a duplicate point
		}
		cell := 0.5 + rng.Float64()*4
		g.Build(pts, cell)
		for i := range pts {
			r := cell * rng.Float64()
			got = g.Near(i, r, got[:0])
			var want []cp.Vector
			for j, q := range pts {
				if j != i && pts[i].DistanceSq(q) < r*r {
					want = append(want, q)
				}
			}
			cmp := func(a, b cp.Vector) int {
				if a.X != b.X {
					return int(math.Copysign(1, a.X-b.X))
				}
				return int(math.Copysign(1, a.Y-b.Y))
			}
			slices.SortFunc(got, cmp)
			slices.SortFunc(want, cmp)
			if !slices.Equal(got, want) {
				t.Fatalf("round %d, point %d, radius %v: Near = %v, want %v", round, i, r, got, want)
			}
		}
	}
	g.Build(nil, 1)
	g.Build([]cp.Vector{{}}, 0)
	if got := g.Near(0, 1, nil); len(got) != 0 {
		t.Fatalf("with no cell, Near = %v", got)
	}
}

func TestSteeringForce(t *testing.T) {
	a := components.Agent{Desired: cp.Vector{X: 3, Y: -1}, MaxSpeed: 5, MaxForce: 1e6}
	space := cp.NewSpace()
	body := space.AddBody(cp.NewBody(2, cp.MomentForCircle(2, 0, 1, cp.Vector{})))
	space.AddShape(cp.NewCircle(body, 1, cp.Vector{}))
	body.SetVelocity(1, 1)
	body.SetForce(a.SteeringForce(body.Velocity(), body.Mass(), physicsTick.DT))
	space.Step(physicsTick.DT)
	if v := body.Velocity(); !near(v.X, 3, 1e-9) || !near(v.Y, -1, 1e-9) {
		t.Fatalf("unclamped: velocity after one step %v, want Desired %v", v, a.Desired)
	}

	a.MaxForce = 6
	f := a.SteeringForce(cp.Vector{X: 1, Y: 1}, 2, physicsTick.DT)
	if !near(f.Length(), 6, 1e-9) || !near(f.ToAngle(), cp.Vector{X: 2, Y: -2}.ToAngle(), 1e-12) {
		t.Fatalf("clamped force %v: want length 6 towards Desired - vel", f)
	}
	for _, c := range []struct {
		name           string
		maxForce, mass float64
		dt             float64
	}{
		{"no MaxForce", 0, 2, 1.0 / 60},
		{"infinite mass (kinematic)", 6, math.Inf(1), 1.0 / 60},
		{"zero mass", 6, 0, 1.0 / 60},
		{"zero step", 6, 2, 0},
		{"NaN step", 6, 2, math.NaN()},
	} {
		a.MaxForce = c.maxForce
		if f := a.SteeringForce(cp.Vector{}, c.mass, c.dt); f != (cp.Vector{}) {
			t.Errorf("%s: force %v, want zero", c.name, f)
		}
	}
	a.MaxForce, a.Desired = 6, cp.Vector{X: math.NaN()}
	if f := a.SteeringForce(cp.Vector{}, 2, 1.0/60); f != (cp.Vector{}) {
		t.Errorf("NaN desired: force %v, want zero", f)
	}
}

func TestAgentStateString(t *testing.T) {
	for s, want := range map[components.AgentState]string{
		components.AgentIdle: "Idle", components.AgentWander: "Wander",
		components.AgentChase: "Chase", components.AgentFlee: "Flee", 9: "AgentState(?)",
	} {
		if s.String() != want {
			t.Errorf("%d.String() = %q, want %q", s, s.String(), want)
		}
	}
}

// The state machine takes each row of its table.
func TestAIStateMachine(t *testing.T) {
	s := newAIScene(1)
	a := components.NewAgent(2, 20) // sight 6, lose 9, safe 12
	e := s.addAgent(cp.Vector{}, a)
	player := s.addPlayer(cp.Vector{X: 20})
	ag := s.agent(e)
	tick := func(want components.AgentState, why string) {
		t.Helper()
		s.ai.Update(s.w, aiTick)
		if ag.State != want {
			t.Fatalf("%s: state %v, want %v", why, ag.State, want)
		}
	}

	tick(components.AgentWander, "idle with no stay left")
	if ag.PlayerInRange || ag.Target != donburi.Null || !near(ag.Desired.Length(), 2, 1e-9) {
		t.Fatalf("wandering: in range %v, target %v, desired %v", ag.PlayerInRange, ag.Target, ag.Desired)
	}

	s.teleport(player, cp.Vector{X: 5})
	tick(components.AgentChase, "player enters sight (5 < 6)")
	if !ag.PlayerInRange || ag.Target != player || ag.Desired.X <= 0 {
		t.Fatalf("chasing: in range %v, target %v (player %v), desired %v", ag.PlayerInRange, ag.Target, player, ag.Desired)
	}

	s.teleport(player, cp.Vector{X: 8})
	tick(components.AgentChase, "player beyond sight but within LoseRange (8 < 9)")

	s.teleport(player, cp.Vector{X: 10})
	tick(components.AgentWander, "player leaves (10 > 9)")
	if ag.Target != donburi.Null {
		t.Fatalf("target %v after losing the player", ag.Target)
	}

	ag.Damage(0.5, cp.Vector{X: 1})
	tick(components.AgentFlee, "hurt")
	if ag.Hurt || ag.Target != donburi.Null || ag.Threat != (cp.Vector{X: 1}) || ag.Desired.X >= 0 {
		t.Fatalf("fleeing from a far hit: hurt %v, target %v, threat %v, desired %v", ag.Hurt, ag.Target, ag.Threat, ag.Desired)
	}
	tick(components.AgentFlee, "still within SafeRange of the threat")

	s.teleport(e, cp.Vector{X: -12})
	tick(components.AgentWander, "beyond SafeRange (13 > 12)")

	// Health is 0.5, still above FleeHealth 0.3: a hurt agent that sees the
	// player flees from the player.
	s.teleport(e, cp.Vector{})
	s.teleport(player, cp.Vector{X: 3})
	ag.Damage(0.1, cp.Vector{X: -3})
	tick(components.AgentFlee, "hurt with the player in sight")
	if ag.Target != player || ag.Threat != (cp.Vector{X: 3}) || ag.Desired.X >= 0 {
		t.Fatalf("fleeing the player: target %v, threat %v, desired %v", ag.Target, ag.Threat, ag.Desired)
	}
	s.teleport(player, cp.Vector{X: 11})
	tick(components.AgentFlee, "the threat follows the player (11 < 12)")
	if ag.Threat != (cp.Vector{X: 11}) {
		t.Fatalf("threat %v, want the player's position (11, 0)", ag.Threat)
	}
	s.teleport(player, cp.Vector{X: 13})
	tick(components.AgentWander, "the player is beyond SafeRange")

	// Weak (health 0.2 < 0.3): flee on sight instead of chasing.
	ag.Health = 0.2
	s.teleport(player, cp.Vector{X: 4})
	tick(components.AgentFlee, "weak agent sees the player")
	if ag.Target != player {
		t.Fatalf("target %v, want the player", ag.Target)
	}
	ag.Health = 1
	s.teleport(player, cp.Vector{X: 30})
	tick(components.AgentWander, "the player went far")

	// Chase, then the player disappears.
	s.teleport(player, cp.Vector{X: 2})
	tick(components.AgentChase, "player in sight again")
	s.removeEntity(player)
	tick(components.AgentWander, "player gone")

	// Wander and Idle take turns, each stay about its mean.
	ag.IdleTime, ag.WanderTime = 1, 1
	stays := map[components.AgentState][]int{}
	last, n := ag.State, 0
	for range 400 {
		s.ai.Update(s.w, aiTick)
		n++
		if ag.State != last {
			stays[last] = append(stays[last], n)
			last, n = ag.State, 0
		}
	}
	for _, st := range []components.AgentState{components.AgentIdle, components.AgentWander} {
		ns := stays[st]
		if len(ns) < 10 {
			t.Fatalf("%v stays %v: too few turns", st, ns)
		}
		for _, k := range ns[1:] { // the first was under way
			if k < 5 || k > 16 {
				t.Fatalf("%v stays %v ticks: want 5 to 15 (0.5 to 1.5 s)", st, ns)
			}
		}
	}
	if ag.State == components.AgentIdle && ag.Desired != (cp.Vector{}) {
		t.Fatalf("an idle agent with no neighbours wants %v", ag.Desired)
	}
}

// Sight is found by the cp query: an agent whose shape is not in the space
// does not see the player, and shapes that are not agents are ignored.
func TestAISightUsesTheSpace(t *testing.T) {
	s := newAIScene(1)
	a := components.NewAgent(2, 20)
	seen := s.addAgent(cp.Vector{}, a)
	hidden := s.addAgent(cp.Vector{Y: 1}, a)
	s.addPlayer(cp.Vector{X: 3})
	s.spawn(cp.Vector{X: 1}) // a rock: no Agent
	for _, sh := range components.ShapeC.Get(s.w.Entry(hidden)).Shapes {
		s.space.RemoveShape(sh)
	}
	s.ai.Update(s.w, aiTick)
	if st := s.agent(seen).State; st != components.AgentChase {
		t.Fatalf("agent in the space: %v, want Chase", st)
	}
	if st := s.agent(hidden).State; st != components.AgentWander {
		t.Fatalf("agent out of the space: %v, want Wander", st)
	}
	// A filter that excludes the agents' category blinds them all.
	s.ai.Filter = cp.ShapeFilter{Group: cp.NO_GROUP, Categories: cp.ALL_CATEGORIES, Mask: 0}
	s.teleport(s.player, cp.Vector{X: 30})
	s.ai.Update(s.w, aiTick)
	s.teleport(s.player, cp.Vector{X: 3})
	s.ai.Update(s.w, aiTick)
	if st := s.agent(seen).State; st != components.AgentWander {
		t.Fatalf("with a filter that matches nothing: %v, want Wander", st)
	}
}

// Chasing through real physics: the agent catches the player (standing on a
// kinematic body, so that it is not pushed away) and stops against it.
func TestAIChaseCatchesThePlayer(t *testing.T) {
	s := newAIScene(1)
	a := components.NewAgent(2, 20)
	e := s.addAgent(cp.Vector{}, a)
	player := s.addPlayer(cp.Vector{X: 5, Y: 2})
	components.BodyC.Get(s.w.Entry(player)).Body.SetType(cp.BODY_KINEMATIC)
	s.run(6)
	if st := s.agent(e).State; st != components.AgentChase {
		t.Fatalf("state %v, want Chase", st)
	}
	start := s.pos(e).Distance(s.pos(player))
	s.run(10 * 60)
	// The two circles touch (radius 0.5 each); the agent stands still.
	if d := s.pos(e).Distance(s.pos(player)); d > 1.2 || d >= start {
		t.Fatalf("after 10 s the agent is %v from the player (was %v)", d, start)
	}
	if v := s.vel(e).Length(); v > 0.1 {
		t.Fatalf("the agent still moves at %v", v)
	}
}

// With several players, each agent sees the nearest one in its range and
// chases it: two agents, each nearer a different player, chase each their
// own, and switch when the players swap places.
func TestAIChasesTheNearestPlayer(t *testing.T) {
	s := newAIScene(1)
	left := s.addAgent(cp.Vector{X: -6}, components.NewAgent(2, 20))
	right := s.addAgent(cp.Vector{X: 6}, components.NewAgent(2, 20))
	p1 := s.addPlayer(cp.Vector{X: -9, Y: 1})
	p2 := s.addPlayer(cp.Vector{X: 9, Y: 1})
	for _, p := range []donburi.Entity{p1, p2} {
		components.BodyC.Get(s.w.Entry(p)).Body.SetType(cp.BODY_KINEMATIC)
	}
	s.run(12)
	if a, b := s.agent(left), s.agent(right); a.State != components.AgentChase || a.Target != p1 ||
		b.State != components.AgentChase || b.Target != p2 {
		t.Fatalf("left %v chasing %v, right %v chasing %v; want p1 %v and p2 %v", a.State, a.Target, b.State, b.Target, p1, p2)
	}
	s.teleport(p1, cp.Vector{X: 9, Y: -1})
	s.teleport(p2, cp.Vector{X: -9, Y: -1})
	s.run(12)
	if a, b := s.agent(left), s.agent(right); a.Target != p2 || b.Target != p1 {
		t.Fatalf("after the swap left chases %v, right %v; want p2 %v and p1 %v", a.Target, b.Target, p2, p1)
	}
}
