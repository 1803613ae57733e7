package state

import (
	"encoding/binary"
	"math"
	"reflect"
	"slices"
	"strconv"
	"unsafe"

	"github.com/cespare/xxhash/v2"

	"github.com/fixedstep/fixedstep/third_party/donburi"
)

// Summarizer is implemented by a type that describes its own state to
// the state hasher and the world dump, in place of the default walk over its
// exported fields: for a type whose state is behind unexported fields, or
// that holds more than its state (caches, handles). The method may have a
// value or a pointer receiver; it is called on the value where it lies (in
// the component, or behind a pointer), so it must only read.
//
// SummarizeState writes each value with a name (the names appear in the
// dump; the hash sees only the values, in the order written). It must write
// the same names and values, in the same order, for equal states, and
// allocate nothing if the hash is to stay allocation-free.
type Summarizer interface {
	SummarizeState(w *Writer)
}

// Writer receives the state of a value: the state hasher turns what it
// is given into bytes to hash, a visit (the world dump, the inspector) into
// [Value]s. A [Summarizer] is handed one; the package hands one to the
// summaries of library types (see [Summarize]).
//
// Names are paths below the value being summarised ("Position.X"). In the
// hash they are ignored and the methods allocate nothing; in a visit each
// value is a Value whose Path ends with them (the dump's line
// "<entity> <Component><Path> = <value>").
type Writer struct {
	plans map[reflect.Type]*plan
	names *naming    // how types are named (names.go)
	kept  bool       // a ValueHasher's: every field, pointers by address
	stack []followed // pointers being followed, to stop at cycles
	anys  []any      // values being written by Value

	// The hash: bytes of the component being hashed.
	buf []byte

	// While a Hasher sums a world (memoOn), the bytes of recent summaries
	// of library values behind pointers: see summaryMemo.
	memo    [memoSlots]summaryMemo
	memoOn  bool
	memoSum uint64 // the sums the memo has been on for

	// A visit: each value goes to visit (nil while hashing).
	visit  func(v *Value)
	entity donburi.Entity // the entity being visited
	comp   string         // its component being visited
	path   []byte         // the path below the component (".Body.Position")
	marks  []int          // lengths of path before each Enter
	base   int            // marks below this belong to the summary's callers
	values int            // values visited so far
	cur    Value          // the value handed to visit
}

// followed is a value being followed: where, and of which type (a struct
// and its first field share an address).
type followed struct {
	p  unsafe.Pointer
	pl *plan
}

func newWriter(paths bool) *Writer {
	return &Writer{plans: make(map[reflect.Type]*plan), names: newNaming(paths)}
}

// visitor returns a writer that shows values to visit, with w's plans and
// names.
func (w *Writer) visitor(visit func(v *Value)) *Writer {
	return &Writer{plans: w.plans, names: w.names, visit: visit}
}

// Float64 writes a float64 by its bits: -0 and +0 differ, and so do NaNs of
// different payloads. The dump prints it exactly (strconv 'g', -1), a NaN as
// NaN(0x<bits>).
func (w *Writer) Float64(name string, v float64) {
	if w.visit == nil {
		w.buf = binary.LittleEndian.AppendUint64(w.buf, math.Float64bits(v))
		return
	}
	w.emit(name, Value{Kind: Float, Float: v, Bits: 64})
}

// Float32 writes a float32 by its bits, as Float64 does.
func (w *Writer) Float32(name string, v float32) {
	if w.visit == nil {
		w.buf = binary.LittleEndian.AppendUint32(w.buf, math.Float32bits(v))
		return
	}
	w.emit(name, Value{Kind: Float, Float: float64(v), Bits: 32})
}

// Int writes a signed integer.
func (w *Writer) Int(name string, v int64) {
	if w.visit == nil {
		w.buf = binary.LittleEndian.AppendUint64(w.buf, uint64(v))
		return
	}
	w.emit(name, Value{Kind: Int, Int: v})
}

// Uint writes an unsigned integer.
func (w *Writer) Uint(name string, v uint64) {
	if w.visit == nil {
		w.buf = binary.LittleEndian.AppendUint64(w.buf, v)
		return
	}
	w.emit(name, Value{Kind: Uint, Uint: v})
}

// Bool writes a bool.
func (w *Writer) Bool(name string, v bool) {
	if w.visit == nil {
		w.buf = append(w.buf, b2u8(v))
		return
	}
	w.emit(name, Value{Kind: Bool, Bool: v})
}

// Text writes a string, preceded in the hash by its length (so that "ab",
// "c" and "a", "bc" differ). The dump quotes it (strconv.Quote).
func (w *Writer) Text(name string, v string) {
	if w.visit == nil {
		w.buf = binary.AppendUvarint(w.buf, uint64(len(v)))
		w.buf = append(w.buf, v...)
		return
	}
	w.emit(name, Value{Kind: String, Str: v})
}

// Value writes any value by the default rules (its exported fields,
// recursively; see [Hasher]), under name. Pass a pointer to a value
// to read it where it lies: a non-pointer is copied into the interface
// (Go allocates for that, before Value is called). The value's dynamic type
// is part of the hash, as for an interface field; a nil pointer or nil
// interface writes nil.
func (w *Writer) Value(name string, v any) {
	if w.visit != nil {
		w.enter(".", name)
		defer w.Leave()
	}
	// v is read from the writer's own slots, not from the parameter, so
	// that the parameter does not escape (Go would allocate for it).
	w.anys = append(w.anys, v)
	w.iface(anyType, unsafe.Pointer(&w.anys[len(w.anys)-1]))
	w.anys[len(w.anys)-1] = nil
	w.anys = w.anys[:len(w.anys)-1]
}

// Float64s writes vs[i] named names[i], as Float64 would one by one, with
// the hash's bytes in one append: for a summary that runs for every one of
// many values (cp's bodies and shapes).
func (w *Writer) Float64s(names []string, vs []float64) {
	if w.visit != nil {
		for i, v := range vs {
			w.Float64(names[i], v)
		}
		return
	}
	b := w.grow(8 * len(vs))
	for i, v := range vs {
		binary.LittleEndian.PutUint64(b[8*i:], math.Float64bits(v))
	}
}

// Uint64s writes vs[i] named names[i], as Uint would one by one, with the
// hash's bytes in one append.
func (w *Writer) Uint64s(names []string, vs []uint64) {
	if w.visit != nil {
		for i, v := range vs {
			w.Uint(names[i], v)
		}
		return
	}
	b := w.grow(8 * len(vs))
	for i, v := range vs {
		binary.LittleEndian.PutUint64(b[8*i:], v)
	}
}

// grow lengthens the hash's bytes by n and returns the n new bytes, for
// the caller to fill.
func (w *Writer) grow(n int) []byte {
	w.buf = slices.Grow(w.buf, n)
	l := len(w.buf)
	w.buf = w.buf[:l+n]
	return w.buf[l : l+n : l+n]
}

// Enter starts a group of values named name: the values written until the
// matching Leave are named "name.<their name>" in the dump. The hash ignores
// it.
func (w *Writer) Enter(name string) {
	if w.visit != nil {
		w.enter(".", name)
	}
}

// EnterIndex starts a group of values named "[i]", the i-th element of a
// list: as Enter, for values of a slice or an array.
func (w *Writer) EnterIndex(i int) {
	if w.visit != nil {
		w.marks = append(w.marks, len(w.path))
		w.path = append(w.path, '[')
		w.path = strconv.AppendInt(w.path, int64(i), 10)
		w.path = append(w.path, ']')
	}
}

// Leave ends the group begun by the last Enter or EnterIndex. An unmatched
// Leave does nothing, and groups left open end with the summary that began
// them.
func (w *Writer) Leave() {
	if w.visit != nil && len(w.marks) > w.base {
		w.path = w.path[:w.marks[len(w.marks)-1]]
		w.marks = w.marks[:len(w.marks)-1]
	}
}

func (w *Writer) enter(sep, name string) {
	w.marks = append(w.marks, len(w.path))
	if name != "" {
		w.path = append(w.path, sep...)
		w.path = append(w.path, name...)
	}
}

// emit hands v, named name below the current path, to the visit.
func (w *Writer) emit(name string, v Value) {
	mark := len(w.path)
	if name != "" {
		w.path = append(w.path, '.')
		w.path = append(w.path, name...)
	}
	v.Entity, v.Component, v.Path = w.entity, w.comp, w.path
	w.cur = v
	w.visit(&w.cur)
	w.cur = Value{}
	w.path = w.path[:mark]
	w.values++
}

func b2u8(v bool) byte {
	if v {
		return 1
	}
	return 0
}

// root writes a component's value at p: the component itself counts as
// being followed, so that a pointer back to it is a cycle.
func (w *Writer) root(pl *plan, p unsafe.Pointer) {
	if pl.mayPoint {
		w.stack = append(w.stack[:0], followed{p, pl})
	}
	if w.visit != nil {
		w.visitValue(pl, p)
	} else {
		w.hashFields(pl.hash, p)
	}
	w.stack = w.stack[:0]
}

// --- the hash ---

type sliceHeader struct {
	data     unsafe.Pointer
	len, cap int
}

// hashFields appends the state of the value at p, read by fs, to w.buf.
func (w *Writer) hashFields(fs []field, p unsafe.Pointer) {
	for i := range fs {
		f := &fs[i]
		q := unsafe.Add(p, f.off)
		switch f.kind {
		case kMem:
			w.buf = append(w.buf, unsafe.Slice((*byte)(q), f.size)...)
		case kBool:
			w.buf = append(w.buf, b2u8(*(*bool)(q)))
		case kInt, kUint, kFloat32, kFloat64, kComplex64, kComplex128:
			switch {
			case f.word && f.size == 4 && f.kind == kInt: // a 32-bit CPU's int: as a 64-bit one's
				w.buf = binary.LittleEndian.AppendUint64(w.buf, uint64(int64(*(*int32)(q))))
			case f.word && f.size == 4:
				w.buf = binary.LittleEndian.AppendUint64(w.buf, uint64(*(*uint32)(q)))
			default:
				w.buf = appendScalar(w.buf, q, f.size, f.kind)
			}
		case kString:
			s := *(*string)(q)
			w.buf = binary.AppendUvarint(w.buf, uint64(len(s)))
			w.buf = append(w.buf, s...)
		case kArray:
			w.hashArray(f.elem, q, f.n)
		case kSlice:
			h := (*sliceHeader)(q)
			w.buf = binary.AppendUvarint(w.buf, uint64(h.len))
			w.hashArray(f.elem, h.data, h.len)
		case kMap:
			w.hashMap(f, q)
		case kPtr:
			if to := *(*unsafe.Pointer)(q); to != nil && f.elem.leaf {
				// A library type's summary (a cp body, an image), as
				// pointer writes it: no cycle can pass through it.
				w.buf = append(w.buf, ptrFollow)
				w.leaf(f.elem, to)
			} else {
				w.pointer(f.elem, to)
			}
		case kIface:
			w.iface(f.typ, q)
		case kSummary:
			reflect.NewAt(f.typ, q).Interface().(Summarizer).SummarizeState(w)
		case kBuiltin:
			f.builtin(q, w)
		}
	}
}

// memoSlots is how many summaries a Writer remembers while a Hasher sums
// a world; a power of two.
const memoSlots = 16

// A summaryMemo is the summary of the library value at an address (of
// plan elem's type), as it was written during the sum under way. A
// summary reads only the value, which nothing changes during a sum, so
// the value at that address writes those bytes again: entities that share
// a value (every sprite of one image, one random source) have it
// summarised once a sum. Summaries longer than the array are not kept.
type summaryMemo struct {
	to   unsafe.Pointer
	elem *plan
	n    int
	b    [96]byte
}

// leaf writes the summary of the library value of plan elem at to, from
// the memo when it holds it. A type whose first memoTrial values in a sum
// were all summaries not in the memo (a body or shape per entity, shared
// by none) is summarised without it for the rest of that sum: keeping
// each summary would only cost a copy.
func (w *Writer) leaf(elem *plan, to unsafe.Pointer) {
	f := &elem.fields[0]
	if w.memoOn && elem.memoSum != w.memoSum { // the type's first value in this sum
		elem.memoSum, elem.memoHits, elem.misses = w.memoSum, 0, 0
	}
	if !w.memoOn || elem.misses >= memoTrial && elem.memoHits == 0 {
		f.builtin(unsafe.Add(to, f.off), w)
		return
	}
	m := &w.memo[(uintptr(to)>>4)&(memoSlots-1)]
	if m.to == to && m.elem == elem {
		w.buf = append(w.buf, m.b[:m.n]...)
		elem.memoHits++
		return
	}
	elem.misses++
	start := len(w.buf)
	f.builtin(unsafe.Add(to, f.off), w)
	if n := len(w.buf) - start; n <= len(m.b) {
		m.to, m.elem, m.n = to, elem, copy(m.b[:], w.buf[start:])
	}
}

// memoTrial is how many values of a type a sum tries the memo with before
// it gives up on the type for that sum, if none was found there.
const memoTrial = 64

// memoize turns the memo of summaries on, empty, or off; each time it is
// turned on is a new sum (memoSum).
func (w *Writer) memoize(on bool) {
	w.memoOn = on && memoizeSums
	if w.memoOn {
		w.memoSum++
	}
	for i := range w.memo {
		w.memo[i].to, w.memo[i].elem = nil, nil
	}
}

// memoizeSums lets Hasher.Sum remember summaries (off in a test, to compare).
var memoizeSums = true

// appendScalar appends the little-endian bytes of the scalar at q (a
// complex number is two floats).
func appendScalar(b []byte, q unsafe.Pointer, size uintptr, k kind) []byte {
	switch size {
	case 1:
		return append(b, *(*byte)(q))
	case 2:
		return binary.LittleEndian.AppendUint16(b, *(*uint16)(q))
	case 4:
		return binary.LittleEndian.AppendUint32(b, *(*uint32)(q))
	case 8:
		if k == kComplex64 {
			b = binary.LittleEndian.AppendUint32(b, *(*uint32)(q))
			return binary.LittleEndian.AppendUint32(b, *(*uint32)(unsafe.Add(q, 4)))
		}
		return binary.LittleEndian.AppendUint64(b, *(*uint64)(q))
	case 16:
		b = binary.LittleEndian.AppendUint64(b, *(*uint64)(q))
		return binary.LittleEndian.AppendUint64(b, *(*uint64)(unsafe.Add(q, 8)))
	}
	return b
}

// hashArray appends n elements of elem starting at data.
func (w *Writer) hashArray(elem *plan, data unsafe.Pointer, n int) {
	if n == 0 {
		return
	}
	if elem.raw {
		w.buf = append(w.buf, unsafe.Slice((*byte)(data), uintptr(n)*elem.size)...)
		return
	}
	for i := range n {
		w.hashFields(elem.hash, unsafe.Add(data, uintptr(i)*elem.size))
	}
}

// Pointer markers in the hash.
const (
	ptrNil    = 0
	ptrFollow = 1
	ptrCycle  = 2
)

// pointer writes what p points to (a value of elem), or nil, or, for a
// pointer already being followed further up (a cycle), how far up.
func (w *Writer) pointer(elem *plan, p unsafe.Pointer) {
	if p == nil {
		if w.visit != nil {
			w.emit("", Value{Kind: Nil})
		} else {
			w.buf = append(w.buf, ptrNil)
		}
		return
	}
	if elem.mayPoint {
		for d := len(w.stack) - 1; d >= 0; d-- {
			if w.stack[d] == (followed{p, elem}) {
				up := uint64(len(w.stack) - d)
				if w.visit != nil {
					w.emit("", Value{Kind: Cycle, Int: int64(up)})
				} else {
					w.buf = append(w.buf, ptrCycle)
					w.buf = binary.AppendUvarint(w.buf, up)
				}
				return
			}
		}
		w.stack = append(w.stack, followed{p, elem})
	}
	if w.visit != nil {
		w.visitValue(elem, p)
	} else {
		w.buf = append(w.buf, ptrFollow)
		w.hashFields(elem.hash, p)
	}
	if elem.mayPoint {
		w.stack = w.stack[:len(w.stack)-1]
	}
}

// iface writes the interface of type t at q: nil, or its dynamic type and
// value.
func (w *Writer) iface(t reflect.Type, q unsafe.Pointer) {
	words := (*[2]unsafe.Pointer)(q)
	if words[0] == nil {
		if w.visit != nil {
			w.emit("", Value{Kind: Nil})
		} else {
			w.buf = append(w.buf, ptrNil)
		}
		return
	}
	var dyn reflect.Type
	if t.NumMethod() == 0 {
		dyn = reflect.TypeOf(*(*any)(q))
	} else {
		dyn = reflect.NewAt(t, q).Elem().Elem().Type()
	}
	pl := w.planFor(dyn)
	if !pl.named {
		w.nameType(pl)
	}
	data := words[1]
	if pl.direct {
		data = unsafe.Pointer(&words[1])
	}
	if w.visit != nil {
		w.enter(".(", pl.label)
		w.path = append(w.path, ')')
		w.visitValue(pl, data)
		w.Leave()
		return
	}
	w.buf = append(w.buf, ptrFollow)
	w.buf = binary.LittleEndian.AppendUint64(w.buf, pl.typeHash)
	w.hashFields(pl.hash, data)
}

// scratch returns an unused iterator for maps of f's type.
func (f *field) scratch() *mapScratch {
	if n := len(f.free); n > 0 {
		s := f.free[n-1]
		f.free = f.free[:n-1]
		return s
	}
	s := &mapScratch{k: reflect.New(f.key.typ).Elem(), v: reflect.New(f.elem.typ).Elem()}
	s.kp, s.vp = s.k.Addr().UnsafePointer(), s.v.Addr().UnsafePointer()
	return s
}

// hashMap writes a map's length and a sum of the hashes of its entries:
// the same for equal maps whatever their iteration order.
func (w *Writer) hashMap(f *field, q unsafe.Pointer) {
	m := reflect.NewAt(f.typ, q).Elem()
	n := m.Len()
	w.buf = binary.AppendUvarint(w.buf, uint64(n))
	if n == 0 {
		return
	}
	s := f.scratch()
	s.it.Reset(m)
	var sum uint64
	for s.it.Next() {
		s.k.SetIterKey(&s.it)
		s.v.SetIterValue(&s.it)
		start := len(w.buf)
		w.hashFields(f.key.hash, s.kp)
		w.hashFields(f.elem.hash, s.vp)
		sum += xxhash.Sum64(w.buf[start:])
		w.buf = w.buf[:start]
	}
	s.it.Reset(reflect.Value{})
	s.k.SetZero() // keep nothing alive
	s.v.SetZero()
	f.free = append(f.free, s)
	w.buf = binary.LittleEndian.AppendUint64(w.buf, sum)
}
