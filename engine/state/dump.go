package state

import (
	"bufio"
	"fmt"
	"io"
	"slices"
	"unsafe"

	"github.com/fixedstep/fixedstep/third_party/donburi"
)

// Visit shows w's state to visit, value by value: every entity in entity
// order, each of its components in the order of their names (the types
// this hasher ignores left out), each component's values in the order the
// hash reads them, as [Value]s. The world dump is one visit (it writes
// each Value as a line); the inspector is another. A component with
// nothing to show is one Empty value. Visit reads w and changes nothing in
// it; it allocates (it is for tools and failures, not for every tick).
func (h *Hasher) Visit(w donburi.World, visit func(v *Value)) {
	h.visitAll(w, h.entities(w), visit)
}

// entities returns w's entities in entity order, in a slice of their own.
func (h *Hasher) entities(w donburi.World) []donburi.Entity {
	h.collect(w)
	ents := make([]donburi.Entity, len(h.ents))
	for i, l := range h.ents {
		ents[i] = l.e
	}
	return ents
}

// visitAll visits the entities ents of w.
func (h *Hasher) visitAll(w donburi.World, ents []donburi.Entity, visit func(v *Value)) {
	sw := h.w.visitor(visit)
	for _, e := range ents {
		h.visitEntity(w, e, sw)
	}
}

// VisitEntity shows the state of entity e of w to visit, as Visit shows
// each entity. An entity that is not valid in w is an error.
func (h *Hasher) VisitEntity(w donburi.World, e donburi.Entity, visit func(v *Value)) error {
	if !w.Valid(e) {
		return fmt.Errorf("state: entity %s: not in the world", appendEntity(nil, e))
	}
	h.visitEntity(w, e, h.w.visitor(visit))
	return nil
}

func (h *Hasher) visitEntity(w donburi.World, e donburi.Entity, sw *Writer) {
	entry := w.Entry(e)
	var states []*compState
	cts := entry.Archetype().ComponentTypes()
	h.findEventBus(cts)
	for _, ct := range cts {
		if cs := h.state(ct); !cs.ignored && !cs.skip {
			states = append(states, cs)
		}
	}
	slices.SortFunc(states, compareStates)
	sw.entity = e
	for _, cs := range states {
		sw.comp, sw.path = cs.name, sw.path[:0]
		sw.root(cs.plan, unsafe.Add(entry.Component(cs.ct), cs.off))
	}
}

// Dump writes w's state as text, by the rules of [Hasher]: every entity in
// entity order, each of its components in the order of their names, one
// value per line, floats exact. Equal states give byte-identical dumps in
// any process, so two dumps can be compared with diff, and a value that
// differs shows as one changed line. The format:
//
//	# world: 2 entities
//	e1v0 Body.Body.Type = "dynamic"
//	e1v0 Body.Body.Position.X = 12.5
//	e1v0 Transform.Cur.X = 12.5
//	e2v0 Ball {}
//
// Each line is "<entity> <Component><path> = <value>", a [Value] written
// with [Value.AppendText]: entities as e<id>v<version> (null for
// donburi.Null); floats as strconv 'g' -1 prints them (they parse back to
// the same bits; a NaN is NaN(0x<bits>)); strings quoted; a named number
// with a String method followed by it in parentheses; slices and maps with
// a .len line, maps by key order; a nil pointer or interface as nil, a
// pointer cycle as cycle(^n) (n levels up); an interface's value under
// .(<its type>); a value with nothing to show (an empty struct, a tag) as
// "<entity> <Component><path> {}". It returns the first error writing to
// out.
func Dump(w donburi.World, out io.Writer) error {
	return NewHasher(nil).Dump(w, out)
}

// Dump writes w's state as the package's [Dump] does, leaving out the
// component types this hasher ignores: the same state that Sum hashes.
// It allocates (it is for tools and failures, not for every tick).
func (h *Hasher) Dump(w donburi.World, out io.Writer) error {
	bw := bufio.NewWriter(out)
	ents := h.entities(w)
	if len(ents) == 1 {
		bw.WriteString("# world: 1 entity\n")
	} else {
		fmt.Fprintf(bw, "# world: %d entities\n", len(ents))
	}
	d := textDump{out: bw}
	h.visitAll(w, ents, d.line)
	return bw.Flush()
}

// DumpEntity writes the state of entity e of w as [Dump] writes each
// entity (without the header): for a test's failure message, a tool. An
// entity that is not valid in w is an error.
func (h *Hasher) DumpEntity(w donburi.World, e donburi.Entity, out io.Writer) error {
	bw := bufio.NewWriter(out)
	d := textDump{out: bw}
	if err := h.VisitEntity(w, e, d.line); err != nil {
		return err
	}
	return bw.Flush()
}

// textDump writes a visit's values as the dump's lines.
type textDump struct {
	out *bufio.Writer
	buf []byte
}

func (d *textDump) line(v *Value) {
	b := append(appendEntity(d.buf[:0], v.Entity), ' ')
	b = append(b, v.Component...)
	b = append(b, v.Path...)
	if v.Kind == Empty {
		b = append(b, " {}\n"...)
	} else {
		b = append(v.AppendText(append(b, " = "...)), '\n')
	}
	d.out.Write(b)
	d.buf = b
}
