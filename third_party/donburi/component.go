package donburi

import (
	"fmt"
	"iter"
	"reflect"
	"unsafe"

	"github.com/fixedstep/fixedstep/third_party/donburi/component"
	"github.com/fixedstep/fixedstep/third_party/donburi/filter"
)

// IComponentType is an interface for component types.
type IComponentType = component.IComponentType

// NewComponentType creates a new component type.
// The function is used to create a new component of the type.
// It receives a function that returns a pointer to a new component.
// The first argument is a default value of the component.
func NewComponentType[T any](opts ...interface{}) *ComponentType[T] {
	var t T
	if len(opts) == 0 {
		return newComponentType(t, nil)
	}
	return newComponentType(t, opts[0])
}

// CompnentType represents a type of component. It is used to identify
// a component when getting or setting components of an entity.
type ComponentType[T any] struct {
	id         component.ComponentTypeId
	typ        reflect.Type
	name       string
	defaultVal interface{}
	query      *Query
	newStore   func() component.ValueStore // nil: a store of T (see SetValueStore)
	newValue   func() unsafe.Pointer       // nil: a new T (see SetNew)
}

// Typ returns the reflect.Type of the ComponentType.
func (c *ComponentType[T]) Typ() reflect.Type {
	return c.typ
}

// Get returns component data from the entry.
func (c *ComponentType[T]) Get(entry *Entry) *T {
	return (*T)(entry.Component(c))
}

// GetValue returns value of the component from the entry.
func (c *ComponentType[T]) GetValue(entry *Entry) T {
	return *Get[T](entry, c)
}

// Set sets component data to the entry.
func (c *ComponentType[T]) Set(entry *Entry, component *T) {
	entry.SetComponent(c, unsafe.Pointer(component))
}

// Each iterates over the entities that have the component.
func (c *ComponentType[T]) Each(w World, callback func(*Entry)) {
	c.query.Each(w, callback)
}

// EachUntil iterates over the entities that have the component until callback returns false.
func (c *ComponentType[T]) EachUntil(w World, callback func(*Entry) bool) {
	c.query.EachUntil(w, callback)
}

// Iter returns an iterator for the entities that have the component.
func (c *ComponentType[T]) Iter(w World) iter.Seq[*Entry] {
	return c.query.Iter(w)
}

// deprecated: use Each instead
func (c *ComponentType[T]) EachEntity(w World, callback func(*Entry)) {
	c.Each(w, callback)
}

// First returns the first entity that has the component.
func (c *ComponentType[T]) First(w World) (*Entry, bool) {
	return c.query.First(w)
}

// deprecated: use First instead
func (c *ComponentType[T]) FirstEntity(w World) (*Entry, bool) {
	return c.First(w)
}

// MustFirst returns the first entity that has the component or panics.
func (c *ComponentType[T]) MustFirst(w World) *Entry {
	e, ok := c.query.First(w)
	if !ok {
		panic(fmt.Sprintf("no entity has the component %s", c.name))
	}

	return e
}

// deprecated: use MustFirst instead
func (c *ComponentType[T]) MustFirstEntity(w World) *Entry {
	return c.MustFirst(w)
}

// SetValue sets the value of the component.
func (c *ComponentType[T]) SetValue(entry *Entry, value T) {
	comp := c.Get(entry)
	*comp = value
}

// String returns the component type name.
func (c *ComponentType[T]) String() string {
	return c.name
}

// SetName sets the component type name.
func (c *ComponentType[T]) SetName(name string) *ComponentType[T] {
	c.name = name
	return c
}

// Name returns the component type name.
func (c *ComponentType[T]) Name() string {
	return c.name
}

// Id returns the component type id.
func (c *ComponentType[T]) Id() component.ComponentTypeId {
	return c.id
}

func (c *ComponentType[T]) New() unsafe.Pointer {
	if c.newValue != nil {
		return c.newValue()
	}
	val := reflect.New(c.typ)
	v := reflect.Indirect(val)
	ptr := unsafe.Pointer(v.UnsafeAddr())
	if c.defaultVal != nil {
		c.setDefaultVal(ptr)
	}
	return ptr
}

func (c *ComponentType[T]) setDefaultVal(ptr unsafe.Pointer) {
	v := reflect.Indirect(reflect.ValueOf(c.defaultVal))
	reflect.NewAt(c.typ, ptr).Elem().Set(v)
}

func (c *ComponentType[T]) validateDefaultVal() {
	if !reflect.TypeOf(c.defaultVal).AssignableTo(c.typ) {
		err := fmt.Sprintf("default value is not assignable to component type: %s", c.name)
		panic(err)
	}
}

var nextComponentTypeId component.ComponentTypeId = 1
var globalComponentTypes []component.IComponentType

// NewComponentType creates a new component type.
// The argument is a struct that represents a data of the component.
func newComponentType[T any](s T, defaultVal interface{}) *ComponentType[T] {
	typ := reflect.TypeOf(s)
	componentType := &ComponentType[T]{
		id:         nextComponentTypeId,
		typ:        typ,
		name:       typ.Name(),
		defaultVal: defaultVal,
	}
	componentType.query = NewQuery(filter.Contains(componentType))
	if defaultVal != nil {
		componentType.validateDefaultVal()
	}
	nextComponentTypeId++
	globalComponentTypes = append(globalComponentTypes, componentType)
	return componentType
}

// AllComponentTypes returns all IComponentTypes created at that point in time.
// All types created using `donburi.NewComponentType()` will be in this list.
// This is useful if you want to use introspection on the ECS, such as when doing (de)serialization.
// This includes components which are not in any archetypes or on any entity.
func AllComponentTypes() []IComponentType {
	return globalComponentTypes
}

// NewValueStore returns a store of T values, for world snapshots (of S
// values after StoreAs).
func (c *ComponentType[T]) NewValueStore() component.ValueStore {
	if c.newStore != nil {
		return c.newStore()
	}
	return &valueStore[T]{}
}

// SetValueStore makes world snapshots save and restore c's values with the
// stores newStore makes, instead of copying T values: for a component type
// whose slots hold another type in fact (the events package keeps an event
// type's bus in a slot of the event's type), or whose values hold slices
// or maps they change in place, which a copy would share.
func SetValueStore[T any](c *ComponentType[T], newStore func() component.ValueStore) {
	c.newStore = newStore
}

// SetNew makes c's slots hold what newValue returns, instead of a new T
// (with c's default value, if it has one): for a component type whose
// slots hold another type (the events package keeps an event type's bus in
// a slot of the event's type). An entity made with c gets one, and so does
// each entity of a world that BuildWorld makes, until a value is written.
func SetNew[T any](c *ComponentType[T], newValue func() unsafe.Pointer) {
	c.newValue = newValue
}

type savedValue[T any] struct {
	p *T
	v T
}

type valueStore[T any] []savedValue[T]

func (vs *valueStore[T]) Add(p unsafe.Pointer) {
	*vs = append(*vs, savedValue[T]{(*T)(p), *(*T)(p)})
}

func (vs *valueStore[T]) Restore() {
	for i := range *vs {
		*(*vs)[i].p = (*vs)[i].v
	}
}

func (vs *valueStore[T]) Reset() {
	clear(*vs)
	*vs = (*vs)[:0]
}

func (vs *valueStore[T]) Bytes() int { return len(*vs) * int(unsafe.Sizeof(savedValue[T]{})) }
