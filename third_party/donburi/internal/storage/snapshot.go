package storage

import (
	"unsafe"

	"github.com/fixedstep/fixedstep/third_party/donburi/component"
)

// Saved is an object and its value when a snapshot was taken.
type Saved[T any] struct {
	P *T
	V T
}

// Store is the saved objects of one type.
type Store[T any] []Saved[T]

// Add saves p's value.
func (st *Store[T]) Add(p *T) { *st = append(*st, Saved[T]{p, *p}) }

// Restore writes every saved value back into its object.
func (st Store[T]) Restore() {
	for i := range st {
		*st[i].P = st[i].V
	}
}

// SliceStore saves the contents of slices whose headers are saved with the
// values that hold them: Restore copies the contents back into the same
// arrays.
type SliceStore[E any] struct {
	heads [][]E
	data  []E
}

// Add saves x's contents.
func (ss *SliceStore[E]) Add(x []E) {
	if len(x) == 0 {
		return
	}
	ss.heads = append(ss.heads, x)
	ss.data = append(ss.data, x...)
}

// Restore copies the contents back.
func (ss *SliceStore[E]) Restore() {
	off := 0
	for _, h := range ss.heads {
		off += copy(h, ss.data[off:off+len(h)])
	}
}

// Reset forgets what was saved, keeping the memory.
func (ss *SliceStore[E]) Reset() {
	clear(ss.heads)
	ss.heads, ss.data = ss.heads[:0], ss.data[:0]
}

// Bytes is about how much memory the saved contents take.
func (ss *SliceStore[E]) Bytes() int {
	var e E
	return len(ss.data)*int(unsafe.Sizeof(e)) + len(ss.heads)*int(unsafe.Sizeof(ss.heads[0:0]))
}

// Snapshot is the storage's part of a world snapshot: the archetypes, the
// index, the entities' locations and the component storages (the
// component values themselves are saved by their types' ValueStores).
type Snapshot struct {
	archetypes []archetypeState
	entities   SliceStore[Entity]
	layouts    SliceStore[[]component.IComponentType]
	index      Store[Index]
	locMap     Store[LocationMap]
	locSlots   SliceStore[*Location]
	locations  Store[Location]
	components Store[Components]
	storages   SliceStore[*Storage]
	stores     Store[Storage]
	perArch    SliceStore[[]unsafe.Pointer]
	pointers   SliceStore[unsafe.Pointer]
	indices    []indexPair
	indicesOf  map[ArchetypeIndex]ComponentIndex
}

type archetypeState struct {
	p        *Archetype
	index    ArchetypeIndex
	entities []Entity
	layout   *Layout
}

type indexPair struct {
	a ArchetypeIndex
	c ComponentIndex
}

// Reset forgets what s held, keeping its memory.
func (s *Snapshot) Reset() {
	clear(s.archetypes)
	s.archetypes = s.archetypes[:0]
	s.entities.Reset()
	s.layouts.Reset()
	s.index, s.locMap, s.locations, s.components, s.stores = s.index[:0], s.locMap[:0], s.locations[:0], s.components[:0], s.stores[:0]
	s.locSlots.Reset()
	s.storages.Reset()
	s.perArch.Reset()
	s.pointers.Reset()
	s.indices = s.indices[:0]
}

// Save saves the storage reachable from these roots. values is called for
// each archetype's storage of each of its component types, to save the
// values the pointers point to.
func (s *Snapshot) Save(idx *Index, locs *LocationMap, comps *Components, archetypes []*Archetype,
	values func(ct component.IComponentType, ptrs []unsafe.Pointer)) {
	s.index.Add(idx)
	s.layouts.Add(idx.layouts)
	s.locMap.Add(locs)
	s.locSlots.Add(locs.LocationMap)
	for _, l := range locs.LocationMap {
		if l != nil {
			s.locations.Add(l)
		}
	}
	s.components.Add(comps)
	s.storages.Add(comps.storages)
	for _, st := range comps.storages {
		if st != nil {
			s.stores.Add(st)
			s.perArch.Add(st.storages)
		}
	}
	for a, c := range comps.componentIndices {
		s.indices = append(s.indices, indexPair{a, c})
	}
	s.indicesOf = comps.componentIndices
	for _, a := range archetypes {
		s.archetypes = append(s.archetypes, archetypeState{a, a.index, a.entities, a.layout})
		s.entities.Add(a.entities)
		for _, ct := range a.layout.componentTypes {
			st := comps.storages[ct.Id()]
			if int(a.index) < len(st.storages) {
				ptrs := st.storages[a.index]
				s.pointers.Add(ptrs)
				values(ct, ptrs)
			}
		}
	}
}

// Restore puts the storage back as Save found it.
func (s *Snapshot) Restore() {
	s.index.Restore()
	s.locMap.Restore()
	s.locations.Restore()
	s.components.Restore()
	s.stores.Restore()
	for _, a := range s.archetypes {
		a.p.index, a.p.entities, a.p.layout = a.index, a.entities, a.layout
	}
	s.layouts.Restore()
	s.locSlots.Restore()
	s.storages.Restore()
	s.perArch.Restore()
	s.pointers.Restore()
	s.entities.Restore()
	clear(s.indicesOf)
	for _, p := range s.indices {
		s.indicesOf[p.a] = p.c
	}
}

// Bytes is about how much memory s holds.
func (s *Snapshot) Bytes() int {
	n := len(s.archetypes)*int(unsafe.Sizeof(archetypeState{})) + len(s.indices)*int(unsafe.Sizeof(indexPair{}))
	n += len(s.locations)*int(unsafe.Sizeof(Saved[Location]{})) + len(s.stores)*int(unsafe.Sizeof(Saved[Storage]{}))
	return n + s.entities.Bytes() + s.layouts.Bytes() + s.locSlots.Bytes() + s.storages.Bytes() + s.perArch.Bytes() + s.pointers.Bytes()
}
