package donburi

import (
	"errors"
	"fmt"
	"math"
	"math/bits"
	"reflect"
	"slices"
	"unsafe"

	"github.com/fixedstep/fixedstep/third_party/donburi/component"
	"github.com/fixedstep/fixedstep/third_party/donburi/internal/storage"
)

// A WorldLayout is a world's state but its component values, as plain
// data: what LayoutOf reads of a world and BuildWorld makes a fresh world
// into, so that the state can be written as bytes and read in another
// process (the values are written and read through Values). Every field is
// something the world's later behaviour depends on: two worlds of one
// layout and the same values do the same with the same calls.
type WorldLayout struct {
	// Archetypes are the world's archetypes in its order (the order they
	// were made in): the order queries visit them.
	Archetypes []ArchetypeLayout
	// Destroyed are the ids freed for reuse, each as the entity it will
	// be made again as (its version is the next), in the world's order:
	// the last is reused first.
	Destroyed []Entity
	// DestroyedAt is, for each of Destroyed, where its entity was when
	// it was removed: the world keeps that place, and an Entry of the
	// removed entity still reads it (its Archetype, HasComponent, and
	// Component at that index, which may be another entity's by then).
	DestroyedAt []Place
	// NextId is the id the world gives the next entity when none is free
	// for reuse. Every id from 1 to NextId-1 is live or freed: NextId is
	// one more than the entities and the freed ids.
	NextId uint32
}

// An ArchetypeLayout is one archetype of a WorldLayout.
type ArchetypeLayout struct {
	// Types are its component types, in its layout's order (the order of
	// the components an entry's GetComponents returns).
	Types []component.IComponentType
	// Entities are its entities, in storage order: the order queries
	// visit them, and each one's index in the columns of Values.
	Entities []Entity
	// Capacity is the capacity of its slice of entities (256 at least),
	// and ValuesCapacity that of each of its columns of values (0 if it
	// has never held an entity). A query hands out those slices: a loop
	// that removes or creates entities while it holds one sees removals
	// made in place in the slice it holds, and not those made after an
	// append moved the slice, which the capacity decides. The world's
	// other slices are not handed out, and their capacity is not kept.
	Capacity, ValuesCapacity int
}

// A Place is a place in the world's storage: an archetype (an index into
// WorldLayout.Archetypes) and an index among its entities.
type Place struct {
	Archetype, Index int
}

// Bytes returns about how many bytes BuildWorld allocates for l: an entry
// and a location per id, each archetype's slices of entities and of value
// pointers at their capacities, and a value of each type per entity (for
// a type given SetNew, its value's size is taken as its type's). A layout
// from untrusted bytes may claim, for each archetype, capacities up to
// about twice NextId that it does not fill: a caller that must bound the
// memory a layout costs compares Bytes with its budget before BuildWorld.
// Bytes does not check l, and saturates rather than overflowing.
func (l *WorldLayout) Bytes() uint64 {
	const word = uint64(unsafe.Sizeof(uintptr(0)))
	const perArchetype = uint64(unsafe.Sizeof(storage.Archetype{}) + unsafe.Sizeof(storage.Layout{}) + 4*unsafe.Sizeof([]int{}))
	n := mulSat(uint64(l.NextId), 2*word+uint64(unsafe.Sizeof(storage.Location{})+unsafe.Sizeof(Entry{})))
	types := map[component.ComponentTypeId]bool{}
	for _, a := range l.Archetypes {
		values := uint64(0)
		for _, ct := range a.Types {
			if !isNil(ct) {
				values += uint64(ct.Typ().Size())
				types[ct.Id()] = true
			}
		}
		n = addSat(n, perArchetype+2*word*uint64(len(a.Types))) // its layout's types, and the index's
		// Its entities, at 8 bytes each on a 32-bit CPU too.
		n = addSat(n, mulSat(uint64(max(a.Capacity, 0)), uint64(unsafe.Sizeof(Entity(0)))))
		n = addSat(n, mulSat(mulSat(uint64(max(a.ValuesCapacity, 0)), uint64(len(a.Types))), word))
		n = addSat(n, mulSat(uint64(len(a.Entities)), values))
	}
	// Each type's storage has a column per archetype, to the last.
	columns := uint64(storage.StorageLength(storage.ArchetypeIndex(max(len(l.Archetypes)-1, 0))))
	return addSat(n, mulSat(uint64(len(types)), mulSat(columns, uint64(unsafe.Sizeof([]int{})))))
}

func addSat(a, b uint64) uint64 {
	sum, carry := bits.Add64(a, b, 0)
	if carry != 0 {
		return math.MaxUint64
	}
	return sum
}

func mulSat(a, b uint64) uint64 {
	hi, lo := bits.Mul64(a, b)
	if hi != 0 {
		return math.MaxUint64
	}
	return lo
}

// LayoutOf returns w's layout (copied: the caller may keep it). It fails
// for a World of another implementation, and for a world that does not
// hold together (its storage disagrees with itself: a bug).
func LayoutOf(w World) (WorldLayout, error) {
	ww, ok := w.(*world)
	if !ok {
		return WorldLayout{}, errors.New("donburi: LayoutOf: a World of another implementation")
	}
	l := WorldLayout{
		Archetypes:  make([]ArchetypeLayout, len(ww.archetypes)),
		Destroyed:   slices.Clone(ww.destroyed),
		DestroyedAt: make([]Place, len(ww.destroyed)),
		NextId:      uint32(ww.nextEntityId),
	}
	if err := ww.readLayout(&l); err != nil {
		return WorldLayout{}, fmt.Errorf("donburi: LayoutOf: the world does not hold together: %w", err)
	}
	return l, nil
}

// readLayout fills l's archetypes and places from w, checking that w's
// storage agrees with itself and that l is a layout BuildWorld takes.
func (w *world) readLayout(l *WorldLayout) error {
	locs := w.entities.LocationMap
	for i, a := range w.archetypes {
		al := ArchetypeLayout{Types: slices.Clone(a.ComponentTypes()), Entities: slices.Clone(a.Entities()), Capacity: a.Capacity()}
		for k, ct := range al.Types {
			col := w.components.Column(ct, storage.ArchetypeIndex(i))
			if k == 0 {
				al.ValuesCapacity = cap(col)
			}
			if len(col) != len(al.Entities) || cap(col) != al.ValuesCapacity {
				return fmt.Errorf("archetype %d: %d entities, but %d values of %s in a column of capacity %d (%d for %s)",
					i, len(al.Entities), len(col), ct.Name(), cap(col), al.ValuesCapacity, al.Types[0].Name())
			}
		}
		for j, e := range al.Entities {
			if int(e.Id()) >= len(locs) || locs[e.Id()] == nil || *locs[e.Id()] != (storage.Location{Archetype: storage.ArchetypeIndex(i), Component: storage.ComponentIndex(j), Valid: true}) {
				return fmt.Errorf("%v is entity %d of archetype %d, but not located there", e, j, i)
			}
		}
		l.Archetypes[i] = al
	}
	for k, e := range l.Destroyed {
		if int(e.Id()) >= len(locs) || locs[e.Id()] == nil {
			return fmt.Errorf("id %d is freed, but has no location", e.Id())
		}
		l.DestroyedAt[k] = Place{int(locs[e.Id()].Archetype), int(locs[e.Id()].Component)}
	}
	return l.check()
}

// Values returns the pointers to the values of component type ct held by
// archetype a (an index into the layout's Archetypes), one per entity, in
// the archetype's order: the storage's own pointers, through which the
// caller reads or writes the values (it should not keep them past a change
// of the world). They point to values of ct.Typ(), but for a type given
// SetNew: an event type's slots hold its bus (features/events). Values
// returns nil if a is not an archetype of w or does not have ct.
func Values(w World, a int, ct component.IComponentType) []unsafe.Pointer {
	ww, ok := w.(*world)
	if !ok || a < 0 || a >= len(ww.archetypes) || !ww.archetypes[a].Layout().HasComponent(ct) {
		return nil
	}
	col := ww.components.Column(ct, storage.ArchetypeIndex(a))
	return col[:len(col):len(col)]
}

// BuildWorld makes w, a world with no entities or archetypes made in it
// yet (fresh from NewWorld), into one of layout l: the same archetypes in
// the same order (empty ones too), each entity with its id and version in
// its archetype at its place, the same ids freed for reuse with their
// places, the same next id, the same capacities. Each component value is
// what its type's New makes, until the caller writes it through Values:
// the type's default value if NewComponentType was given one (a named
// tag's name), its zero value otherwise, and for a type given SetNew what
// its function makes (an event type's: an empty bus). No OnCreate callback
// is called: the entities are not created, they are put back.
//
// BuildWorld refuses, with an error naming what is wrong, a layout that is
// not a world's (it may come from damaged or forged bytes): an entity
// twice, an id of 0 or at or past NextId, an id both live and freed, an id
// below NextId neither live nor freed, an entity with bits set that no
// entity has, a live entity not marked ready or a freed one marked so, an
// archetype with no types or with the same types as another, a component
// type twice in one archetype or a nil one, two types with one id, a
// capacity below what it holds or past what the ids could have needed, a
// freed id's place outside the world. It allocates what l.Bytes says, and
// that only once l has been checked; checking allocates a byte per id
// (NextId is checked against the layout's lengths first). On an error, w
// is left as it was.
func BuildWorld(w World, l WorldLayout) error {
	ww, ok := w.(*world)
	if !ok {
		return errors.New("donburi: BuildWorld: a World of another implementation")
	}
	if ww.nextEntityId != 1 || len(ww.archetypes) != 0 || len(ww.destroyed) != 0 || ww.entities.Len != 0 {
		return fmt.Errorf("donburi: BuildWorld: the world is not fresh: %d archetypes, next id %d", len(ww.archetypes), ww.nextEntityId)
	}
	if err := l.check(); err != nil {
		return fmt.Errorf("donburi: BuildWorld: %w", err)
	}
	n := int(l.NextId)
	locs := make([]*storage.Location, n) // id 0 is no entity's
	entries := make([]*Entry, n)
	put := func(e Entity, loc *storage.Location) {
		locs[e.Id()] = loc
		entries[e.Id()] = &Entry{World: ww, id: e.Id(), entity: e, loc: loc}
	}
	live := 0
	for i, al := range l.Archetypes {
		a, layout := storage.ArchetypeIndex(i), storage.NewLayout(al.Types)
		ww.index.Push(layout) // as insertArchetype does, with the entities' slice of the layout's capacity
		ww.archetypes = append(ww.archetypes, storage.NewArchetypeOf(a, layout, al.Entities, al.Capacity))
		ww.components.Fill(a, al.Types, len(al.Entities), al.ValuesCapacity)
		for j, e := range al.Entities {
			put(e, storage.NewLocation(a, storage.ComponentIndex(j)))
		}
		live += len(al.Entities)
	}
	for k, e := range l.Destroyed {
		p := l.DestroyedAt[k]
		put(e, &storage.Location{Archetype: storage.ArchetypeIndex(p.Archetype), Component: storage.ComponentIndex(p.Index)})
	}
	ww.entities.LocationMap, ww.entities.Len = locs, live
	ww.entries = entries
	ww.destroyed = append(ww.destroyed, l.Destroyed...)
	ww.nextEntityId = storage.EntityId(n)
	return nil
}

// The bits of an entity: its id (the high 32), its version (the low 24)
// and the flag of a live entity (bit 24).
const (
	versionBits = 1<<24 - 1
	readyBit    = 1 << 24
	strayBits   = (1<<32 - 1) &^ (versionBits | readyBit)
)

// maxCapacity bounds the capacity of a slice of entities or values of a
// world whose ids go up to nextId: an archetype holds distinct ids, so
// fewer than nextId at once, and a slice appended to up to n elements has
// a capacity below 2n+2048 (append grows by 2 below 256, by 1.25 and 192
// past it, rounded up to a size class or, past 32 KiB, to 8 KiB pages).
// TestLayoutCapacities checks it for archetypes grown to 20,000 entities.
func maxCapacity(nextId uint32) int {
	return 2*int(nextId) + 2048
}

// check reports what makes l a layout no world has, or nil.
func (l *WorldLayout) check() error {
	n := l.NextId
	if n == 0 {
		return errors.New("NextId 0: ids start at 1")
	}
	live := 0
	for _, a := range l.Archetypes {
		live += len(a.Entities)
	}
	if uint64(live)+uint64(len(l.Destroyed)) != uint64(n)-1 {
		return fmt.Errorf("NextId %d, but %d entities live and %d ids freed: every id below NextId is one or the other", n, live, len(l.Destroyed))
	}
	if len(l.DestroyedAt) != len(l.Destroyed) {
		return fmt.Errorf("%d places for %d freed ids", len(l.DestroyedAt), len(l.Destroyed))
	}
	c := layoutCheck{seen: make([]byte, n), byId: map[component.ComponentTypeId]component.IComponentType{}, sets: map[string]int{}}
	for i := range l.Archetypes {
		if err := c.archetype(l, i); err != nil {
			return fmt.Errorf("archetype %d: %w", i, err)
		}
	}
	for k, e := range l.Destroyed {
		if err := c.entity(e, n, freed); err != nil {
			return fmt.Errorf("freed: %w", err)
		}
		if p := l.DestroyedAt[k]; p.Archetype < 0 || p.Archetype >= len(l.Archetypes) || p.Index < 0 || p.Index >= int(n) {
			return fmt.Errorf("freed id %d's place (archetype %d, index %d) is outside the world", e.Id(), p.Archetype, p.Index)
		}
	}
	return nil
}

// layoutCheck is what check has seen of a layout so far.
type layoutCheck struct {
	seen []byte                                                 // by id: live or freed
	byId map[component.ComponentTypeId]component.IComponentType // the types by id
	sets map[string]int                                         // the archetypes by their sorted type ids
}

const (
	live  = 1
	freed = 2
)

func (c *layoutCheck) archetype(l *WorldLayout, i int) error {
	a := &l.Archetypes[i]
	if len(a.Types) == 0 {
		return errors.New("no component type")
	}
	ids := make([]int, 0, len(a.Types))
	for _, ct := range a.Types {
		if isNil(ct) {
			return errors.New("a nil component type")
		}
		id := ct.Id()
		if id < 0 {
			return fmt.Errorf("%s has a negative id %d", ct.Name(), id)
		}
		if other, ok := c.byId[id]; ok && other != ct {
			return fmt.Errorf("%s and %s, two component types of the one id %d", other.Name(), ct.Name(), id)
		}
		c.byId[id] = ct
		if slices.Contains(ids, int(id)) {
			return fmt.Errorf("%s twice", ct.Name())
		}
		ids = append(ids, int(id))
	}
	slices.Sort(ids)
	key := fmt.Sprint(ids)
	if other, ok := c.sets[key]; ok {
		return fmt.Errorf("the same component types as archetype %d", other)
	}
	c.sets[key] = i
	most := maxCapacity(l.NextId)
	switch {
	case a.Capacity < max(len(a.Entities), 256):
		return fmt.Errorf("capacity %d, below its %d entities or 256, a new archetype's", a.Capacity, len(a.Entities))
	case a.ValuesCapacity < len(a.Entities):
		return fmt.Errorf("values' capacity %d, below its %d entities", a.ValuesCapacity, len(a.Entities))
	case a.Capacity > most || a.ValuesCapacity > most:
		return fmt.Errorf("capacities %d and %d, past %d, more than ids below %d could have needed", a.Capacity, a.ValuesCapacity, most, l.NextId)
	}
	for _, e := range a.Entities {
		if err := c.entity(e, l.NextId, live); err != nil {
			return err
		}
	}
	return nil
}

// entity checks e, live or freed, in a world whose next id is n.
func (c *layoutCheck) entity(e Entity, n uint32, as byte) error {
	id := e.Id()
	switch {
	case id == 0 || uint32(id) >= n:
		return fmt.Errorf("entity %#x: id %d, not from 1 to NextId-1 (%d)", uint64(e), id, n-1)
	case uint64(e)&strayBits != 0:
		return fmt.Errorf("entity %#x: bits set outside its id, version and ready flag", uint64(e))
	case as == live && !e.IsReady():
		return fmt.Errorf("entity %#x: live, not flagged ready", uint64(e))
	case as == freed && e.IsReady():
		return fmt.Errorf("entity %#x: freed, flagged ready", uint64(e))
	case c.seen[id] == live && as == live:
		return fmt.Errorf("id %d live twice", id)
	case c.seen[id] == live || c.seen[id] == freed && as == live:
		return fmt.Errorf("id %d both live and freed", id)
	case c.seen[id] == freed:
		return fmt.Errorf("id %d freed twice", id)
	}
	c.seen[id] = as
	return nil
}

// isNil reports whether ct is nil, or a nil pointer (or map, func...) that
// its methods would dereference.
func isNil(ct component.IComponentType) bool {
	if ct == nil {
		return true
	}
	switch v := reflect.ValueOf(ct); v.Kind() {
	case reflect.Pointer, reflect.Map, reflect.Slice, reflect.Func, reflect.Chan, reflect.UnsafePointer:
		return v.IsNil()
	}
	return false
}

// ClearWorld makes w as NewWorld made it, for BuildWorld: no entity, no
// archetype, no id used, its queries' caches dropped. It keeps what is the
// world's rather than its state: its id and its OnCreate and OnRemove
// callbacks. Initializers (RegisterInitializer) are not run again: a world
// cleared to be built holds what its layout gives it. Entries and
// component pointers taken before point at nothing of the world's after.
func ClearWorld(w World) error {
	ww, ok := w.(*world)
	if !ok {
		return errors.New("donburi: ClearWorld: a World of another implementation")
	}
	ww.index = storage.NewIndex()
	ww.entities = storage.NewLocationMap()
	ww.components = storage.NewComponents()
	ww.archetypes = make([]*storage.Archetype, 0)
	ww.destroyed = make([]Entity, 0, 256)
	ww.entries = make([]*Entry, 1, 256)
	ww.nextEntityId = 1
	ww.restores++
	return nil
}
