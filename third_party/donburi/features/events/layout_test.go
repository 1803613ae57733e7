package events

import (
	"slices"
	"testing"

	"github.com/fixedstep/fixedstep/third_party/donburi"
)

type tick struct{ N int }

var ticks = NewEventType[tick]()

// A world that donburi.BuildWorld makes of a world with an event bus has a
// bus in the bus's slot (an empty one, made by the type's New: a slot of
// the event's type read as a bus would be read past its end; the race
// detector's pointer checks fail the conversion below if it is not), into
// which the events queued in the other world are copied through
// donburi.Values. The subscribers and the event type's process function
// are functions, no state a layout holds: the built world processes
// nothing until the event type is used in it (its process function is
// set then), and delivers the copied events to the subscribers it is
// given.
func TestBuildWorldMakesAnEventBus(t *testing.T) {
	w := donburi.NewWorld()
	var got []int
	ticks.Subscribe(w, func(_ donburi.World, e tick) { got = append(got, e.N) })
	ticks.Publish(w, tick{1})
	ticks.Publish(w, tick{2})
	l, err := donburi.LayoutOf(w)
	if err != nil {
		t.Fatal(err)
	}
	built := donburi.NewWorld()
	if err := donburi.BuildWorld(built, l); err != nil {
		t.Fatal(err)
	}
	buses := 0
	for i, a := range l.Archetypes {
		if !slices.Contains(a.Types, donburi.IComponentType(ticks.eventBus)) {
			continue
		}
		from, to := donburi.Values(w, i, ticks.eventBus), donburi.Values(built, i, ticks.eventBus)
		for j := range to {
			bus := (*eventBusData[tick])(to[j])
			if bus.subscribers != nil || bus.queue != nil {
				t.Fatalf("the built bus: %+v", *bus)
			}
			bus.queue = append(bus.queue, (*eventBusData[tick])(from[j]).queue...)
			buses++
		}
	}
	if buses != 1 {
		t.Fatalf("%d buses", buses)
	}
	ProcessAllEvents(built) // the event type not used in it yet: nothing processed
	var gotBuilt []int
	ticks.Subscribe(built, func(_ donburi.World, e tick) { gotBuilt = append(gotBuilt, e.N) })
	ProcessAllEvents(built)
	ticks.Publish(built, tick{3})
	ProcessAllEvents(built)
	ProcessAllEvents(w)
	if !slices.Equal(gotBuilt, []int{1, 2, 3}) || !slices.Equal(got, []int{1, 2}) {
		t.Fatalf("the built world delivered %v, want [1 2 3]; the first %v, want [1 2]", gotBuilt, got)
	}
}
