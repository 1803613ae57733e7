package state

import (
	"reflect"
	"unsafe"

	"github.com/cespare/xxhash/v2"
)

// A ValueHasher hashes values that a game keeps outside its world (a
// field of a scene, a random source: what stage.Keep saves and restores),
// so that the state they were in can be compared with the state they are
// in: before and after a tick-input source is asked for a tick's input,
// and in the sync test's two passes over the same ticks.
//
// A value is hashed as a Go assignment copies it, which is what Keep saves
// and restores: every field, exported or not (but those tagged
// `state:"-"`); numbers, bools and strings by value, floats by their bits;
// arrays, and the elements of slices and maps, by value too; a pointer by
// the address it holds, not what it points to (an assignment copies the
// pointer: keep the value itself, stage.Keep(st, pcg) for the *rand.PCG
// under a rand.Rand); an interface by its dynamic type and value, by the
// same rules. The random sources of math/rand/v2, cp's bodies and shapes,
// the types given to [Summarize] and those that are a [Summarizer] are
// hashed by their summaries, as the [Hasher] hashes them. Funcs, chans and
// unsafe.Pointers are skipped.
//
// Because addresses are hashed, sums are comparable within one process
// only: they are no checksum to record. After the first sum of a type,
// [SumValue] allocates nothing. A ValueHasher is not safe for concurrent
// use.
type ValueHasher struct {
	w *Writer
}

// NewValueHasher returns a hasher of kept values.
func NewValueHasher() *ValueHasher {
	w := newWriter(false)
	w.kept = true
	return &ValueHasher{w: w}
}

// SumValue returns the hash of *p by the rules of [ValueHasher]: equal for
// a value and its copy (in the same process), different once any of what a
// copy holds differs, but for hash collisions.
func SumValue[T any](h *ValueHasher, p *T) uint64 {
	w := h.w
	pl := w.planFor(reflect.TypeFor[T]())
	w.buf = w.buf[:0]
	w.root(pl, unsafe.Pointer(p))
	return xxhash.Sum64(w.buf)
}
