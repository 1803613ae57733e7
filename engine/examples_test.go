package engine_test

import (
	"fmt"
	"math"
	"time"

	"github.com/fixedstep/fixedstep/engine"
	"github.com/fixedstep/fixedstep/engine/input"
	"github.com/fixedstep/fixedstep/third_party/donburi"
)

// The loop as a value: a headless loop at a virtual 30 frames per second, with
// a 60 Hz group and a 25 Hz group. Every frame is an Input event, the ticks due
// in it in due-time order, and a Render event with Alpha.
func ExampleLoop() {
	loop, err := engine.NewHeadlessLoop(engine.Config{}, &engine.Headless{FPS: 30, Frames: 4}, nil)
	if err != nil {
		panic(err)
	}
	for ev := range loop.Events(engine.Group{Name: "physics", Hz: 60}, engine.Group{Name: "ai", Hz: 25}) {
		switch ev.Kind {
		case engine.Input:
			fmt.Printf("frame %d:", ev.Frame)
		case engine.Update:
			fmt.Printf(" group %d tick %d at %v,", ev.Group, ev.Tick, ev.Time)
		case engine.Render:
			fmt.Printf(" render at %v alpha %.2f\n", ev.Time, ev.Alpha)
		}
	}
	// Output:
	// frame 1: render at 0s alpha 0.00
	// frame 2: group 0 tick 1 at 16.666666ms, group 0 tick 2 at 33.333333ms, render at 33.333333ms alpha 0.00
	// frame 3: group 1 tick 1 at 40ms, group 0 tick 3 at 50ms, group 0 tick 4 at 66.666666ms, render at 66.666666ms alpha 0.00
	// frame 4: group 1 tick 2 at 80ms, group 0 tick 5 at 83.333333ms, group 0 tick 6 at 100ms, render at 100ms alpha 0.00
}

// The scheduler runs named systems over a donburi world: update systems in
// their group, in the order added; render systems by layer.
func ExampleScheduler() {
	world := donburi.NewWorld()
	sched := engine.NewScheduler(world, engine.Group{Name: "physics", Hz: 60}, engine.Group{Name: "ai", Hz: 10})
	say := func(what string) engine.System {
		return func(w donburi.World, ev engine.Event) { fmt.Println(what, ev.Kind, ev.Tick) }
	}
	sched.AddUpdate(sched.Group("physics"), "move", say("move"))
	sched.AddUpdate(sched.Group("physics"), "collide", say("collide"))
	sched.AddUpdate(sched.Group("ai"), "think", say("think"))
	sched.AddRender(1, "hud", say("hud"))
	sched.AddRender(0, "sprites", say("sprites"))

	loop, _ := engine.NewHeadlessLoop(engine.Config{}, &engine.Headless{FPS: 10, Frames: 2}, nil)
	for ev := range loop.Events(sched.Groups()...) {
		sched.Handle(ev)
	}
	for _, st := range sched.Stats() {
		fmt.Printf("%s: %d calls\n", st.Name, st.Count)
	}
	// Output:
	// sprites Render 0
	// hud Render 0
	// move Update 1
	// collide Update 1
	// move Update 2
	// collide Update 2
	// move Update 3
	// collide Update 3
	// move Update 4
	// collide Update 4
	// move Update 5
	// collide Update 5
	// move Update 6
	// collide Update 6
	// think Update 1
	// sprites Render 0
	// hud Render 0
	// move: 6 calls
	// collide: 6 calls
	// think: 1 calls
	// hud: 2 calls
	// sprites: 2 calls
}

// title and play are two scenes: each receives the loop and returns the next.
func title(loop *engine.Loop) (engine.Scene, error) {
	for ev := range loop.Events() {
		if ev.Kind == engine.Update && ev.Tick == 3 {
			fmt.Println("title: start pressed at", ev.Time)
			return engine.NewScene("Play", play), nil
		}
	}
	return nil, loop.Err()
}

func play(loop *engine.Loop) (engine.Scene, error) {
	for ev := range loop.Events(engine.Group{Name: "physics", Hz: 120}) {
		if ev.Kind == engine.Update && ev.Tick == 120 {
			fmt.Println("play: one second of physics at", ev.Time)
			return nil, nil // the end
		}
	}
	return nil, loop.Err()
}

// A scene chain: Run hands the loop from scene to scene, each starting a fresh
// timeline, until a scene returns nil.
func ExampleRun() {
	err := engine.Run(engine.NewScene("Title", title), &engine.Options{Headless: &engine.Headless{}})
	fmt.Println("err:", err)
	// Output:
	// title: start pressed at 50ms
	// play: one second of physics at 1s
	// err: <nil>
}

// A scripted player as a TickInput: it holds Space on ticks 3 to 5 of the
// first group, so the game sees the press on tick 3 and the release on tick
// 6 at any frame rate (here 24 and 144 frames a second).
func ExampleTickInput() {
	script := engine.TickInputFunc(func(t engine.TickInfo, in *input.State) {
		in.SetKey(input.KeySpace, t.Group == 0 && t.Tick >= 3 && t.Tick <= 5)
	})
	for _, fps := range []float64{24, 144} {
		scene := engine.NewScene("Play", func(loop *engine.Loop) (engine.Scene, error) {
			for ev := range loop.Events(engine.Group{Name: "physics", Hz: 60}) {
				if ev.Kind != engine.Update {
					continue
				}
				if ev.Input.KeyPressed(input.KeySpace) {
					fmt.Printf("%v fps: Space pressed on tick %d\n", fps, ev.Tick)
				}
				if ev.Input.KeyReleased(input.KeySpace) {
					fmt.Printf("%v fps: Space released on tick %d\n", fps, ev.Tick)
					return nil, nil
				}
			}
			return nil, loop.Err()
		})
		engine.Run(scene, &engine.Options{Headless: &engine.Headless{FPS: fps}, TickInput: script})
	}
	// Output:
	// 24 fps: Space pressed on tick 3
	// 24 fps: Space released on tick 6
	// 144 fps: Space pressed on tick 3
	// 144 fps: Space released on tick 6
}

// fall is a ball that falls and bounces, and jumps on Space: the package
// doc's game.
type fall struct{ y, v float64 }

func (f *fall) Run(loop *engine.Loop) (engine.Scene, error) {
	f.y, f.v = 100, 0
	sched := engine.NewScheduler(donburi.NewWorld(), engine.Group{Name: "physics", Hz: 60})
	sched.AddUpdate(0, "fall", func(w donburi.World, ev engine.Event) {
		if ev.Input.KeyPressed(input.KeySpace) {
			f.v = 200 // decided on a tick, from the tick's input
		}
		f.v -= 400 * ev.DT
		if f.y += f.v * ev.DT; f.y < 0 {
			f.y, f.v = -f.y, -0.8*f.v
		}
	})
	loop.Recording().SetChecksum(func() uint64 { return math.Float64bits(f.y) ^ math.Float64bits(f.v) })
	for ev := range loop.Events(sched.Groups()...) {
		sched.Handle(ev)
	}
	return nil, loop.Err()
}

// A run recorded by a bot that jumps every 1.5 s, headless at 60 frames a
// second, replays at 24 to the same state after every tick: the recording
// holds each tick's input and the state's checksum after it.
func ExampleInputLog() {
	rec := &engine.InputLog{}
	jump := engine.TickInputFunc(func(t engine.TickInfo, in *input.State) {
		in.SetKey(input.KeySpace, t.Tick%90 < 5)
	})
	err := engine.Run(&fall{}, &engine.Options{Record: rec, TickInput: jump, StopAt: 5 * time.Second})
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println("recorded:", rec)
	err = engine.Run(&fall{}, &engine.Options{Replay: rec, Headless: &engine.Headless{FPS: 24}})
	fmt.Println(rec.Replayed().Checked, "checksums matched", err)
	// Output:
	// recorded: 1 scenes, 300 ticks; fall [300] stopped
	// 300 checksums matched <nil>
}
