package events_test

import (
	"testing"

	"github.com/fixedstep/fixedstep/third_party/donburi"
	"github.com/fixedstep/fixedstep/third_party/donburi/features/events"
)

type ping struct{ N int }

var pings = events.NewEventType[ping]()

// A world snapshot keeps an event bus whole (it is stored in a slot of the
// event's type, but saved as the bus it is): events queued at the
// snapshot are queued again after a restore, and processing delivers them
// to the same subscribers.
func TestSnapshotKeepsTheEventBus(t *testing.T) {
	w := donburi.NewWorld()
	var got []int
	pings.Subscribe(w, func(_ donburi.World, p ping) { got = append(got, p.N) })
	pings.Publish(w, ping{1})
	pings.Publish(w, ping{2})
	var snap donburi.Snapshot
	if err := donburi.SnapshotWorld(w, &snap); err != nil {
		t.Fatal(err)
	}
	pings.ProcessEvents(w)
	pings.Publish(w, ping{3})
	pings.ProcessEvents(w)
	if err := donburi.RestoreWorld(w, &snap); err != nil {
		t.Fatal(err)
	}
	got = got[:0]
	pings.ProcessEvents(w)
	if len(got) != 2 || got[0] != 1 || got[1] != 2 {
		t.Fatalf("after the restore, processing delivered %v, want [1 2]", got)
	}
	if n := testing.AllocsPerRun(20, func() {
		pings.Publish(w, ping{4})
		pings.ProcessEvents(w)
	}); n != 0 {
		t.Fatalf("a warm bus allocates %v times a publish and process", n)
	}
}
