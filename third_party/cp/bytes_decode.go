package cp

import (
	"encoding/binary"
	"errors"
	"fmt"
	"math"
)

type decoder struct {
	b     []byte
	r     *SpaceReader
	space *Space
	err   error
	total int // the length of the bytes given

	static      *Body
	bodies      []*Body
	shapes      []*Shape
	constraints []*Constraint
	arbiters    []*Arbiter
	buffers     []*ContactBuffer
	nodes       []*Node
	pairs       []*Pair
	handles     []*Handle
	cached      []*Arbiter
	frees       []func()
}

var errShort = errors.New("cp: SpaceReader: the bytes end too soon")

func (d *decoder) fail(format string, args ...any) {
	if d.err == nil {
		d.err = fmt.Errorf("cp: SpaceReader: "+format, args...)
	}
}

func (d *decoder) take(n int) []byte {
	if d.err != nil {
		return nil
	}
	if len(d.b) < n {
		d.err = errShort
		d.b = d.b[len(d.b):]
		return nil
	}
	x := d.b[:n]
	d.b = d.b[n:]
	return x
}

func (d *decoder) u8() uint8 {
	if x := d.take(1); x != nil {
		return x[0]
	}
	return 0
}

func (d *decoder) u32() uint32 {
	if x := d.take(4); x != nil {
		return binary.LittleEndian.Uint32(x)
	}
	return 0
}

func (d *decoder) u64() uint64 {
	if x := d.take(8); x != nil {
		return binary.LittleEndian.Uint64(x)
	}
	return 0
}

// uint reads a uint written as 64 bits: one beyond this CPU's uint is an error.
func (d *decoder) uint() uint {
	v := d.u64()
	if uint64(uint(v)) != v {
		d.fail("%d beyond this CPU's uint", v)
	}
	return uint(v)
}

func (d *decoder) ctype() CollisionType {
	v := d.u64()
	if v == math.MaxUint64 {
		return WILDCARD_COLLISION_TYPE
	}
	if c := CollisionType(v); uint64(c) == v && c != WILDCARD_COLLISION_TYPE {
		return c
	}
	d.fail("a collision type %d beyond this CPU's uintptr", v)
	return 0
}

func (d *decoder) f64() float64 { return math.Float64frombits(d.u64()) }
func (d *decoder) vec() Vector  { return Vector{d.f64(), d.f64()} }
func (d *decoder) bb() BB       { return BB{d.f64(), d.f64(), d.f64(), d.f64()} }

func (d *decoder) int() int {
	v := int64(d.u64())
	if v < math.MinInt32 || v > math.MaxInt32 {
		d.fail("an integer out of range (%d)", v)
	}
	return int(v)
}

func (d *decoder) bool() bool {
	switch d.u8() {
	case 0:
		return false
	case 1:
		return true
	}
	d.fail("a bool is neither 0 nor 1")
	return false
}

// n reads a count of things of at least min bytes each: at most what the
// bytes left can hold.
func (d *decoder) n(min int) int {
	v := d.u32()
	if uint64(v) > maxSpaceObjects || uint64(v)*uint64(min) > uint64(len(d.b)) {
		d.fail("a count (%d) larger than the bytes can hold", v)
		return 0
	}
	return int(v)
}

func ref[T any](d *decoder, l []*T, what string) *T {
	v := d.u32()
	if v == 0 {
		return nil
	}
	if uint64(v) > uint64(len(l)) {
		d.fail("a reference to %s %d, out of range", what, v)
		return nil
	}
	return l[v-1]
}

func refList[T any](d *decoder, l []*T, what string) []*T {
	n := d.n(4)
	out := make([]*T, 0, n)
	for range n {
		p := ref(d, l, what)
		if p == nil {
			d.fail("a nil %s in a list", what)
		}
		out = append(out, p)
	}
	return out
}

func (d *decoder) spaceOf(what name) *Space {
	switch d.u8() {
	case 0:
		return nil
	case 1:
		return d.space
	}
	d.fail("%s's space flag is neither 0 nor 1", what)
	return nil
}

func (d *decoder) userData(what name) any {
	if d.err != nil {
		return nil
	}
	if d.r.UserData == nil {
		return nil
	}
	v, rest, err := d.r.UserData(d.b)
	if err != nil {
		d.fail("%s's UserData: %w", what, err)
		return nil
	}
	if len(rest) > len(d.b) {
		d.fail("%s's UserData hook returned more bytes than it was given", what)
		return nil
	}
	d.b = rest
	return v
}

func newAll[T any](n int) []*T {
	all := make([]T, n)
	l := make([]*T, n)
	for i := range l {
		l[i] = &all[i]
	}
	return l
}
