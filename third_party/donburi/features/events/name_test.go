package events_test

import (
	"testing"

	"github.com/fixedstep/fixedstep/third_party/donburi"
	"github.com/fixedstep/fixedstep/third_party/donburi/features/events"
)

// Two event types of one Go type, named apart: each bus is a component
// type of its own name, and each delivers its own events.
func TestEventTypeSetName(t *testing.T) {
	begin := events.NewEventType[ping]().SetName("PingBegin")
	end := events.NewEventType[ping]().SetName("PingEnd")
	w := donburi.NewWorld()
	var got []string
	begin.Subscribe(w, func(_ donburi.World, p ping) { got = append(got, "begin") })
	end.Subscribe(w, func(_ donburi.World, p ping) { got = append(got, "end") })
	begin.Publish(w, ping{1})
	end.Publish(w, ping{2})
	names := map[string]bool{}
	for _, a := range w.Archetypes() {
		for _, ct := range a.ComponentTypes() {
			names[ct.Name()] = true
		}
	}
	if !names["PingBegin"] || !names["PingEnd"] || names["ping"] {
		t.Errorf("the buses' component types are named %v, want PingBegin and PingEnd", names)
	}
	events.ProcessAllEvents(w)
	if len(got) != 2 {
		t.Errorf("delivered %v, want one event on each", got)
	}
}
