package state_test

import (
	"math/rand/v2"
	"testing"

	"github.com/fixedstep/fixedstep/engine/state"
)

// kept is what a scene might keep outside its world: unexported fields, a
// pointer, a slice, a map, a random source by value and a Rand over one.
type kept struct {
	lives  int
	ratio  float64
	name   string
	target *int
	path   []float64
	seen   map[string]int
	pcg    rand.PCG
	cache  []byte `state:"-"`
	any    any
	hook   func()
}

// A ValueHasher sees every field of a kept value as a copy holds it:
// unexported ones, the elements of slices and maps, a random source's
// state, a pointer's address (not what it points to); equal values hash
// equal, and one changed anywhere else hashes differently. It allocates
// nothing once it has met the type.
func TestValueHasherSeesWhatACopyHolds(t *testing.T) {
	h := state.NewValueHasher()
	a, b := 1, 1
	v := kept{lives: 3, ratio: 0.5, name: "x", target: &a, path: []float64{1, 2}, seen: map[string]int{"a": 1, "b": 2},
		pcg: *rand.NewPCG(1, 2), any: 7}
	base := state.SumValue(h, &v)
	w := v
	w.path = []float64{1, 2}                // a new slice of the same elements
	w.seen = map[string]int{"b": 2, "a": 1} // a new map of the same entries
	w.cache = []byte{9}                     // tagged state:"-"
	w.hook = func() {}                      // funcs are skipped
	if got := state.SumValue(h, &w); got != base {
		t.Fatalf("an equal copy hashes %x, the value %x", got, base)
	}
	a = 2 // what the pointer points to: not copied by an assignment
	if got := state.SumValue(h, &v); got != base {
		t.Fatal("a pointer was followed")
	}
	for name, change := range map[string]func(k *kept){
		"unexported int": func(k *kept) { k.lives++ },
		"float bits":     func(k *kept) { k.ratio = -k.ratio },
		"string":         func(k *kept) { k.name = "y" },
		"pointer":        func(k *kept) { k.target = &b },
		"slice element":  func(k *kept) { k.path = []float64{1, 3} },
		"map entry":      func(k *kept) { k.seen = map[string]int{"a": 1, "b": 3} },
		"random source":  func(k *kept) { k.pcg.Uint64() },
		"interface":      func(k *kept) { k.any = 8 },
	} {
		c := v
		change(&c)
		if state.SumValue(h, &c) == base {
			t.Errorf("%s: changed, the same hash", name)
		}
	}
	src := rand.NewPCG(3, 4)
	r := rand.New(src)
	before := state.SumValue(h, src)
	r.Uint64()
	if state.SumValue(h, src) == before {
		t.Error("a PCG drawn from hashes as before")
	}
	if n := testing.AllocsPerRun(100, func() { state.SumValue(h, &v); state.SumValue(h, src) }); n != 0 {
		t.Fatalf("SumValue allocates %v times", n)
	}
}
