package events

import (
	"fmt"
	"reflect"
	"slices"
	"sync"
	"unsafe"

	"github.com/fixedstep/fixedstep/third_party/donburi"
	"github.com/fixedstep/fixedstep/third_party/donburi/component"
	"github.com/fixedstep/fixedstep/third_party/donburi/filter"
)

// Debug enables debug logging.
var Debug = false

// Event represents kind of event.
// It is used to subscribe and publish events.
type (
	EventType[T any] struct {
		eventName     string
		eventBus      *donburi.ComponentType[T]
		eventBusQuery *donburi.Query
	}

	// Subscriber is a function that handles an event.
	Subscriber[T any] func(w donburi.World, event T)
)

type (
	eventBusData[T any] struct {
		subscribers []Subscriber[T]
		queue       []T
		spare       []T // the queue's other buffer: processing swaps them, so that a warm bus allocates nothing
	}
	eventTypeData struct {
		eventName string
		process   func(w donburi.World)
		// subscribers copies the bus's subscribers in a world, for
		// SubscribersOf.
		subscribers func(w donburi.World) busSubscribers
	}
)

var (
	eventType  = donburi.NewComponentType[eventTypeData]()
	eventQuery = donburi.NewQuery(filter.Contains(eventType))
)

// ProcessAllEvents processes all events.
func ProcessAllEvents(w donburi.World) {
	eventQuery.Each(w, func(e *donburi.Entry) {
		eventType := getEventType(e)
		// nil in a world that donburi.BuildWorld made (a function is no
		// state a layout can hold) until its event type is used there.
		if eventType.process != nil {
			eventType.process(w)
		}
	})
}

// NewEventType creates a new event type.
func NewEventType[T any]() *EventType[T] {
	eventBus := donburi.NewComponentType[T]()
	donburi.SetValueStore(eventBus, func() component.ValueStore { return &busStore[T]{} }) // its slot holds the bus
	donburi.SetNew(eventBus, func() unsafe.Pointer { return unsafe.Pointer(newEventBusData[T]()) })
	var t T
	e := &EventType[T]{
		eventName:     reflect.TypeOf(t).Name(),
		eventBus:      eventBus,
		eventBusQuery: donburi.NewQuery(filter.Contains(eventBus)),
	}
	buses.Store(donburi.IComponentType(eventBus), struct{}{})
	return e
}

// buses is every component type that holds an event type's bus.
var buses sync.Map

// IsBus reports whether ct is the component type in which an event type
// made by NewEventType keeps its bus (its slots hold the bus, not a value
// of ct's Go type): what writes a world as bytes reads such a slot as the
// bus's queue of events.
func IsBus(ct donburi.IComponentType) bool {
	_, ok := buses.Load(ct)
	return ok
}

// Subscribers are the subscribers of a world's event buses, taken by
// SubscribersOf, to be given to the same buses of a world made again
// (donburi.ClearWorld and donburi.BuildWorld): a subscriber is a function,
// which no bytes hold, so a world built from bytes has its buses and their
// queued events but none of them.
type Subscribers []busSubscribers

// busSubscribers are one bus's subscribers, for the bus of the same event
// type in another world.
type busSubscribers interface {
	check(to donburi.World) error
	give(to donburi.World)
}

// SubscribersOf takes a copy of the subscribers of every bus of w whose
// event type was used in this process (a bus built from bytes and not used
// since has none to take).
func SubscribersOf(w donburi.World) Subscribers {
	var s Subscribers
	eventQuery.Each(w, func(e *donburi.Entry) {
		if t := getEventType(e); t.subscribers != nil {
			s = append(s, t.subscribers(w))
		}
	})
	return s
}

// Give gives each bus of w the subscribers its event type's bus had where
// s was taken, replacing w's own. A bus s has subscribers for and w has not
// is an error that names its event type, and w is left as it was.
func (s Subscribers) Give(w donburi.World) error {
	for _, b := range s {
		if err := b.check(w); err != nil {
			return err
		}
	}
	for _, b := range s {
		b.give(w)
	}
	return nil
}

// SetName names the event type: the name of the component type that holds
// its bus in a world (its Go type's name unless set), by which the engine's
// state checksum and dump name that component. Two event types of one Go
// type need two names. Call it before the event type is used.
func (e *EventType[T]) SetName(name string) *EventType[T] {
	e.eventName = name
	e.eventBus.SetName(name)
	return e
}

// Subscribe registers a subscriber for the event.
func (e *EventType[T]) Subscribe(w donburi.World, subscriber Subscriber[T]) {
	eventBus := e.mustFindEventBus(w)
	eventBus.subscribers = append(eventBus.subscribers, subscriber)
}

// Find the index of a subscriber
func (e *EventType[T]) findSubscriber(w donburi.World, subscriber Subscriber[T]) (int, bool) {
	if e.eventBusQuery.Count(w) != 0 {
		eventBus := e.mustFindEventBus(w)
		for i, s := range eventBus.subscribers {
			if reflect.ValueOf(s).Pointer() == reflect.ValueOf(subscriber).Pointer() {
				return i, true
			}
		}
	}
	return 0, false
}

// Unsubscribe removes a subscriber for the event.
func (e *EventType[T]) Unsubscribe(w donburi.World, subscriber Subscriber[T]) {
	index, found := e.findSubscriber(w, subscriber)
	if found {
		eventBus := e.mustFindEventBus(w)
		eventBus.subscribers[index] = eventBus.subscribers[len(eventBus.subscribers)-1]
		eventBus.subscribers = eventBus.subscribers[:len(eventBus.subscribers)-1]
	}
}

// Publish publishes an event.
func (e *EventType[T]) Publish(w donburi.World, event T) {
	eventBus := e.mustFindEventBus(w)
	if Debug {
		fmt.Printf("Publishing %T\n", event)
	}
	eventBus.queue = append(eventBus.queue, event)
}

// ProcessEvents processes events.
func (e *EventType[T]) ProcessEvents(w donburi.World) {
	eventBus := e.mustFindEventBus(w)
	// The outer loop is needed, because events can trigger more events.
	for len(eventBus.queue) > 0 {
		queue := eventBus.queue
		eventBus.queue = eventBus.spare[:0] // events published while these are processed
		for _, event := range queue {
			for _, s := range eventBus.subscribers {
				if Debug {
					fmt.Printf("%T -> %T\n", event, s)
				}

				s(w, event)
			}
		}
		clear(queue)
		eventBus.spare = queue[:0]
	}
}

func (e *EventType[T]) mustFindEventBus(w donburi.World) *eventBusData[T] {
	eventBus, ok := e.eventBusQuery.First(w)
	if !ok {
		eventBus = w.Entry(w.Create(e.eventBus, eventType)) // its bus made by the type's New
	}
	// Set on a new bus, and on one of a world that donburi.BuildWorld
	// made, which has its bus and its queue but no function.
	if t := getEventType(eventBus); t.process == nil {
		*t = eventTypeData{
			eventName: e.eventName,
			process: func(w donburi.World) {
				e.ProcessEvents(w)
			},
			subscribers: e.takeSubscribers,
		}
	}
	return donburi.Get[eventBusData[T]](eventBus, e.eventBus)
}

// takeSubscribers copies the subscribers of e's bus in w.
func (e *EventType[T]) takeSubscribers(w donburi.World) busSubscribers {
	return &subscribersOf[T]{e: e, subs: slices.Clone(e.mustFindEventBus(w).subscribers)}
}

type subscribersOf[T any] struct {
	e    *EventType[T]
	subs []Subscriber[T]
}

func (s *subscribersOf[T]) check(to donburi.World) error {
	if s.e.eventBusQuery.Count(to) == 0 {
		return fmt.Errorf("events: the world has no bus of event %s to give its %d subscribers to", s.e.eventName, len(s.subs))
	}
	return nil
}

func (s *subscribersOf[T]) give(to donburi.World) {
	s.e.mustFindEventBus(to).subscribers = slices.Clone(s.subs)
}

func getEventType(e *donburi.Entry) *eventTypeData {
	return donburi.Get[eventTypeData](e, eventType)
}

func newEventBusData[T any]() *eventBusData[T] {
	return &eventBusData[T]{}
}

// busStore saves event buses for world snapshots: each bus's value and the
// events queued in it (processing reuses the queue's memory, so the
// snapshot keeps its own copy of them).
type busStore[T any] struct {
	buses  []*eventBusData[T]
	values []eventBusData[T]
	queued []T
}

func (s *busStore[T]) Add(p unsafe.Pointer) {
	b := (*eventBusData[T])(p)
	s.buses = append(s.buses, b)
	s.values = append(s.values, *b)
	s.queued = append(s.queued, b.queue...)
}

func (s *busStore[T]) Restore() {
	off := 0
	for i, b := range s.buses {
		*b = s.values[i]
		off += copy(b.queue, s.queued[off:off+len(b.queue)])
	}
}

func (s *busStore[T]) Reset() {
	clear(s.buses)
	clear(s.values)
	clear(s.queued)
	s.buses, s.values, s.queued = s.buses[:0], s.values[:0], s.queued[:0]
}

func (s *busStore[T]) Bytes() int {
	var t T
	return len(s.buses)*int(unsafe.Sizeof(eventBusData[T]{})+8) + len(s.queued)*int(unsafe.Sizeof(t))
}
