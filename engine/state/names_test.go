package state_test

import (
	"bytes"
	"fmt"
	"strings"
	"testing"

	"github.com/fixedstep/fixedstep/components"
	"github.com/fixedstep/fixedstep/engine/state"
	"github.com/fixedstep/fixedstep/third_party/donburi"
)

// thingV1, thingV2 are one component type ("Thing") in two places: thingV2
// is thingV1 moved (to another package, as far as the state can tell: its
// Go type is another).
type (
	thingV1 struct{ X, Y float64 }
	thingV2 struct{ X, Y float64 }
)

var (
	thingV1C = donburi.NewComponentType[thingV1]().SetName("Thing")
	thingV2C = donburi.NewComponentType[thingV2]().SetName("Thing")
)

func thingSum(opts *state.Options, ct donburi.IComponentType, set func(*donburi.Entry)) uint64 {
	w := donburi.NewWorld()
	w.Create(components.TransformC)
	set(w.Entry(w.Create(components.TransformC, ct)))
	return state.NewHasher(opts).Sum(w)
}

// A component type is named by its declared name alone: moved to another
// package (another Go type of the same name and fields), it sums as it
// did; with another field value it does not. With Options.PathNames, as
// recordings before format 5, the Go package path and type name count.
func TestStateNamesComponentsByDeclaredName(t *testing.T) {
	v1 := func(e *donburi.Entry) { thingV1C.SetValue(e, thingV1{1, 2}) }
	v2 := func(e *donburi.Entry) { thingV2C.SetValue(e, thingV2{1, 2}) }
	was := thingSum(nil, thingV1C, v1)
	if got := thingSum(nil, thingV2C, v2); got != was {
		t.Errorf("the moved type sums %x, the one it moved from %x", got, was)
	}
	if got := thingSum(nil, thingV2C, func(e *donburi.Entry) { thingV2C.SetValue(e, thingV2{1, 3}) }); got == was {
		t.Error("a field of the moved type does not count")
	}
	paths := &state.Options{PathNames: true}
	if thingSum(paths, thingV1C, v1) == thingSum(paths, thingV2C, v2) {
		t.Error("with PathNames, the Go type does not count")
	}
	if thingSum(paths, thingV1C, v1) == was {
		t.Error("with PathNames, the same sum as by declared names")
	}
}

// Two component types of one name in one world are a panic that names
// both Go types; PathNames (old recordings) tells them apart as it did.
func TestStatePanicsOnTwoComponentTypesOfOneName(t *testing.T) {
	w := donburi.NewWorld()
	w.Create(thingV1C)
	w.Create(thingV2C)
	state.NewHasher(&state.Options{PathNames: true}).Sum(w)
	msg := func() (msg string) {
		defer func() { msg = fmt.Sprint(recover()) }()
		state.NewHasher(nil).Sum(w)
		return ""
	}()
	for _, want := range []string{"engine/state_test.thingV1", "engine/state_test.thingV2", `"Thing"`} {
		if !strings.Contains(msg, want) {
			t.Errorf("the panic %q does not say %s", msg, want)
		}
	}
}

// Item types of two "packages" (named apart by state.Name), and a generic
// component over one of them, held in interfaces.
type (
	item       struct{ N int }
	bagItem    struct{ N int }
	box[T any] struct {
		Held any
		V    T
	}
)

func init() { state.Name[bagItem]("bag.Item") }

// The types of values in interfaces are named by their declared names in
// the dump, and their names count in the sum; a generic component's type
// arguments are written without their package paths.
func TestStateNamesTypesInInterfacesByDeclaredName(t *testing.T) {
	boxC := donburi.NewComponentType[box[item]]()
	sum := func(held any) (uint64, string) {
		w := donburi.NewWorld()
		boxC.SetValue(w.Entry(w.Create(boxC)), box[item]{Held: held})
		var out bytes.Buffer
		h := state.NewHasher(nil)
		if err := h.Dump(w, &out); err != nil {
			t.Fatal(err)
		}
		return h.Sum(w), out.String()
	}
	a, dump := sum(item{1})
	if !strings.Contains(dump, "e1v0 box[item].Held.(item).N = 1\n") {
		t.Errorf("the dump names the types otherwise:\n%s", dump)
	}
	b, dump := sum(bagItem{1})
	if !strings.Contains(dump, "e1v0 box[item].Held.(bag.Item).N = 1\n") {
		t.Errorf("the dump does not name bagItem by its declared name:\n%s", dump)
	}
	if a == b {
		t.Error("two types of one value in an interface, one sum")
	}
	if strings.Contains(dump, "engine/state") {
		t.Errorf("the dump names a package path:\n%s", dump)
	}
}
