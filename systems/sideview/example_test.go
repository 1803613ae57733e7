package sideview_test

import (
	"fmt"
	"math"
	"os"

	"github.com/fixedstep/fixedstep/assets"
	"github.com/fixedstep/fixedstep/components"
	"github.com/fixedstep/fixedstep/engine"
	"github.com/fixedstep/fixedstep/engine/input"
	"github.com/fixedstep/fixedstep/systems/camera"
	"github.com/fixedstep/fixedstep/systems/level"
	"github.com/fixedstep/fixedstep/systems/physics"
	"github.com/fixedstep/fixedstep/systems/render"
	"github.com/fixedstep/fixedstep/systems/sideview"
	"github.com/fixedstep/fixedstep/systems/stage"
	"github.com/fixedstep/fixedstep/third_party/cp"
	"github.com/fixedstep/fixedstep/third_party/donburi"
)

var starC = donburi.NewTag("star")

// A platformer's scene from its pieces: a Tiled level (ground with a gap,
// a one-way ledge, the player's start and two stars as objects), a
// character driven by the side-view controller, a camera that follows it,
// stars that vanish when touched. A script plays: it runs right, jumps the
// gap and takes the star above it, and the one on the far side. Headless, as here, nothing is drawn; in a window the level's
// tiles and the sprites are.
func Example() {
	run := engine.NewScene("Run", func(loop *engine.Loop) (engine.Scene, error) {
		st, err := stage.New(loop, stage.Options{
			Groups:  []engine.Group{{Name: "physics", Hz: 60}},
			Physics: &physics.Config{Gravity: cp.Vector{Y: 1000}}, // y down
		})
		if err != nil {
			return nil, err
		}
		defer st.Release()
		lv, err := level.Load(os.DirFS("testdata"), "run.tmx")
		if err != nil {
			return nil, err
		}
		defer lv.Release()
		built := lv.Build(st.World, st.Physics)
		for i, l := range built.Layers {
			st.Sched.AddRender(-10+i, "tiles "+l.Name(), l.Draw)
		}
		start := lv.Objects("player")[0]
		hero := st.Physics.SpawnBox(12, 24, &physics.BodyOptions{Position: cp.Vector{X: start.X, Y: start.Y - 12},
			Moment: math.Inf(1), Sprite: st.Sprite(assets.SpriteBall)}, sideview.CharacterC, components.PlayerC)
		for _, s := range lv.Objects("star") {
			st.Physics.SpawnCircle(6, &physics.BodyOptions{Kind: physics.Static, Sensor: true,
				Position: cp.Vector{X: s.X, Y: s.Y}, Sprite: st.Sprite(assets.SpriteGoal)}, starC)
		}
		stars := 0
		st.Physics.OnCollide(components.PlayerC, starC, func(w donburi.World, c physics.Contact) {
			stars++
			w.Remove(c.B)
		})
		camera.Spawn(st.World, components.Camera{Zoom: 2}, camera.Follow{Target: hero, DeadZone: cp.Vector{X: 30, Y: 40},
			View: cp.Vector{X: 320, Y: 180}, Max: cp.Vector{X: lv.Width, Y: lv.Height}})
		st.Sched.AddUpdate(0, "controller", sideview.NewController(st.Physics).Update).
			AddUpdate(0, "physics", st.Physics.Update).
			AddUpdate(0, "camera", camera.NewSystem().Update).
			AddUpdate(0, "rules", func(w donburi.World, ev engine.Event) {
				if ev.Tick == 170 {
					p, c := st.Physics.Body(hero).Position(), sideview.CharacterC.Get(w.Entry(hero))
					fmt.Printf("after %d ticks: x %.0f, on the ground %v, stars %d\n", ev.Tick, p.X, c.OnGround, stars)
					st.End(nil)
				}
			}).
			AddRender(0, "sprites", render.New(st.World).Draw)
		return st.Run()
	})
	script := engine.TickInputFunc(func(t engine.TickInfo, in *input.State) {
		in.SetKey(input.KeyArrowRight, true)
		in.SetKey(input.KeySpace, t.Tick >= 40 && t.Tick < 70) // the gap
	})
	err := engine.Run(run, &engine.Options{TickInput: script})
	fmt.Println("err:", err)
	// Output:
	// after 170 ticks: x 574, on the ground true, stars 2
	// err: <nil>
}

// A lift: a kinematic box moved by a Mover up 100 units and back, easing
// in and out, waiting half a second at each end. A character standing on
// it is carried exactly: its height above the lift does not change.
func ExampleMover() {
	w := donburi.NewWorld()
	phys := physics.New(w, physics.Config{Gravity: cp.Vector{Y: 1000}})
	lift := sideview.Mover{Path: []cp.Vector{{X: 0, Y: 0}, {X: 0, Y: -100}}, Period: 2, Wait: 0.5, Ease: sideview.Sine}
	e := phys.SpawnBox(48, 8, &physics.BodyOptions{Kind: physics.Kinematic, Position: lift.At(0)}, sideview.MoverC)
	sideview.MoverC.SetValue(w.Entry(e), lift)
	hero := phys.SpawnBox(12, 24, &physics.BodyOptions{Position: cp.Vector{Y: -15.9}, Moment: math.Inf(1)}, sideview.CharacterC)
	ctl, movers := sideview.NewController(phys), sideview.NewMoverSystem()
	for tick := int64(1); tick <= 300; tick++ {
		ev := engine.Event{Kind: engine.Update, DT: 1.0 / 60, Tick: tick}
		ctl.Update(w, ev)
		movers.Update(w, ev)
		phys.Update(w, ev)
		if tick%60 == 0 {
			l, h := phys.Body(e).Position(), phys.Body(hero).Position()
			fmt.Printf("%d s: lift at y %6.2f, the hero's centre %.4f above it\n", tick/60, l.Y, l.Y-h.Y)
		}
	}
	// Output:
	// 1 s: lift at y -14.64, the hero's centre 15.9000 above it
	// 2 s: lift at y -85.36, the hero's centre 15.9000 above it
	// 3 s: lift at y -100.00, the hero's centre 15.9000 above it
	// 4 s: lift at y -50.00, the hero's centre 15.9000 above it
	// 5 s: lift at y   0.00, the hero's centre 15.9000 above it
}

// The genre's rules a game lists: stars to pick up, a kill plane below the
// floor. The hero runs right, takes the star and falls off the floor's end;
// it loses a life and respawns at its checkpoint.
func ExampleRules() {
	w := donburi.NewWorld()
	phys := physics.New(w, physics.Config{Gravity: cp.Vector{Y: 1000}})
	phys.SpawnBox(200, 20, &physics.BodyOptions{Kind: physics.Static, Position: cp.Vector{Y: 10}}) // the floor, x -100 to 100
	phys.SpawnCircle(6, &physics.BodyOptions{Kind: physics.Static, Sensor: true, Position: cp.Vector{X: 50, Y: -12}}, starC)
	start := cp.Vector{X: -80, Y: -12}
	hero := phys.SpawnBox(12, 24, &physics.BodyOptions{Position: start, Moment: math.Inf(1)}, sideview.CharacterC, sideview.HeroC)
	sideview.HeroC.SetValue(w.Entry(hero), sideview.Hero{Lives: 3, Checkpoint: start})
	rules := sideview.NewRules(phys).Pickup(starC).KillBelow(200)
	ctl := sideview.NewController(phys)
	ctl.Controls = func(*donburi.Entry, *input.State) sideview.Controls { return sideview.Controls{Move: 1} }
	for tick := int64(1); tick <= 120; tick++ {
		ev := engine.Event{Kind: engine.Update, DT: 1.0 / 60, Tick: tick}
		ctl.Update(w, ev)
		phys.Update(w, ev)
		rules.Update(w, ev)
		h := sideview.HeroC.Get(w.Entry(hero))
		switch {
		case h.Events.Did(sideview.HeroPicked):
			fmt.Printf("tick %d: a star (%d)\n", tick, h.Counts[0])
		case h.Events.Did(sideview.HeroFell):
			fmt.Printf("tick %d: fell, %d lives left, back at x %.0f\n", tick, h.Lives, phys.Body(hero).Position().X)
		}
	}
	// Output:
	// tick 39: a star (1)
	// tick 98: fell, 2 lives left, back at x -80
}
