package component

import (
	"reflect"
	"unsafe"
)

type (
	ComponentTypeId int
)

// A ValueStore saves component values of one type for a world snapshot,
// and writes them back: a value is copied as a Go assignment copies it.
type ValueStore interface {
	Add(p unsafe.Pointer) // saves the value p points to
	Restore()             // writes every value saved back where it was
	Reset()               // forgets them, keeping the memory
	Bytes() int           // about how much memory the values saved take
}

type IComponentType interface {
	Id() ComponentTypeId
	New() unsafe.Pointer
	Typ() reflect.Type
	Name() string
	// NewValueStore returns a store for this type's values.
	NewValueStore() ValueStore
}
