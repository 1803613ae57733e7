package state

import (
	"fmt"
	"reflect"
	"strings"
	"unsafe"

	"github.com/cespare/xxhash/v2"

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
	typeHash uint64  // hash of the type's name, written for interfaces
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
	p := &plan{typ: t, size: t.Size(), typeHash: xxhash.Sum64String(typeName(t)), direct: isDirect(t)}
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

// typeName names a type stably across processes and builds: its package
// path and name, or for an unnamed type its Go syntax. A type of the
// project's copies of donburi and cp is named by its upstream package
// path, as before the copies, so that checksums stay those recordings
// were made with.
//
// A type of a command's package (package main) is named as in the
// command, "main." and its name, under go test too (see inMain).
func typeName(t reflect.Type) string {
	if name, ok := knownAs[t]; ok {
		return name
	}
	if t.Name() != "" && t.PkgPath() != "" {
		if path, ok := inMain(t); ok {
			return "main." + strings.ReplaceAll(t.Name(), path+".", "main.")
		}
		return upstreamPath(t.PkgPath()) + "." + t.Name()
	}
	return t.String()
}

// componentName returns the name of component type ct, as donburi gives
// it (its type's name unless set), with a command's package path in it
// written main, as in the command (see inMain).
func componentName(ct donburi.IComponentType) string {
	name := ct.Name()
	if path, ok := inMain(ct.Typ()); ok {
		name = strings.ReplaceAll(name, path+".", "main.")
	}
	return name
}

// inMain reports whether named type t is of a command's package compiled
// under its import path, and returns that path. A command's package is
// "main" in the command, but go test compiles it under its import path,
// which also names the package's types in the type arguments of a generic
// type's name (t.Name). The state names them as the command does, so that
// a game's own tests replay what the game recorded. t.String says the
// package's name, main, either way, and only a command's package is named
// main.
func inMain(t reflect.Type) (path string, ok bool) {
	path = t.PkgPath()
	return path, path != "" && path != "main" && strings.HasPrefix(t.String(), "main.")
}

// knownAs are the names KnownAs gave.
var knownAs = map[reflect.Type]string{}

// KnownAs makes the hash, the dump and the checksum name T as former, its
// package path and name before it moved ("example.com/game/components.Sprite"):
// a type's package path is part of every checksum of a world that holds
// it, so a component type moved to another package changes the checksums
// of every recording made before, which then no longer replay. With its
// former name, and the same fields, it hashes as it did. Call it from an
// init function of T's package, before any hasher meets T.
func KnownAs[T any](former string) {
	knownAs[reflect.TypeFor[T]()] = former
}

// upstreamPaths are the project's copies of libraries and their upstream
// package paths.
var upstreamPaths = [...][2]string{
	{"github.com/fixedstep/fixedstep/third_party/donburi", "github.com/yohamta/donburi"},
	{"github.com/fixedstep/fixedstep/third_party/cp", "github.com/jakecoffman/cp/v2"},
}

func upstreamPath(pkg string) string {
	for _, p := range upstreamPaths {
		if rest, ok := strings.CutPrefix(pkg, p[0]); ok && (rest == "" || rest[0] == '/') {
			return p[1] + rest
		}
	}
	return pkg
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
