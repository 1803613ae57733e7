package state

import (
	"encoding"
	"encoding/binary"
	"math/rand/v2"
	"reflect"
	"unsafe"
)

// builtins are the summaries of types whose state is behind unexported
// fields or handles: what the hash and the dump read of them, wherever they
// appear (by value, behind a pointer, in a slice or an interface).
var builtins = map[reflect.Type]func(p unsafe.Pointer, w *Writer){}

// Summarize makes f what the hash and the dump read of every value of type
// T, wherever it appears (by value, behind a pointer, in a slice or an
// interface), in place of the walk over its exported fields: for a
// library's type whose state is behind unexported fields or handles, which
// cannot implement [Summarizer]. f writes as a Summarizer does: it must
// only read, write the same names and values in the same order for equal
// states, and allocate nothing if the hash is to stay allocation-free.
// name is the name the hash and the dump know T by, as [Name] gives it
// ("cp.Body", "ebiten.Image"): a library's type is named as the library's
// users write it, whatever the package path it is built from.
//
// Call it from an init function, before any hasher meets T: a hasher plans
// a type the first time it meets it and keeps the plan. This package
// summarises math/rand/v2's sources; package systems/physics, cp's bodies,
// shapes and constraints; package components/gfx, ebiten's images, colour
// scales and matrices, which its Sprite holds.
func Summarize[T any](name string, f func(v *T, w *Writer)) {
	declare(reflect.TypeFor[T](), name)
	builtins[reflect.TypeFor[T]()] = func(p unsafe.Pointer, w *Writer) { f((*T)(p), w) }
}

func init() {
	Summarize("rand.PCG", func(p *rand.PCG, w *Writer) { summarizePCG(unsafe.Pointer(p), w) })
	Summarize("rand.ChaCha8", func(c *rand.ChaCha8, w *Writer) { summarizeChaCha8(unsafe.Pointer(c), w) })
	Name[rand.Rand]("rand.Rand")

	// A rand.Rand is its Source, an unexported field: read it where the
	// Go release this was built with keeps it (checked here; if not, a
	// rand.Rand shows no state).
	t := reflect.TypeFor[rand.Rand]()
	if f, ok := t.FieldByName("src"); ok && f.Offset == 0 && f.Type == reflect.TypeFor[rand.Source]() {
		builtins[t] = summarizeRand
	}
}

// summarizePCG: a rand.PCG's state (its binary encoding), so that two runs
// whose random sources have drawn differently differ.
func summarizePCG(p unsafe.Pointer, w *Writer) {
	w.binary("State", (*rand.PCG)(p))
}

// summarizeChaCha8: a rand.ChaCha8's state, as summarizePCG. Its encoding
// allocates (in some builds), so the hash reads the fields that the
// encoding is made of (its seed, its position in the stream, its read
// buffer) where reflection says they are.
func summarizeChaCha8(p unsafe.Pointer, w *Writer) {
	if w.visit != nil || !chacha.ok {
		w.binary("State", (*rand.ChaCha8)(p))
		return
	}
	w.buf = append(w.buf, unsafe.Slice((*byte)(unsafe.Add(p, chacha.seed)), 32)...)
	w.buf = binary.LittleEndian.AppendUint32(w.buf, *(*uint32)(unsafe.Add(p, chacha.c)))
	w.buf = binary.LittleEndian.AppendUint32(w.buf, *(*uint32)(unsafe.Add(p, chacha.i)))
	w.buf = binary.LittleEndian.AppendUint64(w.buf, uint64(*(*int)(unsafe.Add(p, chacha.readLen))))
	w.buf = append(w.buf, unsafe.Slice((*byte)(unsafe.Add(p, chacha.readBuf)), 8)...)
}

// chacha is where a rand.ChaCha8 keeps its state, found by reflection; ok
// is false if its fields are not the ones read here.
var chacha = func() (l struct {
	ok                           bool
	seed, c, i, readLen, readBuf uintptr
}) {
	t := reflect.TypeFor[rand.ChaCha8]()
	st, ok1 := t.FieldByName("state")
	rl, ok2 := t.FieldByName("readLen")
	rb, ok3 := t.FieldByName("readBuf")
	if !ok1 || !ok2 || !ok3 || st.Type.Kind() != reflect.Struct || rl.Type.Kind() != reflect.Int ||
		rb.Type != reflect.TypeFor[[8]byte]() {
		return l
	}
	seed, ok4 := st.Type.FieldByName("seed")
	c, ok5 := st.Type.FieldByName("c")
	i, ok6 := st.Type.FieldByName("i")
	if !ok4 || !ok5 || !ok6 || seed.Type != reflect.TypeFor[[4]uint64]() ||
		c.Type.Kind() != reflect.Uint32 || i.Type.Kind() != reflect.Uint32 {
		return l
	}
	l.ok = true
	l.seed, l.c, l.i = st.Offset+seed.Offset, st.Offset+c.Offset, st.Offset+i.Offset
	l.readLen, l.readBuf = rl.Offset, rb.Offset
	return l
}()

// summarizeRand: a rand.Rand's source, as an interface field would be.
func summarizeRand(p unsafe.Pointer, w *Writer) {
	w.iface(sourceType, p)
}

var sourceType = reflect.TypeFor[rand.Source]()

// binary writes m's binary encoding: in the hash its bytes and length, in
// the dump as hex. An encoding error writes the error's text.
func (w *Writer) binary(name string, m encoding.BinaryAppender) {
	if w.visit == nil {
		start := len(w.buf)
		var err error
		if w.buf, err = m.AppendBinary(w.buf); err != nil {
			w.buf = w.buf[:start]
			w.Text(name, err.Error())
			return
		}
		w.buf = binary.LittleEndian.AppendUint64(w.buf, uint64(len(w.buf)-start))
		return
	}
	b, err := m.AppendBinary(nil)
	if err != nil {
		w.Text(name, err.Error())
		return
	}
	w.emit(name, Value{Kind: Bytes, Bytes: b})
}
