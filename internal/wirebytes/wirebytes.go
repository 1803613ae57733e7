// Package wirebytes reads the little-endian encodings of the engine's
// network messages (engine/netplay's packets, the game server's match
// messages): a Reader past its end, or told of a bad value, reads zeros
// and remembers that the bytes were bad, so that a decoder reads a whole
// message and checks once, with Done.
package wirebytes

import "encoding/binary"

// A Reader reads B from Off. Bad says the bytes were cut short or held a
// value the decoder refused (a decoder sets it).
type Reader struct {
	B   []byte
	Off int
	Bad bool
}

// Take returns the next n bytes.
func (r *Reader) Take(n int) []byte {
	if r.Bad || n < 0 || n > len(r.B)-r.Off {
		r.Bad = true
		return nil
	}
	b := r.B[r.Off : r.Off+n]
	r.Off += n
	return b
}

func (r *Reader) U8() uint8 {
	if b := r.Take(1); b != nil {
		return b[0]
	}
	return 0
}

func (r *Reader) U16() uint16 {
	if b := r.Take(2); b != nil {
		return binary.LittleEndian.Uint16(b)
	}
	return 0
}

func (r *Reader) U32() uint32 {
	if b := r.Take(4); b != nil {
		return binary.LittleEndian.Uint32(b)
	}
	return 0
}

func (r *Reader) U64() uint64 {
	if b := r.Take(8); b != nil {
		return binary.LittleEndian.Uint64(b)
	}
	return 0
}

// Uvarint reads an encoding/binary uvarint.
func (r *Reader) Uvarint() uint64 {
	if r.Bad {
		return 0
	}
	v, n := binary.Uvarint(r.B[r.Off:])
	if n <= 0 {
		r.Bad = true
		return 0
	}
	r.Off += n
	return v
}

// Varint reads an encoding/binary varint.
func (r *Reader) Varint() int64 {
	if r.Bad {
		return 0
	}
	v, n := binary.Varint(r.B[r.Off:])
	if n <= 0 {
		r.Bad = true
		return 0
	}
	r.Off += n
	return v
}

// Left returns how many bytes are left to read: a decoder checks a count
// against it before it reads or allocates by the count.
func (r *Reader) Left() int { return len(r.B) - r.Off }

// Done reports whether the bytes were read whole and well.
func (r *Reader) Done() bool { return !r.Bad && r.Off == len(r.B) }
