package donburi

import (
	"testing"

	"github.com/fixedstep/fixedstep/third_party/donburi/filter"
)

type lockProbe struct{ N int }

// A query whose reading of an archetype panics (a world left broken) does
// not leave the archetype locked: the scene's deferred cleanup, which
// queries the world again, then fails or finishes instead of waiting
// forever.
func TestQueryUnlocksOnPanic(t *testing.T) {
	probeC := NewComponentType[lockProbe]()
	w := NewWorld().(*world)
	w.Create(probeC)
	w.Create(probeC)
	q := NewQuery(filter.Contains(probeC))
	w.entries = w.entries[:1] // broken: the entities' entries gone
	func() {
		defer func() {
			if recover() == nil {
				t.Fatal("iterating a broken world did not panic")
			}
		}()
		for range q.Iter(w) {
		}
	}()
	for _, a := range w.archetypes {
		if !a.TryLock() {
			t.Fatal("an archetype stayed locked after the panic")
		}
		a.Unlock()
	}
}
