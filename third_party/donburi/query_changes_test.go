package donburi_test

import (
	"testing"

	"github.com/fixedstep/fixedstep/third_party/donburi"
	"github.com/fixedstep/fixedstep/third_party/donburi/filter"
)

type changeA struct{ N int }
type changeB struct{ N int }

var (
	changeAC = donburi.NewComponentType[changeA]()
	changeBC = donburi.NewComponentType[changeB]()
)

// What Query.Iter's doc says is safe is: removing the entity yielded
// visits every other once; creating entities in an archetype the query
// does not match visits each of the query's once and none of the new.
func TestIterChangesDocumentedSafe(t *testing.T) {
	w := donburi.NewWorld()
	for i := range 100 {
		e := w.Create(changeAC)
		changeAC.SetValue(w.Entry(e), changeA{N: i})
	}
	q := donburi.NewQuery(filter.Contains(changeAC))
	seen := map[int]int{}
	for e := range q.Iter(w) {
		n := changeAC.Get(e).N
		seen[n]++
		if n%3 == 0 {
			w.Remove(e.Entity())
		}
		b := w.Create(changeBC) // another archetype
		changeBC.SetValue(w.Entry(b), changeB{N: n})
	}
	if len(seen) != 100 {
		t.Fatalf("%d of 100 entities visited", len(seen))
	}
	for n, k := range seen {
		if k != 1 {
			t.Fatalf("entity %d visited %d times", n, k)
		}
	}
	if a, b := q.Count(w), donburi.NewQuery(filter.Contains(changeBC)).Count(w); a != 66 || b != 100 {
		t.Fatalf("after the loop: %d with A (want 66), %d with B (want 100)", a, b)
	}
}
