package engine_test

import (
	"fmt"
	"testing"

	"github.com/fixedstep/fixedstep/engine"
	"github.com/fixedstep/fixedstep/third_party/donburi"
	"github.com/fixedstep/fixedstep/third_party/donburi/filter"
)

type cmdCount struct{ N int }

var cmdCountC = donburi.NewComponentType[cmdCount]()

// A scheduler's commands, queued during a system's query, are applied
// when that system returns, before the next one runs: removals of
// entities still valid, and spawns, in order; a command may queue more.
// Queuing a removal allocates nothing once the queue has grown.
func TestSchedulerAppliesCommandsAfterEachSystem(t *testing.T) {
	w := donburi.NewWorld()
	for i := range 10 {
		e := w.Create(cmdCountC)
		cmdCountC.SetValue(w.Entry(e), cmdCount{N: i})
	}
	q := donburi.NewQuery(filter.Contains(cmdCountC))
	sched := engine.NewScheduler(w)
	cmds := sched.Commands()
	var during, after int
	sched.AddUpdate(0, "cull", func(w donburi.World, ev engine.Event) {
		for e := range q.Iter(w) {
			n := cmdCountC.Get(e).N
			if n%2 == 0 {
				cmds.Remove(e.Entity())
				cmds.Remove(e.Entity()) // twice: the second finds it gone
			}
			if n == 9 {
				cmds.Do(func(w donburi.World) {
					e := w.Create(cmdCountC)
					cmdCountC.SetValue(w.Entry(e), cmdCount{N: 100})
					cmds.Do(func(w donburi.World) { cmdCountC.Get(w.Entry(e)).N++ })
				})
			}
		}
		during = q.Count(w)
	}).AddUpdate(0, "count", func(w donburi.World, ev engine.Event) { after = q.Count(w) })
	sched.Update(engine.Event{Kind: engine.Update, Tick: 1})
	if during != 10 || after != 6 || cmds.Len() != 0 {
		t.Fatalf("entities during the system %d (want 10), after it %d (want 6), %d commands left", during, after, cmds.Len())
	}
	found := false
	for e := range q.Iter(w) {
		found = found || cmdCountC.Get(e).N == 101
	}
	if !found {
		t.Fatal("the spawn, or the command it queued, was not applied")
	}
	gone := w.Create(cmdCountC)
	w.Remove(gone)
	if n := testing.AllocsPerRun(100, func() { cmds.Remove(gone); cmds.Remove(gone); cmds.Apply(w) }); n != 0 {
		t.Errorf("removals queued and applied allocate %v times", n)
	}
}

// A system removes entities from inside its query through the scheduler's
// commands; they are gone when it returns.
func ExampleCommands() {
	w := donburi.NewWorld()
	for i := range 5 {
		e := w.Create(cmdCountC)
		cmdCountC.SetValue(w.Entry(e), cmdCount{N: i})
	}
	q := donburi.NewQuery(filter.Contains(cmdCountC))
	sched := engine.NewScheduler(w)
	cmds := sched.Commands()
	sched.AddUpdate(0, "expire", func(w donburi.World, ev engine.Event) {
		for e := range q.Iter(w) {
			if cmdCountC.Get(e).N < 3 {
				cmds.Remove(e.Entity())
			}
		}
		fmt.Println("in the system:", q.Count(w))
	})
	sched.Update(engine.Event{Kind: engine.Update, Tick: 1})
	fmt.Println("after it:", q.Count(w))
	// Output:
	// in the system: 5
	// after it: 2
}
