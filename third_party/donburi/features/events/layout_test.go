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

// Subscribers taken of a world are given to a world built of its layout:
// the events queued in it reach them; a world with no bus of their event
// type is refused, and left as it was.
func TestSubscribersGivenToABuiltWorld(t *testing.T) {
	w := donburi.NewWorld()
	var got []int
	ticks.Subscribe(w, func(_ donburi.World, e tick) { got = append(got, e.N) })
	ticks.Publish(w, tick{7})
	if !IsBus(ticks.eventBus) || IsBus(eventType) {
		t.Fatal("IsBus does not tell the bus's component type")
	}
	subs := SubscribersOf(w)
	if len(subs) != 1 {
		t.Fatalf("%d buses' subscribers", len(subs))
	}
	empty := donburi.NewWorld()
	if err := subs.Give(empty); err == nil {
		t.Fatal("subscribers given to a world with no bus")
	}
	l, err := donburi.LayoutOf(w)
	if err != nil {
		t.Fatal(err)
	}
	built := donburi.NewWorld()
	if err := donburi.BuildWorld(built, l); err != nil {
		t.Fatal(err)
	}
	if len(SubscribersOf(built)) != 0 {
		t.Fatal("a built world's unused bus has subscribers to take")
	}
	for i, a := range l.Archetypes {
		if slices.Contains(a.Types, donburi.IComponentType(ticks.eventBus)) {
			to := (*eventBusData[tick])(donburi.Values(built, i, ticks.eventBus)[0])
			to.queue = append(to.queue, (*eventBusData[tick])(donburi.Values(w, i, ticks.eventBus)[0]).queue...)
		}
	}
	if err := subs.Give(built); err != nil {
		t.Fatal(err)
	}
	ProcessAllEvents(built)
	if !slices.Equal(got, []int{7}) {
		t.Fatalf("the built world delivered %v to the subscribers given, want [7]", got)
	}
}
