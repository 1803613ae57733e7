package donburi_test

import (
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/fixedstep/fixedstep/third_party/donburi"
	"github.com/fixedstep/fixedstep/third_party/donburi/filter"
)

type pos struct{ X, Y float64 }
type vel struct{ X, Y float64 }
type hp struct{ N int }
type name struct{ S string }

var (
	posC  = donburi.NewComponentType[pos]()
	velC  = donburi.NewComponentType[vel]()
	hpC   = donburi.NewComponentType[hp]()
	nameC = donburi.NewComponentType[name]()
	tagC  = donburi.NewTag()
)

// script changes the world a tick at a time, from rng: entities made and
// removed, components added and removed (entities moving between
// archetypes, new archetypes appearing), values changed.
func script(w donburi.World, rng *rand.Rand, tick int) {
	all := []donburi.Entity{}
	for e := range donburi.NewQuery(filter.Contains(posC)).Iter(w) {
		all = append(all, e.Entity())
	}
	switch rng.IntN(5) {
	case 0:
		e := w.Entry(w.Create(posC, velC))
		posC.Set(e, &pos{rng.Float64(), float64(tick)})
	case 1:
		if len(all) > 0 {
			w.Remove(all[rng.IntN(len(all))])
		}
	case 2:
		if len(all) > 0 {
			e := w.Entry(all[rng.IntN(len(all))])
			for _, c := range []donburi.IComponentType{hpC, nameC, tagC} {
				if rng.IntN(2) == 0 {
					if e.HasComponent(c) {
						e.RemoveComponent(c)
					} else {
						e.AddComponent(c)
					}
				}
			}
		}
	}
	for e := range donburi.NewQuery(filter.Contains(posC, velC)).Iter(w) {
		p, v := posC.Get(e), velC.Get(e)
		v.X += 0.1 * rng.Float64()
		p.X += v.X
		if e.HasComponent(hpC) {
			hpC.Get(e).N += tick
		}
		if e.HasComponent(nameC) {
			nameC.Get(e).S = fmt.Sprint(tick)
		}
	}
}

// describe writes the world as queries see it: every entity in iteration
// order, with its id, version and values, and the next entity made.
func describe(w donburi.World) string {
	var b strings.Builder
	for e := range donburi.NewQuery(filter.Contains(posC)).Iter(w) {
		fmt.Fprintf(&b, "%v %v", e.Entity(), *posC.Get(e))
		for _, c := range []donburi.IComponentType{velC, hpC, nameC, tagC} {
			if e.HasComponent(c) {
				fmt.Fprintf(&b, " %s", c.Name())
			}
		}
		if e.HasComponent(hpC) {
			fmt.Fprintf(&b, "=%d", hpC.Get(e).N)
		}
		b.WriteByte('\n')
	}
	for e := range donburi.NewQuery(filter.Contains(tagC)).Iter(w) {
		fmt.Fprintf(&b, "tagged %v\n", e.Entity())
	}
	fmt.Fprintf(&b, "len %d", w.Len())
	return b.String()
}

// A restored world continues as the world did after the snapshot: the
// same entities and ids, in the same order, the same values, the same next
// ids, the same archetypes for queries; restored twice, the same again.
func TestWorldSnapshotRestoreIsExact(t *testing.T) {
	w := donburi.NewWorld()
	pcg := rand.NewPCG(3, 4)
	rng := rand.New(pcg)
	for tick := range 200 {
		script(w, rng, tick)
	}
	var snap donburi.Snapshot
	if err := donburi.SnapshotWorld(w, &snap); err != nil {
		t.Fatal(err)
	}
	saved := *pcg
	want := make([]string, 200)
	for i := range want {
		script(w, rng, 200+i)
		want[i] = describe(w)
	}
	for round := range 2 {
		if err := donburi.RestoreWorld(w, &snap); err != nil {
			t.Fatal(err)
		}
		*pcg = saved
		for i := range want {
			script(w, rng, 200+i)
			if got := describe(w); got != want[i] {
				t.Fatalf("restore %d, tick %d:\n%s\nwant:\n%s", round+1, 200+i, got, want[i])
			}
		}
	}
}

// Snapshots taken and restored in any order, as a rollback's ring of them
// is (go back to an older one, simulate again, take new ones, go back
// again), each give back the world of their tick: also once an archetype
// made after one snapshot was made again, as another object, after a
// restore, and a later snapshot still holds the first.
func TestWorldSnapshotsRestoredInAnyOrder(t *testing.T) {
	const ticks = 300
	w := donburi.NewWorld()
	pcg := rand.NewPCG(5, 6)
	rng := rand.New(pcg)
	want := make([]string, ticks) // the world after each tick
	snaps := make([]donburi.Snapshot, ticks)
	rngs := make([]rand.PCG, ticks) // and the script's random state before it
	take := func(tick int) {
		if err := donburi.SnapshotWorld(w, &snaps[tick]); err != nil {
			t.Fatal(err)
		}
		rngs[tick] = *pcg
	}
	for tick := range ticks {
		take(tick)
		script(w, rng, tick)
		want[tick] = describe(w)
	}
	pick := rand.New(rand.NewPCG(7, 8))
	for round := range 400 {
		from := pick.IntN(ticks)
		if err := donburi.RestoreWorld(w, &snaps[from]); err != nil {
			t.Fatal(err)
		}
		*pcg = rngs[from]
		for tick := from; tick < min(ticks, from+1+pick.IntN(12)); tick++ {
			if tick > from {
				take(tick) // taken again, of the world simulated again
			}
			script(w, rng, tick)
			if got := describe(w); got != want[tick] {
				t.Fatalf("round %d, back to tick %d, tick %d:\n%s\nwant:\n%s", round, from, tick, got, want[tick])
			}
		}
	}
}

// A query made before a snapshot finds what the restored world has, also
// when the archetypes made after the snapshot are gone and others have
// taken their places.
func TestWorldSnapshotQueriesFollowTheRestore(t *testing.T) {
	w := donburi.NewWorld()
	w.Create(posC)
	withHP := donburi.NewQuery(filter.Contains(hpC))
	var snap donburi.Snapshot
	if err := donburi.SnapshotWorld(w, &snap); err != nil {
		t.Fatal(err)
	}
	w.Create(posC, hpC) // a new archetype, seen by the query
	if n := withHP.Count(w); n != 1 {
		t.Fatalf("before the restore: %d", n)
	}
	if err := donburi.RestoreWorld(w, &snap); err != nil {
		t.Fatal(err)
	}
	if n := withHP.Count(w); n != 0 {
		t.Fatalf("after the restore: %d entities with hp", n)
	}
	w.Create(posC, nameC) // another archetype where the gone one was
	if n := withHP.Count(w); n != 0 {
		t.Fatalf("after a new archetype: %d entities with hp", n)
	}
	if err := donburi.RestoreWorld(donburi.NewWorld(), &snap); err == nil {
		t.Fatal("restore into another world: no error")
	}
}

// Once a snapshot has held the world, taking it again and restoring
// allocate nothing.
func TestWorldSnapshotAllocatesNothingOnceWarm(t *testing.T) {
	w := donburi.NewWorld()
	rng := rand.New(rand.NewPCG(1, 1))
	for tick := range 100 {
		script(w, rng, tick)
	}
	var snap donburi.Snapshot
	donburi.SnapshotWorld(w, &snap)
	if n := testing.AllocsPerRun(20, func() {
		donburi.SnapshotWorld(w, &snap)
		donburi.RestoreWorld(w, &snap)
	}); n != 0 {
		t.Fatalf("a warm snapshot and restore allocate %v times", n)
	}
}
