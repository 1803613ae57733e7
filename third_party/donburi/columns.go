package donburi

import (
	"fmt"
	"iter"
	"unsafe"
)

// Columns is one archetype's share of a query's entities, as [Columns2]
// yields it: its entities and, at the same index, each one's A and B. The
// slices are the world's own storage: read and change the components
// through them, but do not keep them past the loop, nor append to them.
type Columns[A, B any] struct {
	Entities []Entity
	A        []*A
	B        []*B
}

// Columns2 iterates over the entities of q in w an archetype at a time, in
// the order of [Query.Iter]: for each archetype q matches, its entities
// with their components a and b side by side, without an [Entry] per
// entity or a lookup per component. It is for a loop over many entities
// that adds and removes none (a render system): as [Query.IterStable], it
// takes each archetype's lock once, and an entity added or removed in the
// loop may make it skip or repeat another. An entity that is not ready
// ([Entity.IsReady]) is in Entities too: skip it as Iter does.
//
// Every archetype q matches must hold a and b (q's filter contains them);
// one that does not panics.
func Columns2[A, B any](q *Query, w World, a *ComponentType[A], b *ComponentType[B]) iter.Seq[Columns[A, B]] {
	return func(yield func(Columns[A, B]) bool) {
		accessor := w.StorageAccessor()
		as, bs := accessor.Components.Storage(a), accessor.Components.Storage(b)
		for _, index := range q.evaluateQuery(w, &accessor) {
			archetype := accessor.Archetypes[index]
			archetype.Lock()
			entities := archetype.Entities()
			archetype.Unlock()
			if len(entities) == 0 {
				continue
			}
			ca, cb := as.Column(index), bs.Column(index)
			if len(ca) != len(entities) || len(cb) != len(entities) {
				panic(fmt.Sprintf("donburi: Columns2: an archetype of the query lacks %s or %s", a.Name(), b.Name()))
			}
			cols := Columns[A, B]{
				Entities: entities,
				A:        unsafe.Slice((**A)(unsafe.Pointer(unsafe.SliceData(ca))), len(ca)),
				B:        unsafe.Slice((**B)(unsafe.Pointer(unsafe.SliceData(cb))), len(cb)),
			}
			if !yield(cols) {
				return
			}
		}
	}
}
