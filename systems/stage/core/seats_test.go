package core_test

import (
	"fmt"
	"runtime"
	"strings"
	"testing"

	"github.com/fixedstep/fixedstep/components"
	"github.com/fixedstep/fixedstep/engine"
	"github.com/fixedstep/fixedstep/engine/input"
	"github.com/fixedstep/fixedstep/systems"
	"github.com/fixedstep/fixedstep/systems/physics"
	"github.com/fixedstep/fixedstep/systems/stage/core"
	"github.com/fixedstep/fixedstep/third_party/cp"
	"github.com/fixedstep/fixedstep/third_party/donburi"
)

// couch is a scene of two players on one keyboard, at seats kb1 and kb2:
// a script holds D (kb1's right) and the up arrow (kb2's) for a second,
// then the left arrow alone. where gets each player's position after
// ticks 60 and 120.
func couch(spec string, where *[2][2]cp.Vector) engine.Scene {
	return engine.NewScene("Couch", func(loop *engine.Loop) (engine.Scene, error) {
		st := core.New(loop, core.Options{Groups: []engine.Group{{Name: "physics", Hz: 60}}, Physics: &physics.Config{}})
		defer st.Release()
		seats, err := input.ParseSeats(spec)
		if err != nil {
			return nil, err
		}
		st.SetSeats(seats)
		var ship [2]donburi.Entity
		for p := range ship {
			ship[p] = st.Physics.SpawnCircle(10, &physics.BodyOptions{Position: cp.Vector{X: 100 + 200*float64(p), Y: 200}},
				components.PlayerC, components.SeatC)
			e := st.World.Entry(ship[p])
			components.PlayerC.SetValue(e, components.Player{Force: 2000, Speed: 200})
			components.SeatC.SetValue(e, components.Seat{Player: p})
		}
		loop.SetTickInput(0, engine.TickInputFunc(func(t engine.TickInfo, in *input.State) {
			in.SetKey(input.KeyD, t.Tick <= 60)
			in.SetKey(input.KeyArrowUp, t.Tick <= 60)
			in.SetKey(input.KeyArrowLeft, t.Tick > 60)
		}))
		st.Sched.AddUpdate(0, "player", systems.NewPlayerControl().Update).
			AddUpdate(0, "physics", st.Physics.Update).
			AddUpdate(0, "rules", func(w donburi.World, ev engine.Event) {
				if ev.Tick%60 != 0 {
					return
				}
				for p := range ship {
					where[ev.Tick/60-1][p] = components.BodyC.Get(w.Entry(ship[p])).Body.Position()
				}
				if ev.Tick == 120 {
					st.End(nil)
				}
			})
		return st.Run()
	})
}

// Two players on the halves of one keyboard each move by their own keys
// only, and the run replays, and runs under -synctest 8, to the same
// checksums: the seats split the recorded input again as the run did.
func TestSeatsMoveEachPlayerByItsOwnDevice(t *testing.T) {
	var where [2][2]cp.Vector
	rec := &engine.InputLog{}
	if err := engine.Run(couch("kb1,kb2", &where), &engine.Options{Record: rec}); err != nil {
		t.Fatal(err)
	}
	start := [2]cp.Vector{{X: 100, Y: 200}, {X: 300, Y: 200}}
	d0, d1 := where[0][0].Sub(start[0]), where[0][1].Sub(start[1])
	if !(d0.X > 100 && d0.Y == 0 && d1.X == 0 && d1.Y < -100) {
		t.Fatalf("after a second of D and Up: player 1 moved %v (want right only), player 2 %v (want up only)", d0, d1)
	}
	m0, m1 := where[1][0].Sub(where[0][0]), where[1][1].Sub(where[0][1])
	if !(m0.X > 0 && m0.X < 100 && m0.Y == 0 && m1.X < -50) {
		t.Fatalf("after a second of Left: player 1 moved %v (want: braking to a stop), player 2 %v (want left)", m0, m1)
	}
	plain, _ := rec.RunChecksum()
	if n := max(rec.Players, 1); n != 1 {
		t.Errorf("the recording holds %d machines' input, want 1 (the seats are the game's)", n)
	}

	var again [2][2]cp.Vector
	rep := &engine.InputLog{}
	if err := engine.Run(couch("kb1,kb2", &again), &engine.Options{Replay: rec, Record: rep, Headless: &engine.Headless{FPS: 37}}); err != nil {
		t.Fatalf("replay: %v", err)
	}
	if sum, _ := rep.RunChecksum(); sum != plain || again != where || rec.Replayed().Checked != 120 {
		t.Fatalf("replay at 37 fps: run checksum %016x, want %016x; %+v", sum, plain, rec.Replayed())
	}
	synced := &engine.InputLog{}
	if err := engine.Run(couch("kb1,kb2", &again), &engine.Options{SyncTest: 8, Record: synced}); err != nil {
		t.Fatalf("-synctest 8: %v", err)
	}
	if sum, _ := synced.RunChecksum(); sum != plain || again != where {
		t.Fatalf("-synctest 8: run checksum %016x, want %016x", sum, plain)
	}

	// The seats the other way round: the same keys move the other players.
	if err := engine.Run(couch("kb2,kb1", &again), nil); err != nil {
		t.Fatal(err)
	}
	if d := again[0][0].Sub(start[0]); !(d.X == 0 && d.Y < -100) {
		t.Errorf("kb2 first: player 1 moved %v, want up", d)
	}
}

// A player at a pad's seat reads its pad as pad 0 whichever it is, and
// nothing of the keyboard.
func TestSeatAtAPad(t *testing.T) {
	var seen [2]string
	scene := engine.NewScene("Pads", func(loop *engine.Loop) (engine.Scene, error) {
		st := core.New(loop, core.Options{})
		defer st.Release()
		seats, _ := input.ParseSeats("pad2,kb1")
		st.SetSeats(seats)
		loop.SetTickInput(0, engine.TickInputFunc(func(t engine.TickInfo, in *input.State) {
			in.SetGamepadAxis(2, input.AxisLeftStickHorizontal, 0.75)
			in.SetKey(input.KeyW, true)
		}))
		st.Sched.AddUpdate(0, "look", func(w donburi.World, ev engine.Event) {
			for p := range st.Players() {
				in := ev.Player(p)
				seen[p] = fmt.Sprintf("pad0 %v W %v", in.GamepadAxis(0, input.AxisLeftStickHorizontal), in.KeyDown(input.KeyW))
			}
			if len(st.Machines()) != 1 || !st.Machines()[0].KeyDown(input.KeyW) || !ev.Input.KeyDown(input.KeyW) {
				t.Errorf("the machine's input: %d machines", len(st.Machines()))
			}
			st.End(nil)
		})
		return st.Run()
	})
	if err := engine.Run(scene, nil); err != nil {
		t.Fatal(err)
	}
	if seen != [2]string{"pad0 0.75 W false", "pad0 0 W true"} {
		t.Errorf("the players saw %q", seen)
	}
}

// A join screen: each device pressed takes the next seat, on the tick it
// is pressed, and a replay seats the same players on the same ticks.
func TestJoinScreenReplays(t *testing.T) {
	joins := func(seen *[]string) engine.Scene {
		return engine.NewScene("Join", func(loop *engine.Loop) (engine.Scene, error) {
			st := core.New(loop, core.Options{})
			defer st.Release()
			st.SetSeats(input.Seats{})
			loop.SetTickInput(0, engine.TickInputFunc(func(t engine.TickInfo, in *input.State) {
				in.SetKey(input.KeyArrowDown, t.Tick >= 10)
				in.SetGamepadButton(1, input.GamepadRightBottom, t.Tick >= 20)
				in.SetKey(input.KeySpace, t.Tick >= 30)
			}))
			st.Sched.AddUpdate(0, "join", func(w donburi.World, ev engine.Event) {
				seats := st.Seats()
				if seats.Join(st.Machines(), 3) > 0 {
					st.SetSeats(seats)
					if !loop.Session().Resimulating() { // what the player sees, once: not state
						*seen = append(*seen, fmt.Sprintf("%d:%v", ev.Tick, seats))
					}
				}
				if ev.Tick == 40 {
					st.End(nil)
				}
			})
			return st.Run()
		})
	}
	var seen []string
	rec := &engine.InputLog{}
	if err := engine.Run(joins(&seen), &engine.Options{Record: rec}); err != nil {
		t.Fatal(err)
	}
	if got := strings.Join(seen, " "); got != "10:kb2 20:kb2,pad1 30:kb2,pad1,kb1" {
		t.Fatalf("joined: %s", got)
	}
	var replayed []string
	if err := engine.Run(joins(&replayed), &engine.Options{Replay: rec, SyncTest: 8}); err != nil || strings.Join(replayed, " ") != strings.Join(seen, " ") {
		t.Fatalf("replayed under -synctest 8: %v; joined %q", err, replayed)
	}
}

// Setting seats first on a tick is a programming error that says so.
func TestSetSeatsOnATickPanics(t *testing.T) {
	scene := engine.NewScene("Late", func(loop *engine.Loop) (engine.Scene, error) {
		st := core.New(loop, core.Options{})
		defer st.Release()
		st.Sched.AddUpdate(0, "late", func(w donburi.World, ev engine.Event) { st.SetSeats(input.Seats{}) })
		return st.Run()
	})
	err := engine.Run(scene, nil)
	if err == nil || !strings.Contains(err.Error(), "SetSeats() first called on a tick") {
		t.Fatalf("SetSeats on a tick: %v", err)
	}
}

// couchTickAllocations plays 600 ticks of three seated players whose
// systems read their inputs (ev.Player) and move a walker each, and
// returns the ticks from 100 on that saw allocations, with their count.
func couchTickAllocations(t *testing.T) map[int64]uint64 {
	var ms runtime.MemStats
	var last uint64
	allocs := map[int64]uint64{}
	scene := engine.NewScene("Alloc", func(loop *engine.Loop) (engine.Scene, error) {
		st := core.New(loop, core.Options{})
		defer st.Release()
		seats, _ := input.ParseSeats("kb1,kb2,pad1")
		st.SetSeats(seats)
		var walkers [3]donburi.Entity
		for p := range walkers {
			walkers[p] = st.World.Create(walkerC)
		}
		loop.SetTickInput(0, engine.TickInputFunc(func(t engine.TickInfo, in *input.State) {
			in.SetKey(input.KeyD, t.Tick%30 < 15)
			in.SetKey(input.KeyArrowRight, t.Tick%20 < 10)
			in.SetGamepadAxis(1, input.AxisLeftStickHorizontal, float64(t.Tick%7)/7)
		}))
		st.Sched.AddUpdate(0, "walk", func(w donburi.World, ev engine.Event) {
			for p := range st.Players() {
				in := ev.Player(p)
				if in.KeyDown(input.KeyD) || in.KeyDown(input.KeyArrowRight) || in.GamepadAxis(0, input.AxisLeftStickHorizontal) > 0.5 {
					walkerC.Get(w.Entry(walkers[p])).X++
				}
			}
			runtime.ReadMemStats(&ms)
			if n := ms.Mallocs - last; ev.Tick > 100 && n > 0 {
				allocs[ev.Tick] = n
			}
			last = ms.Mallocs
			if ev.Tick == 600 {
				st.End(nil)
			}
		})
		return st.Run()
	})
	if err := engine.Run(scene, &engine.Options{Headless: &engine.Headless{}}); err != nil {
		t.Fatal(err)
	}
	return allocs
}

// A tick of seated players allocates nothing: the loop's input, the
// stage's split by the seats and the systems reading each player's. The
// process's count sees other goroutines too, so the run is played twice:
// an allocation of its own comes back at the same tick.
func TestSeatedTicksAllocateNothing(t *testing.T) {
	first, second := couchTickAllocations(t), couchTickAllocations(t)
	for tick, n := range first {
		if m, ok := second[tick]; ok {
			t.Errorf("tick %d allocated in both runs (%d, %d)", tick, n, m)
		}
	}
}
