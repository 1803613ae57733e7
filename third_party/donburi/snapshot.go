package donburi

import (
	"errors"
	"unsafe"

	"github.com/fixedstep/fixedstep/third_party/donburi/component"
	"github.com/fixedstep/fixedstep/third_party/donburi/internal/storage"
)

// A Snapshot holds a world's whole state, for RestoreWorld to put it back
// exactly: every entity with its id and version, the archetypes and the
// order of the entities in them (the order queries visit them), the
// component values, the ids freed for reuse, the next id.
//
// Component values are copied as a Go assignment copies them: a pointer,
// slice or map inside a component is kept, not what it points to. That is
// exact for values that are data, for pointers to objects restored with
// the world (a cp body restored from its own snapshot) or that never
// change (an image); a component that changes a slice or map it holds in
// place must be given a new one instead, for a restore to undo the change.
//
// Restore writes the saved values back into the same objects: a component
// pointer or *Entry a game holds points at the restored value. A snapshot's
// memory is reused by the next SnapshotWorld into it.
type Snapshot struct {
	w       *world
	value   world
	storage storage.Snapshot
	values  map[component.ComponentTypeId]component.ValueStore
	used    []component.ValueStore // the stores holding values now

	destroyed storage.SliceStore[Entity]
	slots     storage.SliceStore[*Entry]
	entries   storage.Store[Entry]

	// The world's slices of pointers are restored by their headers, with
	// the world's value, and by their contents here: a slot past the
	// saved length may have been filled since with another object (an
	// archetype made again after a restore), which a later restore of a
	// longer header would find there.
	archetypes storage.SliceStore[*storage.Archetype]
	onRemove   storage.SliceStore[func(World, Entity)]
	onCreate   storage.SliceStore[func(World, Entity)]
}

// SnapshotWorld saves w's whole state into s, replacing what s held.
func SnapshotWorld(w World, s *Snapshot) error {
	ww, ok := w.(*world)
	if !ok {
		return errors.New("donburi: SnapshotWorld: a World of another implementation")
	}
	s.reset()
	s.w, s.value = ww, *ww
	if s.values == nil {
		s.values = map[component.ComponentTypeId]component.ValueStore{}
	}
	s.storage.Save(ww.index, ww.entities, ww.components, ww.archetypes, s.saveValues)
	s.destroyed.Add(ww.destroyed)
	s.slots.Add(ww.entries)
	s.archetypes.Add(ww.archetypes)
	s.onRemove.Add(ww.removeCallbacks)
	s.onCreate.Add(ww.createCallbacks)
	for _, e := range ww.entries {
		if e != nil {
			s.entries.Add(e)
		}
	}
	return nil
}

func (s *Snapshot) saveValues(ct component.IComponentType, ptrs []unsafe.Pointer) {
	vs := s.values[ct.Id()]
	if vs == nil {
		vs = ct.NewValueStore()
		s.values[ct.Id()] = vs
	}
	for _, p := range ptrs {
		vs.Add(p)
	}
	s.used = append(s.used, vs)
}

// RestoreWorld puts w back as it was when s was taken of it.
func RestoreWorld(w World, s *Snapshot) error {
	ww, ok := w.(*world)
	if !ok || s.w != ww {
		return errors.New("donburi: RestoreWorld: the snapshot is of another world (or empty)")
	}
	restores := ww.restores
	*ww = s.value
	ww.restores = restores + 1
	s.storage.Restore()
	for _, vs := range s.used {
		vs.Restore()
	}
	s.destroyed.Restore()
	s.slots.Restore()
	s.entries.Restore()
	s.archetypes.Restore()
	s.onRemove.Restore()
	s.onCreate.Restore()
	return nil
}

func (s *Snapshot) reset() {
	s.storage.Reset()
	for _, vs := range s.values {
		vs.Reset()
	}
	clear(s.used)
	s.used = s.used[:0]
	s.destroyed.Reset()
	s.slots.Reset()
	s.archetypes.Reset()
	s.onRemove.Reset()
	s.onCreate.Reset()
	clear(s.entries)
	s.entries = s.entries[:0]
}

// Bytes returns about how much memory the snapshot's saved values take.
func (s *Snapshot) Bytes() int {
	n := int(unsafe.Sizeof(*s)) + s.storage.Bytes() + s.destroyed.Bytes() + s.slots.Bytes() + s.archetypes.Bytes()
	n += len(s.entries) * int(unsafe.Sizeof(storage.Saved[Entry]{}))
	for _, vs := range s.values {
		n += vs.Bytes()
	}
	return n
}

// restoresOf returns how many times w was restored.
func restoresOf(w World) uint64 {
	if ww, ok := w.(*world); ok {
		return ww.restores
	}
	return 0
}
