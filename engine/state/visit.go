package state

import (
	"encoding/hex"
	"math"
	"reflect"
	"slices"
	"strconv"
	"strings"
	"unsafe"

	"github.com/fixedstep/fixedstep/third_party/donburi"
)

// A Value is one value of a world's state, as a visit shows it (see
// [Hasher.Visit]): the entity, the component type's name, the path of the
// value below the component, what kind of value it is and the value
// itself, in the field its Kind names. Path and Bytes point into the
// visit's buffers and are valid only until the visit's function returns:
// copy what must be kept.
type Value struct {
	Entity    donburi.Entity
	Component string // the component type's name, as ComponentSum names it
	// Path is the value's path below the component, as the dump writes it:
	// ".Body.Position.X", ".Shapes[0].Radius", ".Items.len", ".Queue[2]";
	// empty for the component itself (a tag, a scalar component).
	Path []byte
	Kind Kind

	Bool  bool
	Ref   donburi.Entity // Entity: the entity the value names
	Int   int64          // Int; the length of Len; how many levels up a Cycle points
	Uint  uint64         // Uint
	Float float64        // Float; the real part of Complex
	Imag  float64        // the imaginary part of Complex
	Bits  int            // Float and Complex: 32 or 64, the size of each part
	Str   string         // String
	Bytes []byte         // Bytes
	// Stringer says that the value is of a named number, bool or string
	// type with a String method, and Named is what the method says of it
	// ("Chase" for an AgentState).
	Stringer bool
	Named    string
}

// Kind says what a [Value] holds.
type Kind uint8

// The kinds of values.
const (
	Bool    Kind = iota + 1
	Int          // a signed integer, in Int
	Uint         // an unsigned integer, in Uint
	Float        // a float32 or float64 (Bits), in Float
	Complex      // a complex64 or complex128 (Bits), in Float and Imag
	String       // a string, in Str
	Entity       // a donburi.Entity, in Ref
	Bytes        // an array or slice of bytes, in Bytes
	Len          // the length of a slice or map (the values follow), in Int
	Nil          // a nil pointer, interface, or a map or slice read as nil
	Cycle        // a pointer back to a value being followed, Int levels up
	Empty        // a value with nothing to show: an empty struct, a tag
)

// AppendText appends v's value as the dump writes it after " = ": numbers
// exact (floats as strconv's 'g' with the fewest digits that read back to
// the same bits, a NaN as NaN(0x<bits>)), strings quoted, entities as
// e<id>v<version> (or null), bytes as hex"...", nil, cycle(^n), {} for an
// Empty value; a named value's String after it in parentheses.
func (v *Value) AppendText(b []byte) []byte {
	switch v.Kind {
	case Bool:
		b = strconv.AppendBool(b, v.Bool)
	case Int, Len:
		b = strconv.AppendInt(b, v.Int, 10)
	case Uint:
		b = strconv.AppendUint(b, v.Uint, 10)
	case Float:
		b = appendFloat(b, v.Float, v.Bits)
	case Complex:
		b = append(appendFloat(append(b, '('), v.Float, v.Bits), ',')
		b = append(appendFloat(b, v.Imag, v.Bits), ')')
	case String:
		b = strconv.AppendQuote(b, v.Str)
	case Entity:
		return appendEntity(b, v.Ref)
	case Bytes:
		b = append(b, `hex"`...)
		b = hex.AppendEncode(b, v.Bytes)
		return append(b, '"')
	case Nil:
		return append(b, "nil"...)
	case Cycle:
		b = strconv.AppendInt(append(b, "cycle(^"...), v.Int, 10)
		return append(b, ')')
	case Empty:
		return append(b, "{}"...)
	}
	if v.Stringer {
		b = append(b, " ("...)
		if strings.ContainsAny(v.Named, "\n\r") {
			b = strconv.AppendQuote(b, v.Named)
		} else {
			b = append(b, v.Named...)
		}
		b = append(b, ')')
	}
	return b
}

// visitValue visits the value at p, read by pl, under the current path, or
// hands an Empty value when it has nothing to show.
func (w *Writer) visitValue(pl *plan, p unsafe.Pointer) {
	before := w.values
	w.visitFields(pl.fields, p)
	if w.values == before {
		w.emit("", Value{Kind: Empty})
	}
}

func (w *Writer) visitFields(fs []field, p unsafe.Pointer) {
	for i := range fs {
		f := &fs[i]
		q := unsafe.Add(p, f.off)
		mark := len(w.path)
		w.path = append(w.path, f.name...)
		switch f.kind {
		case kBool, kInt, kUint, kFloat32, kFloat64, kComplex64, kComplex128, kString:
			w.emit("", scalar(f, q))
		case kArray:
			if f.bytes {
				w.emit("", Value{Kind: Bytes, Bytes: unsafe.Slice((*byte)(q), f.n)})
				break
			}
			w.visitArray(f.elem, q, f.n)
		case kSlice:
			h := (*sliceHeader)(q)
			w.emit("len", Value{Kind: Len, Int: int64(h.len)})
			if f.bytes {
				if h.len > 0 {
					w.emit("", Value{Kind: Bytes, Bytes: unsafe.Slice((*byte)(h.data), h.len)})
				}
				break
			}
			w.visitArray(f.elem, h.data, h.len)
		case kMap:
			w.visitMap(f, q)
		case kPtr:
			w.pointer(f.elem, *(*unsafe.Pointer)(q))
		case kIface:
			w.iface(f.typ, q)
		case kSummary, kBuiltin:
			// The summary's Enters and Leaves stay within it: an Enter
			// left open ends with the value, a Leave too many does
			// nothing.
			before, base := w.values, w.base
			w.base = len(w.marks)
			if f.kind == kSummary {
				reflect.NewAt(f.typ, q).Interface().(Summarizer).SummarizeState(w)
			} else {
				f.builtin(q, w)
			}
			w.marks, w.base = w.marks[:w.base], base
			if w.values == before {
				w.emit("", Value{Kind: Empty})
			}
		}
		w.path = w.path[:mark]
	}
}

func (w *Writer) visitArray(elem *plan, data unsafe.Pointer, n int) {
	for i := range n {
		w.EnterIndex(i)
		w.visitValue(elem, unsafe.Add(data, uintptr(i)*elem.size))
		w.Leave()
	}
}

// scalar returns the scalar at q, read by f: a number, bool or string, an
// entity, and a named type's String.
func scalar(f *field, q unsafe.Pointer) Value {
	var v Value
	switch f.kind {
	case kBool:
		v = Value{Kind: Bool, Bool: *(*bool)(q)}
	case kInt:
		v.Kind = Int
		switch f.size {
		case 1:
			v.Int = int64(*(*int8)(q))
		case 2:
			v.Int = int64(*(*int16)(q))
		case 4:
			v.Int = int64(*(*int32)(q))
		default:
			v.Int = *(*int64)(q)
		}
	case kUint:
		if f.entity {
			return Value{Kind: Entity, Ref: *(*donburi.Entity)(q)}
		}
		v.Kind = Uint
		switch f.size {
		case 1:
			v.Uint = uint64(*(*uint8)(q))
		case 2:
			v.Uint = uint64(*(*uint16)(q))
		case 4:
			v.Uint = uint64(*(*uint32)(q))
		default:
			v.Uint = *(*uint64)(q)
		}
	case kFloat32:
		v = Value{Kind: Float, Float: float64(*(*float32)(q)), Bits: 32}
	case kFloat64:
		v = Value{Kind: Float, Float: *(*float64)(q), Bits: 64}
	case kComplex64:
		c := *(*complex64)(q)
		v = Value{Kind: Complex, Float: float64(real(c)), Imag: float64(imag(c)), Bits: 32}
	case kComplex128:
		c := *(*complex128)(q)
		v = Value{Kind: Complex, Float: real(c), Imag: imag(c), Bits: 64}
	case kString:
		v = Value{Kind: String, Str: *(*string)(q)}
	}
	if f.stringer {
		v.Named, v.Stringer = callString(f.typ, q)
	}
	return v
}

// callString returns the String() of the value of type t at q, or false if
// it panics.
func callString(t reflect.Type, q unsafe.Pointer) (s string, ok bool) {
	defer func() {
		if recover() != nil {
			s, ok = "", false
		}
	}()
	return reflect.NewAt(t, q).Elem().Interface().(interface{ String() string }).String(), true
}

// visitMap visits a map's length, then its entries sorted by the text of
// their keys, each under "[<key>]".
func (w *Writer) visitMap(f *field, q unsafe.Pointer) {
	m := reflect.NewAt(f.typ, q).Elem()
	w.emit("len", Value{Kind: Len, Int: int64(m.Len())})
	type entry struct {
		key string
		v   reflect.Value
	}
	var es []entry
	for it := m.MapRange(); it.Next(); {
		k := reflect.New(f.key.typ)
		k.Elem().Set(it.Key())
		v := reflect.New(f.elem.typ)
		v.Elem().Set(it.Value())
		es = append(es, entry{w.keyText(f.key, k.UnsafePointer()), v})
	}
	slices.SortStableFunc(es, func(a, b entry) int { return strings.Compare(a.key, b.key) })
	for _, e := range es {
		w.enter("[", e.key)
		w.path = append(w.path, ']')
		w.visitValue(f.elem, e.v.UnsafePointer())
		w.Leave()
	}
}

// keyText renders a map key on one line: a scalar as in the dump, anything
// else as {name=value, ...}.
func (w *Writer) keyText(pl *plan, p unsafe.Pointer) string {
	var parts []string
	kw := w.visitor(func(v *Value) {
		path := string(v.Path)
		switch {
		case v.Kind == Empty:
			parts = append(parts, path+" {}")
		default:
			parts = append(parts, path+" = "+string(v.AppendText(nil)))
		}
	})
	kw.visitValue(pl, p)
	if len(parts) == 1 && strings.HasPrefix(parts[0], " = ") {
		return strings.TrimPrefix(parts[0], " = ")
	}
	if len(parts) == 1 && parts[0] == " {}" {
		return "{}"
	}
	for i, l := range parts {
		l = strings.TrimPrefix(l, ".")
		parts[i] = strings.Replace(l, " = ", "=", 1)
	}
	return "{" + strings.Join(parts, ", ") + "}"
}

// appendFloat appends v exactly (it parses back to the same bits), a NaN as
// NaN(0x<bits>).
func appendFloat(b []byte, v float64, bits int) []byte {
	if v != v {
		b = append(b, "NaN(0x"...)
		if bits == 32 {
			b = strconv.AppendUint(b, uint64(math.Float32bits(float32(v))), 16)
		} else {
			b = strconv.AppendUint(b, math.Float64bits(v), 16)
		}
		return append(b, ')')
	}
	return strconv.AppendFloat(b, v, 'g', -1, bits)
}

// appendEntity appends an entity as e<id>v<version>, or null.
func appendEntity(b []byte, e donburi.Entity) []byte {
	if e == donburi.Null {
		return append(b, "null"...)
	}
	b = strconv.AppendUint(append(b, 'e'), uint64(e.Id()), 10)
	return strconv.AppendUint(append(b, 'v'), uint64(e.Version()), 10)
}
