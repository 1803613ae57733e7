package physics_test

import (
	"testing"

	"github.com/fixedstep/fixedstep/components"
	"github.com/fixedstep/fixedstep/engine"
	"github.com/fixedstep/fixedstep/engine/input"
	"github.com/fixedstep/fixedstep/systems"
	"github.com/fixedstep/fixedstep/systems/physics"
	"github.com/fixedstep/fixedstep/systems/stage/core"
	"github.com/fixedstep/fixedstep/third_party/cp"
	"github.com/fixedstep/fixedstep/third_party/donburi"
	"github.com/fixedstep/fixedstep/third_party/donburi/filter"
)

// pressed is what touching did to an entity: the ship's HP, a drone's
// ticks pressed against the ship, and, for the ship, how many drones
// Touching listed after the last step.
type pressed struct {
	HP, Ticks, Now int
}

var pressedC = donburi.NewComponentType[pressed]().SetName("pressed")

// pressOutcome is what a run of pressScene ends with.
type pressOutcome struct {
	sum                 uint64
	shipHP, removed     int
	touched, maxPressed int
}

// runPress runs a ship that strafes in a walled room while six drones
// chase it and press against it for 8 s: every tick a drone touches the
// ship costs the ship 1 HP and pushes it along the contact's normal
// (OnTouch); a drone pressed for 40 ticks in all is removed inside the
// handler, while touching; a system after the physics stores how many
// drones touch the ship now (Touching).
func runPress(t *testing.T, opts engine.Options) pressOutcome {
	t.Helper()
	var out pressOutcome
	scene := engine.NewScene("Press", func(loop *engine.Loop) (engine.Scene, error) {
		st := core.New(loop, core.Options{Physics: &physics.Config{}})
		defer st.Release()
		w, p := st.World, st.Physics
		p.SpawnWalls([]cp.Vector{{X: -300, Y: -200}, {X: 300, Y: -200}, {X: 300, Y: 200}, {X: -300, Y: 200}, {X: -300, Y: -200}}, 2, nil)
		ship := p.SpawnCircle(10, nil, components.PlayerC, pressedC)
		components.PlayerC.SetValue(w.Entry(ship), components.Player{Force: 5000, Speed: 140})
		pressedC.SetValue(w.Entry(ship), pressed{HP: 1000})
		for i := range 6 {
			d := p.SpawnCircle(7, &physics.BodyOptions{Position: cp.Vector{X: float64(-250 + 100*i), Y: float64(-150 + 300*(i%2))}},
				components.AgentC, pressedC)
			components.AgentC.SetValue(w.Entry(d), components.NewAgent(90, 800))
		}
		agents := donburi.NewQuery(filter.Contains(components.AgentC, components.BodyC))
		chase := func(w donburi.World, _ engine.Event) {
			at := p.Body(ship).Position()
			for e := range agents.Iter(w) {
				a := components.AgentC.Get(e)
				a.Desired = at.Sub(components.BodyC.Get(e).Body.Position()).Normalize().Mult(a.MaxSpeed)
			}
		}
		p.OnTouch(components.PlayerC, components.AgentC, func(w donburi.World, c physics.Contact) {
			pressedC.Get(w.Entry(c.A)).HP--
			p.Body(c.A).ApplyImpulseAtWorldPoint(c.Normal.Mult(-20), c.Point)
			d := pressedC.Get(w.Entry(c.B))
			if d.Ticks++; d.Ticks == 40 {
				w.Remove(c.B)
			}
		})
		var now []physics.Contact
		st.Sched.AddUpdate(0, "player", systems.NewPlayerControl().Update).
			AddUpdate(0, "chase", chase).
			AddUpdate(0, "steer", p.Steer).
			AddUpdate(0, "physics", p.Update).
			AddUpdate(0, "touching", func(w donburi.World, ev engine.Event) {
				now = p.Touching(components.PlayerC, components.AgentC, now[:0])
				s := pressedC.Get(w.Entry(ship))
				s.Now = len(now)
				if ev.Tick == 480 { // assigned, not counted: -synctest runs ticks again
					out.shipHP, out.removed = s.HP, 6-agents.Count(w)
					out.touched = 1000 - s.HP
					st.End(nil)
				}
				out.maxPressed = max(out.maxPressed, s.Now)
			})
		return st.Run()
	})
	opts.TickInput = engine.TickInputFunc(func(ti engine.TickInfo, in *input.State) {
		k := ti.Tick
		in.SetKey(input.KeyA, k%160 < 50)
		in.SetKey(input.KeyD, k%160 >= 80 && k%160 < 130)
		in.SetKey(input.KeyS, k%100 < 25)
		in.SetKey(input.KeyW, k%100 >= 50 && k%100 < 75)
	})
	opts.Record = &engine.InputLog{}
	if err := engine.Run(scene, &opts); err != nil {
		t.Fatal(err)
	}
	out.sum, _ = opts.Record.RunChecksum()
	return out
}

// Touching contacts are exact at any frame rate and under -synctest 8 (a
// rollback before every tick): the same run checksum and outcome, while
// handlers hurt, push and remove what touches.
func TestTouchingFrameRatesAndSyncTest(t *testing.T) {
	want := runPress(t, engine.Options{})
	if want.removed == 0 || want.touched < 100 || want.maxPressed < 2 {
		t.Fatalf("the run: %+v; want drones pressed to removal, the ship touched at length, by several at once", want)
	}
	t.Logf("the run: %+v", want)
	for _, fps := range []float64{24, 60, 144} {
		if got := runPress(t, engine.Options{Headless: &engine.Headless{FPS: fps}}); got != want {
			t.Errorf("%v fps: %+v, want %+v", fps, got, want)
		}
	}
	if got := runPress(t, engine.Options{SyncTest: 8}); got != want {
		t.Errorf("-synctest 8: %+v, want %+v", got, want)
	}
}
