package state

import (
	"cmp"
	"encoding/binary"
	"slices"
	"strings"
	"unsafe"

	"github.com/cespare/xxhash/v2"

	"github.com/fixedstep/fixedstep/third_party/donburi"
)

// Hasher hashes the simulation state of a donburi world: every
// entity's components, by reflection over the world's archetypes, with no
// hasher written by hand. It also shows the same state value by value
// ([Hasher.Visit]) and writes it as text ([Hasher.Dump]). A recording stores the hash after every tick and
// a replay compares it (engine.Recording.SetChecksum), so that a replay that
// drifts stops at the first tick that differs; [Hasher.ComponentSums]
// then says which component types differ, and [Hasher.Dump] writes the
// same state as text to diff.
//
// # What is hashed
//
// Entities in entity order (id, then version), each with its id and
// version; for each of its component types, the component's value:
//
//   - Numbers, bools and strings by value; floats by their bits, so -0 and
//     +0 differ, and so do NaNs of different payloads (a NaN that appears
//     in one run and not in another is a difference worth seeing).
//   - Structs by their exported fields, in order, recursively; unexported
//     fields are skipped, as are fields tagged `state:"-"` (a cache, a
//     handle). The exported fields of an embedded struct of an unexported
//     type are included, as Go promotes them.
//   - Arrays and slices element by element (a slice with its length); maps
//     by their length and the sum of the hashes of their entries, so that
//     their random iteration order does not matter.
//   - Pointers are followed: the value pointed to is hashed where the
//     pointer is, and a nil pointer is hashed as nil. A pointer met again
//     while following it (a cycle) is hashed as a reference to that
//     ancestor instead, so cycles end; a value shared by two pointers that
//     are not a cycle is hashed twice. Pointer addresses are never hashed:
//     the hash is the same in every process.
//   - Interfaces by their dynamic type's name and value (a pointer in an
//     interface is followed).
//   - Funcs, chans and unsafe.Pointers are skipped. A uintptr is hashed as
//     a number: do not keep addresses in components.
//   - Resources owned by the engine's libraries are summarised by what the
//     simulation sees: the random sources of math/rand/v2 (a PCG, a
//     ChaCha8, a Rand over either) by their state, so that a draw too many
//     shows. Package systems/physics adds cp's: a cp.Body by its type,
//     mass, moment, position, velocity, angle, angular velocity, the force
//     and torque accumulated for its next step, and whether it sleeps; a
//     cp.Shape by its class and geometry, sensor, friction, elasticity,
//     mass, collision type and filter; a cp.Constraint by its class and
//     limits (a program that holds cp values without that package's
//     systems imports it for them). Package components/gfx adds ebiten's: an ebiten.Image by its bounds (a sub-image's rectangle in
//     its atlas, which changes when a sprite switches frame; never its
//     pixels), an ebiten.ColorScale by its four scales and an ebiten.GeoM
//     by its six elements. [Summarize] adds others. (Other unexported
//     state, such as math/rand's v1 sources or a time.Time, is not seen.)
//   - A type can describe its own state instead, by implementing
//     [Summarizer].
//   - The event buses of donburi's events package (an entity per event
//     type, whose component holds the bus under the event type's name) are
//     hashed as their queue of events not yet processed, named Queue:
//     read as the event type they claim to be, they would hash an address.
//
// A component type can be left out altogether, for state that is
// presentation only (an animation timer, a particle): [Options.Ignore]
// or [Hasher.Ignore]. An entity whose components are all ignored does
// not count.
//
// Each component type has its own sum over the entities that have it (with
// their ids); the world's sum combines them, each under its name, in the
// order of their names. Types are named by the names they declare (see
// the package doc, # Names), never by their Go package paths: a component
// type moved to another package keeps the checksums of every world that
// holds it. Two component types of one name in one world, or two types of
// one name met in interfaces, are a panic naming both.
// [Options.PathNames] names them as recordings made before input log
// format 5 did, to replay those.
// The hash is XXH64 (github.com/cespare/xxhash), over values in
// little-endian order: the same in every process, on every platform, for
// the same state and the same component types.
//
// # Cost
//
// The first Sum over a component type builds a plan of it (its fields'
// offsets and kinds); after that Sum reads each component's memory at the
// planned offsets and allocates nothing, for any kind of field (maps and
// interfaces included), unless the world has grown more archetypes than
// the hasher has met. It reads a component type at a time, from the
// archetypes' columns of its values, in entity order.
// BenchmarkStateHasherOverhead measures it beside a hand-written checksum
// on a world of bodies with shapes and sprites; BenchmarkStressChecksum
// (package scenes) on the Stress scene's pile. A Hasher is not safe for
// concurrent use; use one per goroutine.
type Hasher struct {
	w      *Writer
	byID   []*compState // by donburi's component type id
	order  []*compState // by name, then Go type, then id
	slots  []int32      // by entity id, while collect places entities: 1 + its index in found
	found  []located    // the world's entities as collect finds them, archetype by archetype
	ents   []located    // the world's entities in entity order (collect)
	sums   []ComponentSum
	total  xxhash.Digest
	header []byte
	named  map[string]*compState // by declared name (names.go)
}

// located is an entity and where its components are: in archetype arch of
// the world's Archetypes, at index row of its entities and of its
// component columns.
type located struct {
	e         donburi.Entity
	arch, row int32
}

// compState is what the hasher keeps for a component type.
type compState struct {
	ct             donburi.IComponentType
	name, typeName string
	keyHash        uint64
	plan           *plan
	ignored        bool
	off            uintptr // where the state starts in the component
	eventType      bool    // donburi's events' own component type
	bus            bool    // an event bus of donburi's events (stateevents.go)
	skip           bool    // an event bus that cannot be read
	digest         xxhash.Digest

	// During a Sum: whether an archetype with entities holds the type,
	// and its column of values in each archetype (nil where there is
	// none), by archetype index.
	present bool
	cols    [][]unsafe.Pointer
}

// hashBlock is how many bytes of a component type the hasher gathers
// before hashing them.
const hashBlock = 16 << 10

// Options configure a [Hasher] and the dump. The zero value (or
// nil) hashes every component type.
type Options struct {
	// Ignore lists component types left out of the hash and the dump:
	// state that is presentation only and may differ between runs of the
	// same game (an animation frame chosen by wall time, a particle).
	Ignore []donburi.IComponentType

	// PathNames names types as recordings made before format 5 did: a
	// component type by its donburi name and its Go package path, a type
	// in an interface by its package path and name. It is for replaying
	// those recordings alone, whose checksums it gives again: a run's
	// hasher takes it from engine.Recording.PathNames (package systems/stage
	// does). Without it, types are named by the names they declare.
	PathNames bool
}

// ComponentSum is the hash of one component type's state over every entity
// that has it, as computed by the last [Hasher.Sum].
type ComponentSum struct {
	// Name is the component type's declared name (see the package doc, #
	// Names): its donburi name, which is its Go type's name unless set with
	// SetName. (With Options.PathNames, the name the recordings before
	// format 5 gave it.)
	Name string
	// Type is the component type.
	Type donburi.IComponentType
	// Entities is how many entities have it.
	Entities int
	// Sum hashes those entities' ids and versions and their components'
	// state, in entity order.
	Sum uint64
}

// NewHasher returns a hasher that leaves out the component types in
// opts.Ignore (opts may be nil).
func NewHasher(opts *Options) *Hasher {
	h := &Hasher{w: newWriter(opts != nil && opts.PathNames)}
	if opts != nil {
		h.Ignore(opts.Ignore...)
	}
	return h
}

// Ignore leaves the given component types out of later sums and dumps.
// Nil entries are skipped.
func (h *Hasher) Ignore(types ...donburi.IComponentType) {
	for _, ct := range types {
		if ct != nil {
			h.state(ct).ignored = true
		}
	}
}

// Checksum returns the hash of w's state by the rules of [Hasher],
// with a new hasher: for a one-off check. A game that checks every tick
// keeps a Hasher, whose Sum allocates nothing.
func Checksum(w donburi.World) uint64 {
	return NewHasher(nil).Sum(w)
}

// state returns the hasher's record of component type ct, making it the
// first time ct is seen.
func (h *Hasher) state(ct donburi.IComponentType) *compState {
	id := int(ct.Id())
	if id < len(h.byID) && h.byID[id] != nil {
		return h.byID[id]
	}
	if id >= len(h.byID) {
		h.byID = append(h.byID, make([]*compState, id+1-len(h.byID))...)
	}
	cs := &compState{ct: ct}
	h.nameComponent(cs)
	cs.plan = h.w.planFor(ct.Typ())
	cs.eventType = isEventTypeData(ct.Typ())
	cs.digest.Reset()
	h.byID[id] = cs
	i, _ := slices.BinarySearchFunc(h.order, cs, compareStates)
	h.order = slices.Insert(h.order, i, cs)
	return cs
}

func compareStates(a, b *compState) int {
	return cmp.Or(strings.Compare(a.name, b.name), strings.Compare(a.typeName, b.typeName),
		cmp.Compare(a.ct.Id(), b.ct.Id()))
}

// Sum returns the hash of w's state: every entity's components, by the
// rules in the [Hasher] doc. Equal states give equal sums, in any
// process. After the first call over a given set of component types and
// archetypes, Sum allocates nothing. It reads w and changes nothing in it.
func (h *Hasher) Sum(w donburi.World) uint64 {
	h.collect(w)
	h.columns(w)
	sw := h.w
	sw.memoize(true)
	defer sw.memoize(false)
	h.sums = h.sums[:0]
	h.total.Reset()
	// A component type at a time: its values, read from the archetypes'
	// columns in entity order, go to its own digest, gathered in blocks
	// (one digest call per component costs more than the copy). Every
	// value of a type in a row keeps its summaries' code and data warm.
	for _, cs := range h.order {
		if !cs.present {
			continue
		}
		if cs.ignored || cs.skip {
			clear(cs.cols)
			continue
		}
		cs.digest.Reset()
		sw.buf = sw.buf[:0]
		count := 0
		for _, l := range h.ents {
			col := cs.cols[l.arch]
			if col == nil {
				continue
			}
			sw.buf = binary.LittleEndian.AppendUint64(sw.buf, uint64(l.e))
			sw.root(cs.plan, unsafe.Add(col[l.row], cs.off))
			if len(sw.buf) >= hashBlock {
				cs.digest.Write(sw.buf)
				sw.buf = sw.buf[:0]
			}
			count++
		}
		cs.digest.Write(sw.buf)
		sw.buf = sw.buf[:0]
		clear(cs.cols) // the world's own slices: not kept past the sum
		s := ComponentSum{Name: cs.name, Type: cs.ct, Entities: count, Sum: cs.digest.Sum64()}
		h.sums = append(h.sums, s)
		b := binary.LittleEndian.AppendUint64(h.header[:0], cs.keyHash)
		b = binary.LittleEndian.AppendUint64(b, uint64(s.Entities))
		h.header = binary.LittleEndian.AppendUint64(b, s.Sum)
		h.total.Write(h.header)
	}
	return h.total.Sum64()
}

// columns finds, for each component type of w's archetypes that have
// entities, its column of values in each of them (compState.cols), and
// marks the event buses among them.
func (h *Hasher) columns(w donburi.World) {
	for _, cs := range h.order {
		cs.present = false
	}
	archetypes := w.Archetypes()
	for i, a := range archetypes {
		if len(a.Entities()) == 0 {
			continue
		}
		cts := a.ComponentTypes()
		h.findEventBus(cts)
		for _, ct := range cts {
			cs := h.state(ct)
			if !cs.present {
				cs.present = true
				cs.cols = slices.Grow(cs.cols[:0], len(archetypes))[:len(archetypes)]
				clear(cs.cols)
			}
			cs.cols[i] = donburi.ArchetypeColumn(w, i, ct)
		}
	}
}

// ComponentSums returns the sum of each component type that the last Sum
// met (ignored ones left out), in the order of their names: where two
// worlds' sums differ, the component types that differ. The slice belongs
// to the hasher and is overwritten by the next Sum; copy it to keep it.
// It allocates nothing.
func (h *Hasher) ComponentSums() []ComponentSum {
	return h.sums
}

// collect fills h.ents with w's entities in entity order (id, then
// version) and where each is, without allocating once its buffers have
// grown: by placing each entity at its id, or by sorting when the ids are
// sparse.
func (h *Hasher) collect(w donburi.World) {
	h.found = h.found[:0]
	maxID := 0
	for i, a := range w.Archetypes() {
		for row, e := range a.Entities() {
			maxID = max(maxID, int(e.Id()))
			h.found = append(h.found, located{e: e, arch: int32(i), row: int32(row)})
		}
	}
	h.ents = h.ents[:0]
	if maxID > 4*len(h.found)+1024 {
		h.ents = append(h.ents, h.found...)
		slices.SortFunc(h.ents, func(a, b located) int { return cmp.Compare(a.e, b.e) })
		return
	}
	if maxID >= len(h.slots) {
		h.slots = append(h.slots, make([]int32, maxID+1-len(h.slots))...)
	}
	for i, l := range h.found {
		h.slots[l.e.Id()] = int32(i + 1)
	}
	for id := 1; id <= maxID; id++ {
		if i := h.slots[id]; i != 0 {
			h.ents = append(h.ents, h.found[i-1])
			h.slots[id] = 0
		}
	}
}
