package aim_test

import (
	"math"
	"testing"

	"github.com/fixedstep/fixedstep/components"
	"github.com/fixedstep/fixedstep/engine"
	"github.com/fixedstep/fixedstep/engine/detmath"
	"github.com/fixedstep/fixedstep/engine/input"
	"github.com/fixedstep/fixedstep/systems"
	"github.com/fixedstep/fixedstep/systems/aim"
	"github.com/fixedstep/fixedstep/systems/camera"
	"github.com/fixedstep/fixedstep/systems/physics"
	"github.com/fixedstep/fixedstep/systems/stage/core"
	"github.com/fixedstep/fixedstep/third_party/cp"
	"github.com/fixedstep/fixedstep/third_party/donburi"
)

var screen = cp.Vector{X: 320, Y: 180}

// rig is a ship at (100, 50) that aims and faces its aim, seen by a
// camera at (100, 50) zoomed 2.
type rig struct {
	w    donburi.World
	p    *physics.Physics
	sys  *aim.System
	ship donburi.Entity
	in   input.State
}

func newRig() *rig {
	r := &rig{w: donburi.NewWorld(), sys: aim.NewSystem(screen)}
	r.p = physics.New(r.w, physics.Config{})
	r.ship = r.p.SpawnCircle(8, &physics.BodyOptions{Position: cp.Vector{X: 100, Y: 50}}, aim.AimerC)
	aim.AimerC.SetValue(r.w.Entry(r.ship), aim.Aimer{Face: true})
	cam := camera.Spawn(r.w, components.Camera{Zoom: 2}, camera.Follow{})
	components.TransformC.Get(r.w.Entry(cam)).Teleport(components.Pose{X: 100, Y: 50})
	return r
}

func (r *rig) tick() *aim.Aimer {
	r.sys.Update(r.w, engine.Event{Kind: engine.Update, DT: 1.0 / 60, Input: &r.in, Players: []input.State{r.in}})
	return aim.AimerC.Get(r.w.Entry(r.ship))
}

func near(a, b cp.Vector) bool { return a.Distance(b) < 1e-12 }

// The mouse aims through the camera, the keys and the stick take
// precedence, the aim stays when nothing aims, the body faces the aim, the
// fire action is read, and a tick allocates nothing.
func TestAimer(t *testing.T) {
	r := newRig()
	r.sys.Actions.BindAim("aim", input.AimBinding{Stick: input.StickRight})
	a := r.tick()
	if a.Aiming || a.Dir != (cp.Vector{}) || a.Direction() != (cp.Vector{X: 1}) {
		t.Fatalf("no mouse bound, nothing held: aiming %v, dir %v", a.Aiming, a.Dir)
	}
	r.sys.Actions.BindAim("aim", input.AimBinding{Stick: input.StickRight, Right: []input.Key{input.KeyL}, Mouse: true})
	r.in.CursorX, r.in.CursorY = 160+60, 90-80 // 30 right and 40 up of the ship, in world units
	a = r.tick()
	if !a.Aiming || !near(a.Dir, cp.Vector{X: 0.6, Y: -0.8}) || !near(a.Point, cp.Vector{X: 130, Y: 10}) {
		t.Fatalf("cursor 60, -80 pixels from the centre: aiming %v, dir %v, point %v", a.Aiming, a.Dir, a.Point)
	}
	if ang := r.p.Body(r.ship).Angle(); ang != detmath.Atan2(-0.8, 0.6) {
		t.Errorf("facing %v, want the aim's %v", ang, detmath.Atan2(-0.8, 0.6))
	}
	r.in.SetKey(input.KeyL, true)
	r.in.SetKey(input.KeySpace, true)
	r.in.KeysPressed.Set(input.KeySpace, true)
	a = r.tick()
	if a.Dir != (cp.Vector{X: 1}) || !a.Fire || !a.Pressed {
		t.Fatalf("L and Space held: dir %v, fire %v pressed %v", a.Dir, a.Fire, a.Pressed)
	}
	r.in.SetGamepadAxis(0, input.AxisRightStickVertical, 1)
	a = r.tick()
	if a.Dir != (cp.Vector{Y: 1}) || r.p.Body(r.ship).Angle() != math.Pi/2 {
		t.Fatalf("stick down: dir %v, facing %v", a.Dir, r.p.Body(r.ship).Angle())
	}
	r.sys.Actions.BindAim("aim", input.AimBinding{Stick: input.StickRight})
	r.in = input.State{}
	a = r.tick()
	if a.Aiming || a.Dir != (cp.Vector{Y: 1}) || a.Fire || !near(a.Point, cp.Vector{X: 100, Y: 51}) {
		t.Fatalf("nothing held: aiming %v, dir %v (want the last), fire %v, point %v", a.Aiming, a.Dir, a.Fire, a.Point)
	}
	ev := engine.Event{Kind: engine.Update, DT: 1.0 / 60, Input: &r.in}
	if n := testing.AllocsPerRun(100, func() { r.sys.Update(r.w, ev) }); n != 0 {
		t.Errorf("a tick allocates %v times", n)
	}
}

// A seat's aimer reads that player's input; a seat the run has no player
// for aims nowhere.
func TestAimerSeat(t *testing.T) {
	r := newRig()
	r.w.Entry(r.ship).AddComponent(components.SeatC)
	components.SeatC.SetValue(r.w.Entry(r.ship), components.Seat{Player: 1})
	var p1 input.State
	p1.SetKey(input.KeyK, true)
	r.in.SetKey(input.KeyI, true)
	r.sys.Update(r.w, engine.Event{Kind: engine.Update, Input: &r.in, Players: []input.State{r.in, p1}})
	if a := aim.AimerC.Get(r.w.Entry(r.ship)); a.Dir != (cp.Vector{Y: 1}) {
		t.Fatalf("seat 1 holds K, seat 0 I: dir %v, want down", a.Dir)
	}
	components.SeatC.SetValue(r.w.Entry(r.ship), components.Seat{Player: 3})
	r.sys.Update(r.w, engine.Event{Kind: engine.Update, Input: &r.in, Players: []input.State{r.in, p1}})
	if a := aim.AimerC.Get(r.w.Entry(r.ship)); a.Aiming || a.Dir != (cp.Vector{Y: 1}) {
		t.Fatalf("seat 3 of 2 players: aiming %v, dir %v", a.Aiming, a.Dir)
	}
}

// runArena runs a ship that moves with WASD, aims with the mouse, IJKL and
// the stick in turns and faces its aim, followed by a zoomed camera, for
// 5 s, and returns the run checksum and the ship's last angle and aim.
func runArena(t *testing.T, opts engine.Options) (uint64, float64, cp.Vector) {
	t.Helper()
	var angle float64
	var dir cp.Vector
	scene := engine.NewScene("Aim", func(loop *engine.Loop) (engine.Scene, error) {
		st := core.New(loop, core.Options{Physics: &physics.Config{}})
		defer st.Release()
		ship := st.Physics.SpawnCircle(8, nil, components.PlayerC, aim.AimerC)
		components.PlayerC.SetValue(st.World.Entry(ship), components.Player{Force: 4000, Speed: 120})
		aim.AimerC.SetValue(st.World.Entry(ship), aim.Aimer{Face: true})
		camera.Spawn(st.World, components.Camera{Zoom: 2}, camera.Follow{Target: ship, Smoothing: 6, View: screen.Mult(0.5)})
		sys := aim.NewSystem(screen)
		st.Sched.AddUpdate(0, "player", systems.NewPlayerControl().Update).
			AddUpdate(0, "aim", sys.Update).
			AddUpdate(0, "physics", st.Physics.Update).
			AddUpdate(0, "camera", camera.NewSystem().Update).
			AddUpdate(0, "end", func(w donburi.World, ev engine.Event) {
				if ev.Tick == 300 {
					angle, dir = st.Physics.Body(ship).Angle(), aim.AimerC.Get(w.Entry(ship)).Dir
					st.End(nil)
				}
			})
		return st.Run()
	})
	opts.TickInput = engine.TickInputFunc(func(ti engine.TickInfo, in *input.State) {
		k := ti.Tick
		in.SetKey(input.KeyD, k%90 < 50)
		in.SetKey(input.KeyS, k%70 < 20)
		in.CursorX, in.CursorY = float64(40+k*7%240), float64(20+k*3%140)
		in.SetKey(input.KeyJ, k > 100 && k%40 < 10)
		in.SetKey(input.KeyI, k > 100 && k%60 < 15)
		in.SetGamepadAxis(0, input.AxisRightStickHorizontal, math.Sin(float64(k)/17)*float64(k/150))
		in.SetGamepadAxis(0, input.AxisRightStickVertical, math.Cos(float64(k)/23)*float64(k/150))
	})
	opts.Record = &engine.InputLog{}
	if err := engine.Run(scene, &opts); err != nil {
		t.Fatal(err)
	}
	sum, _ := opts.Record.RunChecksum()
	return sum, angle, dir
}

// Aiming is exact at any frame rate and under -synctest 8 (a rollback
// before every tick): the same run checksum, the ship facing its aim.
func TestAimFrameRatesAndSyncTest(t *testing.T) {
	want, angle, dir := runArena(t, engine.Options{})
	if math.Abs(angle-detmath.Atan2(dir.Y, dir.X)) > 1e-12 || dir == (cp.Vector{}) {
		t.Fatalf("the ship faces %v, its aim %v", angle, dir)
	}
	for _, fps := range []float64{24, 60, 144} {
		if got, _, _ := runArena(t, engine.Options{Headless: &engine.Headless{FPS: fps}}); got != want {
			t.Errorf("%v fps: run checksum %016x, want %016x", fps, got, want)
		}
	}
	if got, _, _ := runArena(t, engine.Options{SyncTest: 8}); got != want {
		t.Errorf("-synctest 8: run checksum %016x, want %016x", got, want)
	}
}
