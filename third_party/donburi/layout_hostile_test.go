package donburi_test

import (
	"fmt"
	"math"
	"math/rand/v2"
	"reflect"
	"runtime"
	"slices"
	"strings"
	"testing"
	"unsafe"

	"github.com/fixedstep/fixedstep/third_party/donburi"
	"github.com/fixedstep/fixedstep/third_party/donburi/component"
	"github.com/fixedstep/fixedstep/third_party/donburi/filter"
)

const readyBit = 1 << 24 // the flag of a live entity

// smallLayout is the layout of a world of three archetypes, entities
// removed from two of them.
func smallLayout(t *testing.T) donburi.WorldLayout {
	w := donburi.NewWorld()
	w.CreateMany(3, counterC)
	w.CreateMany(2, counterC, markC())
	gone := w.CreateMany(2, forkComps[2], labelC)
	w.Remove(gone[0])
	w.Remove(w.Archetypes()[0].Entities()[1])
	return mustLayout(t, w)
}

func cloneLayout(l donburi.WorldLayout) donburi.WorldLayout {
	c := l
	c.Archetypes = slices.Clone(l.Archetypes)
	for i := range c.Archetypes {
		c.Archetypes[i].Types = slices.Clone(c.Archetypes[i].Types)
		c.Archetypes[i].Entities = slices.Clone(c.Archetypes[i].Entities)
	}
	c.Destroyed, c.DestroyedAt = slices.Clone(l.Destroyed), slices.Clone(l.DestroyedAt)
	return c
}

// fakeType is a component type of another implementation, of any id.
type fakeType struct{ id component.ComponentTypeId }

func (f fakeType) Id() component.ComponentTypeId       { return f.id }
func (f fakeType) New() unsafe.Pointer                 { return unsafe.Pointer(new(int)) }
func (f fakeType) Typ() reflect.Type                   { return reflect.TypeFor[int]() }
func (f fakeType) Name() string                        { return fmt.Sprintf("fake%d", f.id) }
func (f fakeType) NewValueStore() component.ValueStore { return nil }

// tryBuild builds l into w, and reports a panic as an error, and how many
// bytes it allocated.
func tryBuild(w donburi.World, l donburi.WorldLayout) (err error, allocated uint64) {
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	defer func() {
		if r := recover(); r != nil {
			err = fmt.Errorf("panicked: %v", r)
		}
		runtime.ReadMemStats(&after)
		allocated = after.TotalAlloc - before.TotalAlloc
	}()
	return donburi.BuildWorld(w, l), 0
}

// BuildWorld refuses a layout that is no world's, with an error that names
// what is wrong, without panicking or allocating more than a few
// kilobytes, and leaves the world fresh: the right layout then builds it.
func TestBuildWorldRefusesWhatIsNoWorld(t *testing.T) {
	base := smallLayout(t)
	entity := func(id uint32, flags uint64) donburi.Entity { return donburi.Entity(uint64(id)<<32 | flags) }
	for _, c := range []struct {
		name, want string
		change     func(l *donburi.WorldLayout)
	}{
		{"an entity twice", "id 1 live twice", func(l *donburi.WorldLayout) { l.Archetypes[1].Entities[0] = l.Archetypes[0].Entities[0] }},
		{"an entity twice in its archetype", "live twice", func(l *donburi.WorldLayout) { l.Archetypes[1].Entities[1] = l.Archetypes[1].Entities[0] }},
		{"an id at NextId", "not from 1 to NextId-1", func(l *donburi.WorldLayout) { l.Archetypes[0].Entities[0] = entity(l.NextId, readyBit) }},
		{"id 0", "not from 1 to NextId-1", func(l *donburi.WorldLayout) { l.Archetypes[0].Entities[0] = entity(0, readyBit) }},
		{"a freed id at NextId", "freed: entity", func(l *donburi.WorldLayout) { l.Destroyed[0] = entity(l.NextId+5, 0) }},
		{"a freed id live", "both live and freed", func(l *donburi.WorldLayout) { l.Destroyed[0] = l.Archetypes[0].Entities[0] &^ readyBit }},
		{"an id freed twice", "freed twice", func(l *donburi.WorldLayout) { l.Destroyed[1] = l.Destroyed[0] }},
		{"an id neither live nor freed", "every id below NextId", func(l *donburi.WorldLayout) { l.NextId++ }},
		{"NextId below the ids", "every id below NextId", func(l *donburi.WorldLayout) { l.NextId-- }},
		{"NextId 0", "NextId 0", func(l *donburi.WorldLayout) { l.NextId = 0 }},
		{"NextId the largest", "every id below NextId", func(l *donburi.WorldLayout) { l.NextId = 1<<32 - 1 }},
		{"a live entity not ready", "live, not flagged ready", func(l *donburi.WorldLayout) { l.Archetypes[0].Entities[0] &^= readyBit }},
		{"a freed entity ready", "freed, flagged ready", func(l *donburi.WorldLayout) { l.Destroyed[0] |= readyBit }},
		{"stray bits", "bits set outside", func(l *donburi.WorldLayout) { l.Archetypes[2].Entities[0] |= 1 << 30 }},
		{"the same types as another", "archetype 1: the same component types as archetype 0", func(l *donburi.WorldLayout) {
			l.Archetypes[0].Types = []donburi.IComponentType{markC(), counterC}
		}},
		{"a type twice", "archetype 1: counter twice", func(l *donburi.WorldLayout) { l.Archetypes[1].Types[1] = counterC }},
		{"a nil type", "a nil component type", func(l *donburi.WorldLayout) { l.Archetypes[2].Types[0] = nil }},
		{"a nil pointer type", "a nil component type", func(l *donburi.WorldLayout) { l.Archetypes[2].Types[0] = (*donburi.ComponentType[label])(nil) }},
		{"no types", "archetype 0: no component type", func(l *donburi.WorldLayout) { l.Archetypes[0].Types = nil }},
		{"two types of one id", "two component types of the one id", func(l *donburi.WorldLayout) { l.Archetypes[2].Types[0] = fakeType{counterC.Id()} }},
		{"a negative type id", "negative id", func(l *donburi.WorldLayout) { l.Archetypes[2].Types[0] = fakeType{-1} }},
		{"a capacity below the entities", "capacity 1, below its 2 entities", func(l *donburi.WorldLayout) { l.Archetypes[0].Capacity = 1 }},
		{"a capacity below a new archetype's", "or 256", func(l *donburi.WorldLayout) { l.Archetypes[0].Capacity = 255 }},
		{"a huge capacity", "more than ids below", func(l *donburi.WorldLayout) { l.Archetypes[0].Capacity = math.MaxInt }},
		{"values' capacity below the entities", "values' capacity 0", func(l *donburi.WorldLayout) { l.Archetypes[1].ValuesCapacity = 0 }},
		{"a huge values' capacity", "more than ids below", func(l *donburi.WorldLayout) { l.Archetypes[1].ValuesCapacity = math.MaxInt }},
		{"places missing", "1 places for 2 freed ids", func(l *donburi.WorldLayout) { l.DestroyedAt = l.DestroyedAt[:1] }},
		{"a place past the archetypes", "outside the world", func(l *donburi.WorldLayout) { l.DestroyedAt[0].Archetype = 3 }},
		{"a negative place", "outside the world", func(l *donburi.WorldLayout) { l.DestroyedAt[1].Index = -1 }},
		{"a place past the ids", "outside the world", func(l *donburi.WorldLayout) { l.DestroyedAt[1].Index = math.MaxInt }},
	} {
		l := cloneLayout(base)
		c.change(&l)
		w := donburi.NewWorld()
		err, allocated := tryBuild(w, l)
		switch {
		case err == nil:
			t.Errorf("%s: built", c.name)
		case strings.Contains(err.Error(), "panicked"):
			t.Errorf("%s: %v", c.name, err)
		case !strings.Contains(err.Error(), c.want):
			t.Errorf("%s: %q, not naming %q", c.name, err, c.want)
		case allocated > 16<<10:
			t.Errorf("%s: %d bytes allocated", c.name, allocated)
		}
		if err := donburi.BuildWorld(w, base); err != nil {
			t.Errorf("%s: the world refused, then the right layout: %v", c.name, err)
		}
	}
}

// BuildWorld takes only a world fresh from NewWorld, and LayoutOf, Values
// and BuildWorld only donburi's worlds.
func TestBuildWorldRefusesAWorldNotFresh(t *testing.T) {
	l := smallLayout(t)
	made := donburi.NewWorld()
	made.Create(counterC)
	removed := donburi.NewWorld()
	removed.Remove(removed.Create(counterC))
	archetype := donburi.NewWorld()
	archetype.CreateMany(0, counterC)
	built := donburi.NewWorld()
	if err := donburi.BuildWorld(built, l); err != nil {
		t.Fatal(err)
	}
	for name, w := range map[string]donburi.World{"an entity made": made, "an entity made and removed": removed, "an archetype made": archetype, "built": built} {
		if err := donburi.BuildWorld(w, l); err == nil || !strings.Contains(err.Error(), "not fresh") {
			t.Errorf("a world with %s: %v", name, err)
		}
	}
	other := struct{ donburi.World }{donburi.NewWorld()}
	if _, err := donburi.LayoutOf(other); err == nil {
		t.Error("LayoutOf of another World: no error")
	}
	if err := donburi.BuildWorld(other, l); err == nil {
		t.Error("BuildWorld of another World: no error")
	}
	for _, v := range [][]unsafe.Pointer{donburi.Values(other, 0, counterC), donburi.Values(built, 3, counterC),
		donburi.Values(built, -1, counterC), donburi.Values(built, 0, labelC), donburi.Values(built, 0, nil)} {
		if v != nil {
			t.Errorf("Values of no archetype or type: %v", v)
		}
	}
}

// Layouts of worlds driven at random, changed at random (ids, versions and
// flags, NextId, capacities, types, places, entities moved or dropped):
// BuildWorld refuses each or builds a world whose layout is the one given
// and that then takes random operations, its layout checked after each;
// it never panics. (A fuzz target would be listed in scripts/fuzz.sh.)
func TestBuildWorldRefusesOrBuildsChangedLayouts(t *testing.T) {
	rng := rand.New(rand.NewPCG(21, 22))
	built := 0
	for round := range 400 {
		src := newLayoutWorld(donburi.NewWorld(), nil)
		for mask := 1; mask < 1<<len(layoutComps); mask += 1 + rng.IntN(6) {
			src.create(mask)
		}
		for range rng.IntN(60) {
			src.do(randomOp(rng, len(src.made)))
		}
		l := mustLayout(t, src.w)
		for range 1 + rng.IntN(3) {
			changeLayout(rng, &l)
		}
		w := donburi.NewWorld()
		err, _ := tryBuild(w, l)
		if err != nil {
			if strings.Contains(err.Error(), "panicked") {
				t.Fatalf("round %d: %v\n%s", round, err, describeLayout(l))
			}
			continue
		}
		built++
		if got, want := describeLayout(mustLayout(t, w)), describeLayout(l); got != want {
			t.Fatalf("round %d: built\n%s\nfrom\n%s", round, got, want)
		}
		made := slices.Clone(l.Destroyed) // entities removed, which operations skip
		for _, a := range l.Archetypes {
			made = append(made, a.Entities...)
		}
		if len(made) == 0 {
			continue
		}
		driven := newLayoutWorld(w, made)
		for range 30 {
			driven.do(randomOp(rng, len(driven.made)))
			mustLayout(t, w)
		}
	}
	if built < 40 || built > 360 {
		t.Fatalf("%d of 400 changed layouts built: the changes are too tame or too wild to test both ways", built)
	}
}

// changeLayout makes one random change to l, which may or may not leave it
// a world's.
func changeLayout(rng *rand.Rand, l *donburi.WorldLayout) {
	a := &l.Archetypes[rng.IntN(len(l.Archetypes))]
	bit := donburi.Entity(1) << rng.IntN(64)
	switch rng.IntN(9) {
	case 0:
		if len(a.Entities) > 0 {
			a.Entities[rng.IntN(len(a.Entities))] ^= bit
		}
	case 1:
		if len(l.Destroyed) > 0 {
			l.Destroyed[rng.IntN(len(l.Destroyed))] ^= bit
		}
	case 2:
		l.NextId += uint32(rng.IntN(3)) - 1
	case 3:
		a.Capacity = []int{0, len(a.Entities), 255, 256, 300, 1 << 20, a.Capacity + 1}[rng.IntN(7)]
	case 4:
		a.ValuesCapacity = []int{0, len(a.Entities), len(a.Entities) + 1, 1 << 20}[rng.IntN(4)]
	case 5:
		a.Types[rng.IntN(len(a.Types))] = append(slices.Clone(layoutComps), nil)[rng.IntN(len(layoutComps)+1)]
	case 6:
		if len(l.DestroyedAt) > 0 {
			l.DestroyedAt[rng.IntN(len(l.DestroyedAt))] = donburi.Place{Archetype: rng.IntN(len(l.Archetypes) + 1), Index: rng.IntN(int(l.NextId) + 1)}
		}
	case 7: // an entity moved to another archetype, or to the freed ids
		if len(a.Entities) > 0 {
			i := rng.IntN(len(a.Entities))
			e := a.Entities[i]
			a.Entities = slices.Delete(a.Entities, i, i+1)
			if to := &l.Archetypes[rng.IntN(len(l.Archetypes))]; rng.IntN(2) == 0 {
				to.Entities = append(to.Entities, e)
			} else {
				l.Destroyed = append(l.Destroyed, (e+1)&^readyBit)
				l.DestroyedAt = append(l.DestroyedAt, donburi.Place{})
			}
		}
	default: // two entities swapped
		if len(a.Entities) > 1 {
			i, j := rng.IntN(len(a.Entities)), rng.IntN(len(a.Entities))
			a.Entities[i], a.Entities[j] = a.Entities[j], a.Entities[i]
		}
	}
}

// Bytes is about what BuildWorld allocates, for a layout as LayoutOf
// returns it and for one that claims the largest capacities BuildWorld
// takes, and saturates for capacities past any memory.
func TestLayoutBytes(t *testing.T) {
	src := newLayoutWorld(donburi.NewWorld(), nil)
	for mask := 1; mask < 1<<len(layoutComps); mask++ {
		src.create(mask)
	}
	rng := rand.New(rand.NewPCG(31, 32))
	for range 300 {
		src.do(randomOp(rng, len(src.made)))
	}
	l := mustLayout(t, src.w)
	greedy := cloneLayout(l)
	for i := range greedy.Archetypes {
		greedy.Archetypes[i].Capacity = 2*int(l.NextId) + 2048
		greedy.Archetypes[i].ValuesCapacity = 2*int(l.NextId) + 2048
	}
	for name, l := range map[string]donburi.WorldLayout{"as LayoutOf returns it": l, "with the largest capacities": greedy} {
		err, allocated := tryBuild(donburi.NewWorld(), l)
		if b := l.Bytes(); err != nil || 4*allocated < 3*b || 2*allocated > 3*b {
			t.Errorf("a layout %s: Bytes %d, BuildWorld allocated %d (%v)", name, b, allocated, err)
		}
	}
	// Past any memory: saturated where an int reaches past the bytes a
	// uint64 counts, beyond the address space on a 32-bit CPU.
	greedy.Archetypes[0].ValuesCapacity = math.MaxInt
	if b := greedy.Bytes(); b != math.MaxUint64 && b <= math.MaxUint {
		t.Errorf("Bytes of a capacity past any memory: %d", b)
	}
}

// A world cleared is as fresh as a new one: BuildWorld makes it into a
// layout, its queries see the built world (not what they cached), its id
// and callbacks are its own still.
func TestClearWorldMakesItFresh(t *testing.T) {
	l := smallLayout(t)
	w := donburi.NewWorld()
	removed := 0
	w.OnRemove(func(donburi.World, donburi.Entity) { removed++ })
	for range 5 {
		w.Create(labelC)
	}
	id, q := w.Id(), donburi.NewQuery(filter.Contains(labelC))
	if n := q.Count(w); n != 5 {
		t.Fatalf("%d labels before", n)
	}
	if err := donburi.ClearWorld(w); err != nil {
		t.Fatal(err)
	}
	if w.Len() != 0 || q.Count(w) != 0 || w.Id() != id {
		t.Fatalf("cleared: %d entities, %d labels, id %d (was %d)", w.Len(), q.Count(w), w.Id(), id)
	}
	if err := donburi.BuildWorld(w, l); err != nil {
		t.Fatal(err)
	}
	got, err := donburi.LayoutOf(w)
	if err != nil || !reflect.DeepEqual(got, l) {
		t.Fatalf("built after a clear: %+v (%v), want %+v", got, err, l)
	}
	w.Remove(l.Archetypes[0].Entities[0])
	if removed != 1 {
		t.Fatalf("the OnRemove callback ran %d times, want 1", removed)
	}
	if err := donburi.ClearWorld(struct{ donburi.World }{w}); err == nil {
		t.Fatal("ClearWorld of another World: no error")
	}
}
