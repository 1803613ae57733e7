package shoot_test

import (
	"fmt"
	"math"
	"testing"

	"github.com/fixedstep/fixedstep/components"
	"github.com/fixedstep/fixedstep/engine"
	"github.com/fixedstep/fixedstep/engine/input"
	"github.com/fixedstep/fixedstep/systems"
	"github.com/fixedstep/fixedstep/systems/aim"
	"github.com/fixedstep/fixedstep/systems/physics"
	"github.com/fixedstep/fixedstep/systems/shoot"
	"github.com/fixedstep/fixedstep/systems/stage/core"
	"github.com/fixedstep/fixedstep/third_party/cp"
	"github.com/fixedstep/fixedstep/third_party/donburi"
)

// struck counts the hits an entity took.
type struck struct{ Hits int }

var struckC = donburi.NewComponentType[struck]()

// runRange runs a ship that strafes, aims with the mouse and the keys in
// turns and fires, in a box of thin walls with ten drifting targets that
// each hit pushes, for 5 s; it returns the run checksum and the hits.
func runRange(t *testing.T, opts engine.Options) (uint64, int) {
	t.Helper()
	hits := 0
	scene := engine.NewScene("Range", func(loop *engine.Loop) (engine.Scene, error) {
		st := core.New(loop, core.Options{Physics: &physics.Config{}})
		defer st.Release()
		st.Physics.SpawnWalls(box(200, 150), 0, nil)
		ship := st.Physics.SpawnCircle(8, nil, components.PlayerC, aim.AimerC, shoot.GunC)
		components.PlayerC.SetValue(st.World.Entry(ship), components.Player{Force: 4000, Speed: 120})
		aim.AimerC.SetValue(st.World.Entry(ship), aim.Aimer{Face: true})
		shoot.GunC.SetValue(st.World.Entry(ship), shoot.Gun{Speed: 900, Spread: 0.1, Cooldown: 4, Lifetime: 40, Muzzle: 10, Damage: 1})
		for i := range 10 {
			e := st.Physics.SpawnCircle(6, &physics.BodyOptions{Position: cp.Vector{X: float64(-150 + 30*i), Y: float64(-100 + 20*(i%4))}}, struckC)
			st.Physics.Body(e).SetVelocity(float64(20*(i%3)-20), 15)
		}
		sys := aim.NewSystem(cp.Vector{X: 400, Y: 300})
		shots := shoot.New(st.Physics)
		shots.OnHit(func(w donburi.World, h shoot.Hit) {
			if h.Target == donburi.Null || !w.Entry(h.Target).HasComponent(struckC) {
				return
			}
			struckC.Get(w.Entry(h.Target)).Hits++
			st.Physics.Body(h.Target).ApplyImpulseAtWorldPoint(h.Vel.Normalize().Mult(20), h.Point)
		})
		st.Sched.AddUpdate(0, "player", systems.NewPlayerControl().Update).
			AddUpdate(0, "aim", sys.Update).
			AddUpdate(0, "physics", st.Physics.Update).
			AddUpdate(0, "shoot", shots.Update).
			AddUpdate(0, "end", func(w donburi.World, ev engine.Event) {
				if ev.Tick == 300 {
					for e := range donburi.NewQuery(filterStruck).Iter(w) {
						hits += struckC.Get(e).Hits
					}
					st.End(nil)
				}
			})
		return st.Run()
	})
	opts.TickInput = engine.TickInputFunc(func(ti engine.TickInfo, in *input.State) {
		k := ti.Tick
		in.SetKey(input.KeyA, k%120 < 40)
		in.SetKey(input.KeyD, k%120 >= 60 && k%120 < 100)
		in.SetKey(input.KeyW, k%90 < 20)
		in.CursorX, in.CursorY = float64(k*13%400), float64(k*7%300)
		in.SetKey(input.KeyI, k > 150 && k%50 < 10)
		in.SetKey(input.KeyJ, k > 150 && k%70 < 30)
		in.SetMouseButton(input.MouseButtonLeft, k%30 < 25)
	})
	opts.Record = &engine.InputLog{}
	if err := engine.Run(scene, &opts); err != nil {
		t.Fatal(err)
	}
	sum, _ := opts.Record.RunChecksum()
	return sum, hits
}

// Firing, flight and hits are exact at any frame rate and under
// -synctest 8 (a rollback before every tick): the same run checksum.
func TestShootFrameRatesAndSyncTest(t *testing.T) {
	want, hits := runRange(t, engine.Options{})
	if hits < 5 {
		t.Fatalf("%d hits on the targets", hits)
	}
	for _, fps := range []float64{24, 60, 144} {
		if got, _ := runRange(t, engine.Options{Headless: &engine.Headless{FPS: fps}}); got != want {
			t.Errorf("%v fps: run checksum %016x, want %016x", fps, got, want)
		}
	}
	if got, _ := runRange(t, engine.Options{SyncTest: 8}); got != want {
		t.Errorf("-synctest 8: run checksum %016x, want %016x", got, want)
	}
}

// BenchmarkShotsTick is a tick of the shoot system with n shots in flight
// (guns firing to keep them so) among 40 walls and 50 bodies.
func BenchmarkShotsTick(b *testing.B) {
	for _, n := range []int{100, 1000, 10000} {
		b.Run(fmt.Sprint(n), func(b *testing.B) {
			r := newRig()
			r.p.SpawnWalls(box(2000, 2000), 0, nil)
			for i := range 40 {
				a := float64(i) / 40 * 2 * math.Pi
				p := cp.Vector{X: 1500 * math.Cos(a), Y: 1500 * math.Sin(a)}
				r.p.SpawnSegment(p, p.Add(cp.Vector{X: 50, Y: 80}), 0, &physics.BodyOptions{Kind: physics.Static})
			}
			for i := range 50 {
				r.p.SpawnCircle(10, &physics.BodyOptions{Kind: physics.Static, Position: cp.Vector{X: float64(i%10)*300 - 1400, Y: float64(i/10)*500 - 1100}})
			}
			// 10 guns, each firing n/100 shots a tick that live 10 ticks.
			for i := range 10 {
				r.gun(cp.Vector{X: float64(i * 30)}, float64(i), shoot.Gun{Speed: 3000, Spread: 2 * math.Pi, Shots: n / 100, Trigger: true, Lifetime: 10})
			}
			r.fired = nil
			r.s = shoot.New(r.p)
			ev := engine.Event{Kind: engine.Update, DT: 1.0 / 60}
			for range 30 {
				ev.Tick++
				r.s.Update(r.w, ev)
			}
			b.ReportAllocs()
			b.ResetTimer()
			for b.Loop() {
				ev.Tick++
				r.s.Update(r.w, ev)
			}
			b.ReportMetric(float64(r.live()), "shots")
		})
	}
}

// box is the closed outline of the rectangle from (-w, -h) to (w, h).
func box(w, h float64) []cp.Vector {
	return []cp.Vector{{X: -w, Y: -h}, {X: w, Y: -h}, {X: w, Y: h}, {X: -w, Y: h}, {X: -w, Y: -h}}
}
