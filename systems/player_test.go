package systems_test

import (
	"math"
	"testing"

	"github.com/fixedstep/fixedstep/components"
	"github.com/fixedstep/fixedstep/engine"
	"github.com/fixedstep/fixedstep/engine/input"
	"github.com/fixedstep/fixedstep/systems"
	"github.com/fixedstep/fixedstep/systems/physics"
	"github.com/fixedstep/fixedstep/third_party/cp"
	"github.com/fixedstep/fixedstep/third_party/donburi"
)

// playerRun plays a player (mass 2, Force 400, Speed 100) through a
// headless loop at 60 frames and ticks a second, with input from script
// (frame by frame), and returns the body's velocity after every tick.
func playerRun(t *testing.T, pl components.Player, script func(frame int64, in *input.State)) (velocities []cp.Vector, body *cp.Body) {
	t.Helper()
	w, p := newPhysics(cp.Vector{})
	e := p.SpawnCircle(10, &physics.BodyOptions{Mass: 2}, components.PlayerC)
	components.PlayerC.SetValue(w.Entry(e), pl)
	body = p.Body(e)
	pc := systems.NewPlayerControl()
	sched := engine.NewScheduler(w, engine.Group{Name: "physics", Hz: 60})
	sched.AddUpdate(0, "player", pc.Update).
		AddUpdate(0, "physics", p.Update).
		AddUpdate(0, "look", func(donburi.World, engine.Event) { velocities = append(velocities, body.Velocity()) })
	loop, err := engine.NewHeadlessLoop(engine.Config{}, &engine.Headless{FPS: 60, Frames: 240},
		&engine.Options{Input: engine.InputFunc(script)})
	if err != nil {
		t.Fatal(err)
	}
	for ev := range loop.Events(sched.Groups()...) {
		sched.Handle(ev)
	}
	if err := loop.Err(); err != nil {
		t.Fatal(err)
	}
	return velocities, body
}

// The arrow keys push the body towards Speed with at most Force, it holds
// Speed, and it brakes when they are let go; W and D together go up and
// right at Speed, not faster; Face turns the body to face its way.
func TestPlayerControlFollowsTheKeys(t *testing.T) {
	pl := components.Player{Force: 400, Speed: 100, Face: true}
	vs, body := playerRun(t, pl, func(frame int64, in *input.State) {
		switch {
		case frame <= 60:
			in.SetKey(input.KeyArrowRight, true)
		case frame > 120 && frame <= 180:
			in.SetKey(input.KeyW, true)
			in.SetKey(input.KeyD, true)
		}
	})
	if len(vs) < 200 {
		t.Fatalf("%d ticks", len(vs))
	}
	const maxDV = 400.0 / 2 / 60 // Force / mass per tick
	prev := cp.Vector{}
	for i, v := range vs {
		if dv := v.Distance(prev); dv > maxDV+1e-9 {
			t.Fatalf("tick %d: velocity changed by %v, more than Force/mass allows (%v)", i+1, dv, maxDV)
		}
		prev = v
	}
	// frame n is at (n-1)/60 s, tick k at k/60 s: ticks 1 to 59 see the
	// key held in frames 1 to 60, and accelerate at 200 units/s²
	if v := vs[14]; math.Abs(v.X-50) > 1e-9 || v.Y != 0 {
		t.Errorf("after 15 ticks of right arrow: velocity %v, want (50, 0)", v)
	}
	if v := vs[58]; math.Abs(v.X-100) > 1e-9 || v.Y != 0 {
		t.Errorf("after 59 ticks of right arrow: velocity %v, want (100, 0)", v)
	}
	if v := vs[110]; v.Length() > 1e-9 {
		t.Errorf("50 ticks after letting go: velocity %v, want 0", v)
	}
	if v := vs[170]; math.Abs(v.Length()-100) > 1e-9 || math.Abs(v.X+v.Y) > 1e-9 || v.X <= 0 {
		t.Errorf("W and D: velocity %v, want 100 up and to the right", v)
	}
	if a := body.Angle(); math.Abs(a+math.Pi/4) > 1e-9 {
		t.Errorf("facing %v, want -pi/4 (up and right, y down)", a)
	}
}

// The left stick of the player's pad steers too, past its dead zone.
func TestPlayerControlFollowsTheStick(t *testing.T) {
	vs, _ := playerRun(t, components.Player{Force: 400, Speed: 100, Pad: 2}, func(frame int64, in *input.State) {
		in.SetGamepadAxis(2, input.AxisLeftStickVertical, 0.6)
		in.SetGamepadAxis(1, input.AxisLeftStickHorizontal, 1) // another player's pad
	})
	want := 100 * (0.6 - 0.15) / 0.85
	if v := vs[100]; math.Abs(v.Y-want) > 1e-9 || v.X != 0 {
		t.Errorf("stick down 0.6: velocity %v, want (0, %v)", v, want)
	}
	vs, _ = playerRun(t, components.Player{Force: 400, Speed: 100}, func(frame int64, in *input.State) {
		in.SetGamepadAxis(0, input.AxisLeftStickHorizontal, 0.1) // drift
	})
	if v := vs[100]; v != (cp.Vector{}) {
		t.Errorf("a drifting stick moved the player: %v", v)
	}
}

func TestPlayerInput(t *testing.T) {
	var in input.State
	in.SetGamepadAxis(0, input.AxisLeftStickHorizontal, 0.5)
	for _, c := range []struct {
		dz   float64
		want float64
	}{{0, (0.5 - 0.15) / 0.85}, {-1, 0.5}, {0.5, 0}, {0.25, (0.5 - 0.25) / 0.75}, {2, 0}} {
		if d := systems.PlayerInput(&in, 0, c.dz); math.Abs(d.X-c.want) > 1e-12 || d.Y != 0 {
			t.Errorf("stick 0.5, dead zone %v: %v, want %v", c.dz, d, c.want)
		}
	}
	in.SetKey(input.KeyArrowRight, true)
	in.SetKey(input.KeyS, true)
	if d := systems.PlayerInput(&in, 0, 0); math.Abs(d.Length()-1) > 1e-12 || d.X <= d.Y {
		t.Errorf("right, down and the stick: %v, want length 1, more right than down", d)
	}
	if d := systems.PlayerInput(&in, 9, 0); !nearly(d, cp.Vector{X: 1, Y: 1}.Normalize()) {
		t.Errorf("a pad slot out of range: %v", d)
	}
}

// arenaControl is the Arena's hand-written control (scenes/arena.go), copied:
// the system must push the body exactly as it did.
func arenaControl(body *cp.Body, p components.Player, in *input.State, dt float64) {
	var d cp.Vector
	if in.KeyDown(input.KeyArrowLeft) || in.KeyDown(input.KeyA) {
		d.X--
	}
	if in.KeyDown(input.KeyArrowRight) || in.KeyDown(input.KeyD) {
		d.X++
	}
	if in.KeyDown(input.KeyArrowUp) || in.KeyDown(input.KeyW) {
		d.Y--
	}
	if in.KeyDown(input.KeyArrowDown) || in.KeyDown(input.KeyS) {
		d.Y++
	}
	d.X += in.GamepadAxis(p.Pad, input.AxisLeftStickHorizontal)
	d.Y += in.GamepadAxis(p.Pad, input.AxisLeftStickVertical)
	dir := d.Clamp(1)
	want := dir.Mult(p.Speed)
	f := want.Sub(body.Velocity()).Mult(body.Mass() / dt).Clamp(p.Force)
	body.SetForce(f)
	if l := dir.Length(); l > 0.1 {
		body.SetAngle(math.Atan2(dir.Y, dir.X))
		body.SetAngularVelocity(0)
	}
}

// With the keys, PlayerControl moves a body bit for bit as the Arena's own
// control did, in a damped arena with walls to bump into.
func TestPlayerControlMatchesTheArena(t *testing.T) {
	pl := components.Player{Force: 1500, Speed: 260, Face: true}
	build := func() (donburi.World, *physics.Physics, donburi.Entity) {
		w, p := newPhysics(cp.Vector{})
		p.Space().SetDamping(0.6)
		p.SpawnWalls([]cp.Vector{{}, {X: 300}, {X: 300, Y: 200}, {Y: 200}, {}}, 8, &physics.BodyOptions{Elasticity: 0.8, Friction: 0.5})
		body := cp.NewBody(1, cp.MomentForCircle(1, 0, 14, cp.Vector{}))
		body.SetPosition(cp.Vector{X: 150, Y: 100})
		shape := cp.NewCircle(body, 14, cp.Vector{})
		shape.SetElasticity(0.5)
		e := p.Spawn(body, []*cp.Shape{shape}, components.PlayerC)
		components.PlayerC.SetValue(w.Entry(e), pl)
		return w, p, e
	}
	w1, p1, e1 := build()
	w2, p2, e2 := build()
	pc := systems.NewPlayerControl()
	keys := []input.Key{input.KeyArrowLeft, input.KeyW, input.KeyArrowRight, input.KeyS, input.KeyD, input.KeyArrowUp}
	moved := 0.0
	for tick := range 600 {
		var in input.State
		in.SetKey(keys[(tick/37)%len(keys)], true)
		in.SetKey(keys[(tick/53)%len(keys)], tick%3 != 0)
		ev := engine.Event{Kind: engine.Update, DT: 1.0 / 60, Tick: int64(tick + 1), Input: &in}
		pc.Update(w1, ev)
		p1.Update(w1, ev)
		arenaControl(p2.Body(e2), pl, &in, ev.DT)
		p2.Update(w2, ev)
		b1, b2 := p1.Body(e1), p2.Body(e2)
		if b1.Position() != b2.Position() || b1.Angle() != b2.Angle() || b1.Velocity() != b2.Velocity() {
			t.Fatalf("tick %d: system %v %v %v, arena's control %v %v %v", tick+1,
				b1.Position(), b1.Angle(), b1.Velocity(), b2.Position(), b2.Angle(), b2.Velocity())
		}
		moved += b1.Velocity().Length() / 60
	}
	if moved < 500 {
		t.Fatalf("the player moved only %v units: the comparison proves little", moved)
	}
}

// A kinematic player (a paddle) moves at Speed at once; a static one not at all.
func TestPlayerControlKinematicAndStatic(t *testing.T) {
	w, p := newPhysics(cp.Vector{})
	paddle := p.SpawnBox(60, 10, &physics.BodyOptions{Kind: physics.Kinematic}, components.PlayerC)
	wall := p.SpawnBox(60, 10, &physics.BodyOptions{Kind: physics.Static, Position: cp.Vector{Y: 50}}, components.PlayerC)
	for _, e := range []donburi.Entity{paddle, wall} {
		components.PlayerC.SetValue(w.Entry(e), components.Player{Force: 1, Speed: 300})
	}
	var in input.State
	in.SetKey(input.KeyArrowLeft, true)
	ev := engine.Event{Kind: engine.Update, DT: 1.0 / 60, Input: &in}
	systems.NewPlayerControl().Update(w, ev)
	p.Update(w, ev)
	if v := p.Body(paddle).Velocity(); v != (cp.Vector{X: -300}) || p.Body(paddle).Position().X != -5 {
		t.Errorf("kinematic paddle: velocity %v at %v, want (-300, 0) at x -5", v, p.Body(paddle).Position())
	}
	if b := p.Body(wall); b.Velocity() != (cp.Vector{}) || b.Position() != (cp.Vector{Y: 50}) {
		t.Errorf("static player moved: %v %v", b.Velocity(), b.Position())
	}
}

// The update allocates nothing, with input or without.
func TestPlayerControlAllocatesNothing(t *testing.T) {
	w, p := newPhysics(cp.Vector{})
	e := p.SpawnCircle(10, nil, components.PlayerC)
	components.PlayerC.SetValue(w.Entry(e), components.Player{Force: 1e6, Speed: 50})
	pc := systems.NewPlayerControl()
	ev := engine.Event{Kind: engine.Update, DT: 1.0 / 60}
	if n := testing.AllocsPerRun(100, func() { pc.Update(w, ev) }); n != 0 {
		t.Errorf("Update allocates %v times", n)
	}
	var in input.State
	in.SetKey(input.KeyA, true)
	ev.Input = &in
	if n := testing.AllocsPerRun(100, func() { pc.Update(w, ev) }); n != 0 {
		t.Errorf("Update with input allocates %v times", n)
	}
}

// A player held to AxisX (a paddle) moves left and right at full speed with
// a diagonal held, and never up or down.
func TestPlayerControlAxis(t *testing.T) {
	w, p := newPhysics(cp.Vector{})
	paddle := p.SpawnBox(40, 8, &physics.BodyOptions{Kind: physics.Kinematic}, components.PlayerC)
	components.PlayerC.SetValue(w.Entry(paddle), components.Player{Speed: 300, Axis: components.AxisX})
	var in input.State
	in.SetKey(input.KeyArrowLeft, true)
	in.SetKey(input.KeyArrowUp, true)
	systems.NewPlayerControl().Update(w, engine.Event{Kind: engine.Update, DT: 1.0 / 60, Input: &in})
	if v := p.Body(paddle).Velocity(); v != (cp.Vector{X: -300}) {
		t.Fatalf("Left and Up held: velocity %v, want (-300, 0)", v)
	}
	in = input.State{}
	in.SetGamepadAxis(0, input.AxisLeftStickHorizontal, 1)
	in.SetGamepadAxis(0, input.AxisLeftStickVertical, 1)
	systems.NewPlayerControl().Update(w, engine.Event{Kind: engine.Update, DT: 1.0 / 60, Input: &in})
	if v := p.Body(paddle).Velocity(); v != (cp.Vector{X: 300}) {
		t.Fatalf("the stick down-right: velocity %v, want (300, 0)", v)
	}
}

// A kinematic player with Min and Max stops at them: held left and up from
// x -13 against a bound at x -20, it moves a step, then to the edge, then
// stays, while y (no bounds: Max not above Min) goes on freely; teleported
// outside, one step brings it back to the edge.
func TestPlayerControlBounds(t *testing.T) {
	w, p := newPhysics(cp.Vector{})
	paddle := p.SpawnBox(40, 8, &physics.BodyOptions{Kind: physics.Kinematic, Position: cp.Vector{X: -13}}, components.PlayerC)
	components.PlayerC.SetValue(w.Entry(paddle), components.Player{Speed: 300, Min: cp.Vector{X: -20}, Max: cp.Vector{X: 20}})
	var in input.State
	in.SetKey(input.KeyArrowLeft, true)
	in.SetKey(input.KeyArrowUp, true)
	ev := engine.Event{Kind: engine.Update, DT: 1.0 / 60, Input: &in}
	pc := systems.NewPlayerControl()
	body := p.Body(paddle)
	var xs []float64
	for range 3 {
		pc.Update(w, ev)
		p.Update(w, ev)
		xs = append(xs, math.Round(body.Position().X*1e9)/1e9)
	}
	step := 300 * math.Sqrt2 / 2 / 60 // left and up: the diagonal at Speed
	if math.Abs(xs[0]-(-13-step)) > 1e-9 || xs[1] != -20 || xs[2] != -20 || math.Abs(body.Position().Y-(-3*step)) > 1e-9 {
		t.Fatalf("held left from x -13 with a bound at -20: x %v, y %v", xs, body.Position().Y)
	}
	p.Teleport(paddle, components.Pose{X: 50})
	in = input.State{}
	pc.Update(w, ev)
	p.Update(w, ev)
	if x := body.Position().X; math.Abs(x-20) > 1e-9 {
		t.Fatalf("teleported to x 50 past a bound at 20: x %v after a step, want 20", x)
	}
}

// newPhysics returns a world with physics under gravity.
func newPhysics(gravity cp.Vector) (donburi.World, *physics.Physics) {
	w := donburi.NewWorld()
	return w, physics.New(w, physics.Config{Gravity: gravity})
}

func nearly(a, b cp.Vector) bool { return a.Distance(b) < 1e-9 }
