package core

import (
	"fmt"
	"reflect"
	"unsafe"

	"github.com/fixedstep/fixedstep/engine/state"
)

// Name gives v, an asset of the scene (an image, an animation clip: what a
// component points to that is not game state but something the scene
// loaded), a name by which the stage's state as bytes ([Stage.AppendState])
// writes a pointer to it; the stage that reads the bytes, set up by the
// same scene code, names the same assets, and finds each by its name. A
// pointer to an asset with no name is an error naming the component and
// its field. Call it while building the scene (package stage names its
// bundle's sprites and atlas itself). A name given to another asset of
// the same type, or a second name for an asset, panics.
func Name[T any](s *Stage, name string, v *T) {
	t := namesOf[T](s)
	p := unsafe.Pointer(v)
	if q, ok := t.byName[name]; ok && q != p {
		panic(fmt.Sprintf("core: Name: %q names another %s already", name, reflect.TypeFor[T]()))
	}
	if n, ok := t.byPtr[p]; ok && n != name {
		panic(fmt.Sprintf("core: Name: the %s is named %q already, not %q", reflect.TypeFor[T](), n, name))
	}
	t.byName[name], t.byPtr[p] = p, name
}

// Find gives the stage a way to make an asset of type T from its name, for
// names the bytes hold that the reading scene has not given (Name): an
// asset made on demand, such as a recoloured sprite made the first time
// it is asked for. find returns nil for a name it does not know. The
// asset it makes is named as Name would.
func Find[T any](s *Stage, find func(name string) *T) {
	namesOf[T](s).find = func(name string) unsafe.Pointer { return unsafe.Pointer(find(name)) }
}

// namesOf returns the table of T's names, made with its codec the first
// time.
func namesOf[T any](s *Stage) *nameTable {
	t, ok := s.names.byType[reflect.TypeFor[T]()]
	if ok {
		return t
	}
	t = &nameTable{byName: map[string]unsafe.Pointer{}, byPtr: map[unsafe.Pointer]string{}}
	if s.names.byType == nil {
		s.names.byType = map[reflect.Type]*nameTable{}
	}
	s.names.byType[reflect.TypeFor[T]()] = t
	state.AddNames(&s.names.refs, func(v *T) (string, bool) {
		n, ok := t.byPtr[unsafe.Pointer(v)]
		return n, ok
	}, func(name string) (*T, bool) {
		if p, ok := t.byName[name]; ok {
			return (*T)(p), true
		}
		if t.find != nil {
			if v := (*T)(t.find(name)); v != nil {
				Name(s, name, v)
				return v, true
			}
		}
		return nil, false
	})
	return t
}

// assetNames are the names of a stage's assets, by type.
type assetNames struct {
	byType map[reflect.Type]*nameTable
	refs   state.Refs // writes and reads every named type's pointers
}

type nameTable struct {
	byName map[string]unsafe.Pointer
	byPtr  map[unsafe.Pointer]string
	find   func(name string) unsafe.Pointer // Find's
}
