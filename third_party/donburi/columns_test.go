package donburi_test

import (
	"slices"
	"testing"

	"github.com/fixedstep/fixedstep/third_party/donburi"
	"github.com/fixedstep/fixedstep/third_party/donburi/filter"
)

type colPos struct{ X, Y float64 }
type colName struct{ S string }

var (
	colPosC  = donburi.NewComponentType[colPos]()
	colNameC = donburi.NewComponentType[colName]()
)

// Columns2 yields what Iter visits, in the same order, with each entity's
// own two components at its index: across archetypes (one with a third
// component, one with a component moved in and out), after removals and a
// reused id; and a change through a column is the entity's.
func TestColumns2VisitsAsIter(t *testing.T) {
	world := donburi.NewWorld()
	var made []donburi.Entity
	for i := range 60 {
		var e donburi.Entity
		switch i % 3 {
		case 0:
			e = world.Create(colPosC, colNameC)
		case 1:
			e = world.Create(colPosC, colNameC, queryTagA)
		case 2:
			e = world.Create(colPosC, queryTagB)
		}
		entry := world.Entry(e)
		colPosC.SetValue(entry, colPos{X: float64(i), Y: float64(-i)})
		if entry.HasComponent(colNameC) {
			colNameC.SetValue(entry, colName{S: string(rune('a' + i%26))})
		}
		made = append(made, e)
	}
	for _, e := range made[7:20] {
		world.Remove(e)
	}
	world.Entry(made[31]).RemoveComponent(queryTagA) // moves it to the first archetype
	world.Entry(made[33]).AddComponent(queryTagA)
	world.Create(colPosC, colNameC) // reuses a freed id

	q := donburi.NewQuery(filter.Contains(colPosC, colNameC))
	type seen struct {
		e    donburi.Entity
		pos  colPos
		name colName
	}
	var want, got []seen
	for entry := range q.Iter(world) {
		want = append(want, seen{entry.Entity(), *colPosC.Get(entry), *colNameC.Get(entry)})
	}
	archetypes := 0
	for cols := range donburi.Columns2(q, world, colPosC, colNameC) {
		archetypes++
		if len(cols.A) != len(cols.Entities) || len(cols.B) != len(cols.Entities) {
			t.Fatalf("columns of %d, %d and %d", len(cols.Entities), len(cols.A), len(cols.B))
		}
		for i, e := range cols.Entities {
			if e.IsReady() {
				got = append(got, seen{e, *cols.A[i], *cols.B[i]})
			}
		}
	}
	if archetypes != 2 || len(want) < 30 || !slices.Equal(got, want) {
		t.Errorf("Columns2 yielded %d archetypes and\n%v\nIter visited\n%v", archetypes, got, want)
	}

	for cols := range donburi.Columns2(q, world, colPosC, colNameC) {
		for i := range cols.A {
			cols.A[i].X += 1000
		}
	}
	for _, s := range want {
		if p := colPosC.Get(world.Entry(s.e)); p.X != s.pos.X+1000 {
			t.Errorf("entity %v: X is %v after a change through its column, want %v", s.e, p.X, s.pos.X+1000)
		}
	}

	n := 0
	for range donburi.Columns2(q, world, colPosC, colNameC) {
		n++
		break
	}
	if n != 1 {
		t.Errorf("a loop broken at once ran %d times", n)
	}
}

// A component the query's archetypes lack is a programming error: it panics
// rather than yield columns of the wrong length.
func TestColumns2PanicsOnAMissingComponent(t *testing.T) {
	world := donburi.NewWorld()
	world.Create(colPosC, queryTagB)
	q := donburi.NewQuery(filter.Contains(colPosC))
	defer func() {
		if recover() == nil {
			t.Error("no panic for a component the archetype does not hold")
		}
	}()
	for range donburi.Columns2(q, world, colPosC, colNameC) {
	}
}

// Iterating allocates nothing.
func TestColumns2AllocatesNothing(t *testing.T) {
	world := donburi.NewWorld()
	for range 100 {
		world.Create(colPosC, colNameC)
	}
	q := donburi.NewQuery(filter.Contains(colPosC, colNameC))
	sum := 0.0
	allocs := testing.AllocsPerRun(100, func() {
		for cols := range donburi.Columns2(q, world, colPosC, colNameC) {
			for _, p := range cols.A {
				sum += p.X
			}
		}
	})
	if allocs != 0 {
		t.Errorf("Columns2 allocates %v times a loop", allocs)
	}
}

type colHits struct{ N int }

var colHitsC = donburi.NewComponentType[colHits]()

// Columns3 yields what Iter visits, in the same order, with each entity's
// own three components at its index, across archetypes that hold more
// components and after removals, moves and a reused id; a change through a
// column is the entity's; a loop broken stops.
func TestColumns3VisitsAsIter(t *testing.T) {
	world := donburi.NewWorld()
	var made []donburi.Entity
	for i := range 80 {
		var e donburi.Entity
		switch i % 4 {
		case 0:
			e = world.Create(colPosC, colNameC, colHitsC)
		case 1:
			e = world.Create(colPosC, colNameC, colHitsC, queryTagA)
		case 2:
			e = world.Create(colPosC, colNameC, queryTagB)
		case 3:
			e = world.Create(colHitsC, colPosC, colNameC, queryTagB)
		}
		entry := world.Entry(e)
		colPosC.SetValue(entry, colPos{X: float64(i), Y: float64(-i)})
		colNameC.SetValue(entry, colName{S: string(rune('a' + i%26))})
		if entry.HasComponent(colHitsC) {
			colHitsC.SetValue(entry, colHits{N: 3 * i})
		}
		made = append(made, e)
	}
	for _, e := range made[9:23] {
		world.Remove(e)
	}
	world.Entry(made[41]).RemoveComponent(queryTagA)
	world.Entry(made[44]).AddComponent(queryTagA)
	world.Entry(made[46]).AddComponent(colHitsC)
	world.Create(colPosC, colHitsC, colNameC) // reuses a freed id

	q := donburi.NewQuery(filter.Contains(colPosC, colNameC, colHitsC))
	type seen struct {
		e    donburi.Entity
		pos  colPos
		name colName
		hits colHits
	}
	var want, got []seen
	for entry := range q.Iter(world) {
		want = append(want, seen{entry.Entity(), *colPosC.Get(entry), *colNameC.Get(entry), *colHitsC.Get(entry)})
	}
	archetypes := 0
	for cols := range donburi.Columns3(q, world, colPosC, colNameC, colHitsC) {
		archetypes++
		n := len(cols.Entities)
		if len(cols.A) != n || len(cols.B) != n || len(cols.C) != n {
			t.Fatalf("columns of %d, %d, %d and %d", n, len(cols.A), len(cols.B), len(cols.C))
		}
		for i, e := range cols.Entities {
			if e.IsReady() {
				got = append(got, seen{e, *cols.A[i], *cols.B[i], *cols.C[i]})
			}
		}
	}
	if archetypes < 3 || len(want) < 40 || !slices.Equal(got, want) {
		t.Errorf("Columns3 yielded %d archetypes and\n%v\nIter visited\n%v", archetypes, got, want)
	}

	for cols := range donburi.Columns3(q, world, colPosC, colNameC, colHitsC) {
		for i := range cols.C {
			cols.C[i].N++
		}
	}
	for _, s := range want {
		if h := colHitsC.Get(world.Entry(s.e)); h.N != s.hits.N+1 {
			t.Errorf("entity %v: N is %v after a change through its column, want %v", s.e, h.N, s.hits.N+1)
		}
	}

	n := 0
	for range donburi.Columns3(q, world, colPosC, colNameC, colHitsC) {
		n++
		break
	}
	if n != 1 {
		t.Errorf("a loop broken at once ran %d times", n)
	}
}

// Columns3 panics on a component the query's archetypes lack, and
// allocates nothing.
func TestColumns3PanicsAndAllocatesNothing(t *testing.T) {
	world := donburi.NewWorld()
	for range 100 {
		world.Create(colPosC, colNameC, colHitsC)
	}
	q := donburi.NewQuery(filter.Contains(colPosC, colNameC, colHitsC))
	sum := 0
	allocs := testing.AllocsPerRun(100, func() {
		for cols := range donburi.Columns3(q, world, colPosC, colNameC, colHitsC) {
			for _, h := range cols.C {
				sum += h.N
			}
		}
	})
	if allocs != 0 {
		t.Errorf("Columns3 allocates %v times a loop", allocs)
	}
	defer func() {
		if recover() == nil {
			t.Error("no panic for a component the archetype does not hold")
		}
	}()
	for range donburi.Columns3(q, world, colPosC, colNameC, iterTagC) {
	}
}

// ArchetypeColumn gives, for each archetype, each entity's own component
// at its index in the archetype's entities, after removals and moves;
// nil for a component the archetype lacks or an archetype out of range.
func TestArchetypeColumn(t *testing.T) {
	world := donburi.NewWorld()
	var ents []donburi.Entity
	for i := range 12 {
		types := []donburi.IComponentType{colPosC}
		if i%3 == 0 {
			types = append(types, colNameC)
		}
		e := world.Create(types...)
		ents = append(ents, e)
		colPosC.Get(world.Entry(e)).X = float64(i)
	}
	world.Remove(ents[4])
	world.Entry(ents[7]).AddComponent(colNameC) // moved to the other archetype
	seen := 0
	for i, a := range world.Archetypes() {
		col := donburi.ArchetypeColumn(world, i, colPosC)
		names := donburi.ArchetypeColumn(world, i, colNameC)
		if len(a.Entities()) > 0 && len(col) < len(a.Entities()) {
			t.Fatalf("archetype %d: a column of %d values for %d entities", i, len(col), len(a.Entities()))
		}
		for row, e := range a.Entities() {
			if got, want := (*colPos)(col[row]), colPosC.Get(world.Entry(e)); got != want {
				t.Errorf("archetype %d, entity %v: the column's value at %p, the entity's at %p", i, e, got, want)
			}
			if hasName := world.Entry(e).HasComponent(colNameC); hasName != (names != nil) {
				t.Errorf("archetype %d: names column %v for an entity with a name %v", i, names != nil, hasName)
			}
			seen++
		}
	}
	if seen != world.Len() {
		t.Errorf("the columns held %d entities of %d", seen, world.Len())
	}
	if col := donburi.ArchetypeColumn(world, len(world.Archetypes()), colPosC); col != nil {
		t.Errorf("an archetype out of range gave %d values", len(col))
	}
}
