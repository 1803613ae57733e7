package physics_test

import (
	"errors"
	"fmt"
	"hash/fnv"
	"math"
	"math/bits"
	"os"
	"os/exec"
	"strings"
	"testing"

	"github.com/fixedstep/fixedstep/components"
	"github.com/fixedstep/fixedstep/engine"
	"github.com/fixedstep/fixedstep/systems/physics"
	"github.com/fixedstep/fixedstep/third_party/cp"
	"github.com/fixedstep/fixedstep/third_party/donburi"
)

// physicsScene is SimpleTerrainCircles_n spawned through the physics system.
func physicsScene(n int) (donburi.World, *physics.Physics, []donburi.Entity) {
	return physicsSceneConfig(n, physics.Config{})
}

func physicsSceneConfig(n int, cfg physics.Config) (donburi.World, *physics.Physics, []donburi.Entity) {
	return engineScene(circlesScene(n), cfg)
}

// engineScene builds sc through the physics system.
func engineScene(sc physicsBench, cfg physics.Config) (donburi.World, *physics.Physics, []donburi.Entity) {
	w := donburi.NewWorld()
	p := physics.New(w, cfg)
	var ents []donburi.Entity
	sc.build(p.Space(), func(body *cp.Body, shape *cp.Shape) {
		ents = append(ents, p.Spawn(body, []*cp.Shape{shape}))
	})
	return w, p, ents
}

// rawScene is the same scene in a bare cp space.
func rawScene(n int) (*cp.Space, []*cp.Body) { return rawSceneOf(circlesScene(n)) }

// rawSceneOf builds sc in a bare cp space.
func rawSceneOf(sc physicsBench) (*cp.Space, []*cp.Body) {
	space := cp.NewSpace()
	var bodies []*cp.Body
	sc.build(space, func(body *cp.Body, shape *cp.Shape) {
		bodies = append(bodies, space.AddBody(body))
		space.AddShape(shape)
	})
	return space, bodies
}

// Physics through the engine (loop, scheduler, physics system) is
// bit-identical to a raw cp space stepped the same way: 600 steps of 1/60 s.
func TestPhysicsMatchesRawCp(t *testing.T) {
	const n, steps = 300, 600
	w, p, ents := physicsScene(n)
	sched := engine.NewScheduler(w, engine.Group{Name: "physics", Hz: 60})
	sched.AddUpdate(0, "physics", p.Update)
	loop, err := engine.NewHeadlessLoop(engine.Config{}, &engine.Headless{FPS: 144}, nil)
	if err != nil {
		t.Fatal(err)
	}
	for ev := range loop.Events(sched.Groups()...) {
		sched.Handle(ev)
		if ev.Kind == engine.Update && ev.Tick == steps {
			loop.Stop()
		}
	}
	space, bodies := rawScene(n)
	for range steps {
		space.Step(1.0 / 60)
	}
	moved := 0
	for i, e := range ents {
		entry := w.Entry(e)
		tr := components.TransformC.Get(entry)
		want := bodies[i]
		got := components.BodyC.Get(entry).Body
		if got.Position() != want.Position() || got.Angle() != want.Angle() ||
			tr.Cur.X != want.Position().X || tr.Cur.Y != want.Position().Y || tr.Cur.Angle != want.Angle() {
			t.Fatalf("body %d: engine %v %v (transform %+v), raw cp %v %v", i, got.Position(), got.Angle(), tr.Cur, want.Position(), want.Angle())
		}
		if tr.Prev != tr.Cur {
			moved++
		}
	}
	if moved == 0 {
		t.Fatal("no body moved in the last step: the comparison proves little")
	}
}

// Creating and removing 10,000 bodies (with shapes and constraints) leaves the
// space's body and shape counts where they started.
func TestRemovingEntitiesEmptiesTheSpace(t *testing.T) {
	w, p, _ := physicsScene(10)
	bodies0, shapes0 := p.Bodies()
	var ents []donburi.Entity
	for i := range 10_000 {
		body := cp.NewBody(1, cp.MomentForCircle(1, 0, 2, cp.Vector{}))
		body.SetPosition(cp.Vector{X: float64(i%100) * 5, Y: float64(i/100) * 5})
		ents = append(ents, p.Spawn(body, []*cp.Shape{cp.NewCircle(body, 2, cp.Vector{}), cp.NewSegment(body, cp.Vector{}, cp.Vector{X: 1}, 1)}))
	}
	// pin pairs of bodies together: removing either entity must take the joint out
	for i := 0; i+1 < len(ents); i += 2 {
		a := components.BodyC.Get(w.Entry(ents[i])).Body
		b := components.BodyC.Get(w.Entry(ents[i+1])).Body
		p.Space().AddConstraint(cp.NewPinJoint(a, b, cp.Vector{}, cp.Vector{}))
	}
	p.Update(w, engine.Event{Kind: engine.Update, DT: 1.0 / 60})
	if b, s := p.Bodies(); b != bodies0+10_000 || s != shapes0+20_000 {
		t.Fatalf("after spawning: %d bodies %d shapes", b, s)
	}
	constraints := func() (n int) {
		p.Space().EachConstraint(func(*cp.Constraint) { n++ })
		return n
	}
	if c := constraints(); c != 5_000 {
		t.Fatalf("%d constraints", c)
	}
	for _, e := range ents {
		w.Remove(e)
	}
	p.Update(w, engine.Event{Kind: engine.Update, DT: 1.0 / 60})
	if b, s := p.Bodies(); b != bodies0 || s != shapes0 || constraints() != 0 {
		t.Fatalf("after removing: %d bodies %d shapes %d constraints, want %d %d 0", b, s, constraints(), bodies0, shapes0)
	}
}

// Collision events arrive once per contact begin and once per separate,
// naming the right entities, in the tick they happen.
func TestCollisionEvents(t *testing.T) {
	w := donburi.NewWorld()
	p := physics.New(w, physics.Config{Gravity: cp.Vector{Y: -100}})
	groundBody := cp.NewStaticBody()
	ground := p.Spawn(groundBody, []*cp.Shape{cp.NewSegment(groundBody, cp.Vector{X: -100}, cp.Vector{X: 100}, 1)})
	ballBody := cp.NewBody(1, cp.MomentForCircle(1, 0, 5, cp.Vector{}))
	ballBody.SetPosition(cp.Vector{Y: 20})
	ballShape := cp.NewCircle(ballBody, 5, cp.Vector{})
	ball := p.Spawn(ballBody, []*cp.Shape{ballShape})

	var log []string
	tick := 0
	physics.CollisionBegin.Subscribe(w, func(w donburi.World, c physics.Collision) {
		log = append(log, fmt.Sprintf("begin %d", tick))
		if min(ball, ground) != c.A || max(ball, ground) != c.B {
			t.Errorf("begin names %v, want %v and %v", c, ball, ground)
		}
	})
	physics.CollisionSeparate.Subscribe(w, func(w donburi.World, c physics.Collision) {
		log = append(log, fmt.Sprintf("separate %d", tick))
		if min(ball, ground) != c.A || max(ball, ground) != c.B {
			t.Errorf("separate names %v", c)
		}
	})
	step := func() {
		tick++
		p.Update(w, engine.Event{Kind: engine.Update, DT: 1.0 / 60})
	}
	for range 120 { // falls 14 units, then rests on the ground
		step()
	}
	ballBody.SetVelocity(0, 200) // jump: separates
	for range 30 {
		step()
	}
	if len(log) != 2 || !strings.HasPrefix(log[0], "begin") || !strings.HasPrefix(log[1], "separate ") {
		t.Fatalf("events: %v", log)
	}
	var beginTick, sepTick int
	fmt.Sscanf(log[0], "begin %d", &beginTick)
	fmt.Sscanf(log[1], "separate %d", &sepTick)
	if beginTick < 20 || beginTick > 60 || sepTick != 121 {
		t.Fatalf("begin at tick %d, separate at %d: %v", beginTick, sepTick, log)
	}
}

// collisionLog runs SimpleTerrainCircles_300 for 400 steps and hashes the
// sequence of collision events, and counts them.
func collisionLog() (sum uint64, begins, separates int) {
	w, p, _ := physicsScene(300)
	h := fnv.New64a()
	physics.CollisionBegin.Subscribe(w, func(_ donburi.World, c physics.Collision) {
		begins++
		fmt.Fprintf(h, "b%d-%d;", c.A, c.B)
	})
	physics.CollisionSeparate.Subscribe(w, func(_ donburi.World, c physics.Collision) {
		separates++
		fmt.Fprintf(h, "s%d-%d;", c.A, c.B)
	})
	for i := range 400 {
		fmt.Fprintf(h, "t%d;", i)
		p.Update(w, engine.Event{Kind: engine.Update, DT: 1.0 / 60})
	}
	return h.Sum64(), begins, separates
}

// Collision events come in an order that depends only on the simulation:
// the same in two processes with different GC settings, although cp calls
// Separate in pointer-hash order.
func TestCollisionOrderAcrossProcesses(t *testing.T) {
	if os.Getenv("SYSTEMS_COLLISION_CHILD") == "1" {
		sum, b, s := collisionLog()
		fmt.Printf("COLLISIONS %016x %d %d\n", sum, b, s)
		return
	}
	sum, b, s := collisionLog()
	if b < 100 || s < 10 {
		t.Fatalf("only %d begins and %d separates: the check proves little", b, s)
	}
	want := fmt.Sprintf("COLLISIONS %016x %d %d", sum, b, s)
	for _, gogc := range []string{"off", "10"} {
		cmd := exec.Command(os.Args[0], "-test.run=^TestCollisionOrderAcrossProcesses$")
		cmd.Env = append(os.Environ(), "SYSTEMS_COLLISION_CHILD=1", "GOGC="+gogc)
		out, err := cmd.CombinedOutput()
		if err != nil || !strings.Contains(string(out), want) {
			t.Fatalf("GOGC=%s: child printed %q (err %v), want %q", gogc, out, err, want)
		}
	}
}

// Once warm, a tick of colliding bodies allocates nothing but the growth
// of the event queues. On identical scenes stepped in lockstep, cp's Step
// allocates nothing, with or without collision callbacks (the project's
// copy of cp), and Update at most what donburi's event queues cost when a
// tick publishes more events than any tick before (a queue of k events
// grows in about log2(k)+1 allocations; processing keeps its memory).
func TestPhysicsAllocatesOnlyQueueGrowth(t *testing.T) {
	w, p, _ := physicsScene(300)
	events := 0
	physics.CollisionBegin.Subscribe(w, func(donburi.World, physics.Collision) { events++ })
	physics.CollisionSeparate.Subscribe(w, func(donburi.World, physics.Collision) { events++ })
	withHandler, _ := rawScene(300)
	h := withHandler.NewWildcardCollisionHandler(0)
	h.BeginFunc = func(*cp.Arbiter, *cp.Space, any) bool { return true }
	h.SeparateFunc = func(*cp.Arbiter, *cp.Space, any) {}
	bare, _ := rawScene(300)
	ev := engine.Event{Kind: engine.Update, DT: 1.0 / 60}
	for range 60 { // warm up: the circles land
		p.Update(w, ev)
		withHandler.Step(ev.DT)
		bare.Step(ev.DT)
	}
	var engineAllocs, handlerAllocs, bareAllocs, queueBound float64
	total := 0
	for range 20 {
		events = 0
		engineAllocs += testing.AllocsPerRun(1, func() { p.Update(w, ev) })
		handlerAllocs += testing.AllocsPerRun(1, func() { withHandler.Step(ev.DT) })
		bareAllocs += testing.AllocsPerRun(1, func() { bare.Step(ev.DT) })
		if events > 0 { // Begin and Separate each have a queue
			queueBound += 2 * float64(bits.Len(uint(events))+1)
		}
		total += events
	}
	t.Logf("allocations per step, SimpleTerrainCircles_300 after landing: physics Update %.1f, cp Step with callbacks %.1f, without %.1f; %.1f collision events per step",
		engineAllocs/20, handlerAllocs/20, bareAllocs/20, float64(total)/20)
	if !debugBuild && (handlerAllocs != 0 || bareAllocs != 0) { // cp's debug asserts allocate
		t.Fatalf("cp's Step allocated %v times with callbacks, %v without: want none", handlerAllocs, bareAllocs)
	}
	if extra := engineAllocs - handlerAllocs; extra > queueBound {
		t.Fatalf("physics Update allocated %v times, cp's Step %v: donburi's queues explain at most %v more", engineAllocs, handlerAllocs, queueBound)
	}
}

// With no collision events in a tick, the physics system allocates nothing
// beyond cp's Step: free-falling bodies that never touch, beside the same
// scene in a raw space, one of them held to a speed (0 and 0 in normal
// builds; cp's debug asserts allocate under -tags debug, on both sides).
func TestPhysicsQuietTickAllocatesNothing(t *testing.T) {
	w := donburi.NewWorld()
	p := physics.New(w, physics.Config{Gravity: cp.Vector{Y: -10}})
	raw := cp.NewSpace()
	raw.SetGravity(cp.Vector{Y: -10})
	for i := range 100 {
		for _, add := range []func(*cp.Body, *cp.Shape){
			func(b *cp.Body, s *cp.Shape) { p.Spawn(b, []*cp.Shape{s}) },
			func(b *cp.Body, s *cp.Shape) { raw.AddBody(b); raw.AddShape(s) },
		} {
			body := cp.NewBody(1, cp.MomentForCircle(1, 0, 1, cp.Vector{}))
			body.SetPosition(cp.Vector{X: float64(i) * 10})
			add(body, cp.NewCircle(body, 1, cp.Vector{}))
		}
	}
	// A body held to a speed (a SpeedLimit, slowed every tick), beside one in the raw space.
	p.SpawnCircle(1, &physics.BodyOptions{Position: cp.Vector{X: -100}, Velocity: cp.Vector{X: 50}, MaxSpeed: 1})
	limited := cp.NewBody(1, cp.MomentForCircle(1, 0, 1, cp.Vector{}))
	limited.SetPosition(cp.Vector{X: -100})
	raw.AddBody(limited)
	raw.AddShape(cp.NewCircle(limited, 1, cp.Vector{}))
	ev := engine.Event{Kind: engine.Update, DT: 1.0 / 60}
	p.Update(w, ev)
	raw.Step(ev.DT)
	engineAllocs := testing.AllocsPerRun(50, func() { p.Update(w, ev) })
	rawAllocs := testing.AllocsPerRun(50, func() { raw.Step(ev.DT) })
	if engineAllocs != rawAllocs {
		t.Fatalf("a quiet physics tick allocates %v times, cp's Step alone %v", engineAllocs, rawAllocs)
	}
}

// Without collision events, physics is still bit-identical to raw cp, and
// publishes nothing.
func TestPhysicsWithoutCollisionEvents(t *testing.T) {
	w, p, ents := physicsSceneConfig(100, physics.Config{NoCollisionEvents: true})
	got := 0
	physics.CollisionBegin.Subscribe(w, func(donburi.World, physics.Collision) { got++ })
	space, bodies := rawScene(100)
	for range 200 {
		p.Update(w, engine.Event{Kind: engine.Update, DT: 1.0 / 60})
		space.Step(1.0 / 60)
	}
	for i, e := range ents {
		if b := components.BodyC.Get(w.Entry(e)).Body; b.Position() != bodies[i].Position() {
			t.Fatalf("body %d at %v, raw cp %v", i, b.Position(), bodies[i].Position())
		}
	}
	if got != 0 {
		t.Fatalf("%d events published", got)
	}
}

// Steer pushes an agent's body towards the velocity its AI desires, every
// physics tick, within the agent's MaxForce.
func TestPhysicsAppliesSteering(t *testing.T) {
	w := donburi.NewWorld()
	p := physics.New(w, physics.Config{})
	body := cp.NewBody(2, cp.MomentForCircle(2, 0, 5, cp.Vector{}))
	e := p.Spawn(body, []*cp.Shape{cp.NewCircle(body, 5, cp.Vector{})}, components.AgentC)
	agent := components.NewAgent(100, 400)
	agent.Desired = cp.Vector{X: 100}
	components.AgentC.SetValue(w.Entry(e), agent)
	ev := engine.Event{Kind: engine.Update, DT: 1.0 / 60}
	p.Update(w, ev)
	if v := body.Velocity(); v != (cp.Vector{}) {
		t.Fatalf("Update alone steered: velocity %v", v)
	}
	p.Steer(w, ev)
	p.Update(w, ev)
	// a = F/m = 400/2 = 200 units/s² at most: 200/60 after one tick
	if v := body.Velocity(); v.X <= 0 || v.X > 200.0/60+1e-9 || v.Y != 0 {
		t.Fatalf("after one tick: velocity %v", v)
	}
	for range 60 {
		p.Steer(w, ev)
		p.Update(w, ev)
	}
	if v := body.Velocity(); v.Sub(cp.Vector{X: 100}).Length() > 1e-6 {
		t.Fatalf("after a second: velocity %v, want (100, 0)", v)
	}
}

// badBodyRun runs a small scene headless through engine.Run, with physics
// failing the loop, and spoil called on the ball before the physics step of
// tick 30. It returns Run's error, the physics system's, the ball's entity
// and the last tick that ran after physics.
func badBodyRun(t *testing.T, spoil func(w donburi.World, ball donburi.Entity, body *cp.Body)) (runErr, physErr error, ball donburi.Entity, last int64, tr components.Transform) {
	t.Helper()
	scene := engine.NewScene("BadBody", func(loop *engine.Loop) (engine.Scene, error) {
		w := donburi.NewWorld()
		p := physics.New(w, physics.Config{Gravity: cp.Vector{Y: -100}, Loop: loop})
		ground := cp.NewStaticBody()
		p.Spawn(ground, []*cp.Shape{cp.NewSegment(ground, cp.Vector{X: -100}, cp.Vector{X: 100}, 1)})
		for i := range 3 { // neighbours, resting on the ground beside the ball
			b := cp.NewBody(1, cp.MomentForCircle(1, 0, 5, cp.Vector{}))
			b.SetPosition(cp.Vector{X: float64(i-1) * 10, Y: 6})
			e := p.Spawn(b, []*cp.Shape{cp.NewCircle(b, 5, cp.Vector{})}, components.AgentC)
			if i == 1 {
				ball = e
				components.AgentC.SetValue(w.Entry(e), components.NewAgent(100, 400))
			}
		}
		sched := engine.NewScheduler(w, engine.Group{Name: "physics", Hz: 60})
		sched.AddUpdate(0, "spoil", func(w donburi.World, ev engine.Event) {
			if ev.Tick == 30 {
				spoil(w, ball, components.BodyC.Get(w.Entry(ball)).Body)
			}
		}).
			AddUpdate(0, "steer", p.Steer).
			AddUpdate(0, "physics", p.Update).
			AddUpdate(0, "after", func(_ donburi.World, ev engine.Event) { last = ev.Tick })
		defer func() {
			physErr = p.Err()
			tr = *components.TransformC.Get(w.Entry(ball))
		}()
		for ev := range loop.Events(sched.Groups()...) {
			sched.Handle(ev)
		}
		return nil, loop.Err()
	})
	runErr = engine.Run(scene, &engine.Options{Headless: &engine.Headless{Frames: 120}})
	return runErr, physErr, ball, last, tr
}

// A body pushed to NaN or ±Inf stops the game at that tick with a
// *BadBodyError naming its entity, the tick and the field, returned by
// engine.Run (wrapped in a *SceneError) and by Physics.Err; the body's
// Transform keeps its last finite pose and nothing more is stepped.
func TestBadBodyEndsTheGame(t *testing.T) {
	nan, inf := math.NaN(), math.Inf(1)
	for _, tc := range []struct {
		name   string
		spoil  func(w donburi.World, ball donburi.Entity, body *cp.Body)
		field  string
		before bool
	}{
		{"velocity NaN", func(_ donburi.World, _ donburi.Entity, b *cp.Body) { b.SetVelocity(nan, 0) }, "velocity", true},
		{"velocity +Inf", func(_ donburi.World, _ donburi.Entity, b *cp.Body) { b.SetVelocity(0, inf) }, "velocity", true},
		{"angular velocity NaN", func(_ donburi.World, _ donburi.Entity, b *cp.Body) { b.SetAngularVelocity(nan) }, "angular velocity", true},
		{"position NaN", func(_ donburi.World, _ donburi.Entity, b *cp.Body) { b.SetPosition(cp.Vector{X: nan, Y: 1}) }, "position", true},
		{"force +Inf", func(_ donburi.World, _ donburi.Entity, b *cp.Body) { b.SetForce(cp.Vector{X: inf}) }, "force", true},
		{"agent steering NaN", func(w donburi.World, e donburi.Entity, _ *cp.Body) {
			components.AgentC.Get(w.Entry(e)).Desired = cp.Vector{X: nan}
		}, "desired velocity", true},
		// finite before the step, infinite after it: 1e308 units of force on
		// a tiny mass, away from the others (in contact, the solver would
		// spread the infinity to them in the same step)
		{"solver overflow", func(_ donburi.World, _ donburi.Entity, b *cp.Body) {
			b.SetPosition(cp.Vector{X: 500, Y: 500})
			b.SetMass(1e-3)
			b.SetForce(cp.Vector{X: 1e308})
		}, "velocity", false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			runErr, physErr, ball, last, tr := badBodyRun(t, tc.spoil)
			var bad *physics.BadBodyError
			var se *engine.SceneError
			if !errors.As(runErr, &se) || se.Scene != "BadBody" || !errors.As(runErr, &bad) {
				t.Fatalf("Run returned %v, want a *SceneError wrapping a *BadBodyError", runErr)
			}
			if physErr != error(bad) {
				t.Fatalf("Physics.Err() = %v, Run's error %v", physErr, bad)
			}
			if bad.Entity != ball || bad.Tick != 30 || bad.Field != tc.field || bad.Before != tc.before {
				t.Fatalf("got %+v, want entity %v tick 30 field %q before %v", *bad, ball, tc.field, tc.before)
			}
			want := fmt.Sprintf("physics: entity %d (version %d) has %s ", ball.Id(), ball.Version(), tc.field)
			if msg := bad.Error(); !strings.HasPrefix(msg, want) || !strings.HasSuffix(msg, "the step of tick 30") {
				t.Fatalf("message %q, want %q... the step of tick 30", msg, want)
			}
			if last != 30 { // the rest of tick 30 runs, then the event stream ends
				t.Fatalf("systems after physics ran up to tick %d, want 30", last)
			}
			for _, v := range []float64{tr.Cur.X, tr.Cur.Y, tr.Cur.Angle, tr.Prev.X, tr.Prev.Y, tr.Prev.Angle} {
				if math.IsNaN(v) || math.IsInf(v, 0) {
					t.Fatalf("the ball's Transform took the bad value: %+v", tr)
				}
			}
			t.Log(bad)
		})
	}
}

// Without a loop the bad body is only kept: Err reports it, and later
// Updates step nothing.
func TestBadBodyWithoutALoop(t *testing.T) {
	w, p, ents := physicsScene(20)
	ev := engine.Event{Kind: engine.Update, DT: 1.0 / 60, Tick: 1}
	p.Update(w, ev)
	if p.Err() != nil {
		t.Fatalf("a healthy scene: %v", p.Err())
	}
	body := components.BodyC.Get(w.Entry(ents[7])).Body
	body.SetVelocity(math.NaN(), 0)
	ev.Tick = 2
	p.Update(w, ev)
	var bad *physics.BadBodyError
	if !errors.As(p.Err(), &bad) || bad.Entity != ents[7] || bad.Tick != 2 || bad.Field != "velocity" {
		t.Fatalf("Err() = %v", p.Err())
	}
	other := components.BodyC.Get(w.Entry(ents[3])).Body
	pos := other.Position()
	ev.Tick = 3
	p.Update(w, ev)
	if other.Position() != pos || p.Err() != error(bad) {
		t.Fatalf("Update stepped after the bad body (%v -> %v) or changed Err (%v)", pos, other.Position(), p.Err())
	}
}
