package netplay

import (
	"bytes"
	"encoding/binary"
	"hash/crc32"
	"net/netip"
	"time"
)

// Openings for the tests in package netplay_test.

// Vanish closes the session's socket without a goodbye, as a killed
// process's goes.
func (s *Session) Vanish() {
	s.conn.Close()
	if s.readDone != nil {
		<-s.readDone
	}
}

// Take hands the session a datagram from addr, as its reader would, and
// lets it take it in; it reports the drops counted so far.
func (s *Session) Take(from netip.AddrPort, b []byte) int64 {
	d := &datagram{n: len(b), from: from}
	if len(b) > len(d.b) {
		d.n = len(d.b)
	}
	copy(d.b[:], b)
	s.take(d, time.Now())
	st := s.Stats()
	return st.DroppedTotal()
}

// PeerAddr returns the address of the session's i-th peer.
func (s *Session) PeerAddr(i int) netip.AddrPort { return s.peers[i].addr }

// ID returns the session's number.
func (s *Session) ID() uint32 { return s.id }

// LastSent returns a copy of the last packet the session built.
func (s *Session) LastSent() []byte { return bytes.Clone(s.w.b) }

// Reseal returns b with its CRC made right, so that a fuzzer's changes
// reach the payload's parser.
func Reseal(b []byte) []byte {
	if len(b) < crcSize {
		return b
	}
	b = bytes.Clone(b)
	body := b[:len(b)-crcSize]
	binary.LittleEndian.PutUint32(b[len(body):], crc32.Checksum(body, castagnoli))
	return b
}

// Dropped returns how many packets the session dropped for the reason
// named (see DropReasons).
func (s *Session) Dropped(reason string) int64 {
	st := s.Stats()
	for i, name := range dropNames {
		if name == reason {
			return st.Dropped[i]
		}
	}
	panic("no drop reason " + reason)
}

// A Writer forges packets with the package's own writer, for tests that
// play a hostile peer: its CRC is right, whatever its payload says.
type Writer struct{ w writer }

// kinds names the packet kinds, as tests give them.
var kinds = map[string]kind{"hello": kindHello, "welcome": kindWelcome, "refuse": kindRefuse, "start": kindStart,
	"input": kindInput, "bye": kindBye, "report": kindReport}

// Begin begins a packet of the kind named.
func (w *Writer) Begin(k string, session, seq uint32) {
	kd, ok := kinds[k]
	if !ok {
		panic("no packet kind " + k)
	}
	w.w.begin(kd, session, seq)
}

func (w *Writer) U8(v uint8)       { w.w.u8(v) }
func (w *Writer) U16(v uint16)     { w.w.u16(v) }
func (w *Writer) U32(v uint32)     { w.w.u32(v) }
func (w *Writer) U64(v uint64)     { w.w.u64(v) }
func (w *Writer) Uvarint(v uint64) { w.w.uvarint(v) }
func (w *Writer) Varint(v int64)   { w.w.varint(v) }
func (w *Writer) Str(s string)     { w.w.str(s) }
func (w *Writer) Raw(b []byte)     { w.w.b = append(w.w.b, b...) }

// End seals the packet and returns a copy of it.
func (w *Writer) End() []byte { return bytes.Clone(w.w.end()) }

// Header returns a datagram's kind and session number, as a receiver
// reads them; false for one it drops before its payload (too long, of
// another protocol, damaged).
func Header(b []byte) (kind string, session uint32, ok bool) {
	h, _, _, ok := parseHeader(b)
	if !ok {
		return "", 0, false
	}
	for name, k := range kinds {
		if k == h.kind {
			return name, h.session, true
		}
	}
	return "unknown", h.session, true
}
