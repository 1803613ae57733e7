package state

import (
	"fmt"
	"reflect"
	"unsafe"

	"github.com/fixedstep/fixedstep/third_party/donburi"
)

// This file turns a Go type into a plan: the list of what the state hasher
// and the world dump read from a value of that type, at which offsets, so
// that hashing a component is a walk over a precomputed list with no
// reflection in the common cases (numbers, strings, arrays, slices, structs,
// pointers). Plans are built once per type and per Writer.

// kind is what a field of a plan holds.
type kind uint8

const (
	kBool kind = iota
	kInt       // signed integer of size 1, 2, 4 or 8
	kUint      // unsigned integer (and uintptr) of size 1, 2, 4 or 8
	kFloat32
	kFloat64
	kComplex64
	kComplex128
	kString
	kMem     // hash only: size bytes of memory at off, merged scalars
	kArray   // n elements of elem
	kSlice   // a slice of elem
	kMap     // a map from key to elem
	kPtr     // a pointer to elem
	kIface   // an interface (typ)
	kSummary // a type implementing Summarizer (typ)
	kBuiltin // a type summarised by the package (cp bodies, ebiten images, ...)
)

// field is one thing a plan reads.
type field struct {
	kind      kind
	off, size uintptr
	name      string // path from the plan's root: "", ".X", ".Prev.X"
	typ       reflect.Type
	elem, key *plan
	n         int // array length; for interfaces, the number of methods
	builtin   func(p unsafe.Pointer, w *Writer)

	entity   bool // a donburi.Entity: dumped as e<id>v<version>
	word     bool // an int, uint or uintptr: hashed as 8 bytes on every CPU, 4-byte words widened
	stringer bool // a named scalar with a String method: dumped with it
	bytes    bool // an array or slice of bytes: dumped as one hex line

	free []*mapScratch // kMap: iterators not in use
}

// plan is how a value of one type is read.
type plan struct {
	typ      reflect.Type
	size     uintptr
	fields   []field // every leaf, in field order, with names (the dump)
	hash     []field // the same, with runs of adjacent scalars merged (the hash)
	raw      bool    // hashed as exactly its size bytes of memory
	mayPoint bool    // can lead to a pointer, interface, map or summary
	leaf     bool    // a builtin summary: never leads back to a pointer
	direct   bool    // stored in an interface's data word, not behind it

	// A leaf's use of the writer's memo in the sum under way (its
	// memoSum): how many of its values the memo held and did not hold.
	memoSum          uint64
	memoHits, misses int

	// The type's name, for a value of it in an interface (see
	// Writer.nameType): set the first time one is met.
	named    bool
	typeHash uint64 // hash of the name, written before the value
	label    string // the name, as the dump writes it: ".(label)"
}

// mapScratch iterates a map without allocating: an iterator and settable
// key and value reused from one map to the next.
type mapScratch struct {
	it     reflect.MapIter
	k, v   reflect.Value
	kp, vp unsafe.Pointer
}

var (
	summarizerType = reflect.TypeFor[Summarizer]()
	anyType        = reflect.TypeFor[any]()
	stringerType   = reflect.TypeFor[fmt.Stringer]()
	entityType     = reflect.TypeFor[donburi.Entity]()

	// littleEndian: adjacent scalars are hashed as their memory, which is
	// their little-endian encoding only on a little-endian machine. On
	// others, each scalar is encoded on its own, to the same bytes.
	littleEndian = func() bool {
		x := uint16(1)
		return *(*byte)(unsafe.Pointer(&x)) == 1
	}()
)

// planFor returns the plan of t, building it (and the plans it needs) the
// first time. A type that contains itself through pointers, slices or maps
// gets one plan that refers to itself.
func (w *Writer) planFor(t reflect.Type) *plan {
	if p, ok := w.plans[t]; ok {
		return p
	}
	p := &plan{typ: t, size: t.Size(), direct: isDirect(t)}
	w.plans[t] = p
	w.addFields(t, 0, "", &p.fields)
	p.hash = mergeForHash(p.fields)
	p.raw = t.Size() == 0 && len(p.fields) == 0 ||
		len(p.hash) == 1 && p.hash[0].kind == kMem && p.hash[0].off == 0 && p.hash[0].size == t.Size()
	p.leaf = len(p.fields) == 1 && p.fields[0].kind == kBuiltin
	for i := range p.fields {
		switch f := &p.fields[i]; f.kind {
		case kSlice, kMap, kPtr, kIface, kSummary:
			p.mayPoint = true
		case kArray:
			p.mayPoint = p.mayPoint || f.elem.mayPoint
		}
	}
	return p
}

// isDirect reports whether an interface holding a t keeps the value itself
// in its data word (pointer-shaped types) rather than a pointer to it. It
// asks the runtime instead of restating its rules: the zero value of a
// pointer-shaped type is a nil data word; any other type's is a pointer to
// a zero value.
func isDirect(t reflect.Type) bool {
	v := reflect.Zero(t).Interface()
	return (*[2]unsafe.Pointer)(unsafe.Pointer(&v))[1] == nil
}

// addFields appends to out what a value of type t at offset off reads,
// named by path name. Structs are flattened into their exported fields.
func (w *Writer) addFields(t reflect.Type, off uintptr, name string, out *[]field) {
	f := field{off: off, size: t.Size(), name: name, typ: t}
	if fn := builtins[t]; fn != nil {
		f.kind, f.builtin = kBuiltin, fn
		*out = append(*out, f)
		return
	}
	if t.Kind() != reflect.Interface && reflect.PointerTo(t).Implements(summarizerType) {
		f.kind = kSummary
		*out = append(*out, f)
		return
	}
	switch t.Kind() {
	case reflect.Bool:
		f.kind = kBool
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		f.kind = kInt
		f.word = t.Kind() == reflect.Int
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Uintptr:
		f.kind = kUint
		f.entity = t == entityType
		f.word = t.Kind() == reflect.Uint || t.Kind() == reflect.Uintptr
	case reflect.Float32:
		f.kind = kFloat32
	case reflect.Float64:
		f.kind = kFloat64
	case reflect.Complex64:
		f.kind = kComplex64
	case reflect.Complex128:
		f.kind = kComplex128
	case reflect.String:
		f.kind = kString
	case reflect.Array:
		if t.Len() == 0 {
			return
		}
		f.kind, f.elem, f.n = kArray, w.planFor(t.Elem()), t.Len()
		f.bytes = t.Elem().Kind() == reflect.Uint8
	case reflect.Slice:
		f.kind, f.elem = kSlice, w.planFor(t.Elem())
		f.bytes = t.Elem().Kind() == reflect.Uint8
	case reflect.Map:
		f.kind, f.key, f.elem = kMap, w.planFor(t.Key()), w.planFor(t.Elem())
	case reflect.Pointer:
		if w.kept { // the address, as a Go assignment copies it (see ValueHasher)
			f.kind, f.size = kUint, unsafe.Sizeof(uintptr(0))
			break
		}
		f.kind, f.elem = kPtr, w.planFor(t.Elem())
	case reflect.Interface:
		f.kind, f.n = kIface, t.NumMethod()
	case reflect.Struct:
		for i := range t.NumField() {
			sf := t.Field(i)
			if sf.Tag.Get("state") == "-" {
				continue
			}
			// Exported fields, and the fields promoted from an embedded
			// struct of an unexported type (reachable as x.Field).
			// (A ValueHasher's: every field, as an assignment copies them.)
			if sf.IsExported() || sf.Anonymous && sf.Type.Kind() == reflect.Struct || w.kept {
				w.addFields(sf.Type, off+sf.Offset, name+"."+sf.Name, out)
			}
		}
		return
	default: // funcs, chans, unsafe pointers: not state
		return
	}
	if f.kind <= kString && !f.entity && t.Name() != "" && t.PkgPath() != "" && t.Implements(stringerType) {
		f.stringer = true
	}
	*out = append(*out, f)
}

// mergeForHash returns the hash's list: fields as they are, except that
// scalars and arrays hashed as raw memory become kMem fields, and adjacent
// kMem fields (no padding between) become one.
func mergeForHash(fs []field) []field {
	out := make([]field, 0, len(fs))
	for _, f := range fs {
		if littleEndian {
			switch {
			case f.kind <= kComplex128 && !(f.word && f.size < 8):
				f = field{kind: kMem, off: f.off, size: f.size}
			case f.kind == kArray && f.elem.raw:
				f = field{kind: kMem, off: f.off, size: f.size}
			}
		}
		if n := len(out); f.kind == kMem && n > 0 && out[n-1].kind == kMem && out[n-1].off+out[n-1].size == f.off {
			out[n-1].size += f.size
			continue
		}
		out = append(out, f)
	}
	return out
}
