package donburi_test

import (
	"slices"
	"testing"

	"github.com/fixedstep/fixedstep/third_party/donburi"
	"github.com/fixedstep/fixedstep/third_party/donburi/filter"
)

// IterStable visits what Iter visits, in the same order, across
// archetypes, after removals (ids reused) and in a query inside a query;
// and it stops when the loop breaks.
func TestIterStableVisitsAsIter(t *testing.T) {
	world := donburi.NewWorld()
	var made []donburi.Entity
	for i := range 40 {
		switch i % 4 {
		case 0:
			made = append(made, world.Create(queryTagA))
		case 1:
			made = append(made, world.Create(queryTagA, queryTagB))
		case 2:
			made = append(made, world.Create(queryTagC))
		case 3:
			made = append(made, world.Create(queryTagA, queryTagC))
		}
	}
	for _, e := range made[5:15] {
		world.Remove(e)
	}
	world.Create(queryTagA, queryTagB) // reuses a freed id
	for _, f := range []filter.LayoutFilter{filter.Contains(queryTagA), filter.Contains(queryTagA, queryTagB), filter.Not(filter.Contains(queryTagB))} {
		q := donburi.NewQuery(f)
		var want, got []donburi.Entity
		for e := range q.Iter(world) {
			want = append(want, e.Entity())
		}
		for e := range q.IterStable(world) {
			got = append(got, e.Entity())
			inner := 0
			for range donburi.NewQuery(filter.Contains(queryTagC)).IterStable(world) {
				inner++
			}
			if inner == 0 {
				t.Fatal("the inner query visited nothing")
			}
		}
		if len(want) == 0 || !slices.Equal(got, want) {
			t.Errorf("IterStable visited %v, Iter %v", got, want)
		}
		n := 0
		for range q.IterStable(world) {
			if n++; n == 3 {
				break
			}
		}
		if n != 3 {
			t.Errorf("a loop broken after 3 ran %d times", n)
		}
	}
}
