package health_test

import (
	"testing"

	"github.com/fixedstep/fixedstep/components"
	"github.com/fixedstep/fixedstep/engine"
	"github.com/fixedstep/fixedstep/engine/input"
	"github.com/fixedstep/fixedstep/systems"
	"github.com/fixedstep/fixedstep/systems/aim"
	"github.com/fixedstep/fixedstep/systems/health"
	"github.com/fixedstep/fixedstep/systems/physics"
	"github.com/fixedstep/fixedstep/systems/shoot"
	"github.com/fixedstep/fixedstep/systems/stage/core"
	"github.com/fixedstep/fixedstep/third_party/cp"
	"github.com/fixedstep/fixedstep/third_party/donburi"
	"github.com/fixedstep/fixedstep/third_party/donburi/filter"
)

// outcome is what a run of the arena ends with.
type outcome struct {
	sum          uint64
	killed, hurt int     // drones killed, hits the ship took
	shipHP       float64 // the ship's health at the end
}

// runArena runs a twin-stick arena for 8 s: a ship that strafes and fires
// at eight chasing drones of 3 HP, half of which flee when hurt; a shot
// costs a drone 1 HP and pushes it, a drone touching the ship costs the
// ship 1 HP, pushes it away and leaves it invulnerable for 30 ticks; the
// dead drones are removed.
func runArena(t *testing.T, opts engine.Options) outcome {
	t.Helper()
	var out outcome
	scene := engine.NewScene("Arena", func(loop *engine.Loop) (engine.Scene, error) {
		st := core.New(loop, core.Options{
			Groups:  []engine.Group{{Name: "physics", Hz: 60}, {Name: "ai", Hz: systems.AIHz}},
			Physics: &physics.Config{},
		})
		defer st.Release()
		st.Physics.SpawnWalls([]cp.Vector{{X: -300, Y: -200}, {X: 300, Y: -200}, {X: 300, Y: 200}, {X: -300, Y: 200}, {X: -300, Y: -200}}, 2, nil)
		ship := st.Physics.SpawnCircle(10, nil, components.PlayerC, aim.AimerC, shoot.GunC, health.HealthC)
		w := st.World
		components.PlayerC.SetValue(w.Entry(ship), components.Player{Force: 5000, Speed: 140})
		aim.AimerC.SetValue(w.Entry(ship), aim.Aimer{Face: true})
		shoot.GunC.SetValue(w.Entry(ship), shoot.Gun{Speed: 700, Spread: 0.15, Cooldown: 5, Lifetime: 50, Muzzle: 12, Damage: 1})
		health.HealthC.SetValue(w.Entry(ship), health.Health{HP: 20, Max: 20, InvulnerableTicks: 30})
		for i := range 8 {
			d := st.Physics.SpawnCircle(7, &physics.BodyOptions{Position: cp.Vector{X: float64(-250 + 70*i), Y: float64(-150 + 300*(i%2))}},
				components.AgentC, health.HealthC)
			components.AgentC.SetValue(w.Entry(d), components.NewAgent(70, 600))
			health.HealthC.SetValue(w.Entry(d), health.Full(3, 0))
			if i%2 == 0 {
				w.Entry(d).AddComponent(systems.FleeWhenHurtC)
			}
		}
		ai := systems.NewAI(w, st.Physics.Space(), 7)
		core.Keep(st, ai.Source())
		aims := aim.NewSystem(cp.Vector{X: 600, Y: 400})
		shots := shoot.New(st.Physics)
		shots.Reserve(w, 16)
		hp := health.New()
		shots.OnHit(func(w donburi.World, h shoot.Hit) {
			hp.Apply(w, h.Target, health.Damage{Amount: h.Damage, Source: h.Owner, From: h.Point, Impulse: h.Vel.Normalize().Mult(15)})
		})
		st.Physics.OnCollide(components.PlayerC, components.AgentC, func(w donburi.World, c physics.Contact) {
			hp.Apply(w, c.A, health.Damage{Amount: 1, Source: c.B, From: c.Point, Impulse: c.Normal.Mult(-200)})
		})
		hp.OnDamage(systems.AgentHurt)
		hp.OnDeath(func(w donburi.World, ev health.Event) {
			if ev.Target != ship {
				w.Remove(ev.Target)
			}
		})
		st.Sched.AddUpdate(0, "player", systems.NewPlayerControl().Update).
			AddUpdate(0, "aim", aims.Update).
			AddUpdate(0, "steer", st.Physics.Steer).
			AddUpdate(0, "physics", st.Physics.Update).
			AddUpdate(0, "shoot", shots.Update).
			AddUpdate(0, "health", hp.Update).
			AddUpdate(0, "end", func(w donburi.World, ev engine.Event) {
				if ev.Tick == 480 {
					out.shipHP = health.HealthC.Get(w.Entry(ship)).HP
					out.killed, out.hurt = 8-drones.Count(w), int(20-out.shipHP) // assigned, not counted: -synctest runs ticks again
					st.End(nil)
				}
			}).
			AddUpdate(1, "ai", ai.Update)
		return st.Run()
	})
	opts.TickInput = engine.TickInputFunc(func(ti engine.TickInfo, in *input.State) {
		if ti.Group != 0 {
			return
		}
		k := ti.Tick
		in.SetKey(input.KeyA, k%160 < 50)
		in.SetKey(input.KeyD, k%160 >= 80 && k%160 < 130)
		in.SetKey(input.KeyS, k%100 < 25)
		in.SetKey(input.KeyW, k%100 >= 50 && k%100 < 75)
		in.CursorX, in.CursorY = float64(k*11%600), float64(k*5%400)
		in.SetMouseButton(input.MouseButtonLeft, true)
	})
	opts.Record = &engine.InputLog{}
	if err := engine.Run(scene, &opts); err != nil {
		t.Fatal(err)
	}
	out.sum, _ = opts.Record.RunChecksum()
	return out
}

var drones = donburi.NewQuery(filter.Contains(components.AgentC))

// Damage, invulnerability, knockback, deaths removed in a handler and the
// agents' choice to flee are exact at any frame rate and under -synctest
// 8 (a rollback before every tick): the same run checksum and outcome.
func TestHealthFrameRatesAndSyncTest(t *testing.T) {
	want := runArena(t, engine.Options{})
	if want.killed == 0 || want.hurt == 0 || want.shipHP <= 0 {
		t.Fatalf("the run: %+v; want drones killed, the ship hurt and alive", want)
	}
	for _, fps := range []float64{24, 60, 144} {
		if got := runArena(t, engine.Options{Headless: &engine.Headless{FPS: fps}}); got != want {
			t.Errorf("%v fps: %+v, want %+v", fps, got, want)
		}
	}
	if got := runArena(t, engine.Options{SyncTest: 8}); got != want {
		t.Errorf("-synctest 8: %+v, want %+v", got, want)
	}
}
