package donburi

import (
	"fmt"
	"iter"
	"unsafe"

	"github.com/fixedstep/fixedstep/third_party/donburi/component"
	"github.com/fixedstep/fixedstep/third_party/donburi/internal/storage"
)

// Columns is one archetype's share of a query's entities, as [Columns2]
// yields it: its entities and, at the same index, each one's A and B. The
// slices are the world's own storage: read and change the components
// through them, but do not keep them past the loop, nor append to them.
// All have the same length; cut A and B to the length of Entities before
// a loop over Entities that indexes them, so that the compiler drops their
// bounds checks (BenchmarkIterate measures both ways):
//
//	for cols := range donburi.Columns2(q, w, PosC, VelC) {
//		ps, vs := cols.A[:len(cols.Entities)], cols.B[:len(cols.Entities)]
//		for i, e := range cols.Entities {
//			if !e.IsReady() {
//				continue
//			}
//			ps[i].X += vs[i].X
//		}
//	}
type Columns[A, B any] struct {
	Entities []Entity
	A        []*A
	B        []*B
}

// Columns3Of is [Columns] with a third component, as [Columns3] yields it.
type Columns3Of[A, B, C any] struct {
	Entities []Entity
	A        []*A
	B        []*B
	C        []*C
}

// Columns2 iterates over the entities of q in w an archetype at a time, in
// the order of [Query.Iter]: for each archetype q matches, its entities
// with their components a and b side by side, without an [Entry] per
// entity or a lookup per component. It is for a loop over many entities
// that adds and removes none (a render system, a system that updates
// components): as [Query.IterStable], it takes each archetype's lock once,
// and an entity added or removed in the loop may make it skip or repeat
// another. An entity that is not ready ([Entity.IsReady]) is in Entities
// too: skip it as Iter does. It allocates nothing; what a loop over the
// columns costs an entity, against upstream's Query.Each, is measured by
// BenchmarkIterate.
//
// Every archetype q matches must hold a and b (q's filter contains them);
// one that does not panics.
func Columns2[A, B any](q *Query, w World, a *ComponentType[A], b *ComponentType[B]) iter.Seq[Columns[A, B]] {
	return func(yield func(Columns[A, B]) bool) {
		accessor := w.StorageAccessor()
		as, bs := accessor.Components.Storage(a), accessor.Components.Storage(b)
		for _, index := range q.evaluateQuery(w, &accessor) {
			entities := entitiesOf(accessor.Archetypes[index])
			if len(entities) == 0 {
				continue
			}
			cols := Columns[A, B]{
				Entities: entities,
				A:        column(as, index, len(entities), a),
				B:        column(bs, index, len(entities), b),
			}
			if !yield(cols) {
				return
			}
		}
	}
}

// Columns3 is [Columns2] with a third component, c.
func Columns3[A, B, C any](q *Query, w World, a *ComponentType[A], b *ComponentType[B], c *ComponentType[C]) iter.Seq[Columns3Of[A, B, C]] {
	return func(yield func(Columns3Of[A, B, C]) bool) {
		accessor := w.StorageAccessor()
		as, bs, cs := accessor.Components.Storage(a), accessor.Components.Storage(b), accessor.Components.Storage(c)
		for _, index := range q.evaluateQuery(w, &accessor) {
			entities := entitiesOf(accessor.Archetypes[index])
			if len(entities) == 0 {
				continue
			}
			cols := Columns3Of[A, B, C]{
				Entities: entities,
				A:        column(as, index, len(entities), a),
				B:        column(bs, index, len(entities), b),
				C:        column(cs, index, len(entities), c),
			}
			if !yield(cols) {
				return
			}
		}
	}
}

// entitiesOf returns the archetype's entities, read under its lock.
func entitiesOf(archetype *storage.Archetype) []Entity {
	archetype.Lock()
	entities := archetype.Entities()
	archetype.Unlock()
	return entities
}

// column returns the archetype's column of c's values, typed; it panics
// unless the column has one value for each of the archetype's n entities.
func column[T any](s *storage.Storage, index storage.ArchetypeIndex, n int, c *ComponentType[T]) []*T {
	col := s.Column(index)
	if len(col) != n {
		panic(fmt.Sprintf("donburi: columns: an archetype of the query lacks %s", c.Name()))
	}
	return unsafe.Slice((**T)(unsafe.Pointer(unsafe.SliceData(col))), n)
}

// ArchetypeColumn returns the values of component type c of the entities
// of w.Archetypes()[i], at the index of each in that archetype's
// Entities: the storage's own column of pointers, as [Columns2] reads it;
// nil if the archetype has no c (or there is no archetype i). It is for a
// reader of every archetype that looks up no entity (the engine's state
// hasher); read the values through it, and do not keep it past a change to
// the world.
func ArchetypeColumn(w World, i int, c component.IComponentType) []unsafe.Pointer {
	accessor := w.StorageAccessor()
	if i < 0 || i >= len(accessor.Archetypes) || !accessor.Archetypes[i].Layout().HasComponent(c) {
		return nil
	}
	return accessor.Components.Storage(c).Column(storage.ArchetypeIndex(i))
}
