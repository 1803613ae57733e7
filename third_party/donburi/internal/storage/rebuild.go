package storage

import (
	"unsafe"

	"github.com/fixedstep/fixedstep/third_party/donburi/component"
)

// What a world's layout (donburi.LayoutOf, BuildWorld) reads of the
// storage and writes into a new one. Besides what a world holds, a layout
// keeps the capacities of the slices a query hands out (an archetype's
// entities, its columns of values): a loop that creates or removes
// entities while it holds one sees the removals made in place, and not
// those made after an append moved the slice, so the capacity at which
// appends move it is part of what the world does next.

// Capacity returns the capacity of the archetype's slice of entities.
func (archetype *Archetype) Capacity() int {
	return cap(archetype.entities)
}

// NewArchetypeOf returns archetype index of layout, holding a copy of
// entities in a slice of the capacity given (at least len(entities)).
func NewArchetypeOf(index ArchetypeIndex, layout *Layout, entities []Entity, capacity int) *Archetype {
	return &Archetype{
		index:    index,
		entities: append(make([]Entity, 0, capacity), entities...),
		layout:   layout,
	}
}

var newStorageLength = len(NewStorage().storages)

// StorageLength is how many archetypes' columns a component storage has
// room for once it holds archetype a's (how far a storage grows).
func StorageLength(a ArchetypeIndex) int {
	n := newStorageLength
	for n <= int(a) {
		n *= 2
	}
	return n
}

// Column returns archetype a's column of ct's values, nil if it has none
// (it has never held an entity, or does not have ct): unlike Storage, it
// makes no storage for a type that has none.
func (cs *Components) Column(ct component.IComponentType, a ArchetypeIndex) []unsafe.Pointer {
	id := int(ct.Id())
	if id < 0 || id >= len(cs.storages) || cs.storages[id] == nil {
		return nil
	}
	return cs.storages[id].Column(a)
}

// Fill gives archetype a, a new one with component types cts, n new values
// (New) of each type, in columns of capacity capacity, and counts them as
// its entities' components, as n entities pushed into it would have been.
// A capacity of 0 (n is 0) leaves a as an archetype that has never held an
// entity: no columns, and not counted.
func (cs *Components) Fill(a ArchetypeIndex, cts []component.IComponentType, n, capacity int) {
	if capacity == 0 {
		return
	}
	for _, ct := range cts {
		st := cs.Storage(ct)
		for len(st.storages) <= int(a) {
			st.ensureCapacity()
		}
		col := make([]unsafe.Pointer, n, capacity)
		for i := range col {
			col[i] = ct.New()
		}
		st.storages[a] = col
	}
	cs.componentIndices[a] = ComponentIndex(n - 1)
}
