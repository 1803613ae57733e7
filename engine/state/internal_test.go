package state

import (
	"testing"

	"github.com/fixedstep/fixedstep/third_party/cp"
	"github.com/fixedstep/fixedstep/third_party/donburi"
)

type scalars struct {
	B    bool
	I8   int8
	I16  int16
	I32  int32
	I    int
	U8   uint8
	U64  uint64
	F32  float32
	F64  float64
	C64  complex64
	C128 complex128
	Arr  [3]int16
	Vecs []cp.Vector
	Pose pose
	E    donburi.Entity
}

// pose and transform are shaped as components.Pose and Transform.
type pose struct{ X, Y, Angle float64 }

type transform struct{ Prev, Cur pose }

var (
	scalarsC   = donburi.NewComponentType[scalars]()
	transformC = donburi.NewComponentType[transform]()
)

// On a big-endian machine the hasher writes each scalar on its own instead
// of copying runs of memory: the bytes, so the sums, must be the same.
func TestStateScalarsWithoutMemoryRuns(t *testing.T) {
	w := donburi.NewWorld()
	e := w.Create(scalarsC, transformC)
	*scalarsC.Get(w.Entry(e)) = scalars{true, -1, -2, -3, -4, 5, 6, 7.5, 8.25, complex(1, -2), complex(3, -4),
		[3]int16{1, -1, 2}, []cp.Vector{{X: 1, Y: 2}, {X: -3, Y: 4}}, pose{1, 2, 3}, e}
	*transformC.Get(w.Entry(e)) = transform{Prev: pose{1, 2, 3}, Cur: pose{4, 5, 6}}
	if !littleEndian {
		t.Skip("a big-endian machine: the runs are off already")
	}
	runs := NewHasher(nil)
	withRuns := runs.Sum(w)
	if p := runs.w.plans[scalarsC.Typ()]; len(p.hash) >= len(p.fields) {
		t.Fatalf("no runs merged: %d hash fields for %d fields", len(p.hash), len(p.fields))
	}
	littleEndian = false
	defer func() { littleEndian = true }()
	one := NewHasher(nil)
	if s := one.Sum(w); s != withRuns {
		t.Fatalf("scalar by scalar: %x, by runs of memory: %x", s, withRuns)
	}
	if p := one.w.plans[scalarsC.Typ()]; len(p.hash) != len(p.fields) {
		t.Fatalf("runs merged with littleEndian false: %d hash fields for %d fields", len(p.hash), len(p.fields))
	}
}

// On a big-endian machine the value codec writes each scalar on its own:
// the bytes must be those written by runs of memory, and read back.
func TestValueBytesWithoutMemoryRuns(t *testing.T) {
	if !littleEndian {
		t.Skip("a big-endian machine: the runs are off already")
	}
	v := scalars{true, -1, -2, -3, -4, 5, 6, 7.5, 8.25, complex(1, -2), complex(3, -4),
		[3]int16{1, -1, 2}, []cp.Vector{{X: 1, Y: 2}, {X: -3, Y: 4}}, pose{1, 2, 3}, 7}
	withRuns, err := AppendValue(nil, &v, nil)
	if err != nil {
		t.Fatal(err)
	}
	if p := codecFor(scalarsC.Typ()); p.steps[len(p.steps)-1].kind != cMem {
		t.Fatalf("no runs merged: %+v", p.steps)
	}
	resetCodecPlans := func() {
		codecMu.Lock()
		clear(codecPlans)
		codecMu.Unlock()
	}
	resetCodecPlans()
	littleEndian = false
	defer func() {
		littleEndian = true
		resetCodecPlans()
	}()
	one, err := AppendValue(nil, &v, nil)
	if err != nil || string(one) != string(withRuns) {
		t.Fatalf("scalar by scalar: %x (%v)\nby runs of memory: %x", one, err, withRuns)
	}
	for _, s := range codecFor(scalarsC.Typ()).steps {
		if s.kind == cMem {
			t.Fatalf("a run of memory with littleEndian false: %+v", s)
		}
	}
	var got scalars
	if _, err := ReadValue(one, &got, nil); err != nil || got.Pose != v.Pose || got.Vecs[1] != v.Vecs[1] || got.C128 != v.C128 || got.I8 != -1 {
		t.Fatalf("read back scalar by scalar: %+v (%v)", got, err)
	}
}
