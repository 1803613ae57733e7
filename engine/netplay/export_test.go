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
