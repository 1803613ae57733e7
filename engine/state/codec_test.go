package state_test

import (
	"bytes"
	"errors"
	"math"
	"reflect"
	"runtime"
	"strings"
	"testing"

	"github.com/fixedstep/fixedstep/engine/state"
	"github.com/fixedstep/fixedstep/third_party/donburi"
)

// codecShape and codecLine are types held in an interface, named so that
// a fresh process can read them back.
type codecShape interface{ area() float64 }

type codecLine struct{ From, To [2]float64 }

func (l codecLine) area() float64 { return 0 }

type codecDot struct {
	R    float32
	tags []string
}

func (d codecDot) area() float64 { return float64(d.R) }

func init() {
	state.Name[codecLine]("codecLine")
	state.Name[codecDot]("codecDot")
}

// codecAll holds a field of every kind the codec writes, exported and not.
type codecAll struct {
	B        bool
	i8       int8
	I16      int16
	I32      int32
	I        int
	U8       uint8
	U16      uint16
	u32      uint32
	U        uint
	Ptr      uintptr
	F32      float32
	F64      float64
	C64      complex64
	C128     complex128
	S        string
	Arr      [3]int16
	Bools    [2]bool
	Bytes    []byte
	Nil      []int
	Empty    []int
	Nested   []codecLine
	Strs     []string
	M        map[string]int
	NilMap   map[int]bool
	Keyed    map[[2]int]codecLine
	Shape    codecShape
	Shapes   []codecShape
	NoShape  codecShape
	E        donburi.Entity
	Zero     struct{}
	Zeros    []struct{}
	Cache    []int `state:"-"`
	NilPtr   *int
	NilFunc  func()
	Inner    struct{ A, b float64 }
	Embedded codecLine
}

func richValue() codecAll {
	return codecAll{
		B: true, i8: -8, I16: -1600, I32: math.MinInt32, I: math.MinInt, U8: 200, U16: 60000, u32: 1 << 31,
		U: math.MaxUint, Ptr: 12345, F32: float32(math.Inf(-1)), F64: math.Float64frombits(0x7ff8000000000001),
		C64: complex(1.5, -2), C128: complex(math.SmallestNonzeroFloat64, math.MaxFloat64),
		S: "héllo\x00", Arr: [3]int16{-1, 0, 1}, Bools: [2]bool{false, true}, Bytes: []byte{0, 1, 255},
		Empty: []int{}, Nested: []codecLine{{From: [2]float64{1, 2}}, {To: [2]float64{-0.0, 4}}},
		Strs: []string{"", "a", "bc"}, M: map[string]int{"one": 1, "two": 2, "three": 3, "": -1},
		Keyed: map[[2]int]codecLine{{1, 2}: {From: [2]float64{3, 4}}, {0, 0}: {}},
		Shape: codecDot{R: 2.5, tags: []string{"red"}}, Shapes: []codecShape{codecLine{To: [2]float64{9, 9}}, nil, codecDot{}},
		E: donburi.Entity(1<<32 | 7), Zeros: make([]struct{}, 5), Cache: []int{1, 2, 3},
		Inner: struct{ A, b float64 }{1, -1}, Embedded: codecLine{From: [2]float64{5, 6}},
	}
}

// A value written as bytes reads back as the same value, every field
// exported or not, nil and empty slices and maps told apart; fields tagged
// `state:"-"` are not written (they read back as zero).
func TestValueBytesRoundTrip(t *testing.T) {
	v := richValue()
	b, err := state.AppendValue(nil, &v, nil)
	if err != nil {
		t.Fatal(err)
	}
	var got codecAll
	rest, err := state.ReadValue(b, &got, nil)
	if err != nil || len(rest) != 0 {
		t.Fatalf("ReadValue: %v, %d bytes left of %d", err, len(rest), len(b))
	}
	want := v
	want.Cache = nil
	if !reflect.DeepEqual(fmtBits(got), fmtBits(want)) {
		t.Fatalf("read back\n%#v\nwant\n%#v", got, want)
	}
	if got.Nil != nil || got.Empty == nil || got.NilMap != nil || got.M == nil || got.NoShape != nil {
		t.Fatalf("nil and empty not told apart: Nil %v, Empty %v, NilMap %v, NoShape %v", got.Nil == nil, got.Empty == nil, got.NilMap == nil, got.NoShape == nil)
	}
	again, err := state.AppendValue(nil, &got, nil)
	if err != nil || !bytes.Equal(again, b) {
		t.Fatalf("the value read back writes other bytes (%v)", err)
	}
}

// fmtBits makes floats comparable by their bits (a NaN is not equal to
// itself), through the bytes of a second encoding: DeepEqual on the
// values, with NaNs replaced.
func fmtBits(v codecAll) codecAll {
	if math.IsNaN(v.F64) {
		v.F64 = 0
	}
	return v
}

// A map's bytes do not depend on the order Go visits it in: the same map
// built in two orders writes the same bytes, and so does one map written
// many times.
func TestValueBytesOfAMapAreTheSame(t *testing.T) {
	type m struct{ M map[int]string }
	a, b := m{map[int]string{}}, m{map[int]string{}}
	for i := range 100 {
		a.M[i] = strings.Repeat("x", i%7)
		b.M[99-i] = strings.Repeat("x", (99-i)%7)
	}
	first, err := state.AppendValue(nil, &a, nil)
	if err != nil {
		t.Fatal(err)
	}
	for range 20 {
		for _, v := range []*m{&a, &b} {
			if got, _ := state.AppendValue(nil, v, nil); !bytes.Equal(got, first) {
				t.Fatal("one map wrote two different byte strings")
			}
		}
	}
}

// A non-nil pointer, a func, or a type in an interface that has no
// declared name is an error naming the field; nil ones are written.
func TestValueBytesRefusedByName(t *testing.T) {
	type holder struct {
		Name  string
		Inner struct{ Items []struct{ P *int } }
	}
	x := 1
	h := holder{}
	h.Inner.Items = []struct{ P *int }{{nil}, {&x}}
	_, err := state.AppendValue(nil, &h, nil)
	var ve *state.ValueError
	if !errors.As(err, &ve) || !errors.Is(err, state.ErrPointer) || ve.Path != ".Inner.Items[].P" || ve.Type != "holder" {
		t.Fatalf("a pointer in a slice: %v (%+v)", err, ve)
	}
	type withFunc struct{ OnHit func() }
	if _, err := state.AppendValue(nil, &withFunc{OnHit: func() {}}, nil); !errors.Is(err, state.ErrPointer) || !strings.Contains(err.Error(), ".OnHit") {
		t.Fatalf("a func: %v", err)
	}
	type unnamed struct{ X int }
	type withAny struct{ V any }
	_, err = state.AppendValue(nil, &withAny{V: unnamed{1}}, nil)
	if err == nil || !strings.Contains(err.Error(), ".V") || !strings.Contains(err.Error(), "state.Name") {
		t.Fatalf("an undeclared type in an interface: %v", err)
	}
	if _, err := state.AppendValue(nil, &withAny{V: codecLine{}}, nil); err != nil {
		t.Fatalf("a declared type in an interface: %v", err)
	}
}

// Pointers to objects that are not the value's own are written as the
// references Refs give, and read back as the objects the reading side's
// Refs resolve them to; a pointer no Refs cover, one its owner does not
// know, or a reference to no object is an error naming the field.
func TestValueBytesRefs(t *testing.T) {
	type body struct{ ID int }
	type holder struct {
		Main  *body
		Parts []*body
		None  *body
	}
	table := func(n int) (*state.Refs, []*body) {
		bodies := make([]*body, n)
		for i := range bodies {
			bodies[i] = &body{i}
		}
		var r state.Refs
		state.AddRefs(&r, func(b *body) (uint64, bool) {
			for i, x := range bodies {
				if x == b {
					return uint64(i), true
				}
			}
			return 0, false
		}, func(n uint64) (*body, bool) {
			if n >= uint64(len(bodies)) {
				return nil, false
			}
			return bodies[n], true
		})
		return &r, bodies
	}
	wrefs, wbodies := table(3)
	v := holder{Main: wbodies[2], Parts: []*body{wbodies[0], wbodies[2]}}
	b, err := state.AppendValue(nil, &v, wrefs)
	if err != nil {
		t.Fatal(err)
	}
	rrefs, rbodies := table(3)
	var got holder
	if _, err := state.ReadValue(b, &got, rrefs); err != nil {
		t.Fatal(err)
	}
	if got.Main != rbodies[2] || got.Parts[0] != rbodies[0] || got.Parts[1] != rbodies[2] || got.None != nil {
		t.Fatalf("read back %+v, want the reading side's bodies 2, 0, 2 and nil", got)
	}
	if _, err := state.ReadValue(b, &got, nil); err == nil || !strings.Contains(err.Error(), ".Main") {
		t.Fatalf("read with no Refs: %v", err)
	}
	small, _ := table(2)
	if _, err := state.ReadValue(b, &got, small); err == nil || !strings.Contains(err.Error(), "reference 2") {
		t.Fatalf("a reference to no object: %v", err)
	}
	v.Parts[1] = &body{9}
	if _, err := state.AppendValue(nil, &v, wrefs); err == nil || !strings.Contains(err.Error(), ".Parts[]") {
		t.Fatalf("an object its owner does not know: %v", err)
	}
	if _, err := state.AppendValue(nil, &v, nil); !errors.Is(err, state.ErrPointer) || !strings.Contains(err.Error(), ".Main") {
		t.Fatalf("a pointer no Refs cover: %v", err)
	}
}

// Assets are written by name (AddNames) and read back as the reading
// side's assets of those names; one with no name, or a name the reader
// has no asset of, is an error naming the field. Merge joins Refs of two
// owners.
func TestValueBytesNames(t *testing.T) {
	type image struct{ Pixels int }
	type body struct{ ID int }
	type sprite struct {
		Image, Atlas *image
		Body         *body
	}
	assets := func() (*state.Refs, map[string]*image) {
		byName := map[string]*image{"ball": {1}, "atlas": {2}}
		var r state.Refs
		state.AddNames(&r, func(img *image) (string, bool) {
			for name, x := range byName { //detcheck:ok one match
				if x == img {
					return name, true
				}
			}
			return "", false
		}, func(name string) (*image, bool) { img, ok := byName[name]; return img, ok })
		return &r, byName
	}
	wbody, rbody := &body{1}, &body{1}
	bodies := func(b *body) *state.Refs {
		var r state.Refs
		state.AddRefs(&r, func(x *body) (uint64, bool) { return 0, x == b }, func(n uint64) (*body, bool) { return b, n == 0 })
		return &r
	}
	wrefs, wimg := assets()
	wrefs.Merge(bodies(wbody))
	v := sprite{Image: wimg["ball"], Atlas: wimg["atlas"], Body: wbody}
	b, err := state.AppendValue(nil, &v, wrefs)
	if err != nil {
		t.Fatal(err)
	}
	rrefs, rimg := assets()
	rrefs.Merge(bodies(rbody))
	var got sprite
	if _, err := state.ReadValue(b, &got, rrefs); err != nil {
		t.Fatal(err)
	}
	if got.Image != rimg["ball"] || got.Atlas != rimg["atlas"] || got.Body != rbody {
		t.Fatalf("read back %+v, want the reading side's ball, atlas and body", got)
	}
	delete(rimg, "ball")
	if _, err := state.ReadValue(b, &got, rrefs); err == nil || !strings.Contains(err.Error(), `"ball"`) || !strings.Contains(err.Error(), ".Image") {
		t.Fatalf("a name the reader has no asset of: %v", err)
	}
	v.Image = &image{3}
	if _, err := state.AppendValue(nil, &v, wrefs); err == nil || !strings.Contains(err.Error(), "no name") || !strings.Contains(err.Error(), ".Image") {
		t.Fatalf("an asset with no name: %v", err)
	}
}

// Damaged bytes are an error, never a panic: every truncation of a value's
// bytes, every byte changed in turn, and forged lengths far beyond the
// bytes, which are refused before anything is allocated for them.
func TestValueBytesDamaged(t *testing.T) {
	v := richValue()
	b, err := state.AppendValue(nil, &v, nil)
	if err != nil {
		t.Fatal(err)
	}
	var got codecAll
	for n := range len(b) {
		if _, err := state.ReadValue(b[:n], &got, nil); err == nil {
			t.Fatalf("%d of %d bytes read as a whole value", n, len(b))
		}
	}
	for i := range b {
		for _, x := range []byte{0, 1, 2, 0x7f, 0x80, 0xff} {
			c := bytes.Clone(b)
			c[i] = x
			state.ReadValue(c, &got, nil) // an error or a value; no panic
		}
	}
	type s struct{ Big []uint64 }
	forged := []byte{0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x7f, 1, 2, 3}
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	var x s
	if _, err := state.ReadValue(forged, &x, nil); err == nil {
		t.Fatal("a forged length read")
	}
	runtime.ReadMemStats(&after)
	if n := after.TotalAlloc - before.TotalAlloc; n > 64<<10 {
		t.Fatalf("a forged length: %d bytes allocated", n)
	}
	type flag struct{ On bool }
	if _, err := state.ReadValue([]byte{2}, &flag{}, nil); err == nil {
		t.Fatal("a bool of 2 read")
	}
	type named struct{ V codecShape }
	if _, err := state.ReadValue([]byte{5, 'n', 'o', 'n', 'e'}, &named{}, nil); err == nil || !strings.Contains(err.Error(), `"none"`) {
		t.Fatalf("an unknown type name: %v", err)
	}
	twice := []byte{3, 1, 0, 0, 0, 0, 0, 0, 0, 1, 0, 0, 0, 0, 0, 0, 0}
	type ints struct{ M map[int]struct{} }
	if _, err := state.ReadValue(twice, &ints{}, nil); err == nil || !strings.Contains(err.Error(), "twice") {
		t.Fatalf("a key twice: %v", err)
	}
}

// FuzzReadValue reads any bytes as a value: an error or a value whose
// bytes read back to the same bytes.
func FuzzReadValue(f *testing.F) {
	v := richValue()
	v.F64 = 1 // a NaN's payload is kept, but DeepEqual cannot compare it
	b, err := state.AppendValue(nil, &v, nil)
	if err != nil {
		f.Fatal(err)
	}
	f.Add(b)
	f.Add(b[:len(b)/2])
	f.Fuzz(func(t *testing.T, b []byte) {
		var got codecAll
		rest, err := state.ReadValue(b, &got, nil)
		if err != nil {
			return
		}
		used := b[:len(b)-len(rest)]
		again, err := state.AppendValue(nil, &got, nil)
		if err != nil {
			t.Fatalf("a value read cannot be written: %v", err)
		}
		if !bytes.Equal(again, used) {
			t.Fatalf("read %x, wrote %x", used, again)
		}
	})
}
