package state_test

import (
	"bytes"
	"errors"
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"github.com/fixedstep/fixedstep/engine/state"
	"github.com/fixedstep/fixedstep/third_party/donburi"
	"github.com/fixedstep/fixedstep/third_party/donburi/features/events"
	"github.com/fixedstep/fixedstep/third_party/donburi/filter"
)

type wbPos struct{ X, Y float64 }

type wbBag struct {
	Items  []string
	Counts map[string]int
	Shape  codecShape
	last   int32
}

type wbHealth int32

var (
	wbPosC    = donburi.NewComponentType[wbPos]()
	wbBagC    = donburi.NewComponentType[wbBag]()
	wbHealthC = donburi.NewComponentType[wbHealth]()
	wbBallC   = donburi.NewTag("wbBall")
	wbTypes   = []donburi.IComponentType{wbPosC, wbBagC, wbHealthC, wbBallC}
	wbAll     = donburi.NewQuery(filter.Contains()) // every entity
)

// wbDriver changes a world as a game does, by seeded random operations:
// entities made with some of the types, removed (so that ids are reused
// with new versions), given and stripped of components, their values set.
type wbDriver struct {
	rng *rand.Rand
}

func (d *wbDriver) step(w donburi.World) {
	var live []donburi.Entity
	wbAll.Each(w, func(e *donburi.Entry) { live = append(live, e.Entity()) })
	switch op := d.rng.IntN(10); {
	case op < 4 || len(live) == 0:
		var cts []donburi.IComponentType
		for _, ct := range wbTypes {
			if d.rng.IntN(2) == 0 {
				cts = append(cts, ct)
			}
		}
		if len(cts) == 0 {
			cts = append(cts, wbPosC)
		}
		d.set(w.Entry(w.Create(cts...)))
	case op < 6:
		w.Remove(live[d.rng.IntN(len(live))])
	case op < 8:
		e := w.Entry(live[d.rng.IntN(len(live))])
		ct := wbTypes[d.rng.IntN(len(wbTypes))]
		if e.HasComponent(ct) {
			if len(e.Archetype().ComponentTypes()) > 1 {
				e.RemoveComponent(ct)
			}
		} else {
			e.AddComponent(ct)
		}
		d.set(e)
	default:
		d.set(w.Entry(live[d.rng.IntN(len(live))]))
	}
}

// set gives e's components new values.
func (d *wbDriver) set(e *donburi.Entry) {
	if e.HasComponent(wbPosC) {
		*wbPosC.Get(e) = wbPos{d.rng.Float64(), -d.rng.Float64()}
	}
	if e.HasComponent(wbBagC) {
		b := wbBagC.Get(e)
		b.Items = append(b.Items, strings.Repeat("i", d.rng.IntN(4)))
		if b.Counts == nil {
			b.Counts = map[string]int{}
		}
		b.Counts[b.Items[len(b.Items)-1]]++
		b.last = int32(d.rng.IntN(100))
		if d.rng.IntN(2) == 0 {
			b.Shape = codecDot{R: float32(d.rng.IntN(9)), tags: []string{"t"}}
		} else {
			b.Shape = nil
		}
	}
	if e.HasComponent(wbHealthC) {
		*wbHealthC.Get(e) = wbHealth(d.rng.IntN(100))
	}
}

// A world written as bytes and read into a fresh world is the same world:
// the same checksum and dump, the same bytes again, and, driven on by the
// same operations, the same entities made (reused ids and versions
// included), visited in the same order, with the same values.
func TestWorldBytesRoundTrip(t *testing.T) {
	w := donburi.NewWorld()
	d := &wbDriver{rand.New(rand.NewPCG(1, 2))}
	for round := range 10 {
		for range 100 {
			d.step(w)
		}
		b, err := state.AppendWorld(nil, w, nil)
		if err != nil {
			t.Fatal(err)
		}
		w2 := donburi.NewWorld()
		rest, err := state.ReadWorld(b, w2, nil)
		if err != nil || len(rest) != 0 {
			t.Fatalf("round %d: ReadWorld: %v (%d bytes left)", round, err, len(rest))
		}
		sameWorlds(t, w, w2, "read back", true)
		if again, err := state.AppendWorld(nil, w2, nil); err != nil || !bytes.Equal(again, b) {
			t.Fatalf("round %d: the world read back writes other bytes (%v)", round, err)
		}
		// Both driven on alike stay alike.
		d1, d2 := &wbDriver{rand.New(rand.NewPCG(uint64(round), 9))}, &wbDriver{rand.New(rand.NewPCG(uint64(round), 9))}
		for i := range 100 {
			d1.step(w)
			d2.step(w2)
			sameWorlds(t, w, w2, fmt.Sprintf("round %d, operation %d", round, i+1), i == 99)
		}
	}
}

// sameWorlds fails unless a and b hold the same entities, visited in the
// same order, with the same values (and, with dump, the same dump).
func sameWorlds(t *testing.T, a, b donburi.World, when string, dump bool) {
	t.Helper()
	if sa, sb := state.Checksum(a), state.Checksum(b); sa != sb {
		t.Fatalf("%s: checksums %x and %x", when, sa, sb)
	}
	if dump {
		var da, db bytes.Buffer
		state.Dump(a, &da)
		state.Dump(b, &db)
		if da.String() != db.String() {
			t.Fatalf("%s: dumps differ:\n%s\n---\n%s", when, da.String(), db.String())
		}
	}
	order := func(w donburi.World) []donburi.Entity {
		var es []donburi.Entity
		wbAll.Each(w, func(e *donburi.Entry) { es = append(es, e.Entity()) })
		return es
	}
	if oa, ob := order(a), order(b); !slices.Equal(oa, ob) {
		t.Fatalf("%s: visited in two orders:\n%v\n%v", when, oa, ob)
	}
	if a.Len() != b.Len() {
		t.Fatalf("%s: %d and %d entities", when, a.Len(), b.Len())
	}
}

// What a world's bytes cannot hold is an error naming it: a pointer in a
// component, with its entity and field.
func TestWorldBytesRefusedByName(t *testing.T) {
	type wbSprite struct {
		Name  string
		Image *int
	}
	spriteC := donburi.NewComponentType[wbSprite]()
	w := donburi.NewWorld()
	w.Create(spriteC)
	img := 1
	e := w.Create(spriteC)
	spriteC.Get(w.Entry(e)).Image = &img
	_, err := state.AppendWorld(nil, w, nil)
	var ve *state.ValueError
	if !errors.As(err, &ve) || !errors.Is(err, state.ErrPointer) || ve.Path != ".Image" || !strings.Contains(ve.Type, "wbSprite of entity e2v") {
		t.Fatalf("a pointer: %v", err)
	}
}

var wbMoved = events.NewEventType[wbPos]().SetName("wbMoved")

// An event bus is written with the events queued in it: a world read has
// them, and delivers them to the subscribers the first world had once
// they are given (events.SubscribersOf); its checksum is the first's.
func TestWorldBytesEventBus(t *testing.T) {
	w := donburi.NewWorld()
	var got []wbPos
	wbMoved.Subscribe(w, func(_ donburi.World, p wbPos) { got = append(got, p) })
	w.Create(wbPosC)
	wbMoved.Publish(w, wbPos{1, 2})
	wbMoved.Publish(w, wbPos{3, 4})
	b, err := state.AppendWorld(nil, w, nil)
	if err != nil {
		t.Fatal(err)
	}
	r := donburi.NewWorld()
	if rest, err := state.ReadWorld(b, r, nil); err != nil || len(rest) != 0 {
		t.Fatalf("%d bytes left, %v", len(rest), err)
	}
	if a, c := state.NewHasher(nil).Sum(w), state.NewHasher(nil).Sum(r); a != c {
		t.Fatalf("checksums %x and %x", a, c)
	}
	if err := events.SubscribersOf(w).Give(r); err != nil {
		t.Fatal(err)
	}
	events.ProcessAllEvents(r)
	if !slices.Equal(got, []wbPos{{1, 2}, {3, 4}}) {
		t.Fatalf("the world read delivered %v", got)
	}
	again, err := state.AppendWorld(nil, r, nil)
	if err != nil {
		t.Fatal(err)
	}
	if c, err := state.AppendWorld(nil, w, nil); err != nil || bytes.Equal(again, c) {
		t.Fatal("the world read, its events processed, still writes the first's queue")
	}
}

// Damaged or forged bytes are an error, never a panic or a world read
// wrong: every truncation, every byte changed in turn, a component type
// this program does not have, and one whose fields changed.
func TestWorldBytesDamaged(t *testing.T) {
	w := donburi.NewWorld()
	d := &wbDriver{rand.New(rand.NewPCG(3, 4))}
	for range 60 {
		d.step(w)
	}
	b, err := state.AppendWorld(nil, w, nil)
	if err != nil {
		t.Fatal(err)
	}
	for n := range len(b) {
		if _, err := state.ReadWorld(b[:n], donburi.NewWorld(), nil); err == nil {
			t.Fatalf("%d of %d bytes read as a whole world", n, len(b))
		}
	}
	for i := range b {
		for _, x := range []byte{0, 1, 0x80, 0xff} {
			c := bytes.Clone(b)
			c[i] ^= x
			state.ReadWorld(c, donburi.NewWorld(), nil) // an error or a world; no panic
		}
	}
	name := []byte("wbHealth")
	i := bytes.Index(b, name)
	if i < 0 {
		t.Fatal("no wbHealth in the bytes")
	}
	c := bytes.Clone(b)
	c[i+2] = 'X'
	if _, err := state.ReadWorld(c, donburi.NewWorld(), nil); err == nil || !strings.Contains(err.Error(), `"wbXealth"`) {
		t.Fatalf("an unknown component type: %v", err)
	}
	c = bytes.Clone(b)
	c[i+len(name)] ^= 1 // the layout hash after the name
	if _, err := state.ReadWorld(c, donburi.NewWorld(), nil); err == nil || !strings.Contains(err.Error(), "wbHealth: its fields") {
		t.Fatalf("a component type of other fields: %v", err)
	}
}

// FuzzReadWorld reads any bytes as a world: an error, or a world whose
// bytes are the bytes read.
func FuzzReadWorld(f *testing.F) {
	w := donburi.NewWorld()
	d := &wbDriver{rand.New(rand.NewPCG(5, 6))}
	for range 40 {
		d.step(w)
	}
	b, err := state.AppendWorld(nil, w, nil)
	if err != nil {
		f.Fatal(err)
	}
	f.Add(b)
	f.Fuzz(func(t *testing.T, b []byte) {
		w := donburi.NewWorld()
		rest, err := state.ReadWorld(b, w, nil)
		if err != nil {
			return
		}
		again, err := state.AppendWorld(nil, w, nil)
		if err != nil {
			t.Fatalf("a world read cannot be written: %v", err)
		}
		if used := b[:len(b)-len(rest)]; !bytes.Equal(again, used) {
			t.Fatalf("read %x, wrote %x", used, again)
		}
	})
}

type wbTwinA struct{ X float64 }
type wbTwinB struct{ Name string }

var (
	wbTwinAC  = donburi.NewComponentType[wbTwinA]().SetName("wbTwin")
	wbTwinBC  = donburi.NewComponentType[wbTwinB]().SetName("wbTwin")
	wbTwinB2C = donburi.NewComponentType[wbTwinB]().SetName("wbTwin2")
	wbTwinB3C = donburi.NewComponentType[wbTwinB]().SetName("wbTwin2")
)

// Two component types of one name (of two packages: no world holds both)
// are told apart by their fields; two of one name and the same fields are
// an error naming them.
func TestWorldBytesTwinNames(t *testing.T) {
	for _, ct := range []donburi.IComponentType{wbTwinAC, wbTwinBC} {
		w := donburi.NewWorld()
		w.Create(ct)
		b, err := state.AppendWorld(nil, w, nil)
		if err != nil {
			t.Fatal(err)
		}
		r := donburi.NewWorld()
		if _, err := state.ReadWorld(b, r, nil); err != nil {
			t.Fatal(err)
		}
		if r.Archetypes()[0].ComponentTypes()[0] != ct {
			t.Fatalf("%s read as %s", ct.Typ(), r.Archetypes()[0].ComponentTypes()[0].Typ())
		}
	}
	w := donburi.NewWorld()
	w.Create(wbTwinB2C)
	b, err := state.AppendWorld(nil, w, nil)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := state.ReadWorld(b, donburi.NewWorld(), nil); err == nil || !strings.Contains(err.Error(), `all named "wbTwin2"`) {
		t.Fatalf("two types of one name and one layout: %v", err)
	}
}
