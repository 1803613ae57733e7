package sideview_test

import (
	"math"
	"testing"

	"github.com/fixedstep/fixedstep/components"
	"github.com/fixedstep/fixedstep/components/gfx"
	"github.com/fixedstep/fixedstep/engine"
	"github.com/fixedstep/fixedstep/engine/input"
	"github.com/fixedstep/fixedstep/systems/anim"
	"github.com/fixedstep/fixedstep/systems/physics"
	"github.com/fixedstep/fixedstep/systems/sideview"
	"github.com/fixedstep/fixedstep/third_party/cp"
	"github.com/fixedstep/fixedstep/third_party/donburi"
)

const gravity = 1000 // units/s², y down

// rig is a world with the physics, the controller and a character 12 x 24
// standing on a floor whose top is at y 0 from x -200 to 200 (its feet at
// y 0: its centre at y -12).
type rig struct {
	w        donburi.World
	p        *physics.Physics
	ctl      *sideview.Controller
	movers   *sideview.MoverSystem // run between the controller and the physics once a mover is spawned
	rules    *sideview.Rules       // run after the physics when set
	hero     donburi.Entity
	in, prev input.State
	tick     int64
}

func newRig(t *testing.T, at cp.Vector) *rig {
	t.Helper()
	r := &rig{w: donburi.NewWorld()}
	r.p = physics.New(r.w, physics.Config{Gravity: cp.Vector{Y: gravity}})
	r.ctl = sideview.NewController(r.p)
	r.p.SpawnBox(400, 20, &physics.BodyOptions{Kind: physics.Static, Position: cp.Vector{Y: 10}})
	r.hero = r.p.SpawnBox(12, 24, &physics.BodyOptions{Position: at, Moment: math.Inf(1)}, sideview.CharacterC)
	return r
}

// step runs one tick with keys held.
func (r *rig) step(keys ...input.Key) {
	r.prev, r.in = r.in, input.State{}
	for _, k := range keys {
		r.in.SetKey(k, true)
	}
	r.in.DeriveEdges(&r.prev)
	r.tick++
	ev := engine.Event{Kind: engine.Update, DT: 1.0 / 60, Tick: r.tick, Input: &r.in}
	r.ctl.Update(r.w, ev)
	if r.movers != nil {
		r.movers.Update(r.w, ev)
	}
	r.p.Update(r.w, ev)
	if r.rules != nil {
		r.rules.Update(r.w, ev)
	}
}

func (r *rig) run(n int, keys ...input.Key) {
	for range n {
		r.step(keys...)
	}
}

func (r *rig) pos() cp.Vector { return r.p.Body(r.hero).Position() }
func (r *rig) vel() cp.Vector { return r.p.Body(r.hero).Velocity() }
func (r *rig) char() *sideview.Character {
	return sideview.CharacterC.Get(r.w.Entry(r.hero))
}

// peak runs until the character falls again and returns how high its feet
// rose above y 0.
func (r *rig) peak(keys func(i int) []input.Key) float64 {
	top := math.Inf(1)
	for i := range 120 {
		r.step(keys(i)...)
		top = min(top, r.pos().Y)
	}
	return -(top + 12)
}

// A jump held rises JumpSpeed²/2g (88 units), one let go at once much
// less; both land back on the ground.
func TestJumpHeight(t *testing.T) {
	full := newRig(t, cp.Vector{Y: -12})
	full.run(10)
	if !full.char().OnGround || full.char().GroundNormal.Distance(cp.Vector{Y: -1}) > 1e-9 {
		t.Fatalf("standing: %+v", full.char())
	}
	high := full.peak(func(int) []input.Key { return []input.Key{input.KeySpace} })
	tap := newRig(t, cp.Vector{Y: -12})
	tap.run(10)
	low := tap.peak(func(i int) []input.Key {
		if i < 2 {
			return []input.Key{input.KeySpace}
		}
		return nil
	})
	if want := 420.0 * 420 / (2 * gravity); math.Abs(high-want) > 4 || low > high/2 || low < 5 {
		t.Errorf("jump held rose %.1f (want about %.1f), tapped %.1f (want under half)", high, want, low)
	}
	if !full.char().OnGround || !tap.char().OnGround {
		t.Errorf("not back on the ground")
	}
}

// A jump pressed within the coyote time after running off a ledge takes
// off; one pressed later does not.
func TestCoyoteTime(t *testing.T) {
	for _, c := range []struct {
		late   int
		jumped bool
	}{{3, true}, {12, false}} {
		r := newRig(t, cp.Vector{X: 180, Y: -12})
		r.run(5)
		left := 0
		for i := 0; i < 200 && left == 0; i++ {
			r.step(input.KeyArrowRight)
			if !r.char().OnGround {
				left = i
			}
		}
		r.run(c.late-1, input.KeyArrowRight)
		r.step(input.KeyArrowRight, input.KeySpace)
		r.step(input.KeyArrowRight, input.KeySpace)
		if jumped := r.vel().Y < -300; jumped != c.jumped {
			t.Errorf("jump %d ticks after leaving the ledge: took off %v, want %v (velocity %v)", c.late, jumped, c.jumped, r.vel())
		}
	}
}

// A jump pressed just before landing waits and takes off on landing; one
// pressed long before is forgotten.
func TestBufferedJump(t *testing.T) {
	for _, c := range []struct {
		early  int
		jumped bool
	}{{3, true}, {15, false}} {
		r := newRig(t, cp.Vector{Y: -112}) // 100 units up: lands after about 27 ticks
		landing := 0
		probe := newRig(t, cp.Vector{Y: -112})
		for i := 1; landing == 0 && i < 100; i++ {
			probe.step()
			if probe.char().OnGround {
				landing = i
			}
		}
		r.run(landing - c.early)
		r.step(input.KeySpace)
		took := false
		for range c.early + 3 {
			r.step(input.KeySpace)
			took = took || r.vel().Y < -300
		}
		if took != c.jumped {
			t.Errorf("jump pressed %d ticks before landing (tick %d): took off %v, want %v", c.early, landing, took, c.jumped)
		}
	}
}

// A one-way platform is jumped through from below and landed on; Down and
// Jump drop through it to the floor.
func TestOneWayPassAndDrop(t *testing.T) {
	r := newRig(t, cp.Vector{Y: -12})
	r.p.SpawnBox(100, 6, &physics.BodyOptions{Kind: physics.Static, Position: cp.Vector{Y: -63}, OneWay: cp.Vector{Y: -1}})
	r.run(5)
	r.run(60, input.KeySpace)
	r.run(30)
	if c := r.char(); !c.OnGround || !c.OnOneWay || math.Abs(r.pos().Y-(-66-12)) > 1 {
		t.Fatalf("after a jump through it: at %v, %+v; want standing on the platform (feet at -66)", r.pos(), c)
	}
	r.step(input.KeyArrowDown, input.KeySpace)
	r.run(60)
	if c := r.char(); !c.OnGround || c.OnOneWay || math.Abs(r.pos().Y-(-12)) > 1 || c.Dropping != 0 {
		t.Errorf("after Down and Jump: at %v, %+v; want back on the floor", r.pos(), c)
	}
	if r.w.Entry(r.hero).HasComponent(physics.DropThroughC) {
		t.Errorf("still dropping through platforms")
	}
}

// A character standing on a moving platform is carried with it; on a slope
// it stands still, and runs up it.
func TestCarriedAndSlopes(t *testing.T) {
	r := newRig(t, cp.Vector{X: -100, Y: -40})
	platform := r.p.SpawnBox(60, 8, &physics.BodyOptions{Kind: physics.Kinematic, Position: cp.Vector{X: -100, Y: -20}, Velocity: cp.Vector{X: 50}})
	r.run(20)
	start := r.pos().X - r.p.Body(platform).Position().X
	r.run(60)
	if moved, rel := r.pos().X-(-100), r.pos().X-r.p.Body(platform).Position().X; !r.char().OnGround || math.Abs(rel-start) > 0.5 || moved < 40 {
		t.Errorf("on a platform moving right at 50/s: moved %.2f, drifted %.2f on it; want carried", moved, rel-start)
	}

	s := newRig(t, cp.Vector{X: 0, Y: -60})
	// a 30° slope rising to the right, its surface through (0, -30)
	slope := math.Pi / 6
	s.p.SpawnBox(300, 20, &physics.BodyOptions{Kind: physics.Static, Position: cp.Vector{X: 0, Y: -30 + 10/math.Cos(slope)}, Angle: -slope})
	s.run(60)
	x := s.pos().X
	s.run(60)
	if c := s.char(); !c.OnGround || math.Abs(s.pos().X-x) > 0.5 || math.Abs(math.Atan2(-c.GroundNormal.X, -c.GroundNormal.Y)-slope) > 0.01 {
		t.Errorf("idle on a 30° slope: slid %.2f, %+v", s.pos().X-x, c)
	}
	y := s.pos().Y
	s.run(30, input.KeyArrowRight)
	if dx, dy := s.pos().X-x, s.pos().Y-y; dx < 40 || dy > -20 {
		t.Errorf("running up the slope: moved %.1f, %.1f", dx, dy)
	}
}

// The controller is the same at any frame rate: a scripted run at 24, 60
// and 144 frames a second ends at the same position, bit for bit.
func TestFrameRateIndependent(t *testing.T) {
	var ends []cp.Vector
	for _, fps := range []float64{24, 60, 144} {
		var end cp.Vector
		scene := engine.NewScene("Run", func(loop *engine.Loop) (engine.Scene, error) {
			w := donburi.NewWorld()
			p := physics.New(w, physics.Config{Gravity: cp.Vector{Y: gravity}})
			ctl := sideview.NewController(p)
			sched := engine.NewScheduler(w)
			sched.AddUpdate(0, "controller", ctl.Update).AddUpdate(0, "physics", p.Update)
			p.SpawnBox(2000, 20, &physics.BodyOptions{Kind: physics.Static, Position: cp.Vector{Y: 10}})
			p.SpawnBox(60, 6, &physics.BodyOptions{Kind: physics.Static, Position: cp.Vector{X: 150, Y: -60}, OneWay: cp.Vector{Y: -1}})
			hero := p.SpawnBox(12, 24, &physics.BodyOptions{Position: cp.Vector{Y: -12}, Moment: math.Inf(1)}, sideview.CharacterC)
			for ev := range loop.Events(sched.Groups()...) {
				sched.Handle(ev)
				if ev.Kind == engine.Update && ev.Tick == 400 {
					end = p.Body(hero).Position()
					loop.Stop()
				}
			}
			return nil, loop.Err()
		})
		script := engine.TickInputFunc(func(ti engine.TickInfo, in *input.State) {
			in.SetKey(input.KeyArrowRight, ti.Tick%100 < 70)
			in.SetKey(input.KeySpace, ti.Tick%45 < 9)
			in.SetKey(input.KeyArrowDown, ti.Tick > 300 && ti.Tick%45 < 9)
		})
		if err := engine.Run(scene, &engine.Options{Headless: &engine.Headless{FPS: fps}, TickInput: script}); err != nil {
			t.Fatal(err)
		}
		ends = append(ends, end)
	}
	if ends[0] != ends[1] || ends[1] != ends[2] || ends[0].X < 100 {
		t.Errorf("ends at 24, 60, 144 fps: %v", ends)
	}
}

// A tick of the controller allocates nothing.
func TestControllerAllocatesNothing(t *testing.T) {
	r := newRig(t, cp.Vector{Y: -12})
	r.run(10)
	ev := engine.Event{Kind: engine.Update, DT: 1.0 / 60, Input: &r.in}
	if n := testing.AllocsPerRun(100, func() { r.ctl.Update(r.w, ev) }); n != 0 {
		t.Errorf("Controller.Update allocates %v times a tick", n)
	}
}

// Controls can drive a character from its own components, without input:
// an enemy that walks right.
func TestControlsFromComponents(t *testing.T) {
	walker := donburi.NewTag("walker")
	r := newRig(t, cp.Vector{Y: -12})
	r.w.Entry(r.hero).AddComponent(walker)
	r.ctl.Controls = func(e *donburi.Entry, in *input.State) sideview.Controls {
		if e.HasComponent(walker) {
			return sideview.Controls{Move: 1}
		}
		return sideview.ActionControls(r.ctl.Actions, in)
	}
	r.run(60)
	if x := r.pos().X; x < 150 {
		t.Errorf("walked to x %v in a second, want about 190", x)
	}
}

// A patrol walks and turns at walls; with Ledges, at the ends of a
// platform too, never falling off.
func TestPatrol(t *testing.T) {
	r := newRig(t, cp.Vector{X: 0, Y: -12})
	r.p.SpawnBox(10, 40, &physics.BodyOptions{Kind: physics.Static, Position: cp.Vector{X: -60, Y: -20}})
	r.p.SpawnBox(10, 40, &physics.BodyOptions{Kind: physics.Static, Position: cp.Vector{X: 60, Y: -20}})
	r.w.Entry(r.hero).AddComponent(sideview.PatrolC)
	minX, maxX := math.Inf(1), math.Inf(-1)
	for range 600 {
		r.step()
		minX, maxX = min(minX, r.pos().X), max(maxX, r.pos().X)
	}
	if minX > -40 || maxX < 40 || minX < -55 || maxX > 55 {
		t.Errorf("between walls at ±55: walked from %.1f to %.1f, want both ends reached and never past", minX, maxX)
	}

	l := newRig(t, cp.Vector{X: 0, Y: -112})
	l.p.SpawnBox(80, 10, &physics.BodyOptions{Kind: physics.Static, Position: cp.Vector{X: 0, Y: -95}})
	l.w.Entry(l.hero).AddComponent(sideview.PatrolC)
	sideview.PatrolC.SetValue(l.w.Entry(l.hero), sideview.Patrol{Dir: -1, Ledges: true})
	minX, maxX = math.Inf(1), math.Inf(-1)
	for range 600 {
		l.step()
		minX, maxX = min(minX, l.pos().X), max(maxX, l.pos().X)
	}
	if y := l.pos().Y; y > -105 || minX > -25 || maxX < 25 {
		t.Errorf("on an 80-wide platform with Ledges: at y %.1f (want on it, -112), walked %.1f to %.1f", y, minX, maxX)
	}
}

// Looks play the clip of what the character does, and turn it the way it
// runs.
func TestLooks(t *testing.T) {
	idle, run, jump := anim.NewClip(0.1, true, nil), anim.NewClip(0.1, true, nil), anim.NewClip(0.1, true, nil)
	r := newRig(t, cp.Vector{Y: -12})
	e := r.w.Entry(r.hero)
	e.AddComponent(sideview.LooksC)
	e.AddComponent(anim.AnimationC)
	e.AddComponent(gfx.SpriteC)
	sideview.LooksC.SetValue(e, sideview.Looks{Idle: idle, Run: run, Jump: jump, Flip: true})
	looks := sideview.NewLooksSystem()
	step := func(keys ...input.Key) *anim.Clip {
		r.step(keys...)
		looks.Update(r.w, engine.Event{})
		return anim.AnimationC.Get(e).Clip
	}
	for range 5 {
		step()
	}
	if c := step(); c != idle {
		t.Errorf("standing: clip %p, want idle", c)
	}
	for range 10 {
		step(input.KeyArrowLeft)
	}
	if c, sx := step(input.KeyArrowLeft), gfx.SpriteC.Get(e).ScaleX; c != run || sx != -1 {
		t.Errorf("running left: clip %p (want run), ScaleX %v (want -1)", c, sx)
	}
	step(input.KeySpace)
	if c := step(input.KeySpace); c != jump {
		t.Errorf("jumping: clip %p, want jump", c)
	}
}

// Ahead sees a gap in the ground and a shape across the way, not a sensor.
func TestAhead(t *testing.T) {
	r := newRig(t, cp.Vector{X: 150, Y: -12}) // the floor ends at x 200
	r.run(5)
	if s := sideview.Ahead(r.p, r.w, r.hero, 1, 30); s.Gap || s.Wall {
		t.Errorf("on the floor, 44 from its end: %+v, want nothing ahead", s)
	}
	r.p.Teleport(r.hero, components.Pose{X: 196, Y: -12})
	r.step()
	if s := sideview.Ahead(r.p, r.w, r.hero, 1, 30); !s.Gap {
		t.Errorf("at the floor's end: %+v, want a gap", s)
	}
	crate := r.p.SpawnBox(10, 10, &physics.BodyOptions{Kind: physics.Static, Position: cp.Vector{X: 215, Y: -12}})
	r.p.SpawnBox(10, 10, &physics.BodyOptions{Kind: physics.Static, Sensor: true, Position: cp.Vector{X: 175, Y: -12}})
	r.p.Teleport(r.hero, components.Pose{X: 150, Y: -12})
	r.step()
	if s := sideview.Ahead(r.p, r.w, r.hero, 1, 80); !s.Wall || s.Hit.Entity != crate || s.Gap {
		t.Errorf("a crate 65 ahead (a sensor before it): %+v, want the crate", s)
	}
	if s := sideview.Ahead(r.p, r.w, r.hero, -1, 80); s.Wall {
		t.Errorf("looking left: %+v, want nothing", s)
	}
}
