package state

import (
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
	"math"
	"reflect"
	"slices"
	"sync"
	"unsafe"
)

// This file writes values as bytes and reads them back: the component
// values and kept values of a portable snapshot. Unlike the hash, which
// reads what a type exports (or its summary), the bytes hold a value as a
// Go assignment copies it, every field exported or not but those tagged
// `state:"-"`, and what its slices, maps and strings hold, so that the
// value read back is the value written:
//
//   - Scalars at their width, little-endian on every CPU: bools as a byte
//     (0 or 1), integers (int, uint and uintptr as 8 bytes on every CPU),
//     floats and complex numbers by their bits.
//   - A string as its length (a uvarint) and its bytes; an array as its
//     elements; a slice as 0 for nil or its length plus one, then its
//     elements; a map the same, its entries in the order of their keys'
//     bytes (the same bytes for the same map, whatever Go's map order;
//     reading refuses keys out of that order, so that a value has one
//     byte string).
//   - An interface as 0 for nil, else the declared name of its dynamic
//     type (which must be given with [Name], so that a fresh process knows
//     the type by it) and the value.
//   - A pointer as 0 for nil, else as the reference plus one that [Refs]
//     give for it: what it points to is not the value's to write (a cp
//     body is its space's); or, for an asset ([AddNames]), as 1 and its
//     name. A pointer of a type no Refs cover, a non-nil
//     func, chan or unsafe.Pointer is an error that names the field.
//
// Reading checks every length against the bytes left before it allocates,
// and every bool and interface name, so that damaged or forged bytes are
// an error, never a panic or an unbounded allocation.

// codecKind is what one step of a codec plan writes.
type codecKind uint8

const (
	cMem    codecKind = iota // size bytes of memory at off: adjacent scalars, little-endian, no padding
	cBool                    // a bool, checked on reading
	cInt                     // a signed integer of size 1, 2, 4 or 8, written at width wire
	cUint                    // an unsigned one
	cFloat                   // a float or complex part of size 4 or 8, by its bits
	cString                  // a string
	cArray                   // n elements of elem
	cSlice                   // a slice of elem
	cMap                     // a map from key to elem
	cIface                   // an interface of type typ
	cRef                     // a pointer, func, chan or unsafe.Pointer: nil or an error
)

// codecStep is one step of a codec plan.
type codecStep struct {
	kind      codecKind
	off, size uintptr
	wire      int // cInt, cUint: the bytes written (8 for int, uint and uintptr)
	elem, key *codecPlan
	n         int
	typ       reflect.Type
	path      string // from the plan's root, for errors: ".Shots[].At"
}

// codecPlan is how a value of one type is written.
type codecPlan struct {
	typ    reflect.Type
	steps  []codecStep
	leaves []codecStep // the steps before merging: each field on its own
	raw    bool        // written as exactly its memory (on a little-endian CPU)
	min    int         // the fewest bytes a value of it takes

	layoutOnce sync.Once
	layout     uint64 // layoutHash's, made once
}

// maxZeroSized bounds how many elements a slice or map read may have when
// an element takes no bytes (a struct{}), which its length alone cannot
// bound.
const maxZeroSized = 1 << 16

var (
	codecMu    sync.Mutex
	codecPlans = map[reflect.Type]*codecPlan{}
)

// codecFor returns the codec plan of t, building it the first time.
func codecFor(t reflect.Type) *codecPlan {
	codecMu.Lock()
	defer codecMu.Unlock()
	return codecPlanLocked(t)
}

func codecPlanLocked(t reflect.Type) *codecPlan {
	if p, ok := codecPlans[t]; ok {
		return p
	}
	p := &codecPlan{typ: t}
	codecPlans[t] = p
	var steps []codecStep
	addCodecSteps(t, 0, "", &steps)
	p.leaves, p.steps = steps, mergeCodecSteps(steps)
	p.raw = len(p.steps) == 0 && t.Size() == 0 ||
		len(p.steps) == 1 && p.steps[0].kind == cMem && p.steps[0].off == 0 && p.steps[0].size == t.Size()
	for _, s := range steps {
		p.min += s.minBytes()
	}
	return p
}

// minBytes is the fewest bytes a step writes.
func (s *codecStep) minBytes() int {
	switch s.kind {
	case cBool:
		return 1
	case cInt, cUint:
		return s.wire
	case cMem, cFloat:
		return int(s.size)
	case cString, cSlice, cMap, cIface, cRef:
		return 1
	case cArray:
		return s.n * s.elem.min
	}
	return 0
}

// addCodecSteps appends the steps of a value of type t at offset off.
func addCodecSteps(t reflect.Type, off uintptr, path string, out *[]codecStep) {
	s := codecStep{off: off, size: t.Size(), typ: t, path: path}
	switch t.Kind() {
	case reflect.Bool:
		s.kind = cBool
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		s.kind, s.wire = cInt, wireWidth(t)
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Uintptr:
		s.kind, s.wire = cUint, wireWidth(t)
	case reflect.Float32, reflect.Float64:
		s.kind = cFloat
	case reflect.Complex64, reflect.Complex128:
		half := t.Size() / 2
		*out = append(*out, codecStep{kind: cFloat, off: off, size: half, path: path + ".real"},
			codecStep{kind: cFloat, off: off + half, size: half, path: path + ".imag"})
		return
	case reflect.String:
		s.kind = cString
	case reflect.Array:
		if t.Len() == 0 {
			return
		}
		s.kind, s.elem, s.n = cArray, codecPlanLocked(t.Elem()), t.Len()
	case reflect.Slice:
		s.kind, s.elem = cSlice, codecPlanLocked(t.Elem())
	case reflect.Map:
		s.kind, s.key, s.elem = cMap, codecPlanLocked(t.Key()), codecPlanLocked(t.Elem())
	case reflect.Interface:
		s.kind = cIface
	case reflect.Struct:
		for i := range t.NumField() {
			f := t.Field(i)
			if f.Tag.Get("state") != "-" {
				addCodecSteps(f.Type, off+f.Offset, path+"."+f.Name, out)
			}
		}
		return
	default: // pointers, funcs, chans, unsafe pointers
		s.kind = cRef
	}
	*out = append(*out, s)
}

// wireWidth is the bytes an integer of type t is written as: its size, but
// 8 for int, uint and uintptr, whose size is the CPU's word.
func wireWidth(t reflect.Type) int {
	switch t.Kind() {
	case reflect.Int, reflect.Uint, reflect.Uintptr:
		return 8
	}
	return int(t.Size())
}

// mergeCodecSteps turns scalars whose bytes are their memory into cMem
// steps, adjacent ones merged, on a little-endian CPU. Bools stay apart
// (their reading is checked), and so do integers narrower in memory than
// on the wire (int on a 32-bit CPU: written as 8 bytes).
func mergeCodecSteps(steps []codecStep) []codecStep {
	out := make([]codecStep, 0, len(steps))
	for _, s := range steps {
		if littleEndian {
			switch {
			case s.kind == cFloat, (s.kind == cInt || s.kind == cUint) && s.wire == int(s.size):
				s = codecStep{kind: cMem, off: s.off, size: s.size, path: s.path}
			case s.kind == cArray && s.elem.raw:
				s = codecStep{kind: cMem, off: s.off, size: s.size, path: s.path}
			}
		}
		if n := len(out); s.kind == cMem && n > 0 && out[n-1].kind == cMem && out[n-1].off+out[n-1].size == s.off {
			out[n-1].size += s.size
			continue
		}
		out = append(out, s)
	}
	return out
}

// A ValueError is a value that cannot be written as bytes, or bytes that
// do not read back as a value of the type, with where in the value.
type ValueError struct {
	Type string // the declared name of the type written or read
	Path string // the field, from the value: ".Shots[].At"; "" for the value itself
	Err  error
}

func (e *ValueError) Error() string {
	return fmt.Sprintf("state: %s%s: %v", e.Type, e.Path, e.Err)
}

func (e *ValueError) Unwrap() error { return e.Err }

var (
	// ErrShort is bytes that end before the value they hold.
	ErrShort = errors.New("the bytes end before the value")
	// ErrPointer is a non-nil pointer, func, chan or unsafe.Pointer in a
	// value written as bytes.
	ErrPointer = errors.New("a pointer, func or chan, which bytes cannot hold (only nil is written)")
)

// AppendValue appends the bytes of *v to b (see [ReadValue]), the
// pointers in it written as refs give them (nil: none). A value it cannot
// write (a pointer refs do not cover, a type in an interface with no
// declared name) is an error naming the field.
func AppendValue[T any](b []byte, v *T, refs *Refs) ([]byte, error) {
	p := codecFor(reflect.TypeFor[T]())
	b, err := p.append(b, unsafe.Pointer(v), refs)
	if err != nil {
		return b, valueError(p.typ, err)
	}
	return b, nil
}

// ReadValue reads the bytes AppendValue wrote of a T into *v, replacing
// what it held, its pointers resolved by refs, and returns the bytes after
// them.
func ReadValue[T any](b []byte, v *T, refs *Refs) ([]byte, error) {
	*v = *new(T)
	p := codecFor(reflect.TypeFor[T]())
	b, err := p.read(b, unsafe.Pointer(v), refs)
	if err != nil {
		return b, valueError(p.typ, err)
	}
	return b, nil
}

// valueError names the root type of err, a pathError met below it.
func valueError(t reflect.Type, err error) error {
	var pe *pathError
	if errors.As(err, &pe) {
		return &ValueError{Type: declaredTypeName(t), Path: pe.path, Err: pe.err}
	}
	return &ValueError{Type: declaredTypeName(t), Err: err}
}

// pathError is an error at a path below the value being written or read.
type pathError struct {
	path string
	err  error
}

func (e *pathError) Error() string { return e.path + ": " + e.err.Error() }

// at puts err at path below parent's path.
func at(parent string, err error) error {
	if pe, ok := err.(*pathError); ok {
		return &pathError{parent + pe.path, pe.err}
	}
	return &pathError{parent, err}
}

func (p *codecPlan) append(b []byte, base unsafe.Pointer, refs *Refs) ([]byte, error) {
	if p.raw {
		return append(b, unsafe.Slice((*byte)(base), p.typ.Size())...), nil
	}
	for i := range p.steps {
		s := &p.steps[i]
		ptr := unsafe.Add(base, s.off)
		switch s.kind {
		case cMem:
			b = append(b, unsafe.Slice((*byte)(ptr), s.size)...)
		case cBool:
			b = append(b, *(*byte)(ptr))
		case cInt:
			b = appendWidth(b, uint64(loadInt(ptr, s.size)), s.wire)
		case cUint:
			b = appendWidth(b, loadUint(ptr, s.size), s.wire)
		case cFloat:
			b = appendWidth(b, loadUint(ptr, s.size), int(s.size))
		case cString:
			str := *(*string)(ptr)
			b = binary.AppendUvarint(b, uint64(len(str)))
			b = append(b, str...)
		case cArray:
			for j := range s.n {
				var err error
				if b, err = s.elem.append(b, unsafe.Add(ptr, uintptr(j)*s.elem.typ.Size()), refs); err != nil {
					return b, at(s.path+"[]", err)
				}
			}
		case cSlice:
			var err error
			if b, err = s.appendSlice(b, ptr, refs); err != nil {
				return b, err
			}
		case cMap:
			var err error
			if b, err = s.appendMap(b, ptr, refs); err != nil {
				return b, err
			}
		case cIface:
			var err error
			if b, err = s.appendIface(b, ptr, refs); err != nil {
				return b, err
			}
		case cRef:
			var err error
			if b, err = s.appendRef(b, ptr, refs); err != nil {
				return b, err
			}
		}
	}
	return b, nil
}

// appendRef writes a pointer as 0 for nil, or its reference plus one.
func (s *codecStep) appendRef(b []byte, ptr unsafe.Pointer, refs *Refs) ([]byte, error) {
	p := *(*unsafe.Pointer)(ptr)
	if p == nil {
		return append(b, 0), nil
	}
	rc, ok := refs.of(s.typ)
	if !ok {
		return b, &pathError{s.path, fmt.Errorf("%w (%s)", ErrPointer, s.typ)}
	}
	if rc.name != nil {
		name, ok := rc.name(p)
		if !ok {
			return b, &pathError{s.path, fmt.Errorf("a %s with no name (a scene's asset is written by the name it was given)", s.typ)}
		}
		b = binary.AppendUvarint(append(b, 1), uint64(len(name)))
		return append(b, name...), nil
	}
	ref, ok := rc.ref(p)
	if !ok || ref == math.MaxUint64 {
		return b, &pathError{s.path, fmt.Errorf("a %s its owner gives no reference for", s.typ)}
	}
	return binary.AppendUvarint(b, ref+1), nil
}

func (s *codecStep) readRef(b []byte, ptr unsafe.Pointer, refs *Refs) ([]byte, error) {
	n, b, err := readUvarint(b)
	if err != nil {
		return b, &pathError{s.path, err}
	}
	if n == 0 {
		return b, nil
	}
	rc, ok := refs.of(s.typ)
	if !ok {
		return b, &pathError{s.path, fmt.Errorf("a %s, which this reading has no references for", s.typ)}
	}
	if rc.find != nil {
		if n != 1 {
			return b, &pathError{s.path, fmt.Errorf("a %s written as a reference, not by name", s.typ)}
		}
		var name string
		if name, b, err = readString(b); err != nil {
			return b, &pathError{s.path, err}
		}
		p, ok := rc.find(name)
		if !ok {
			return b, &pathError{s.path, fmt.Errorf("a %s named %q, which the reading scene has none of", s.typ, name)}
		}
		*(*unsafe.Pointer)(ptr) = p
		return b, nil
	}
	p, ok := rc.deref(n - 1)
	if !ok {
		return b, &pathError{s.path, fmt.Errorf("reference %d, to no %s", n-1, s.typ)}
	}
	*(*unsafe.Pointer)(ptr) = p
	return b, nil
}

// Refs say how values written as bytes hold pointers to objects that are
// not theirs to write (a cp body, which the physics writes with its
// space): as references the objects' owner gives, which it resolves again
// where the bytes are read. See [AddRefs].
type Refs struct {
	byType map[reflect.Type]refCodec
}

type refCodec struct {
	ref   func(p unsafe.Pointer) (uint64, bool)
	deref func(ref uint64) (unsafe.Pointer, bool)
	name  func(p unsafe.Pointer) (string, bool) // AddNames'
	find  func(name string) (unsafe.Pointer, bool)
}

// AddRefs makes r write a *T as the reference ref gives for it, and read
// a reference back as the *T deref gives. ref returns false for an object
// it knows nothing of, deref for a reference to no object: both are an
// error naming the field.
func AddRefs[T any](r *Refs, ref func(*T) (uint64, bool), deref func(uint64) (*T, bool)) {
	if r.byType == nil {
		r.byType = map[reflect.Type]refCodec{}
	}
	r.byType[reflect.TypeFor[*T]()] = refCodec{
		ref:   func(p unsafe.Pointer) (uint64, bool) { return ref((*T)(p)) },
		deref: func(n uint64) (unsafe.Pointer, bool) { p, ok := deref(n); return unsafe.Pointer(p), ok && p != nil },
	}
}

// AddNames makes r write a *T as the name name gives for it, and read a
// name back as the *T find gives: for what a value points to that is no
// state of its own but an asset (an image, an animation clip), which the
// reading program has under the same name. name returns false for a *T
// it has no name for, find for a name it has no *T for: both are an error
// naming the field.
func AddNames[T any](r *Refs, name func(*T) (string, bool), find func(string) (*T, bool)) {
	if r.byType == nil {
		r.byType = map[reflect.Type]refCodec{}
	}
	r.byType[reflect.TypeFor[*T]()] = refCodec{
		name: func(p unsafe.Pointer) (string, bool) { return name((*T)(p)) },
		find: func(s string) (unsafe.Pointer, bool) { p, ok := find(s); return unsafe.Pointer(p), ok && p != nil },
	}
}

// Merge adds every kind of pointer o covers to r (o's for a kind both do).
func (r *Refs) Merge(o *Refs) {
	if o == nil || len(o.byType) == 0 {
		return
	}
	if r.byType == nil {
		r.byType = map[reflect.Type]refCodec{}
	}
	for t, c := range o.byType { //detcheck:ok copying entries: the order reaches nothing
		r.byType[t] = c
	}
}

func (r *Refs) of(t reflect.Type) (refCodec, bool) {
	if r == nil {
		return refCodec{}, false
	}
	rc, ok := r.byType[t]
	return rc, ok
}

func (s *codecStep) appendSlice(b []byte, ptr unsafe.Pointer, refs *Refs) ([]byte, error) {
	hdr := (*[]byte)(ptr) // its pointer and length, whatever its element type
	if *hdr == nil {
		return append(b, 0), nil
	}
	n := len(*hdr)
	b = binary.AppendUvarint(b, uint64(n)+1)
	data, size := unsafe.Pointer(unsafe.SliceData(*hdr)), s.elem.typ.Size()
	if s.elem.raw {
		return append(b, unsafe.Slice((*byte)(data), uintptr(n)*size)...), nil
	}
	for j := range n {
		var err error
		if b, err = s.elem.append(b, unsafe.Add(data, uintptr(j)*size), refs); err != nil {
			return b, at(s.path+"[]", err)
		}
	}
	return b, nil
}

func (s *codecStep) appendMap(b []byte, ptr unsafe.Pointer, refs *Refs) ([]byte, error) {
	m := reflect.NewAt(s.typ, ptr).Elem()
	if m.IsNil() {
		return append(b, 0), nil
	}
	type entry struct{ key, val []byte }
	entries := make([]entry, 0, m.Len())
	k, v := reflect.New(s.typ.Key()).Elem(), reflect.New(s.typ.Elem()).Elem()
	for it := m.MapRange(); it.Next(); {
		k.SetIterKey(it)
		v.SetIterValue(it)
		kb, err := s.key.append(nil, k.Addr().UnsafePointer(), refs)
		if err != nil {
			return b, at(s.path+"[key]", err)
		}
		vb, err := s.elem.append(nil, v.Addr().UnsafePointer(), refs)
		if err != nil {
			return b, at(s.path+"[]", err)
		}
		entries = append(entries, entry{kb, vb})
	}
	slices.SortFunc(entries, func(x, y entry) int { return bytes.Compare(x.key, y.key) })
	b = binary.AppendUvarint(b, uint64(len(entries))+1)
	for _, e := range entries {
		b = append(append(b, e.key...), e.val...)
	}
	return b, nil
}

func (s *codecStep) appendIface(b []byte, ptr unsafe.Pointer, refs *Refs) ([]byte, error) {
	v := reflect.NewAt(s.typ, ptr).Elem()
	if v.IsNil() {
		return append(b, 0), nil
	}
	dyn := v.Elem()
	name, ok := declared[dyn.Type()]
	if !ok {
		return b, &pathError{s.path, fmt.Errorf("holds a %s, a type with no declared name: name it with state.Name so that a fresh process can read it back", goName(dyn.Type()))}
	}
	b = binary.AppendUvarint(b, uint64(len(name))+1)
	b = append(b, name...)
	tmp := reflect.New(dyn.Type())
	tmp.Elem().Set(dyn)
	b, err := codecFor(dyn.Type()).append(b, tmp.UnsafePointer(), refs)
	if err != nil {
		return b, at(s.path+".("+name+")", err)
	}
	return b, nil
}

func (p *codecPlan) read(b []byte, base unsafe.Pointer, refs *Refs) ([]byte, error) {
	if p.raw {
		n := int(p.typ.Size())
		if len(b) < n {
			return b, ErrShort
		}
		copy(unsafe.Slice((*byte)(base), n), b)
		return b[n:], nil
	}
	for i := range p.steps {
		s := &p.steps[i]
		ptr := unsafe.Add(base, s.off)
		var err error
		switch s.kind {
		case cMem:
			if len(b) < int(s.size) {
				return b, &pathError{s.path, ErrShort}
			}
			b = b[copy(unsafe.Slice((*byte)(ptr), s.size), b):]
		case cBool:
			if len(b) < 1 || b[0] > 1 {
				return b, &pathError{s.path, errors.New("not a bool (0 or 1)")}
			}
			*(*bool)(ptr), b = b[0] == 1, b[1:]
		case cInt, cUint, cFloat:
			wire := s.wire
			if s.kind == cFloat {
				wire = int(s.size)
			}
			if len(b) < wire {
				return b, &pathError{s.path, ErrShort}
			}
			x := readWidth(b, wire)
			if !storeInt(ptr, s.size, x, s.kind == cInt, wire) {
				return b, &pathError{s.path, fmt.Errorf("%d does not fit a %s", int64(x), s.typ)}
			}
			b = b[wire:]
		case cString:
			var n int
			if n, b, err = readCount(b, false, 1); err != nil {
				return b, &pathError{s.path, err}
			}
			*(*string)(ptr), b = string(b[:n]), b[n:]
		case cArray:
			for j := range s.n {
				if b, err = s.elem.read(b, unsafe.Add(ptr, uintptr(j)*s.elem.typ.Size()), refs); err != nil {
					return b, at(s.path+"[]", err)
				}
			}
		case cSlice:
			b, err = s.readSlice(b, ptr, refs)
		case cMap:
			b, err = s.readMap(b, ptr, refs)
		case cIface:
			b, err = s.readIface(b, ptr, refs)
		case cRef:
			b, err = s.readRef(b, ptr, refs)
		}
		if err != nil {
			return b, err
		}
	}
	return b, nil
}

// readCount reads a length written as a uvarint, or when nilable a count
// plus one (0: nil, returned as -1), and checks it against the bytes left
// for elements of at least min bytes each.
func readCount(b []byte, nilable bool, min int) (int, []byte, error) {
	u, b, err := readUvarint(b)
	if err != nil {
		return 0, b, err
	}
	if nilable {
		if u == 0 {
			return -1, b, nil
		}
		u--
	}
	limit := uint64(maxZeroSized)
	if min > 0 {
		limit = uint64(len(b) / min)
	}
	if u > limit {
		return 0, b, fmt.Errorf("%d elements, more than the %d bytes left hold", u, len(b))
	}
	return int(u), b, nil
}

func (s *codecStep) readSlice(b []byte, ptr unsafe.Pointer, refs *Refs) ([]byte, error) {
	n, b, err := readCount(b, true, s.elem.min)
	if err != nil {
		return b, at(s.path, err)
	}
	if n < 0 {
		return b, nil
	}
	v := reflect.MakeSlice(s.typ, n, n)
	reflect.NewAt(s.typ, ptr).Elem().Set(v)
	data, size := v.UnsafePointer(), s.elem.typ.Size()
	if s.elem.raw {
		total := n * int(size)
		if len(b) < total {
			return b, &pathError{s.path, ErrShort}
		}
		return b[copy(unsafe.Slice((*byte)(data), total), b):], nil
	}
	for j := range n {
		if b, err = s.elem.read(b, unsafe.Add(data, uintptr(j)*size), refs); err != nil {
			return b, at(s.path+"[]", err)
		}
	}
	return b, nil
}

func (s *codecStep) readMap(b []byte, ptr unsafe.Pointer, refs *Refs) ([]byte, error) {
	n, b, err := readCount(b, true, s.key.min+s.elem.min)
	if err != nil {
		return b, at(s.path, err)
	}
	if n < 0 {
		return b, nil
	}
	m := reflect.MakeMapWithSize(s.typ, n)
	reflect.NewAt(s.typ, ptr).Elem().Set(m)
	var last []byte // the bytes of the key before
	for i := range n {
		k, v := reflect.New(s.typ.Key()), reflect.New(s.typ.Elem())
		from := b
		if b, err = s.key.read(b, k.UnsafePointer(), refs); err != nil {
			return b, at(s.path+"[key]", err)
		}
		key := from[:len(from)-len(b)]
		if i > 0 && bytes.Compare(last, key) >= 0 || m.MapIndex(k.Elem()).IsValid() {
			return b, &pathError{s.path, errors.New("a key twice, or out of order (keys are written in the order of their bytes)")}
		}
		last = key
		if b, err = s.elem.read(b, v.UnsafePointer(), refs); err != nil {
			return b, at(s.path+"[]", err)
		}
		m.SetMapIndex(k.Elem(), v.Elem())
	}
	return b, nil
}

func (s *codecStep) readIface(b []byte, ptr unsafe.Pointer, refs *Refs) ([]byte, error) {
	n, b, err := readCount(b, true, 1)
	if err != nil {
		return b, at(s.path, err)
	}
	if n < 0 {
		return b, nil
	}
	name := string(b[:n])
	b = b[n:]
	t, ok := declaredBy[name]
	if !ok {
		return b, &pathError{s.path, fmt.Errorf("holds a %q, a name no type in this program was given", name)}
	}
	if !t.Implements(s.typ) {
		return b, &pathError{s.path, fmt.Errorf("holds a %s, which is no %s", name, s.typ)}
	}
	v := reflect.New(t)
	if b, err = codecFor(t).read(b, v.UnsafePointer(), refs); err != nil {
		return b, at(s.path+".("+name+")", err)
	}
	reflect.NewAt(s.typ, ptr).Elem().Set(v.Elem())
	return b, nil
}

// loadInt reads a signed integer of size bytes.
func loadInt(p unsafe.Pointer, size uintptr) int64 {
	switch size {
	case 1:
		return int64(*(*int8)(p))
	case 2:
		return int64(*(*int16)(p))
	case 4:
		return int64(*(*int32)(p))
	}
	return *(*int64)(p)
}

// loadUint reads an unsigned integer (or a float's bits) of size bytes.
func loadUint(p unsafe.Pointer, size uintptr) uint64 {
	switch size {
	case 1:
		return uint64(*(*uint8)(p))
	case 2:
		return uint64(*(*uint16)(p))
	case 4:
		return uint64(*(*uint32)(p))
	}
	return *(*uint64)(p)
}

// appendWidth writes the low width bytes of x, little-endian.
func appendWidth(b []byte, x uint64, width int) []byte {
	for i := range width {
		b = append(b, byte(x>>(8*i)))
	}
	return b
}

// readWidth reads width bytes, little-endian.
func readWidth(b []byte, width int) uint64 {
	var x uint64
	for i := range width {
		x |= uint64(b[i]) << (8 * i)
	}
	return x
}

// storeInt writes x, read as width bytes (a signed one sign-extended),
// into an integer or float of size bytes, reporting whether it fits.
func storeInt(p unsafe.Pointer, size uintptr, x uint64, signed bool, width int) bool {
	if signed && width < 8 {
		shift := 64 - 8*width
		x = uint64(int64(x<<shift) >> shift)
	}
	if signed {
		v := int64(x)
		switch size {
		case 1:
			*(*int8)(p) = int8(v)
			return v >= math.MinInt8 && v <= math.MaxInt8
		case 2:
			*(*int16)(p) = int16(v)
			return v >= math.MinInt16 && v <= math.MaxInt16
		case 4:
			*(*int32)(p) = int32(v)
			return v >= math.MinInt32 && v <= math.MaxInt32
		}
		*(*int64)(p) = v
		return true
	}
	switch size {
	case 1:
		*(*uint8)(p) = uint8(x)
		return x <= math.MaxUint8
	case 2:
		*(*uint16)(p) = uint16(x)
		return x <= math.MaxUint16
	case 4:
		*(*uint32)(p) = uint32(x)
		return x <= math.MaxUint32
	}
	*(*uint64)(p) = x
	return true
}
