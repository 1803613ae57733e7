package state

import (
	"encoding/binary"
	"errors"
	"fmt"
	"math"
	"reflect"
	"strconv"
	"strings"
	"unsafe"

	"github.com/cespare/xxhash/v2"

	"github.com/fixedstep/fixedstep/third_party/donburi"
	"github.com/fixedstep/fixedstep/third_party/donburi/features/events"
)

// A world as bytes: AppendWorld writes a donburi world's whole state, and
// ReadWorld puts it into a world of another process, so that the next
// ticks there give what they gave here, checksum for checksum. The bytes
// (little-endian, the same on every CPU):
//
//	world     = nextId:uvarint
//	            destroyed:uvarint freed*            the ids freed for reuse, in order
//	            types:uvarint (name:str layout:u64)* the component types, by declared names
//	            archetypes:uvarint archetype*       in the world's order
//	            value*                              each archetype's values, a type after
//	                                                another, an entity after another
//	archetype = n:uvarint type:uvarint*             indexes into types, in the archetype's order
//	            entities:uvarint entity*            in the order queries visit them
//	            capacity:uvarint valuesCapacity:uvarint
//	freed     = entity archetype:uvarint index:uvarint  where it was when removed
//	entity    = u64                                 the id and version, as donburi.Entity
//	str       = len:uvarint bytes
//
// A value is written as AppendValue writes it; an event bus of donburi's
// events as the events queued in it (its subscribers are functions: a
// world read has none, see events.SubscribersOf). layout is a hash of how the type is written (its fields' names, kinds
// and widths, recursively): a component type whose fields changed since
// the bytes were written is refused by name, never read wrong.
//
// Component types are found by their declared names (see Name) among
// every component type the program made (donburi.AllComponentTypes).

// AppendWorld appends the bytes of w's whole state to b, the pointers its
// components hold to objects outside it written as refs give them (nil:
// none). A component value the bytes cannot hold (a pointer refs do not
// cover) is an error naming the component type, the entity and the field.
func AppendWorld(b []byte, w donburi.World, refs *Refs) ([]byte, error) {
	l, err := donburi.LayoutOf(w)
	if err != nil {
		return b, err
	}
	b = binary.AppendUvarint(b, uint64(l.NextId))
	b = binary.AppendUvarint(b, uint64(len(l.Destroyed)))
	for i, e := range l.Destroyed {
		b = binary.LittleEndian.AppendUint64(b, uint64(e))
		b = binary.AppendUvarint(b, uint64(l.DestroyedAt[i].Archetype))
		b = binary.AppendUvarint(b, uint64(l.DestroyedAt[i].Index))
	}
	index := map[donburi.IComponentType]int{}
	var types []worldType
	for _, a := range l.Archetypes {
		for _, ct := range a.Types {
			if _, ok := index[ct]; !ok {
				t, err := newWorldType(ct)
				if err != nil {
					return b, err
				}
				index[ct] = len(types)
				types = append(types, t)
			}
		}
	}
	b = binary.AppendUvarint(b, uint64(len(types)))
	for _, t := range types {
		b = binary.AppendUvarint(b, uint64(len(t.name)))
		b = append(b, t.name...)
		b = binary.LittleEndian.AppendUint64(b, t.layout)
	}
	b = binary.AppendUvarint(b, uint64(len(l.Archetypes)))
	for _, a := range l.Archetypes {
		b = binary.AppendUvarint(b, uint64(len(a.Types)))
		for _, ct := range a.Types {
			b = binary.AppendUvarint(b, uint64(index[ct]))
		}
		b = appendEntities(b, a.Entities)
		b = binary.AppendUvarint(b, uint64(a.Capacity))
		b = binary.AppendUvarint(b, uint64(a.ValuesCapacity))
	}
	for ai, a := range l.Archetypes {
		for _, ct := range a.Types {
			t := &types[index[ct]]
			for i, p := range donburi.Values(w, ai, ct) {
				if b, err = t.plan.append(b, unsafe.Add(p, t.off), refs); err != nil {
					return b, t.valueError(a.Entities[i], err)
				}
			}
		}
	}
	return b, nil
}

// ReadWorld makes w, a world fresh from donburi.NewWorld, into the one b
// holds (written by AppendWorld), its components' pointers resolved by
// refs, and returns the bytes after it. Bytes
// that are not a world's, a component type this program does not have or
// whose fields changed since, are an error that says which.
func ReadWorld(b []byte, w donburi.World, refs *Refs) ([]byte, error) {
	var l donburi.WorldLayout
	size := len(b)
	next, b, err := readUvarint(b)
	if err == nil && next > math.MaxUint32 {
		err = fmt.Errorf("%d is no entity id", next)
	}
	if err != nil {
		return b, worldError("the next id", err)
	}
	l.NextId = uint32(next)
	nd, b, err := readCount(b, false, 8+2)
	if err != nil {
		return b, worldError("the ids freed for reuse", err)
	}
	l.Destroyed, l.DestroyedAt = make([]donburi.Entity, nd), make([]donburi.Place, nd)
	for i := range l.Destroyed {
		var a, at uint64
		if len(b) < 8 {
			return b, worldError("the ids freed for reuse", ErrShort)
		}
		l.Destroyed[i], b = donburi.Entity(binary.LittleEndian.Uint64(b)), b[8:]
		if a, b, err = readUvarint(b); err == nil {
			at, b, err = readUvarint(b)
		}
		if err == nil && (a > math.MaxInt32 || at > math.MaxInt32) {
			err = fmt.Errorf("a place out of any world (archetype %d, index %d)", a, at)
		}
		if err != nil {
			return b, worldError("the ids freed for reuse", err)
		}
		l.DestroyedAt[i] = donburi.Place{Archetype: int(a), Index: int(at)}
	}
	n, b, err := readCount(b, false, 1+8)
	if err != nil {
		return b, worldError("the component types", err)
	}
	byName := componentTypesByName()
	types := make([]worldType, n)
	for i := range types {
		var name string
		if name, b, err = readString(b); err == nil && len(b) < 8 {
			err = ErrShort
		}
		if err != nil {
			return b, worldError("component type "+strconv.Itoa(i+1), err)
		}
		if types[i], err = byName.find(name, binary.LittleEndian.Uint64(b)); err != nil {
			return b, err
		}
		b = b[8:]
	}
	na, b, err := readCount(b, false, 2)
	if err != nil {
		return b, worldError("the archetypes", err)
	}
	l.Archetypes = make([]donburi.ArchetypeLayout, na)
	at := make([][]int, na) // each archetype's types, as indexes into types
	for ai := range l.Archetypes {
		a, where := &l.Archetypes[ai], "archetype "+strconv.Itoa(ai+1)
		nt, rest, err := readCount(b, false, 1)
		if err != nil {
			return rest, worldError(where, err)
		}
		b = rest
		for range nt {
			var ti int
			if ti, b, err = readCount(b, false, 0); err == nil && ti >= len(types) {
				err = fmt.Errorf("component type %d of %d", ti+1, len(types))
			}
			if err != nil {
				return b, worldError(where, err)
			}
			at[ai] = append(at[ai], ti)
			a.Types = append(a.Types, types[ti].ct)
		}
		if a.Entities, b, err = readEntities(b); err != nil {
			return b, worldError(where, err)
		}
		var c, vc uint64
		if c, b, err = readUvarint(b); err == nil {
			vc, b, err = readUvarint(b)
		}
		if err == nil && (c > math.MaxInt32 || vc > math.MaxInt32) {
			err = fmt.Errorf("capacities %d and %d", c, vc)
		}
		if err != nil {
			return b, worldError(where, err)
		}
		a.Capacity, a.ValuesCapacity = int(c), int(vc)
	}
	// The capacities are the world's to check (BuildWorld), but what
	// they would cost is checked here first: bytes that claim archetypes
	// of a great capacity they do not fill would cost memory out of all
	// proportion to their length.
	if cost, budget := l.Bytes(), uint64(worldBudget)+uint64(size)*worldBytesPerByte; cost > budget {
		return b, worldError("its archetypes", fmt.Errorf("they would take %d bytes of memory, more than %d for %d bytes", cost, budget, size))
	}
	if err := donburi.BuildWorld(w, l); err != nil {
		return b, fmt.Errorf("state: world: %w", err)
	}
	for ai, a := range l.Archetypes {
		for k, ct := range a.Types {
			t := &types[at[ai][k]]
			for i, p := range donburi.Values(w, ai, ct) {
				if b, err = t.plan.read(b, unsafe.Add(p, t.off), refs); err != nil {
					return b, t.valueError(a.Entities[i], err)
				}
			}
		}
	}
	return b, nil
}

// worldType is a component type as a world's bytes hold it: each value
// by plan, at off in its slot.
type worldType struct {
	ct     donburi.IComponentType
	name   string
	plan   *codecPlan
	off    uintptr
	layout uint64
}

// newWorldType plans how ct's values are written. An event bus (see
// events.go) is written as its queue of events not yet processed, a []T;
// the events package's own component of a bus, as nothing: it holds the
// event type's functions, set again when the event type is used, and its
// subscribers are the reading world's own (events.SubscribersOf).
func newWorldType(ct donburi.IComponentType) (worldType, error) {
	t := worldType{ct: ct, name: declaredComponentName(ct)}
	switch {
	case isEventTypeData(ct.Typ()):
		t.plan = codecFor(reflect.TypeFor[struct{}]())
	case events.IsBus(ct):
		if !eventQueueReadable() {
			return t, fmt.Errorf("state: world: the event bus %s is not laid out as this package reads it (another donburi?)", t.name)
		}
		t.plan, t.off = codecFor(reflect.SliceOf(ct.Typ())), eventQueueOffset
	default:
		t.plan = codecFor(ct.Typ())
	}
	t.layout = t.plan.layoutHash()
	return t, nil
}

func (t *worldType) valueError(e donburi.Entity, err error) error {
	var pe *pathError
	path := ""
	if errors.As(err, &pe) {
		path, err = pe.path, pe.err
	}
	return &ValueError{Type: t.name + " of entity " + entityString(e), Path: path, Err: err}
}

func entityString(e donburi.Entity) string {
	return "e" + strconv.FormatUint(uint64(e.Id()), 10) + "v" + strconv.FormatUint(uint64(e.Version()), 10)
}

func worldError(what string, err error) error {
	return fmt.Errorf("state: world: %s: %w", what, err)
}

// appendEntities writes a count and the entities.
func appendEntities(b []byte, es []donburi.Entity) []byte {
	b = binary.AppendUvarint(b, uint64(len(es)))
	for _, e := range es {
		b = binary.LittleEndian.AppendUint64(b, uint64(e))
	}
	return b
}

// worldBudget and worldBytesPerByte bound the memory ReadWorld lets a
// world's bytes cost: a world takes some tens of bytes of memory for each
// byte it is written in (an entity's 8 bytes stand for its entry, its
// location and its place in its archetype's slices, which grow by
// doubling).
const (
	worldBudget       = 4 << 20
	worldBytesPerByte = 256
)

// readUvarint reads a uvarint written in as few bytes as it takes.
func readUvarint(b []byte) (uint64, []byte, error) {
	u, k := binary.Uvarint(b)
	if k <= 0 {
		return 0, b, ErrShort
	}
	if k > 1 && b[k-1] == 0 {
		return 0, b, errors.New("a number written in more bytes than it takes")
	}
	return u, b[k:], nil
}

// readEntities reads a count and that many entities.
func readEntities(b []byte) ([]donburi.Entity, []byte, error) {
	n, b, err := readCount(b, false, 8)
	if err != nil {
		return nil, b, err
	}
	es := make([]donburi.Entity, n)
	for i := range es {
		es[i], b = donburi.Entity(binary.LittleEndian.Uint64(b)), b[8:]
	}
	return es, b, nil
}

// readString reads a length and that many bytes.
func readString(b []byte) (string, []byte, error) {
	n, b, err := readCount(b, false, 1)
	if err != nil {
		return "", b, err
	}
	return string(b[:n]), b[n:], nil
}

// componentNames is every component type of the program by its declared
// name; a name two types declare is kept as ambiguous.
type componentNames map[string][]donburi.IComponentType

func componentTypesByName() componentNames {
	m := componentNames{}
	for _, ct := range donburi.AllComponentTypes() {
		name := declaredComponentName(ct)
		m[name] = append(m[name], ct)
	}
	return m
}

// find returns the component type named name whose values are written
// as layout says. Two types of one name (of two packages, which no world
// holds both of, or the hasher would have refused them) are told apart by
// their layouts; two of one name and one layout are an error.
func (m componentNames) find(name string, layout uint64) (worldType, error) {
	cts := m[name]
	if len(cts) == 0 {
		return worldType{}, fmt.Errorf("state: world: a component type named %q, which this program does not have", name)
	}
	var found []worldType
	for _, ct := range cts {
		t, err := newWorldType(ct)
		if err != nil {
			return t, err
		}
		if t.layout == layout {
			found = append(found, t)
		}
	}
	switch len(found) {
	case 0:
		return worldType{}, fmt.Errorf("state: world: component type %s: its fields are not those it had when the bytes were written "+
			"(the game changed the type since: a build with the type as it was reads them)", name)
	case 1:
		return found[0], nil
	}
	var gos []string
	for _, t := range found {
		gos = append(gos, goName(t.ct.Typ()))
	}
	return worldType{}, fmt.Errorf("state: world: component types %s are all named %q, with the same fields: give each a name of its own (SetName, state.Name)", strings.Join(gos, ", "), name)
}

// layoutHash hashes how p writes a value, the same on every CPU: each
// field's path, kind and width on the wire, and the same of its elements,
// so that bytes written by a type of other fields are refused. A type met
// again inside itself (a tree's node in its own slice) is written as a
// reference to where it began.
func (p *codecPlan) layoutHash() uint64 {
	p.layoutOnce.Do(func() {
		var d xxhash.Digest
		d.Reset()
		p.describe(&d, map[*codecPlan]int{})
		p.layout = d.Sum64()
	})
	return p.layout
}

func (p *codecPlan) describe(d *xxhash.Digest, seen map[*codecPlan]int) {
	if i, ok := seen[p]; ok {
		fmt.Fprintf(d, "^%d;", i)
		return
	}
	seen[p] = len(seen)
	d.WriteString("{")
	for _, s := range p.leaves {
		width := s.wire
		if s.kind == cFloat {
			width = int(s.size)
		}
		fmt.Fprintf(d, "%s:%d/%d/%d", s.path, s.kind, width, s.n)
		for _, sub := range []*codecPlan{s.key, s.elem} {
			if sub != nil {
				sub.describe(d, seen)
			}
		}
		d.WriteString(";")
	}
	d.WriteString("}")
}
