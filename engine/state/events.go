package state

import (
	"reflect"
	"sync"
	"unsafe"

	"github.com/fixedstep/fixedstep/third_party/donburi"
	"github.com/fixedstep/fixedstep/third_party/donburi/features/events"
)

// donburi's events (features/events) keep each event type's bus in the
// world: an entity with two components, the package's own eventTypeData
// and a component declared as the event type T that in fact holds an
// eventBusData[T] (its subscribers, then its queue of unprocessed
// events). Read as a T, that component is the bus's memory taken for an
// event: the address of its subscriber list, different in every process.
// So the hasher reads a bus as what it is: the queue of events not yet
// processed, a []T after the subscriber list, named Queue. The layout is
// donburi v1.15.8's, checked once against a real bus; if the check fails
// (another donburi), buses are left out of the hash and the dump.

// eventBusLayout is the start of donburi's eventBusData[T].
type eventBusLayout struct {
	subscribers []func()
	queue       []byte
}

const eventQueueOffset = unsafe.Offsetof(eventBusLayout{}.queue)

// eventTypeName is how the events package's own component type is named.
const eventTypePkg, eventTypeName = "github.com/fixedstep/fixedstep/third_party/donburi/features/events", "eventTypeData"

func isEventTypeData(t reflect.Type) bool {
	return t.Name() == eventTypeName && t.PkgPath() == eventTypePkg
}

type eventProbe struct{ X, Y int64 }

var (
	probeEvents = events.NewEventType[eventProbe]()

	eventLayoutOnce sync.Once
	eventLayoutOK   bool
)

// eventQueueReadable reports whether buses have the layout read here: it
// publishes two events on a bus of its own and reads them back.
func eventQueueReadable() bool {
	eventLayoutOnce.Do(func() {
		w := donburi.NewWorld()
		probeEvents.Publish(w, eventProbe{1, 2})
		probeEvents.Publish(w, eventProbe{3, 4})
		for _, a := range w.Archetypes() {
			cts := a.ComponentTypes()
			if len(cts) != 2 || len(a.Entities()) != 1 {
				continue
			}
			for _, ct := range cts {
				if ct.Typ() != reflect.TypeFor[eventProbe]() {
					continue
				}
				p := w.Entry(a.Entities()[0]).Component(ct)
				subs := (*eventBusLayout)(p).subscribers
				q := *(*[]eventProbe)(unsafe.Add(p, eventQueueOffset))
				eventLayoutOK = len(subs) == 0 && len(q) == 2 && q[0] == eventProbe{1, 2} && q[1] == eventProbe{3, 4}
			}
		}
	})
	return eventLayoutOK
}

// markEventBus makes cs, found beside the events package's component on an
// entity, read as an event bus: its queue, or nothing.
func (h *Hasher) markEventBus(cs *compState) {
	if cs.bus {
		return
	}
	cs.bus = true
	if !eventQueueReadable() {
		cs.skip = true
		return
	}
	queue := reflect.StructOf([]reflect.StructField{{Name: "Queue", Type: reflect.SliceOf(cs.ct.Typ())}})
	cs.plan, cs.off = h.w.planFor(queue), eventQueueOffset
}

// findEventBus marks the event bus among an entity's component types, if
// the entity is one (it has the events package's component, and one other).
func (h *Hasher) findEventBus(cts []donburi.IComponentType) {
	if len(cts) != 2 {
		return
	}
	a, b := h.state(cts[0]), h.state(cts[1])
	switch {
	case a.eventType && !b.bus:
		h.markEventBus(b)
	case b.eventType && !a.bus:
		h.markEventBus(a)
	}
}
