package systems_test

import (
	"fmt"
	"math"
	"math/rand/v2"
	"testing"

	"github.com/fixedstep/fixedstep/components"
	"github.com/fixedstep/fixedstep/engine"
	"github.com/fixedstep/fixedstep/systems"
	"github.com/fixedstep/fixedstep/third_party/cp"
	"github.com/fixedstep/fixedstep/third_party/donburi"
)

// The AI in a crowd: determinism, allocations and its benchmarks.

// crowd is a scene of n agents on a lattice 1.5 apart around a player that
// crosses it on a kinematic body, so that agents wander, chase, flee and keep
// apart.
func crowd(n int, seed uint64) *aiScene {
	s := newAIScene(seed)
	side := int(math.Ceil(math.Sqrt(float64(n))))
	for i := range n {
		a := components.NewAgent(2, 20)
		a.SeparationRadius = 2
		if i%7 == 0 {
			a.Health = 0.2 // weak: flees
		}
		x, y := float64(i%side)*1.5, float64(i/side)*1.5
		s.addAgent(cp.Vector{X: x - float64(side)*0.75, Y: y - float64(side)*0.75}, a)
	}
	body := s.space.AddBody(cp.NewKinematicBody())
	body.SetPosition(cp.Vector{X: -float64(side), Y: 1})
	body.SetVelocityVector(cp.Vector{X: 1.5})
	shape := s.space.AddShape(cp.NewCircle(body, aiRadius, cp.Vector{}))
	e := s.w.Create(components.TransformC, components.BodyC, components.ShapeC, components.PlayerC)
	body.UserData, shape.UserData = e, e
	entry := s.w.Entry(e)
	p := body.Position()
	components.TransformC.SetValue(entry, components.NewTransform(components.Pose{X: p.X, Y: p.Y}))
	components.BodyC.SetValue(entry, components.Body{Body: body})
	components.ShapeC.SetValue(entry, components.Shape{Shapes: []*cp.Shape{shape}})
	s.player = e
	return s
}

// crowdPaths runs a crowd through the engine's loop and scheduler, physics at
// 60 Hz and AI at AIHz, for ticks physics ticks, and returns every agent's
// position after every physics tick, and how many agents were in each state
// at the end.
func crowdPaths(t *testing.T, n int, seed uint64, ticks int64) ([]cp.Vector, map[components.AgentState]int) {
	t.Helper()
	s := crowd(n, seed)
	sched := engine.NewScheduler(s.w, engine.Group{Name: "physics", Hz: 60}, engine.Group{Name: "ai", Hz: systems.AIHz})
	var out []cp.Vector
	sched.AddUpdate(0, "physics", func(w donburi.World, ev engine.Event) {
		s.physics(w, ev)
		for _, e := range s.agents {
			out = append(out, s.pos(e))
		}
	})
	sched.AddUpdate(1, "ai", s.ai.Update)
	loop, err := engine.NewHeadlessLoop(engine.Config{}, &engine.Headless{FPS: 144}, nil)
	if err != nil {
		t.Fatal(err)
	}
	aiTicks := int64(0)
	for ev := range loop.Events(sched.Groups()...) {
		sched.Handle(ev)
		if ev.Kind == engine.Update && ev.Group == 1 {
			aiTicks = ev.Tick
		}
		if ev.Kind == engine.Update && ev.Group == 0 && ev.Tick == ticks {
			loop.Stop()
		}
	}
	// The AI tick due with the last physics tick comes after it: the loop
	// stopped before.
	if want := (ticks - 1) / 6; aiTicks != want {
		t.Fatalf("%d AI ticks in %d physics ticks, want %d", aiTicks, ticks, want)
	}
	states := map[components.AgentState]int{}
	for _, e := range s.agents {
		states[s.agent(e).State]++
	}
	return out, states
}

// Two runs with one seed give bit-identical paths; another seed, other paths.
func TestAIDeterministic(t *testing.T) {
	const n, ticks = 60, 300
	a, states := crowdPaths(t, n, 7, ticks)
	b, _ := crowdPaths(t, n, 7, ticks)
	c, _ := crowdPaths(t, n, 8, ticks)
	if len(a) != n*ticks {
		t.Fatalf("%d positions, want %d", len(a), n*ticks)
	}
	for i := range a {
		if math.Float64bits(a[i].X) != math.Float64bits(b[i].X) || math.Float64bits(a[i].Y) != math.Float64bits(b[i].Y) {
			t.Fatalf("tick %d, agent %d: %v and %v with the same seed", i/n+1, i%n, a[i], b[i])
		}
	}
	differ := 0
	for i := len(a) - n; i < len(a); i++ {
		if a[i] != c[i] {
			differ++
		}
	}
	if differ < n/2 {
		t.Fatalf("only %d of %d agents end elsewhere with another seed", differ, n)
	}
	t.Logf("states after %d ticks: %v", ticks, states)
	if states[components.AgentChase]+states[components.AgentFlee] == 0 {
		t.Fatalf("states %v: the player crossed the crowd and no agent reacted", states)
	}
}

// Update allocates nothing once warm, with a player in sight of many
// agents or with none; nor does cp's BBQuery that it asks.
func TestAIAllocatesNothing(t *testing.T) {
	if debugBuild {
		t.Skip("cp's asserts allocate under -tags debug")
	}
	s := newAIScene(1)
	probe := func(*cp.Shape, any) {}
	bb := cp.NewBBForCircle(cp.Vector{}, 5)
	if query := testing.AllocsPerRun(100, func() { s.space.BBQuery(bb, cp.SHAPE_FILTER_ALL, probe, nil) }); query != 0 {
		t.Errorf("cp's Space.BBQuery allocates %v times per call", query)
	}
	for _, n := range []int{100, 1000} {
		s := crowd(n, 1)
		s.run(60) // warm up: slices grow, states settle
		if got := testing.AllocsPerRun(100, func() { s.ai.Update(s.w, aiTick) }); got != 0 {
			t.Errorf("%d agents: Update allocates %v times per tick", n, got)
		}
		s.removeEntity(s.player)
		s.ai.Update(s.w, aiTick)
		if got := testing.AllocsPerRun(100, func() { s.ai.Update(s.w, aiTick) }); got != 0 {
			t.Errorf("%d agents, no player: Update allocates %v times per tick, want 0", n, got)
		}
	}
}

func BenchmarkAI(b *testing.B) {
	for _, n := range []int{1000, 10000} {
		b.Run(fmt.Sprintf("agents=%d", n), func(b *testing.B) {
			s := crowd(n, 1)
			s.run(6)
			b.ReportAllocs()
			for b.Loop() {
				s.ai.Update(s.w, aiTick)
			}
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*n), "ns/entity")
		})
	}
}

// BenchmarkAIRaw is the baseline for BenchmarkAI: the same agents' steering
// in plain Go slices, with no donburi and no cp query (sight is a distance
// check against the player), the same steering functions and neighbour grid,
// and a two-state machine (chase in sight, else wander).
func BenchmarkAIRaw(b *testing.B) {
	for _, n := range []int{1000, 10000} {
		b.Run(fmt.Sprintf("agents=%d", n), func(b *testing.B) {
			s := crowd(n, 1)
			s.run(6)
			agents := make([]components.Agent, n)
			pos := make([]cp.Vector, n)
			for i, e := range s.agents {
				agents[i], pos[i] = *s.agent(e), s.pos(e)
			}
			player := s.pos(s.player)
			rng := rand.New(rand.NewPCG(1, 1))
			var grid systems.Neighbours
			var near []cp.Vector
			dt := aiTick.DT
			b.ReportAllocs()
			for b.Loop() {
				grid.Build(pos, 2)
				for i := range agents {
					a, p := &agents[i], pos[i]
					var v cp.Vector
					if p.DistanceSq(player) <= a.SightRange*a.SightRange {
						a.State = components.AgentChase
						v = systems.Arrive(p, player, a.MaxSpeed, a.SlowRadius)
					} else {
						a.State = components.AgentWander
						v = systems.Wander(a.Desired, &a.WanderAngle, a.WanderTurn*dt, a.WanderJitter*dt, a.MaxSpeed, rng)
					}
					near = grid.Near(i, a.SeparationRadius, near[:0])
					v = v.Add(systems.Separation(p, near, a.SeparationRadius, a.MaxSpeed))
					a.Desired = v.Clamp(a.MaxSpeed)
				}
			}
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*n), "ns/entity")
		})
	}
}
