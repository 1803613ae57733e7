package physics

import (
	"reflect"
	"unsafe"

	"github.com/fixedstep/fixedstep/third_party/cp"
)

// cp keeps a space's shapes in two spatial indexes (dynamic and static; a
// sleeping body's shapes move to the static one), in unexported fields of
// cp.Space, and its query functions allocate on every call: a context and a
// method value (Space.BBQuery: three allocations in cp v2.4.0), and a query
// result per shape tested (Space.SegmentQuery, Shape.SegmentQuery and
// Shape.PointQuery take the address of a local that escapes into an
// interface call). The queries in query.go walk the two indexes through
// their exported interface, cp.SpatialIndexer, with a context and callbacks
// made once, and so allocate nothing.
//
// The fields are found by name and type, once, with reflect; if a cp version
// renames or retypes them, spaceIndexes reports false and the queries fall
// back on Space.BBQuery (allocating as cp does). TestQueryIndexesFound fails
// then, so that the change is seen.
var spaceIndex = func() (at struct{ dynamic, static, class uintptr }, ok bool) {
	space := reflect.TypeFor[cp.Space]()
	indexPtr := reflect.TypeFor[*cp.SpatialIndex]()
	dyn, ok1 := space.FieldByName("dynamicShapes")
	stat, ok2 := space.FieldByName("staticShapes")
	class, ok3 := reflect.TypeFor[cp.SpatialIndex]().FieldByName("class")
	if !ok1 || !ok2 || !ok3 || dyn.Type != indexPtr || stat.Type != indexPtr ||
		class.Type != reflect.TypeFor[cp.SpatialIndexer]() {
		return at, false
	}
	at.dynamic, at.static, at.class = dyn.Offset, stat.Offset, class.Offset
	return at, true
}

var spaceIndexAt, spaceIndexFound = spaceIndex()

// spaceIndexes returns space's dynamic and static spatial indexes, or false
// when this cp's layout is not the one expected.
func spaceIndexes(space *cp.Space) (dynamic, static cp.SpatialIndexer, ok bool) {
	if !spaceIndexFound {
		return nil, nil, false
	}
	base := unsafe.Pointer(space)
	d := *(**cp.SpatialIndex)(unsafe.Add(base, spaceIndexAt.dynamic))
	s := *(**cp.SpatialIndex)(unsafe.Add(base, spaceIndexAt.static))
	if d == nil || s == nil {
		return nil, nil, false
	}
	dynamic = *(*cp.SpatialIndexer)(unsafe.Add(unsafe.Pointer(d), spaceIndexAt.class))
	static = *(*cp.SpatialIndexer)(unsafe.Add(unsafe.Pointer(s), spaceIndexAt.class))
	return dynamic, static, dynamic != nil && static != nil
}
