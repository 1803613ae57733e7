package donburi_test

import (
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"

	upstream "github.com/yohamta/donburi"
	upfilter "github.com/yohamta/donburi/filter"

	"github.com/fixedstep/fixedstep/internal/forkcheck"
	"github.com/fixedstep/fixedstep/third_party/donburi"
	"github.com/fixedstep/fixedstep/third_party/donburi/filter"
)

// Every file of upstream donburi (the version go.mod pins, from the module
// cache) is in this copy, the same after the rewrites FORK.md describes,
// or named in FORK.md's table as changed or not copied; every file of the
// copy that upstream does not have is named there as new. Upstream's own
// tests are so kept, and run with this package's.
func TestFilesAsUpstream(t *testing.T) {
	forkcheck.Test(t, forkcheck.Fork{
		Upstream: "github.com/yohamta/donburi",
		Version:  "v1.15.8",
		Copy:     "github.com/fixedstep/fixedstep/third_party/donburi",
		Dir:      ".",
		Rewrites: forkcheck.Rewrites{Rounding: true},
	})
}

// worldLib is what TestWorldAsUpstream does with a donburi.
type worldLib interface {
	create(mask int) // an entity with the components of mask's bits 0, 1, 2 (one at least)
	remove(i int)    // the i-th entity made, if it is still there
	toggle(i, c int) // add or remove component c of the i-th entity
	set(i, v int)    // component 0's value of the i-th entity, if it has one
	trace() string   // each query's entities, in order, with their component 0
}

type counter struct{ N int }
type markA struct{}
type markB struct{}

var (
	forkComps = []donburi.IComponentType{donburi.NewComponentType[counter](), donburi.NewComponentType[markA](), donburi.NewComponentType[markB]()}
	upComps   = []upstream.IComponentType{upstream.NewComponentType[counter](), upstream.NewComponentType[markA](), upstream.NewComponentType[markB]()}
)

type forkWorld struct {
	w       donburi.World
	comps   []donburi.IComponentType // create's mask bits and toggle's c: forkComps, or more (layout_test.go)
	made    []donburi.Entity
	queries []*donburi.Query
}

func newForkWorld() *forkWorld {
	return &forkWorld{w: donburi.NewWorld(), comps: forkComps, queries: []*donburi.Query{
		donburi.NewQuery(filter.Contains(forkComps[0])),
		donburi.NewQuery(filter.And(filter.Contains(forkComps[1]), filter.Not(filter.Contains(forkComps[2])))),
		donburi.NewQuery(filter.Or(filter.Contains(forkComps[1]), filter.Contains(forkComps[2]))),
	}}
}

func (l *forkWorld) create(mask int) {
	l.made = append(l.made, l.w.Create(l.types(mask)...))
}

// types returns the components of mask's bits.
func (l *forkWorld) types(mask int) []donburi.IComponentType {
	var cs []donburi.IComponentType
	for c := range l.comps {
		if mask&(1<<c) != 0 {
			cs = append(cs, l.comps[c])
		}
	}
	return cs
}

func (l *forkWorld) remove(i int) {
	if l.w.Valid(l.made[i]) {
		l.w.Remove(l.made[i])
	}
}

func (l *forkWorld) toggle(i, c int) {
	if !l.w.Valid(l.made[i]) {
		return
	}
	e := l.w.Entry(l.made[i])
	if e.HasComponent(l.comps[c]) {
		if len(e.Archetype().Layout().Components()) > 1 { // an entity keeps a component
			e.RemoveComponent(l.comps[c])
		}
	} else {
		e.AddComponent(l.comps[c])
	}
}

func (l *forkWorld) set(i, v int) {
	if l.w.Valid(l.made[i]) && l.w.Entry(l.made[i]).HasComponent(forkComps[0]) {
		donburi.SetValue(l.w.Entry(l.made[i]), forkComps[0], counter{v})
	}
}

func (l *forkWorld) trace() string {
	var b strings.Builder
	for _, q := range l.queries {
		for e := range q.Iter(l.w) {
			fmt.Fprintf(&b, "%x", uint64(e.Entity()))
			if e.HasComponent(forkComps[0]) {
				fmt.Fprintf(&b, "=%d", donburi.Get[counter](e, forkComps[0]).N)
			}
			b.WriteByte(' ')
		}
		b.WriteString("| ")
	}
	fmt.Fprintf(&b, "%d", l.w.Len())
	return b.String()
}

type upWorld struct {
	w       upstream.World
	made    []upstream.Entity
	queries []*upstream.Query
}

func newUpWorld() *upWorld {
	return &upWorld{w: upstream.NewWorld(), queries: []*upstream.Query{
		upstream.NewQuery(upfilter.Contains(upComps[0])),
		upstream.NewQuery(upfilter.And(upfilter.Contains(upComps[1]), upfilter.Not(upfilter.Contains(upComps[2])))),
		upstream.NewQuery(upfilter.Or(upfilter.Contains(upComps[1]), upfilter.Contains(upComps[2]))),
	}}
}

func (l *upWorld) create(mask int) {
	var cs []upstream.IComponentType
	for c := range upComps {
		if mask&(1<<c) != 0 {
			cs = append(cs, upComps[c])
		}
	}
	l.made = append(l.made, l.w.Create(cs...))
}

func (l *upWorld) remove(i int) {
	if l.w.Valid(l.made[i]) {
		l.w.Remove(l.made[i])
	}
}

func (l *upWorld) toggle(i, c int) {
	if !l.w.Valid(l.made[i]) {
		return
	}
	e := l.w.Entry(l.made[i])
	if e.HasComponent(upComps[c]) {
		if len(e.Archetype().Layout().Components()) > 1 { // an entity keeps a component
			e.RemoveComponent(upComps[c])
		}
	} else {
		e.AddComponent(upComps[c])
	}
}

func (l *upWorld) set(i, v int) {
	if l.w.Valid(l.made[i]) && l.w.Entry(l.made[i]).HasComponent(upComps[0]) {
		upstream.SetValue(l.w.Entry(l.made[i]), upComps[0], counter{v})
	}
}

func (l *upWorld) trace() string {
	var b strings.Builder
	for _, q := range l.queries {
		for e := range q.Iter(l.w) {
			fmt.Fprintf(&b, "%x", uint64(e.Entity()))
			if e.HasComponent(upComps[0]) {
				fmt.Fprintf(&b, "=%d", upstream.Get[counter](e, upComps[0]).N)
			}
			b.WriteByte(' ')
		}
		b.WriteString("| ")
	}
	fmt.Fprintf(&b, "%d", l.w.Len())
	return b.String()
}

// Driven by the same seeded operations (entities made with components,
// removed, given and stripped of components, their values set), this copy
// and upstream donburi give the same entities (ids and versions, reused
// ids included), the same query results in the same order, and the same
// values, after every operation: what the engine's state hash and its
// snapshots rely on.
func TestWorldAsUpstream(t *testing.T) {
	libs := []worldLib{newForkWorld(), newUpWorld()}
	// An entity of every archetype first: upstream panics, index out of
	// range in createEntity, when an entity is created in an archetype
	// that an AddComponent or RemoveComponent made (Components.Move counts
	// an archetype's first entity as its second); this copy does not
	// (TestCreateAfterAMoveMadeTheArchetype).
	made := 0
	for mask := 1; mask < 8; mask++ {
		for _, l := range libs {
			l.create(mask)
		}
		made++
	}
	rng := rand.New(rand.NewPCG(7, 0))
	for op := range 1000 {
		kind, i, c, v := rng.IntN(10), rng.IntN(made), rng.IntN(3), rng.IntN(1000)
		for _, l := range libs {
			switch {
			case kind < 3:
				l.create(1 + v%7)
			case kind < 5:
				l.remove(i)
			case kind < 8:
				l.toggle(i, c)
			default:
				l.set(i, v)
			}
		}
		if kind < 3 {
			made++
		}
		if a, b := libs[0].trace(), libs[1].trace(); a != b {
			t.Fatalf("after operation %d (kind %d):\nthis copy: %s\nupstream:  %s", op, kind, a, b)
		}
	}
}

// An entity created in an archetype that a move made (here RemoveComponent)
// is created, where upstream panicked, index out of range in createEntity:
// both entities are then in that archetype, each with its own value.
func TestCreateAfterAMoveMadeTheArchetype(t *testing.T) {
	w := donburi.NewWorld()
	counterC, markC := forkComps[0].(*donburi.ComponentType[counter]), forkComps[1]
	first := w.Entry(w.Create(counterC, markC))
	counterC.SetValue(first, counter{N: 1})
	first.RemoveComponent(markC) // the archetype of counter alone, made by a move
	second := w.Entry(w.Create(counterC))
	counterC.SetValue(second, counter{N: 2})
	var got []int
	donburi.NewQuery(filter.And(filter.Contains(counterC), filter.Not(filter.Contains(markC)))).Each(w, func(e *donburi.Entry) {
		got = append(got, counterC.Get(e).N)
	})
	if fmt.Sprint(got) != "[1 2]" {
		t.Fatalf("the counter-only archetype holds %v, want [1 2]", got)
	}
}
