package engine_test

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/fixedstep/fixedstep/engine"
	"github.com/fixedstep/fixedstep/engine/input"
	"github.com/fixedstep/fixedstep/third_party/donburi"
	"github.com/fixedstep/fixedstep/third_party/donburi/filter"
)

// The scheduler runs a group's systems in the order added, render systems by
// layer, and counts every call.
func TestSchedulerOrderAndStats(t *testing.T) {
	w := donburi.NewWorld()
	s := engine.NewScheduler(w, engine.Group{Name: "physics", Hz: 60}, engine.Group{Name: "ai", Hz: 10})
	var calls []string
	sys := func(name string) engine.System {
		return func(world donburi.World, ev engine.Event) {
			if world != w {
				t.Fatalf("%s got another world", name)
			}
			calls = append(calls, name)
		}
	}
	physics, ai := s.Group("physics"), s.Group("ai")
	s.AddUpdate(physics, "move", sys("move")).AddUpdate(ai, "think", sys("think")).AddUpdate(physics, "collide", sys("collide"))
	s.AddRender(2, "hud", sys("hud")).AddRender(0, "background", sys("background")).AddRender(1, "sprites", sys("sprites")).
		AddRender(0, "tiles", sys("tiles"))

	s.Handle(engine.Event{Kind: engine.Input})
	s.Handle(engine.Event{Kind: engine.Update, Group: physics})
	s.Handle(engine.Event{Kind: engine.Update, Group: ai})
	s.Handle(engine.Event{Kind: engine.Update, Group: physics})
	s.Handle(engine.Event{Kind: engine.Render})
	s.Update(engine.Event{Kind: engine.Render}) // ignored: not an update
	want := "move,collide,think,move,collide,background,tiles,sprites,hud"
	if got := strings.Join(calls, ","); got != want {
		t.Fatalf("calls %s, want %s", got, want)
	}
	counts := map[string]int64{}
	for _, st := range s.Stats() {
		counts[st.Name] = st.Count
		if st.Count > 0 && (st.Max < st.Last || st.Mean() > st.Max || st.Total < st.Max) {
			t.Fatalf("%s: inconsistent stats %+v", st.Name, st)
		}
	}
	if counts["move"] != 2 || counts["think"] != 1 || counts["hud"] != 1 {
		t.Fatalf("counts %v", counts)
	}
	s.ResetStats()
	if s.Stats()[0].Count != 0 {
		t.Fatal("ResetStats left counts")
	}
	defer func() {
		if recover() == nil {
			t.Fatal("Group of an unknown name did not panic")
		}
	}()
	s.Group("render")
}

type position struct{ X, Y, VX, VY float64 }

var positionC = donburi.NewComponentType[position]()

// tenSystems builds a scheduler with ten systems: four in a 60 Hz group (one
// moves 100 entities through a donburi query), three in a 30 Hz group and
// three render systems. work tells them to do something or nothing.
func tenSystems(work bool) *engine.Scheduler {
	w := donburi.NewWorld()
	for i := range 100 {
		e := w.Entry(w.Create(positionC))
		positionC.SetValue(e, position{VX: float64(i), VY: 1})
	}
	query := donburi.NewQuery(filter.Contains(positionC)) // made once
	s := engine.NewScheduler(w, engine.Group{Name: "physics", Hz: 60}, engine.Group{Name: "ai", Hz: 30})
	var sink float64
	move := func(w donburi.World, ev engine.Event) {
		if !work {
			return
		}
		for e := range query.Iter(w) {
			p := positionC.Get(e)
			p.X += p.VX * ev.DT
			p.Y += p.VY * ev.DT
		}
	}
	noop := func(w donburi.World, ev engine.Event) {
		if work && ev.Input != nil && ev.Input.KeyDown(input.KeySpace) {
			sink += ev.DT
		}
	}
	draw := func(w donburi.World, ev engine.Event) {
		if work {
			sink += ev.Alpha
		}
	}
	s.AddUpdate(0, "move", move)
	for i := range 3 {
		s.AddUpdate(0, fmt.Sprint("p", i), noop)
		s.AddUpdate(1, fmt.Sprint("ai", i), noop)
		s.AddRender(i, fmt.Sprint("draw", i), draw)
	}
	return s
}

// A full frame (input, several ticks of two groups, render) through the loop
// and ten systems allocates nothing.
func TestFrameAllocatesNothing(t *testing.T) {
	s := tenSystems(true)
	h := engine.Headless{FPS: 20} // three 60 Hz ticks and one or two 30 Hz ticks per frame
	input := engine.InputFunc(func(frame int64, in *input.State) {
		in.SetKey(input.KeySpace, frame%3 == 0)
		in.CursorX = float64(frame)
	})
	loop, err := engine.NewHeadlessLoop(engine.Config{}, &h, &engine.Options{Input: input})
	if err != nil {
		t.Fatal(err)
	}
	if err := loop.Start(s.Groups()...); err != nil {
		t.Fatal(err)
	}
	frame := func() {
		for loop.Next() {
			ev := loop.Event()
			s.Handle(ev)
			if ev.Kind == engine.Render {
				return
			}
		}
		t.Fatal("loop stopped")
	}
	frame() // warm up: the first frame runs no tick
	if allocs := testing.AllocsPerRun(200, frame); allocs != 0 {
		t.Fatalf("a frame allocates %v times", allocs)
	}
	if n := loop.Ticks(0); n < 600 {
		t.Fatalf("only %d ticks ran", n)
	}
}

// The Options' hooks are lists, each called in its order: two hooks of
// each kind see every event, and calling them allocates nothing.
func TestHooksRunInOrderAndAllocateNothing(t *testing.T) {
	s := tenSystems(true)
	var seen [2]int64        // events each OnEvent hook saw
	var ticked, drawn []byte // the hooks of tick 1 and of frame 2, in the order they ran
	tick := func(b byte) engine.EventHook {
		return func(_ *engine.Loop, ev engine.Event) {
			switch {
			case ev.Kind == engine.Update && ev.Group == 0 && ev.Tick == 1:
				ticked = append(ticked, b)
			case ev.Kind == engine.Render && ev.Frame == 2:
				drawn = append(drawn, b)
			}
		}
	}
	opts := &engine.Options{
		OnEvent: []engine.EventHook{
			func(*engine.Loop, engine.Event) { seen[0]++ },
			func(*engine.Loop, engine.Event) { seen[1]++ },
		},
		AfterUpdate: []engine.EventHook{tick('u'), tick('U')},
		AfterFrame:  []engine.EventHook{tick('f'), tick('F')},
	}
	loop, err := engine.NewHeadlessLoop(engine.Config{}, &engine.Headless{FPS: 20}, opts)
	if err != nil {
		t.Fatal(err)
	}
	if err := loop.Start(s.Groups()...); err != nil {
		t.Fatal(err)
	}
	frame := func() {
		for loop.Next() {
			ev := loop.Event()
			s.Handle(ev)
			if ev.Kind == engine.Render {
				return
			}
		}
		t.Fatal("loop stopped")
	}
	frame()
	frame()
	frame()
	if allocs := testing.AllocsPerRun(200, frame); allocs != 0 {
		t.Fatalf("a frame with two hooks of each kind allocates %v times", allocs)
	}
	if seen[0] == 0 || seen[0] != seen[1] || string(ticked) != "uU" || string(drawn) != "fF" {
		t.Fatalf("the OnEvent hooks saw %v events; after tick 1 the hooks ran as %q (want \"uU\"), after frame 2 as %q (want \"fF\")",
			seen, ticked, drawn)
	}
}

// A recorded frame with a state checksum every tick allocates nothing but
// the growth of the recording's slices (given room here): keeping the run
// checksum, every tick's checksum chained, allocates nothing, and neither
// does reading it.
func TestRecordedFrameAllocatesNothing(t *testing.T) {
	s := tenSystems(true)
	var sum uint64
	s.AddUpdate(0, "sum", func(w donburi.World, ev engine.Event) { sum = sum*31 + uint64(ev.Tick) })
	h := engine.Headless{FPS: 20}
	in := engine.InputFunc(func(frame int64, in *input.State) {
		in.SetKey(input.KeySpace, frame%3 == 0)
		in.CursorX = float64(frame)
	})
	rec := &engine.InputLog{}
	loop, err := engine.NewHeadlessLoop(engine.Config{}, &h, &engine.Options{Input: in, Record: rec})
	if err != nil {
		t.Fatal(err)
	}
	loop.Recording().SetChecksum(func() uint64 { return sum })
	if err := loop.Start(s.Groups()...); err != nil {
		t.Fatal(err)
	}
	frame := func() {
		for loop.Next() {
			ev := loop.Event()
			s.Handle(ev)
			if ev.Kind == engine.Render {
				return
			}
		}
		t.Fatal("loop stopped")
	}
	frame()
	frame()
	engine.GrowRecording(rec, 1<<14)
	var run uint64
	frames := func() { // every allocation counts: not averaged away over frames
		for range 100 {
			frame()
			run, _ = rec.RunChecksum()
		}
	}
	if allocs := testing.AllocsPerRun(1, frames); allocs != 0 {
		t.Fatalf("100 recorded frames allocate %v times", allocs)
	}
	if n := rec.Scene(0).Checks; n < 600 || run == 0 {
		t.Fatalf("only %d checksums recorded (run checksum %x)", n, run)
	}
}

// With timing off the scheduler still calls and counts every system, and
// leaves the durations alone.
func TestSchedulerUntimed(t *testing.T) {
	s := engine.NewScheduler(donburi.NewWorld())
	calls := 0
	s.AddUpdate(0, "count", func(donburi.World, engine.Event) { calls++ })
	s.SetTiming(false)
	for range 5 {
		s.Update(engine.Event{Kind: engine.Update})
	}
	if st := s.Stats()[0]; calls != 5 || st.Count != 5 || st.Total != 0 || st.Max != 0 {
		t.Fatalf("calls %d, stats %+v", calls, st)
	}
	s.SetTiming(true)
	s.SetTimingEvery(1)
	s.Update(engine.Event{Kind: engine.Update})
	if st := s.Stats()[0]; st.Count != 6 || st.Timed != 1 || st.Last <= 0 {
		t.Fatalf("timing back on: %+v", st)
	}
}

// Timing samples one run in DefaultTimingEvery, at random: every call is
// counted, about one in sixteen timed, and the mean is the timed calls'.
func TestSchedulerSamplesTiming(t *testing.T) {
	s := engine.NewScheduler(donburi.NewWorld())
	s.AddUpdate(0, "a", func(donburi.World, engine.Event) {}).AddUpdate(0, "b", func(donburi.World, engine.Event) {})
	const runs = 8000
	for range runs {
		s.Update(engine.Event{Kind: engine.Update})
	}
	a, b := s.Stats()[0], s.Stats()[1]
	want := runs / engine.DefaultTimingEvery
	if a.Count != runs || b.Count != runs || a.Timed != b.Timed || a.Timed < int64(want)*8/10 || a.Timed > int64(want)*12/10 ||
		a.Mean() != a.Total/time.Duration(a.Timed) {
		t.Fatalf("%d runs: %d and %d calls counted, %d and %d timed (want about %d)", runs, a.Count, b.Count, a.Timed, b.Timed, want)
	}
}
