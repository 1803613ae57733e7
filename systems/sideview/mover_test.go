package sideview_test

import (
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"testing/fstest"

	"github.com/fixedstep/fixedstep/components"
	"github.com/fixedstep/fixedstep/engine"
	"github.com/fixedstep/fixedstep/engine/input"
	"github.com/fixedstep/fixedstep/systems/level"
	"github.com/fixedstep/fixedstep/systems/physics"
	"github.com/fixedstep/fixedstep/systems/sideview"
	"github.com/fixedstep/fixedstep/third_party/cp"
	"github.com/fixedstep/fixedstep/third_party/donburi"
)

// spawnMover puts a kinematic platform w x h moved by m in the rig.
func (r *rig) spawnMover(w, h float64, m sideview.Mover) donburi.Entity {
	e := r.p.SpawnBox(w, h, &physics.BodyOptions{Kind: physics.Kinematic, Position: m.At(0)}, sideview.MoverC)
	sideview.MoverC.SetValue(r.w.Entry(e), m)
	if r.movers == nil {
		r.movers = sideview.NewMoverSystem()
	}
	return e
}

// A mover's body is where its path puts it at every tick, exactly: back and
// forth with waits and easing, and round a closed loop.
func TestMoverFollowsPath(t *testing.T) {
	for _, m := range []sideview.Mover{
		{Path: []cp.Vector{{X: -100, Y: -100}, {X: 100, Y: -100}}, Period: 1.5, Wait: 0.5, Ease: sideview.Smooth},
		{Path: []cp.Vector{{X: -100, Y: -100}, {X: 0, Y: -150}, {X: 100, Y: -100}}, Period: 2, Ease: sideview.Sine, Loop: true, Phase: 0.3},
		{Path: []cp.Vector{{X: 0, Y: -100}, {X: 0, Y: -40}}, Period: 1, Wait: 0.25},
	} {
		r := newRig(t, cp.Vector{X: 180, Y: -12})
		e := r.spawnMover(40, 8, m)
		worst := 0.0
		for i := 1; i <= 400; i++ {
			r.step()
			want := m.At(float64(i) / 60)
			worst = max(worst, r.p.Body(e).Position().Distance(want))
		}
		if worst > 1e-9 {
			t.Errorf("%+v: %.3g from the path at worst, want exact", m, worst)
		}
	}
	m := sideview.Mover{Path: []cp.Vector{{X: 0}, {X: 100}}, Period: 2, Wait: 1, Ease: sideview.Smooth}
	for _, c := range []struct{ t, x float64 }{{0, 0}, {0.5, 0}, {2, 50}, {3, 100}, {3.9, 100}, {5, 50}, {6, 0}, {8, 50}} {
		if got := m.At(c.t).X; math.Abs(got-c.x) > 1e-9 {
			t.Errorf("ping-pong with waits: at %v s, x %v, want %v", c.t, got, c.x)
		}
	}
}

// A character standing on a mover is carried exactly: across the
// platform's turns, waits and easing its place on it does not drift (by a
// millionth of a unit).
func TestMoverCarriesExactly(t *testing.T) {
	for _, m := range []sideview.Mover{
		{Path: []cp.Vector{{X: -100, Y: -60}, {X: 100, Y: -60}}, Period: 1.2, Wait: 0.3, Ease: sideview.Sine},
		{Path: []cp.Vector{{X: -100, Y: -60}, {X: -100, Y: -140}}, Period: 1.5, Ease: sideview.Smooth},
		{Path: []cp.Vector{{X: -100, Y: -60}, {X: 0, Y: -120}, {X: 100, Y: -60}}, Period: 3, Loop: true},
	} {
		r := newRig(t, cp.Vector{X: -100, Y: -90})
		e := r.spawnMover(60, 8, m)
		r.run(150) // landed, and settled into cp's slop
		rel := r.pos().Sub(r.p.Body(e).Position())
		worst := 0.0
		for range 360 {
			r.step()
			worst = max(worst, r.pos().Sub(r.p.Body(e).Position()).Distance(rel))
		}
		if !r.char().OnGround || worst > 1e-6 {
			t.Errorf("%+v: on the ground %v, drifted %.4f on the platform at worst", m, r.char().OnGround, worst)
		}
	}
}

// A mover in a scene is the same at 24, 60 and 144 frames a second, and a
// snapshot restored goes on to the same bits as never having left.
func TestMoverFrameRateAndRollback(t *testing.T) {
	var ends []cp.Vector
	for _, fps := range []float64{24, 60, 144} {
		var end cp.Vector
		scene := engine.NewScene("Ride", func(loop *engine.Loop) (engine.Scene, error) {
			r := newRig(t, cp.Vector{X: -100, Y: -90})
			m := sideview.Mover{Path: []cp.Vector{{X: -100, Y: -60}, {X: 100, Y: -100}}, Period: 1.3, Wait: 0.2, Ease: sideview.Sine}
			r.spawnMover(60, 8, m)
			sched := engine.NewScheduler(r.w)
			sched.AddUpdate(0, "controller", r.ctl.Update).AddUpdate(0, "movers", r.movers.Update).
				AddUpdate(0, "physics", r.p.Update)
			for ev := range loop.Events(sched.Groups()...) {
				sched.Handle(ev)
				if ev.Kind == engine.Update && ev.Tick == 300 {
					end = r.pos()
					loop.Stop()
				}
			}
			return nil, loop.Err()
		})
		script := engine.TickInputFunc(func(ti engine.TickInfo, in *input.State) {
			in.SetKey(input.KeyArrowRight, ti.Tick%90 < 20)
			in.SetKey(input.KeySpace, ti.Tick%120 == 60)
		})
		if err := engine.Run(scene, &engine.Options{Headless: &engine.Headless{FPS: fps}, TickInput: script}); err != nil {
			t.Fatal(err)
		}
		ends = append(ends, end)
	}
	if ends[0] != ends[1] || ends[1] != ends[2] {
		t.Errorf("ends at 24, 60, 144 fps: %v", ends)
	}

	r := newRig(t, cp.Vector{X: -100, Y: -90})
	mv := r.spawnMover(60, 8, sideview.Mover{Path: []cp.Vector{{X: -100, Y: -60}, {X: 100, Y: -100}}, Period: 1.3, Wait: 0.2, Ease: sideview.Sine})
	step := func() { r.step(input.KeyArrowRight) }
	for range 50 {
		step()
	}
	var snap physics.Snapshot
	if err := r.p.Snapshot(&snap); err != nil {
		t.Fatal(err)
	}
	for range 70 {
		step()
	}
	first, firstMover := r.pos(), r.p.Body(mv).Position()
	if err := r.p.Restore(&snap); err != nil {
		t.Fatal(err)
	}
	for range 70 {
		step()
	}
	if r.pos() != first || r.p.Body(mv).Position() != firstMover {
		t.Errorf("after a restore: %v and %v, want %v and %v", r.pos(), r.p.Body(mv).Position(), first, firstMover)
	}
}

// A lift coming down on a character standing on the static floor crushes
// it: the character says so and by what, the lift holds still rather than
// push it through the floor, and goes on once it has left. A character
// carried up into a static ceiling, or pushed sideways into a wall, is
// crushed too; one riding a lift down is not.
func TestCrushed(t *testing.T) {
	r := newRig(t, cp.Vector{Y: -12})
	lift := r.spawnMover(60, 10, sideview.Mover{Path: []cp.Vector{{Y: -80}, {Y: 20}}, Period: 1})
	crushed, lowest := 0, 0.0
	for range 120 {
		r.step()
		if c := r.char(); c.Crushed {
			crushed++
			if c.CrushedBy != lift {
				t.Fatalf("crushed by %v, want the lift %v", c.CrushedBy, lift)
			}
		}
		lowest = max(lowest, r.pos().Y+12) // how far its feet are in the floor
	}
	m := sideview.MoverC.Get(r.w.Entry(lift))
	if crushed < 80 || !m.Blocked || lowest > 1.5 {
		t.Fatalf("under a lift coming down: crushed %d ticks, lift blocked %v, feet %.2f into the floor", crushed, m.Blocked, lowest)
	}
	held := m.Ticks
	r.p.Teleport(r.hero, components.Pose{X: 150, Y: -12})
	r.run(2)
	for range 30 {
		r.step()
	}
	if m := sideview.MoverC.Get(r.w.Entry(lift)); m.Blocked || m.Ticks < held+25 || r.char().Crushed {
		t.Errorf("once the character left: lift blocked %v, its clock %d (held at %d), crushed %v", m.Blocked, m.Ticks, held, r.char().Crushed)
	}

	for _, c := range []struct {
		name  string
		mover sideview.Mover
		w, h  float64
		wall  cp.BB
		start cp.Vector
	}{
		{"up into a ceiling", sideview.Mover{Path: []cp.Vector{{X: -100, Y: -50}, {X: -100, Y: -150}}, Period: 2}, 60, 8,
			cp.BB{L: -160, R: -40, B: -150, T: -110}, cp.Vector{X: -100, Y: -70}},
		{"sideways into a wall", sideview.Mover{Path: []cp.Vector{{X: -150, Y: -20}, {X: 50, Y: -20}}, Period: 2}, 10, 40,
			cp.BB{L: -20, R: 0, B: -100, T: 0}, cp.Vector{X: -40, Y: -12}},
	} {
		r := newRig(t, c.start)
		r.p.SpawnBox(c.wall.R-c.wall.L, c.wall.T-c.wall.B, &physics.BodyOptions{Kind: physics.Static,
			Position: cp.Vector{X: (c.wall.L + c.wall.R) / 2, Y: (c.wall.B + c.wall.T) / 2}})
		r.spawnMover(c.w, c.h, c.mover)
		crushed := false
		for range 150 {
			r.step()
			crushed = crushed || r.char().Crushed
		}
		bb := components.ShapeC.Get(r.w.Entry(r.hero)).Shapes[0].BB()
		if inside := min(bb.R, c.wall.R) - max(bb.L, c.wall.L); !crushed || (inside > 1.5 && min(bb.T, c.wall.T)-max(bb.B, c.wall.B) > 1.5) {
			t.Errorf("%s: crushed %v, its box %+v against the wall %+v", c.name, crushed, bb, c.wall)
		}
	}

	plain := newRig(t, cp.Vector{Y: -12})
	press := plain.p.SpawnBox(40, 10, &physics.BodyOptions{Kind: physics.Kinematic, Position: cp.Vector{Y: -40}, Velocity: cp.Vector{Y: 30}})
	crushed = 0
	for range 60 {
		plain.step()
		if c := plain.char(); c.Crushed && c.CrushedBy == press {
			crushed++
		}
	}
	if crushed == 0 {
		t.Errorf("a kinematic body of the game's coming down: never crushed")
	}

	ride := newRig(t, cp.Vector{X: -100, Y: -150})
	ride.spawnMover(60, 8, sideview.Mover{Path: []cp.Vector{{X: -100, Y: -120}, {X: -100, Y: -40}}, Period: 1})
	for range 120 {
		ride.step()
		if ride.char().Crushed {
			t.Fatalf("riding a lift down: crushed")
		}
	}
}

const liftTMX = `<?xml version="1.0" encoding="UTF-8"?>
<map version="1.10" orientation="orthogonal" renderorder="right-down" width="4" height="4" tilewidth="16" tileheight="16" infinite="0" nextlayerid="3" nextobjectid="6">
 <tileset firstgid="1" source="tiles.tsx"/>
 <layer id="1" name="ground" width="4" height="4"><data encoding="csv">0,0,0,0,0,0,0,0,0,0,0,0,1,1,1,1</data></layer>
 <objectgroup id="2" name="things">
  <object id="1" name="lift" type="lift" x="10" y="20" width="20" height="4">
   <properties><property name="dy" type="float" value="-30"/><property name="period" type="float" value="2"/>
   <property name="wait" type="float" value="0.5"/><property name="easing" value="sine"/></properties>
  </object>
  <object id="2" name="ferry" type="lift" x="0" y="0" width="10" height="10">
   <properties><property name="path" type="object" value="3"/><property name="loop" type="bool" value="false"/></properties>
  </object>
  <object id="3" name="route" x="100" y="100"><polygon points="0,0 20,0 20,20"/></object>
  <object id="4" name="bad" type="lift" x="0" y="0" width="10" height="10">
   <properties><property name="period" type="float" value="slow"/></properties>
  </object>
  <object id="5" name="worse" type="lift" x="0" y="0" width="10" height="10">
   <properties><property name="easing" value="bouncy"/></properties>
  </object>
 </objectgroup>
</map>`

// MoverFrom reads a lift from a Tiled object: an offset or a path (a
// referenced polyline or polygon), period, easing, wait, loop; a bad value
// is an error that names the object and the property.
func TestMoverFrom(t *testing.T) {
	fsys := fstest.MapFS{"lift.tmx": {Data: []byte(liftTMX)}}
	for _, f := range []string{"tiles.tsx", "tiles.png"} {
		data, err := readTestdata(f)
		if err != nil {
			t.Fatal(err)
		}
		fsys[f] = &fstest.MapFile{Data: data}
	}
	lv, err := level.Load(fsys, "lift.tmx")
	if err != nil {
		t.Fatal(err)
	}
	defer lv.Release()
	lifts := lv.Objects("lift")
	m, err := sideview.MoverFrom(lv, lifts[0])
	if err != nil || len(m.Path) != 2 || m.Path[0] != (cp.Vector{X: 20, Y: 22}) || m.Path[1] != (cp.Vector{X: 20, Y: -8}) ||
		m.Period != 2 || m.Wait != 0.5 || m.Ease != sideview.Sine || m.Loop {
		t.Errorf("lift: %+v, %v", m, err)
	}
	f, err := sideview.MoverFrom(lv, lifts[1])
	if err != nil || len(f.Path) != 3 || f.Path[0] != (cp.Vector{X: 5, Y: 5}) || f.Path[2] != (cp.Vector{X: 25, Y: 25}) || f.Loop || f.Period != 4 {
		t.Errorf("ferry along a polygon, loop false: %+v, %v", f, err)
	}
	for _, c := range []struct {
		o    level.Object
		want string
	}{{lifts[2], `object 4 "bad" (lift): property "period"`}, {lifts[3], `object 5 "worse" (lift): property "easing"`}} {
		if _, err := sideview.MoverFrom(lv, c.o); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: error %v, want one naming %s", c.o.Name, err, c.want)
		}
	}
}

// A tick of the movers allocates nothing.
func TestMoverAllocatesNothing(t *testing.T) {
	r := newRig(t, cp.Vector{X: -100, Y: -90})
	r.spawnMover(60, 8, sideview.Mover{Path: []cp.Vector{{X: -100, Y: -60}, {X: 100, Y: -100}}, Period: 1.3, Ease: sideview.Sine})
	for range 30 {
		r.step()
	}
	ev := engine.Event{Kind: engine.Update, DT: 1.0 / 60}
	if n := testing.AllocsPerRun(100, func() { r.movers.Update(r.w, ev) }); n != 0 {
		t.Errorf("MoverSystem.Update allocates %v times a tick", n)
	}
}

func readTestdata(name string) ([]byte, error) { return os.ReadFile(filepath.Join("testdata", name)) }
