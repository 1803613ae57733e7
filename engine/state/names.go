package state

import (
	"fmt"
	"reflect"
	"strconv"
	"strings"

	"github.com/cespare/xxhash/v2"

	"github.com/fixedstep/fixedstep/third_party/donburi"
)

// This file names types by the names they declare, as the hash, the dump
// and the checksum have since recordings of format 5 (engine/internal/inputlog):
//
//   - A component type by its donburi name: the name given with SetName
//     (donburi.NewTag(name), events.EventType.SetName), or else its Go
//     type's declared name (below). Its Go package path is no part of it:
//     a component type moves to another package and keeps its checksums.
//   - Any other type (a value's dynamic type in an interface) by the name
//     given to Name or Summarize, or else its Go name without package
//     qualifiers ("Circle", "*Circle", "[]Item", "Box[Item]").
//
// Two component types that one hasher meets under one name, or two types
// of one name met in interfaces, are a panic that names both Go types: a
// checksum must tell them apart, so one of them needs a name of its own.
//
// Recordings made before format 5 name types by their Go package paths
// instead (pathnames.go), which Options.PathNames asks for.

// declared are the names Name and Summarize gave, and declaredBy the type
// each name was given to.
var (
	declared   = map[reflect.Type]string{}
	declaredBy = map[string]reflect.Type{}
)

// Name gives type T the name the hash, the dump and the checksum know it
// by, in place of its Go name without package qualifiers: for a type that
// would otherwise share its name with another in one world (two Item types
// of two packages held in one interface field), or a component type that
// is not named with donburi's SetName. The name is part of every checksum
// of a world that holds a T; keep it when T moves or is renamed. An empty
// name, or a name already given to another type, panics. Call it from an
// init function of T's package, before any hasher meets T.
func Name[T any](name string) {
	declare(reflect.TypeFor[T](), name)
}

func declare(t reflect.Type, name string) {
	if name == "" {
		panic(fmt.Sprintf("state: Name: an empty name for %s", goName(t)))
	}
	if other, ok := declaredBy[name]; ok && other != t {
		panic(fmt.Sprintf("state: Name: %s and %s are both named %q: a checksum must tell them apart", goName(other), goName(t), name))
	}
	if old, ok := declared[t]; ok && old != name {
		delete(declaredBy, old)
	}
	declared[t], declaredBy[name] = name, t
}

// declaredTypeName returns the name type t declares: the one Name or
// Summarize gave it, or its Go name without package qualifiers (pointers,
// slices, arrays and maps of declared types written around their names).
func declaredTypeName(t reflect.Type) string {
	if name, ok := declared[t]; ok {
		return name
	}
	if t.Name() != "" {
		return unqualified(t.Name()) // a generic type's arguments are qualified
	}
	switch t.Kind() {
	case reflect.Pointer:
		return "*" + declaredTypeName(t.Elem())
	case reflect.Slice:
		return "[]" + declaredTypeName(t.Elem())
	case reflect.Array:
		return "[" + strconv.Itoa(t.Len()) + "]" + declaredTypeName(t.Elem())
	case reflect.Map:
		return "map[" + declaredTypeName(t.Key()) + "]" + declaredTypeName(t.Elem())
	}
	return unqualified(t.String())
}

// declaredComponentName returns the name component type ct declares: its
// donburi name when set to other than its Go type's name, else its type's
// declared name.
func declaredComponentName(ct donburi.IComponentType) string {
	name, t := ct.Name(), ct.Typ()
	if name == "" || name == t.Name() {
		return declaredTypeName(t)
	}
	return name
}

// unqualified returns Go type syntax s without package qualifiers: every
// qualified identifier ("github.com/a/b.Item", "main.Item") by its last
// part ("Item").
func unqualified(s string) string {
	if !strings.Contains(s, ".") {
		return s
	}
	var b strings.Builder
	start := -1 // where the identifier being read began
	for i := 0; i <= len(s); i++ {
		if i < len(s) && qualChar(s[i]) {
			if start < 0 {
				start = i
			}
			continue
		}
		if start >= 0 {
			id := s[start:i]
			b.WriteString(id[strings.LastIndexByte(id, '.')+1:])
			start = -1
		}
		if i < len(s) {
			b.WriteByte(s[i])
		}
	}
	return b.String()
}

// qualChar reports whether c can be part of a qualified identifier: an
// identifier's, a package path's or the dot between them.
func qualChar(c byte) bool {
	return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' ||
		c == '_' || c == '.' || c == '/' || c == '-' || c == '~' || c >= 0x80
}

// goName is t's Go name with its package path, for error messages.
func goName(t reflect.Type) string {
	if t.Name() != "" && t.PkgPath() != "" {
		return t.PkgPath() + "." + t.Name()
	}
	return t.String()
}

// naming is how a hasher's writers name types: by declared names, or as
// recordings before format 5 did (paths). It is shared by the writers of
// one hasher, as its plans are.
type naming struct {
	paths bool
	dyn   map[string]reflect.Type // types met in interfaces, by name
}

func newNaming(paths bool) *naming {
	return &naming{paths: paths, dyn: map[string]reflect.Type{}}
}

// nameType names the type of plan pl, met in an interface: the hash of its
// name goes before its value in the hash, and the dump writes the name.
func (w *Writer) nameType(pl *plan) {
	if w.names.paths {
		pl.typeHash, pl.label = xxhash.Sum64String(pathTypeName(pl.typ)), pl.typ.String()
	} else {
		name := declaredTypeName(pl.typ)
		if other, ok := w.names.dyn[name]; ok && other != pl.typ {
			panic(fmt.Sprintf("state: %s and %s, both met in interfaces, are both named %q: "+
				"a checksum must tell them apart: give one a name (state.Name)", goName(other), goName(pl.typ), name))
		}
		w.names.dyn[name] = pl.typ
		pl.typeHash, pl.label = xxhash.Sum64String(name), name
	}
	pl.named = true
}

// nameComponent names cs, a component type the hasher meets for the first
// time, and sets the key its sum is combined with.
func (h *Hasher) nameComponent(cs *compState) {
	if h.w.names.paths {
		cs.name, cs.typeName = pathComponentName(cs.ct), pathTypeName(cs.ct.Typ())
		if cs.name == "" {
			cs.name = cs.typeName
		}
		cs.keyHash = xxhash.Sum64String(cs.name + "\x00" + cs.typeName)
		return
	}
	cs.name = declaredComponentName(cs.ct)
	if other, ok := h.named[cs.name]; ok {
		panic(fmt.Sprintf("state: component types of %s and of %s are both named %q: a checksum must tell them apart: "+
			"give one a name of its own (SetName, donburi.NewTag(name), events.EventType.SetName, state.Name)",
			goName(other.ct.Typ()), goName(cs.ct.Typ()), cs.name))
	}
	if h.named == nil {
		h.named = map[string]*compState{}
	}
	h.named[cs.name] = cs
	cs.keyHash = xxhash.Sum64String(cs.name)
}
