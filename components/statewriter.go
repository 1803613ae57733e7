package components

import (
	"bufio"
	"encoding/binary"
	"encoding/hex"
	"math"
	"reflect"
	"slices"
	"strconv"
	"strings"
	"unsafe"

	"github.com/cespare/xxhash/v2"
	"github.com/yohamta/donburi"
)

// StateSummarizer is implemented by a type that describes its own state to
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
type StateSummarizer interface {
	SummarizeState(w *StateWriter)
}

// StateWriter receives the state of a value: the state hasher turns what it
// is given into bytes to hash, the world dump into lines of text. A
// [StateSummarizer] is handed one; the package hands one to its own
// summaries (cp bodies and shapes, ebiten images).
//
// Names are paths below the value being summarised ("Position.X"). In the
// hash they are ignored and the methods allocate nothing; in the dump each
// value is a line "<entity> <Component>.<path>.<name> = <value>".
type StateWriter struct {
	plans map[reflect.Type]*plan
	stack []followed // pointers being followed, to stop at cycles
	anys  []any      // values being written by Value

	// The hash: bytes of the component being hashed.
	buf []byte

	// The dump: the text goes to out, one line per value.
	dump  bool
	out   *bufio.Writer
	ent   []byte // the line's prefix: the entity ("e3v0 ")
	path  []byte // the path of the value being written ("Body.Body")
	marks []int  // lengths of path before each Enter
	base  int    // marks below this belong to the summary's callers
	lines int    // lines written so far
	val   []byte // scratch for a value's text
}

// followed is a value being followed: where, and of which type (a struct
// and its first field share an address).
type followed struct {
	p  unsafe.Pointer
	pl *plan
}

func newStateWriter() *StateWriter {
	return &StateWriter{plans: make(map[reflect.Type]*plan)}
}

// Float64 writes a float64 by its bits: -0 and +0 differ, and so do NaNs of
// different payloads. The dump prints it exactly (strconv 'g', -1), a NaN as
// NaN(0x<bits>).
func (w *StateWriter) Float64(name string, v float64) {
	if !w.dump {
		w.buf = binary.LittleEndian.AppendUint64(w.buf, math.Float64bits(v))
		return
	}
	w.line(name, appendFloat(w.val[:0], v, 64))
}

// Float32 writes a float32 by its bits, as Float64 does.
func (w *StateWriter) Float32(name string, v float32) {
	if !w.dump {
		w.buf = binary.LittleEndian.AppendUint32(w.buf, math.Float32bits(v))
		return
	}
	w.line(name, appendFloat(w.val[:0], float64(v), 32))
}

// Int writes a signed integer.
func (w *StateWriter) Int(name string, v int64) {
	if !w.dump {
		w.buf = binary.LittleEndian.AppendUint64(w.buf, uint64(v))
		return
	}
	w.line(name, strconv.AppendInt(w.val[:0], v, 10))
}

// Uint writes an unsigned integer.
func (w *StateWriter) Uint(name string, v uint64) {
	if !w.dump {
		w.buf = binary.LittleEndian.AppendUint64(w.buf, v)
		return
	}
	w.line(name, strconv.AppendUint(w.val[:0], v, 10))
}

// Bool writes a bool.
func (w *StateWriter) Bool(name string, v bool) {
	if !w.dump {
		w.buf = append(w.buf, b2u8(v))
		return
	}
	w.line(name, strconv.AppendBool(w.val[:0], v))
}

// Text writes a string, preceded in the hash by its length (so that "ab",
// "c" and "a", "bc" differ). The dump quotes it (strconv.Quote).
func (w *StateWriter) Text(name string, v string) {
	if !w.dump {
		w.buf = binary.AppendUvarint(w.buf, uint64(len(v)))
		w.buf = append(w.buf, v...)
		return
	}
	w.line(name, strconv.AppendQuote(w.val[:0], v))
}

// Value writes any value by the default rules (its exported fields,
// recursively; see [StateHasher]), under name. Pass a pointer to a value
// to read it where it lies: a non-pointer is copied into the interface
// (Go allocates for that, before Value is called). The value's dynamic type
// is part of the hash, as for an interface field; a nil pointer or nil
// interface writes nil.
func (w *StateWriter) Value(name string, v any) {
	if w.dump {
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

// float64s writes vs[i] named names[i], as Float64 would one by one (the
// hash in one append: the builtin summaries run for every body and shape).
func (w *StateWriter) float64s(names []string, vs []float64) {
	if w.dump {
		for i, v := range vs {
			w.Float64(names[i], v)
		}
		return
	}
	w.buf = slices.Grow(w.buf, 8*len(vs))
	for _, v := range vs {
		w.buf = binary.LittleEndian.AppendUint64(w.buf, math.Float64bits(v))
	}
}

// uint64s writes vs[i] named names[i], as Uint would one by one.
func (w *StateWriter) uint64s(names []string, vs []uint64) {
	if w.dump {
		for i, v := range vs {
			w.Uint(names[i], v)
		}
		return
	}
	w.buf = slices.Grow(w.buf, 8*len(vs))
	for _, v := range vs {
		w.buf = binary.LittleEndian.AppendUint64(w.buf, v)
	}
}

// int64s writes vs[i] named names[i], as Int would one by one.
func (w *StateWriter) int64s(names []string, vs []int64) {
	if w.dump {
		for i, v := range vs {
			w.Int(names[i], v)
		}
		return
	}
	w.buf = slices.Grow(w.buf, 8*len(vs))
	for _, v := range vs {
		w.buf = binary.LittleEndian.AppendUint64(w.buf, uint64(v))
	}
}

// Enter starts a group of values named name: the values written until the
// matching Leave are named "name.<their name>" in the dump. The hash ignores
// it.
func (w *StateWriter) Enter(name string) {
	if w.dump {
		w.enter(".", name)
	}
}

// EnterIndex starts a group of values named "[i]", the i-th element of a
// list: as Enter, for values of a slice or an array.
func (w *StateWriter) EnterIndex(i int) {
	if w.dump {
		w.marks = append(w.marks, len(w.path))
		w.path = append(w.path, '[')
		w.path = strconv.AppendInt(w.path, int64(i), 10)
		w.path = append(w.path, ']')
	}
}

// Leave ends the group begun by the last Enter or EnterIndex. An unmatched
// Leave does nothing, and groups left open end with the summary that began
// them.
func (w *StateWriter) Leave() {
	if w.dump && len(w.marks) > w.base {
		w.path = w.path[:w.marks[len(w.marks)-1]]
		w.marks = w.marks[:len(w.marks)-1]
	}
}

func (w *StateWriter) enter(sep, name string) {
	w.marks = append(w.marks, len(w.path))
	if name != "" {
		w.path = append(w.path, sep...)
		w.path = append(w.path, name...)
	}
}

// line writes one line of the dump: "<entity> <path>.<name> = <value>".
func (w *StateWriter) line(name string, value []byte) {
	w.val = value[:0]
	w.out.Write(w.ent)
	w.out.Write(w.path)
	if name != "" {
		w.out.WriteByte('.')
		w.out.WriteString(name)
	}
	w.out.WriteString(" = ")
	w.out.Write(value)
	w.out.WriteByte('\n')
	w.lines++
}

// emptyLine writes "<entity> <path> {}": a value with nothing to show.
func (w *StateWriter) emptyLine() {
	w.out.Write(w.ent)
	w.out.Write(w.path)
	w.out.WriteString(" {}\n")
	w.lines++
}

// appendFloat appends v exactly (it parses back to the same bits), a NaN as
// NaN(0x<bits>).
func appendFloat(b []byte, v float64, bits int) []byte {
	if v != v {
		b = append(b, "NaN(0x"...)
		if bits == 32 {
			b = strconv.AppendUint(b, uint64(math.Float32bits(float32(v))), 16)
		} else {
			b = strconv.AppendUint(b, math.Float64bits(v), 16)
		}
		return append(b, ')')
	}
	return strconv.AppendFloat(b, v, 'g', -1, bits)
}

func b2u8(v bool) byte {
	if v {
		return 1
	}
	return 0
}

// root writes a component's value at p: the component itself counts as
// being followed, so that a pointer back to it is a cycle.
func (w *StateWriter) root(pl *plan, p unsafe.Pointer) {
	if pl.mayPoint {
		w.stack = append(w.stack[:0], followed{p, pl})
	}
	if w.dump {
		w.dumpValue(pl, p)
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
func (w *StateWriter) hashFields(fs []field, p unsafe.Pointer) {
	for i := range fs {
		f := &fs[i]
		q := unsafe.Add(p, f.off)
		switch f.kind {
		case kMem:
			w.buf = append(w.buf, unsafe.Slice((*byte)(q), f.size)...)
		case kBool:
			w.buf = append(w.buf, b2u8(*(*bool)(q)))
		case kInt, kUint, kFloat32, kFloat64, kComplex64, kComplex128:
			w.buf = appendScalar(w.buf, q, f.size, f.kind)
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
			w.pointer(f.elem, *(*unsafe.Pointer)(q))
		case kIface:
			w.iface(f.typ, q)
		case kSummary:
			reflect.NewAt(f.typ, q).Interface().(StateSummarizer).SummarizeState(w)
		case kBuiltin:
			f.builtin(q, w)
		}
	}
}

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
func (w *StateWriter) hashArray(elem *plan, data unsafe.Pointer, n int) {
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
func (w *StateWriter) pointer(elem *plan, p unsafe.Pointer) {
	if p == nil {
		if w.dump {
			w.line("", append(w.val[:0], "nil"...))
		} else {
			w.buf = append(w.buf, ptrNil)
		}
		return
	}
	if elem.mayPoint {
		for d := len(w.stack) - 1; d >= 0; d-- {
			if w.stack[d] == (followed{p, elem}) {
				up := uint64(len(w.stack) - d)
				if w.dump {
					v := append(w.val[:0], "cycle(^"...)
					w.line("", append(strconv.AppendUint(v, up, 10), ')'))
				} else {
					w.buf = append(w.buf, ptrCycle)
					w.buf = binary.AppendUvarint(w.buf, up)
				}
				return
			}
		}
		w.stack = append(w.stack, followed{p, elem})
	}
	if w.dump {
		w.dumpValue(elem, p)
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
func (w *StateWriter) iface(t reflect.Type, q unsafe.Pointer) {
	words := (*[2]unsafe.Pointer)(q)
	if words[0] == nil {
		if w.dump {
			w.line("", append(w.val[:0], "nil"...))
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
	data := words[1]
	if pl.direct {
		data = unsafe.Pointer(&words[1])
	}
	if w.dump {
		w.enter(".(", dyn.String())
		w.path = append(w.path, ')')
		w.dumpValue(pl, data)
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
func (w *StateWriter) hashMap(f *field, q unsafe.Pointer) {
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

// --- the dump ---

// dumpValue writes the value at p, read by pl, as lines under the current
// path, or "<path> {}" when it has nothing to show.
func (w *StateWriter) dumpValue(pl *plan, p unsafe.Pointer) {
	before := w.lines
	w.dumpFields(pl.fields, p)
	if w.lines == before {
		w.emptyLine()
	}
}

func (w *StateWriter) dumpFields(fs []field, p unsafe.Pointer) {
	for i := range fs {
		f := &fs[i]
		q := unsafe.Add(p, f.off)
		mark := len(w.path)
		w.path = append(w.path, f.name...)
		switch f.kind {
		case kBool, kInt, kUint, kFloat32, kFloat64, kComplex64, kComplex128, kString:
			w.line("", w.scalarText(w.val[:0], f, q))
		case kArray:
			if f.bytes {
				w.line("", appendHex(w.val[:0], unsafe.Slice((*byte)(q), f.n)))
				break
			}
			w.dumpArray(f.elem, q, f.n)
		case kSlice:
			h := (*sliceHeader)(q)
			w.line("len", strconv.AppendInt(w.val[:0], int64(h.len), 10))
			if f.bytes {
				if h.len > 0 {
					w.line("", appendHex(w.val[:0], unsafe.Slice((*byte)(h.data), h.len)))
				}
				break
			}
			w.dumpArray(f.elem, h.data, h.len)
		case kMap:
			w.dumpMap(f, q)
		case kPtr:
			w.pointer(f.elem, *(*unsafe.Pointer)(q))
		case kIface:
			w.iface(f.typ, q)
		case kSummary, kBuiltin:
			// The summary's Enters and Leaves stay within it: an Enter
			// left open ends with the value, a Leave too many does
			// nothing.
			before, base := w.lines, w.base
			w.base = len(w.marks)
			if f.kind == kSummary {
				reflect.NewAt(f.typ, q).Interface().(StateSummarizer).SummarizeState(w)
			} else {
				f.builtin(q, w)
			}
			w.marks, w.base = w.marks[:w.base], base
			if w.lines == before {
				w.emptyLine()
			}
		}
		w.path = w.path[:mark]
	}
}

func (w *StateWriter) dumpArray(elem *plan, data unsafe.Pointer, n int) {
	for i := range n {
		w.EnterIndex(i)
		w.dumpValue(elem, unsafe.Add(data, uintptr(i)*elem.size))
		w.Leave()
	}
}

// scalarText appends the text of the scalar at q: exact numbers, quoted
// strings, e<id>v<version> for entities, and a named type's String() after
// its value.
func (w *StateWriter) scalarText(b []byte, f *field, q unsafe.Pointer) []byte {
	switch f.kind {
	case kBool:
		b = strconv.AppendBool(b, *(*bool)(q))
	case kInt:
		var v int64
		switch f.size {
		case 1:
			v = int64(*(*int8)(q))
		case 2:
			v = int64(*(*int16)(q))
		case 4:
			v = int64(*(*int32)(q))
		default:
			v = *(*int64)(q)
		}
		b = strconv.AppendInt(b, v, 10)
	case kUint:
		var v uint64
		switch f.size {
		case 1:
			v = uint64(*(*uint8)(q))
		case 2:
			v = uint64(*(*uint16)(q))
		case 4:
			v = uint64(*(*uint32)(q))
		default:
			v = *(*uint64)(q)
		}
		if f.entity {
			return appendEntity(b, *(*donburi.Entity)(q))
		}
		b = strconv.AppendUint(b, v, 10)
	case kFloat32:
		b = appendFloat(b, float64(*(*float32)(q)), 32)
	case kFloat64:
		b = appendFloat(b, *(*float64)(q), 64)
	case kComplex64:
		c := *(*complex64)(q)
		b = append(appendFloat(append(b, '('), float64(real(c)), 32), ',')
		b = append(appendFloat(b, float64(imag(c)), 32), ')')
	case kComplex128:
		c := *(*complex128)(q)
		b = append(appendFloat(append(b, '('), real(c), 64), ',')
		b = append(appendFloat(b, imag(c), 64), ')')
	case kString:
		b = strconv.AppendQuote(b, *(*string)(q))
	}
	if f.stringer {
		if s, ok := callString(f.typ, q); ok {
			b = append(b, " ("...)
			if strings.ContainsAny(s, "\n\r") {
				b = strconv.AppendQuote(b, s)
			} else {
				b = append(b, s...)
			}
			b = append(b, ')')
		}
	}
	return b
}

// callString returns the String() of the value of type t at q, or false if
// it panics.
func callString(t reflect.Type, q unsafe.Pointer) (s string, ok bool) {
	defer func() {
		if recover() != nil {
			s, ok = "", false
		}
	}()
	return reflect.NewAt(t, q).Elem().Interface().(interface{ String() string }).String(), true
}

func appendHex(b []byte, data []byte) []byte {
	b = append(b, `hex"`...)
	b = hex.AppendEncode(b, data)
	return append(b, '"')
}

// dumpMap writes a map's length, then its entries sorted by the text of
// their keys, each under "[<key>]".
func (w *StateWriter) dumpMap(f *field, q unsafe.Pointer) {
	m := reflect.NewAt(f.typ, q).Elem()
	w.line("len", strconv.AppendInt(w.val[:0], int64(m.Len()), 10))
	type entry struct {
		key string
		v   reflect.Value
	}
	var es []entry
	for it := m.MapRange(); it.Next(); {
		k := reflect.New(f.key.typ)
		k.Elem().Set(it.Key())
		v := reflect.New(f.elem.typ)
		v.Elem().Set(it.Value())
		es = append(es, entry{w.keyText(f.key, k.UnsafePointer()), v})
	}
	slices.SortStableFunc(es, func(a, b entry) int { return strings.Compare(a.key, b.key) })
	for _, e := range es {
		w.enter("[", e.key)
		w.path = append(w.path, ']')
		w.dumpValue(f.elem, e.v.UnsafePointer())
		w.Leave()
	}
}

// keyText renders a map key on one line: a scalar as in the dump, anything
// else as {name=value, ...}.
func (w *StateWriter) keyText(pl *plan, p unsafe.Pointer) string {
	var sb strings.Builder
	kw := &StateWriter{plans: w.plans, dump: true, out: bufio.NewWriter(&sb)}
	kw.dumpValue(pl, p)
	kw.out.Flush()
	lines := strings.Split(strings.TrimSuffix(sb.String(), "\n"), "\n")
	if len(lines) == 1 && strings.HasPrefix(lines[0], " = ") {
		return strings.TrimPrefix(lines[0], " = ")
	}
	if len(lines) == 1 && lines[0] == " {}" {
		return "{}"
	}
	for i, l := range lines {
		l = strings.TrimPrefix(l, ".")
		lines[i] = strings.Replace(l, " = ", "=", 1)
	}
	return "{" + strings.Join(lines, ", ") + "}"
}

// appendEntity appends an entity as e<id>v<version>, or null.
func appendEntity(b []byte, e donburi.Entity) []byte {
	if e == donburi.Null {
		return append(b, "null"...)
	}
	b = strconv.AppendUint(append(b, 'e'), uint64(e.Id()), 10)
	return strconv.AppendUint(append(b, 'v'), uint64(e.Version()), 10)
}
