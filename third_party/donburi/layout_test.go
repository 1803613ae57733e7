package donburi_test

import (
	"fmt"
	"math/rand/v2"
	"reflect"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/fixedstep/fixedstep/internal/racetest"
	"github.com/fixedstep/fixedstep/third_party/donburi"
	"github.com/fixedstep/fixedstep/third_party/donburi/filter"
)

type label struct{ S string }

var (
	counterC = forkComps[0].(*donburi.ComponentType[counter])
	labelC   = donburi.NewComponentType[label](label{"none"}) // a default value, which BuildWorld gives
	flagC    = donburi.NewTag("flag")                         // a named tag: its name is its default value

	layoutComps = append(slices.Clone(forkComps), labelC, flagC)
	bothQuery   = donburi.NewQuery(filter.Contains(counterC, labelC)) // for Columns2
)

// newLayoutWorld drives w as TestWorldAsUpstream drives a world, with two
// more component types (mask bits 3 and 4) and two more queries, the
// entities of made made before.
func newLayoutWorld(w donburi.World, made []donburi.Entity) *forkWorld {
	l := newForkWorld()
	l.w, l.comps, l.made = w, layoutComps, slices.Clone(made)
	l.queries = append(l.queries, donburi.NewQuery(filter.Contains(labelC)), donburi.NewQuery(filter.Not(filter.Contains(counterC))))
	return l
}

// A layoutOp is one of the random operations of the layout's tests.
type layoutOp struct{ kind, i, c, v int }

func randomOp(rng *rand.Rand, made int) layoutOp {
	return layoutOp{rng.IntN(15), rng.IntN(made), rng.IntN(len(layoutComps)), rng.IntN(1000)}
}

// do applies op to l's world, and returns what it saw, for the operations
// that iterate while they change the world.
func (l *forkWorld) do(op layoutOp) string {
	mask := 1 + op.v%(1<<len(l.comps)-1)
	switch {
	case op.kind < 3:
		l.create(mask)
		l.set(len(l.made)-1, op.v)
	case op.kind < 4: // 0 to 4 at once: 0 makes an archetype that has held no entity, if it is new
		l.made = append(l.made, l.w.CreateMany(op.v%5, l.types(mask)...)...)
	case op.kind < 7:
		l.remove(op.i)
	case op.kind < 10:
		l.toggle(op.i, op.c)
	case op.kind < 11:
		l.set(op.i, op.v)
	case op.kind < 12:
		if e := l.made[op.i]; l.w.Valid(e) && l.w.Entry(e).HasComponent(labelC) {
			labelC.SetValue(l.w.Entry(e), label{fmt.Sprint(op.v)})
		}
	case op.kind < 13:
		return l.iterChanging(op.v)
	case op.kind < 14:
		return l.columnsChanging(op.v)
	default:
		return l.stableVisits()
	}
	return ""
}

// iterChanging iterates a query and, as it goes, removes some of the
// entities it yields and creates others in their archetypes: what the
// loop sees then depends on where the archetypes' slices are in memory.
func (l *forkWorld) iterChanging(v int) string {
	var b strings.Builder
	for e := range l.queries[v%len(l.queries)].Iter(l.w) {
		fmt.Fprintf(&b, "%x ", uint64(e.Entity()))
		switch (int(e.Id()) + v) % 4 {
		case 0:
			l.w.Remove(e.Entity())
		case 1:
			l.made = append(l.made, l.w.Create(e.Archetype().ComponentTypes()...))
		case 2:
			l.removeMiddle(e.Entity())
		}
	}
	return b.String()
}

// columnsChanging does as iterChanging with Columns2, reading the values.
func (l *forkWorld) columnsChanging(v int) string {
	var b strings.Builder
	for cols := range donburi.Columns2(bothQuery, l.w, counterC, labelC) {
		for j, e := range cols.Entities {
			n := cols.A[j].N
			fmt.Fprintf(&b, "%x=%d,%s ", uint64(e), n, cols.B[j].S)
			switch (n + j + v) % 4 {
			case 0:
				l.w.Remove(e)
			case 1:
				l.made = append(l.made, l.w.Create(counterC, labelC))
				l.set(len(l.made)-1, n+j)
			case 2:
				l.removeMiddle(e)
			}
		}
	}
	return b.String()
}

// removeMiddle removes the entity in the middle of e's archetype: e, one
// the loop has visited or one it has not, which the removal moves.
func (l *forkWorld) removeMiddle(e donburi.Entity) {
	if l.w.Valid(e) {
		entities := l.w.Entry(e).Archetype().Entities()
		l.w.Remove(entities[len(entities)/2])
	}
}

// stableVisits lists what IterStable visits of each query.
func (l *forkWorld) stableVisits() string {
	var b strings.Builder
	for _, q := range l.queries {
		for e := range q.IterStable(l.w) {
			fmt.Fprintf(&b, "%x ", uint64(e.Entity()))
		}
		b.WriteString("| ")
	}
	return b.String()
}

// state describes l's world: whether each entity made is valid, the last
// ones made (id, version, and the archetype a removed one's entry still
// reads), what each query visits in order with every value, the number of
// entities, and the layout (every entity's id and version).
func (l *forkWorld) state(t *testing.T) string {
	var b strings.Builder
	for _, e := range l.made {
		b.WriteByte("01"[btoi(l.w.Valid(e))])
	}
	for _, e := range l.made[max(0, len(l.made)-32):] {
		fmt.Fprintf(&b, " %x", uint64(e))
		if !l.w.Valid(e) {
			fmt.Fprintf(&b, "-%s", typeNames(l.w.Entry(e).Archetype().ComponentTypes()))
		}
	}
	for _, q := range l.queries {
		b.WriteString("\n")
		for e := range q.Iter(l.w) {
			writeEntry(&b, e)
		}
	}
	fmt.Fprintf(&b, "\nlen %d\n%s", l.w.Len(), describeLayout(mustLayout(t, l.w)))
	return b.String()
}

// writeEntry writes e's entity and its values.
func writeEntry(b *strings.Builder, e *donburi.Entry) {
	b.WriteString(strconv.FormatUint(uint64(e.Entity()), 16))
	if e.HasComponent(counterC) {
		b.WriteString(" n" + strconv.Itoa(counterC.Get(e).N))
	}
	if e.HasComponent(labelC) {
		b.WriteString(" s" + labelC.Get(e).S)
	}
	if e.HasComponent(flagC) {
		b.WriteString(" f" + string(*flagC.Get(e)))
	}
	b.WriteString(", ")
}

func btoi(b bool) int {
	if b {
		return 1
	}
	return 0
}

func typeNames(cts []donburi.IComponentType) string {
	names := make([]string, len(cts))
	for i, ct := range cts {
		names[i] = ct.Name()
	}
	return strings.Join(names, ",")
}

func hexes(es []donburi.Entity) string {
	var b strings.Builder
	for _, e := range es {
		b.WriteString(" " + strconv.FormatUint(uint64(e), 16))
	}
	return b.String()
}

// describeLayout writes every field of l.
func describeLayout(l donburi.WorldLayout) string {
	var b strings.Builder
	for i, a := range l.Archetypes {
		fmt.Fprintf(&b, "%d [%s] capacities %d %d:%s\n", i, typeNames(a.Types), a.Capacity, a.ValuesCapacity, hexes(a.Entities))
	}
	fmt.Fprintf(&b, "freed%s at %v, next id %d", hexes(l.Destroyed), l.DestroyedAt, l.NextId)
	return b.String()
}

func mustLayout(t *testing.T, w donburi.World) donburi.WorldLayout {
	t.Helper()
	l, err := donburi.LayoutOf(w)
	if err != nil {
		t.Fatal(err)
	}
	return l
}

// rebuild makes a world of from's layout, checks it (its layout is the
// one it was built from, its values the types' defaults), and copies
// from's values into it through Values: a save and a load.
func rebuild(t *testing.T, from donburi.World) (donburi.World, donburi.WorldLayout) {
	t.Helper()
	l := mustLayout(t, from)
	w := donburi.NewWorld()
	if err := donburi.BuildWorld(w, l); err != nil {
		t.Fatal(err)
	}
	if got, want := describeLayout(mustLayout(t, w)), describeLayout(l); got != want {
		t.Fatalf("the built world's layout:\n%s\nwant the one it was built from:\n%s", got, want)
	}
	for i, a := range l.Archetypes {
		for _, ct := range a.Types {
			src, dst := donburi.Values(from, i, ct), donburi.Values(w, i, ct)
			if len(src) != len(a.Entities) || len(dst) != len(a.Entities) {
				t.Fatalf("archetype %d, %s: %d and %d values for %d entities", i, ct.Name(), len(src), len(dst), len(a.Entities))
			}
			def := reflect.NewAt(ct.Typ(), ct.New()).Elem()
			for j := range dst {
				v := reflect.NewAt(ct.Typ(), dst[j]).Elem()
				if !reflect.DeepEqual(v.Interface(), def.Interface()) {
					t.Fatalf("archetype %d, %s: built with %v, not its default %v", i, ct.Name(), v, def)
				}
				v.Set(reflect.NewAt(ct.Typ(), src[j]).Elem())
			}
		}
	}
	return w, l
}

// A world built from another's layout, its values copied through Values,
// continues as the other does: driven by the same random operations of
// every kind (entities created alone and many at once, removed so that
// their ids are reused with the next version, given and stripped of
// components, their values set, and loops that create and remove
// entities as they iterate), after each one the two worlds have the same
// entities (ids, versions, valid or not), the same new ids, queries visit
// the same entities in the same order with the same values, and their
// layouts are the same. Worlds are built from the driven one every 100
// operations and followed for 200, over 3,000 (600 under the race
// detector); each layout, kept, is as LayoutOf returned it.
func TestLayoutRebuildsTheWorld(t *testing.T) {
	const every, span = 100, 200
	ops := 3000
	if racetest.Enabled { // the race detector makes it 8 times slower, and the world shares nothing between goroutines
		ops = 600
	}
	lead := newLayoutWorld(donburi.NewWorld(), nil)
	for mask := 1; mask < 1<<len(layoutComps); mask++ {
		lead.create(mask)
	}
	type follower struct {
		*forkWorld
		from   int
		layout donburi.WorldLayout
		saved  string // the layout described when it was taken
	}
	var followers []follower
	rng := rand.New(rand.NewPCG(11, 12))
	for op := range ops {
		if op%every == 0 {
			w, l := rebuild(t, lead.w)
			f := follower{newLayoutWorld(w, lead.made), op, l, describeLayout(l)}
			if got, want := f.state(t), lead.state(t); got != want {
				t.Fatalf("built at operation %d:\n%s", op, firstDifference(got, want))
			}
			followers = append(followers, f)
		}
		if f := followers[0]; op-f.from >= span {
			if describeLayout(f.layout) != f.saved {
				t.Fatalf("the layout taken at operation %d changed with the world", f.from)
			}
			followers = followers[1:]
		}
		o := randomOp(rng, len(lead.made))
		want := lead.do(o) + "\n" + lead.state(t)
		for _, f := range followers {
			if got := f.do(o) + "\n" + f.state(t); got != want {
				t.Fatalf("operation %d (%+v), on the world built at %d:\n%s", op, o, f.from, firstDifference(got, want))
			}
		}
	}
}

// firstDifference shows where got first differs from want.
func firstDifference(got, want string) string {
	i := 0
	for i < len(got) && i < len(want) && got[i] == want[i] {
		i++
	}
	from := max(0, i-200)
	return fmt.Sprintf("got  ...%s\nwant ...%s", got[from:min(len(got), i+200)], want[from:min(len(want), i+200)])
}

// The layout of a fresh world builds a fresh world: no archetype, no
// entity, the first id 1.
func TestLayoutOfAFreshWorld(t *testing.T) {
	w, l := rebuild(t, donburi.NewWorld())
	if len(l.Archetypes) != 0 || len(l.Destroyed) != 0 || l.NextId != 1 {
		t.Fatalf("a fresh world's layout: %s", describeLayout(l))
	}
	if e := w.Create(counterC); e.Id() != 1 || e.Version() != 0 {
		t.Fatalf("the built world's first entity: %v", e)
	}
}

// An archetype's capacities stay within what BuildWorld takes (LayoutOf
// checks its layout as BuildWorld does) as it grows to 20,000 entities,
// created one at a time or moved in one at a time, and are rebuilt.
func TestLayoutCapacities(t *testing.T) {
	w := donburi.NewWorld()
	var last, lastMoved int
	for range 20000 {
		e := w.Entry(w.Create(counterC))
		e.AddComponent(markC()) // moved to the other archetype
		w.Create(counterC)
		a := w.Archetypes()
		if c, m := a[0].Capacity(), a[1].Capacity(); c != last || m != lastMoved {
			last, lastMoved = c, m
			mustLayout(t, w)
		}
	}
	built, l := rebuild(t, w)
	if l.Archetypes[0].Capacity < 20000 || l.Archetypes[1].ValuesCapacity < 20000 {
		t.Fatalf("capacities of 20,000 entities: %s", describeLayout(l)[:100])
	}
	if got, want := newLayoutWorld(built, nil).state(t), newLayoutWorld(w, nil).state(t); got != want {
		t.Fatal(firstDifference(got, want))
	}
}

func markC() donburi.IComponentType { return forkComps[1] }

// Why a layout keeps capacities: a loop that creates an entity in the
// archetype it iterates, then removes another, sees the removal (the last
// entity moved into its place) if the creation appended in place, and the
// removed entity if it moved the slice. A world built with the capacity
// its layout had sees what the first saw; one built with another does not.
func TestLayoutCapacityDecidesWhatALoopSees(t *testing.T) {
	w := donburi.NewWorld()
	w.CreateMany(300, counterC) // capacity 512
	visits := func(w donburi.World) string {
		var b strings.Builder
		for e := range counterC.Iter(w) {
			fmt.Fprintf(&b, "%x ", uint64(e.Entity()))
			if e.Id() == 1 {
				w.Create(counterC)
				w.Remove(w.Archetypes()[0].Entities()[5])
			}
		}
		return b.String()
	}
	same, l := rebuild(t, w)
	other := donburi.NewWorld()
	l.Archetypes[0].Capacity = 300
	if err := donburi.BuildWorld(other, l); err != nil {
		t.Fatal(err)
	}
	want := visits(w)
	if got := visits(same); got != want {
		t.Fatalf("the world built with its capacity:\n%s", firstDifference(got, want))
	}
	if got := visits(other); got == want {
		t.Fatal("a world built with another capacity saw the same")
	}
}
