package donburi

import (
	"cmp"
	"iter"
	"slices"
	"sync"

	"github.com/fixedstep/fixedstep/third_party/donburi/filter"
	"github.com/fixedstep/fixedstep/third_party/donburi/internal/storage"
)

type cache struct {
	archetypes []storage.ArchetypeIndex
	seen       int
	restores   uint64 // the world's restores when the cache was made
}

type IOrderable interface {
	Order() int
}

// Query represents a query for entities.
// It is used to filter entities based on their components.
// It receives arbitrary filters that are used to filter entities.
// It contains a cache that is used to avoid re-evaluating the query.
// So it is not recommended to create a new query every time you want
// to filter entities with the same query.
type Query struct {
	mu            sync.Mutex // guards layoutMatches: worlds on other goroutines share a package's queries
	layoutMatches map[WorldId]*cache
	filter        filter.LayoutFilter
}

// NewQuery creates a new query.
// It receives arbitrary filters that are used to filter entities.
func NewQuery(filter filter.LayoutFilter) *Query {
	return &Query{
		layoutMatches: make(map[WorldId]*cache),
		filter:        filter,
	}
}

// OrderedQuery is a special extension of Query which has a type parameter used
// when running ordered queries using `EachOrdered`.
type OrderedQuery[T IOrderable] struct {
	Query
	entries []*Entry
	lock    sync.Mutex
}

// NewOrderedQuery creates a new ordered query.
// It takes a filter parameter that is used when evaluating the query.
// Use `OrderedQuery.EachOrdered` to run a Each query in ordered mode.
func NewOrderedQuery[T IOrderable](filter filter.LayoutFilter) *OrderedQuery[T] {
	return &OrderedQuery[T]{
		//orderedBy: orderedBy,
		Query: Query{
			layoutMatches: make(map[WorldId]*cache),
			filter:        filter,
		},
	}
}

// IterOrdered returns an iterator over all entities within the query filter,
// ordered by the specified component.
func (q *OrderedQuery[T]) IterOrdered(w World, orderBy *ComponentType[T]) iter.Seq[*Entry] {
	return func(yield func(*Entry) bool) {
		q.lock.Lock()
		defer q.lock.Unlock()

		accessor := w.StorageAccessor()
		iter := storage.NewEntityIterator(0, accessor.Archetypes, q.evaluateQuery(w, &accessor))

		// Clear the slice while keeping the underlying array
		q.entries = q.entries[:0]

		for iter.HasNext() {
			archetype := iter.Next()
			archetype.Lock()

			ents := archetype.Entities()
			for _, entity := range ents {
				entry := w.Entry(entity)
				if entry.entity.IsReady() {
					q.entries = append(q.entries, entry)
				}
			}

			archetype.Unlock()
		}

		// Sort all entries using a stable sort
		slices.SortStableFunc(q.entries, func(a, b *Entry) int {
			return cmp.Compare(
				orderBy.GetValue(a).Order(),
				orderBy.GetValue(b).Order(),
			)
		})

		// Yield sorted entries
		for _, entry := range q.entries {
			if !yield(entry) {
				return
			}
		}
	}
}

// EachOrdered iterates over all entities within the query filter, and uses the `orderBy` parameter to
// figure out which property to order using.
// `T` must implement `IOrderable`
func (q *OrderedQuery[T]) EachOrdered(w World, orderBy *ComponentType[T], callback func(*Entry)) {
	for entry := range q.IterOrdered(w, orderBy) {
		callback(entry)
	}
}

// Iter returns an iterator over the entities that match the query, archetype
// by archetype, in each archetype's order.
//
// # Changing the world during the loop
//
// Changing component values is always safe. Structural changes are made at
// once, not deferred, and what is safe follows from how an archetype stores
// its entities (a removal moves its last entity into the hole):
//
//   - Removing the entity just yielded (world.Remove(entry.Entity())) is
//     safe: every other entity is still visited exactly once.
//   - Creating entities, or moving them (AddComponent, RemoveComponent), in
//     archetypes the query does not match is safe.
//   - Removing any other entity the query matches, creating entities the
//     query matches, and adding or removing components of entities it
//     matches may make the loop skip an entity or visit one twice; a
//     created entity may or may not be visited.
//
// For those, collect the changes and make them after the loop, or queue
// them in engine.Commands: a scheduler applies its Commands after each
// system returns. [Query.IterStable] allows no structural change at all.
func (q *Query) Iter(w World) iter.Seq[*Entry] {
	return func(yield func(*Entry) bool) {
		accessor := w.StorageAccessor()
		iter := storage.NewEntityIterator(0, accessor.Archetypes, q.evaluateQuery(w, &accessor))
		// The archetype locked, if any: unlocked should reading it panic,
		// so that the scene's deferred cleanup can still query the world.
		var locked *storage.Archetype
		defer func() {
			if locked != nil {
				locked.Unlock()
			}
		}()
		for iter.HasNext() {
			archetype := iter.Next()
			archetype.Lock()
			locked = archetype
			for _, entity := range archetype.Entities() {
				entry := w.Entry(entity)
				if entry.entity.IsReady() {
					archetype.Unlock()
					locked = nil
					if !yield(entry) {
						return
					}
					archetype.Lock()
					locked = archetype
				}
			}
			archetype.Unlock()
			locked = nil
		}
	}
}

// IterStable is Iter for a loop that adds and removes no entity (a render
// system, a read of the world): it takes each archetype's lock once, to
// read its entities, not around every entity it yields. An entity added
// in the loop is not visited; one removed in it may make the loop skip or
// repeat another.
func (q *Query) IterStable(w World) iter.Seq[*Entry] {
	return func(yield func(*Entry) bool) {
		accessor := w.StorageAccessor()
		iter := storage.NewEntityIterator(0, accessor.Archetypes, q.evaluateQuery(w, &accessor))
		for iter.HasNext() {
			archetype := iter.Next()
			archetype.Lock()
			entities := archetype.Entities()
			archetype.Unlock()
			for _, entity := range entities {
				entry := w.Entry(entity)
				if entry.entity.IsReady() && !yield(entry) {
					return
				}
			}
		}
	}
}

// Each iterates over all entities that match the query. What callback may
// change in the world is said on [Query.Iter].
func (q *Query) Each(w World, callback func(*Entry)) {
	q.EachUntil(w, func(entry *Entry) bool {
		callback(entry)
		return true
	})
}

// EachUntil iterates over all entities that match query until callback returns false.
func (q *Query) EachUntil(w World, callback func(*Entry) bool) {
	for entry := range q.Iter(w) {
		if !callback(entry) {
			return
		}
	}
}

// deprecated: use Each instead
func (q *Query) EachEntity(w World, callback func(*Entry)) {
	q.Each(w, callback)
}

// Count returns the number of entities that match the query.
func (q *Query) Count(w World) int {
	accessor := w.StorageAccessor()
	iter := storage.NewEntityIterator(0, accessor.Archetypes, q.evaluateQuery(w, &accessor))
	ret := 0
	for iter.HasNext() {
		archetype := iter.Next()
		ret += len(archetype.Entities())
	}
	return ret
}

// First returns the first entity that matches the query.
func (q *Query) First(w World) (entry *Entry, ok bool) {
	accessor := w.StorageAccessor()
	iter := storage.NewEntityIterator(0, accessor.Archetypes, q.evaluateQuery(w, &accessor))
	if !iter.HasNext() {
		return nil, false
	}
	for iter.HasNext() {
		archetype := iter.Next()
		entities := archetype.Entities()
		if len(entities) > 0 {
			return w.Entry(entities[0]), true
		}
	}
	return nil, false
}

// deprecated: use First instead
func (q *Query) FirstEntity(w World) (entry *Entry, ok bool) {
	return q.First(w)
}

func (q *Query) evaluateQuery(world World, accessor *StorageAccessor) []storage.ArchetypeIndex {
	w := world.Id()
	q.mu.Lock()
	c, ok := q.layoutMatches[w]
	if !ok {
		c = &cache{archetypes: make([]storage.ArchetypeIndex, 0)}
		q.layoutMatches[w] = c
	}
	q.mu.Unlock() // the world's own cache is its goroutine's alone
	if r := restoresOf(world); r != c.restores {
		// A restored world may have fewer archetypes, or others.
		c.archetypes, c.seen, c.restores = c.archetypes[:0], 0, r
	}
	// Appended in place: after a restore, the cache's memory is reused.
	c.archetypes = accessor.Index.AppendMatches(c.archetypes, q.filter, c.seen)
	c.seen = len(accessor.Archetypes)
	return c.archetypes
}
