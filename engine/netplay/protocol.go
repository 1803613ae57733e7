package netplay

import (
	"encoding/binary"
	"hash/crc32"
	"maps"
	"math"
	"slices"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/fixedstep/fixedstep/internal/wirebytes"
)

// The packets' grammar is the package doc's ("The packets"). This file
// holds what every kind shares: the header, its check, and the field
// writers and readers. The kinds' payloads are written and read where
// they are sent and taken: the handshake (hello, welcome, refuse, start)
// in join.go and netplay.go, input and bye in play.go, report in
// report.go.

const (
	magic           = "FSNP"
	protocolVersion = 4
	// MaxPacket is the largest datagram sent or read: below the Internet's
	// smallest common MTU, so that no packet is fragmented. A larger one
	// is dropped.
	MaxPacket  = 1200
	headerSize = len(magic) + 1 + 1 + 4 + 4
	crcSize    = 4
	maxString  = 256  // a game's name, a version, a reason
	maxMessage = 1024 // a bye's message: why a run failed, its desync named
)

type kind uint8

const (
	kindHello kind = iota + 1
	kindWelcome
	kindRefuse
	kindStart
	kindInput
	kindBye
	kindReport   // a piece of a desync report (report.go)
	kindState    // a piece of the state a joiner under way begins from (seat.go)
	kindStateAck // what a joiner under way holds of it
)

// Roles in a hello, and the player number a welcome gives a spectator.
const (
	rolePlayer    = 0
	roleSpectator = 1
	spectator     = 255
)

// Why a bye was sent.
const (
	byeFinished = iota + 1 // the sender's run ended
	byeQuit                // the player quit (closed the window, Ctrl-C)
	byeFailed              // the sender's run failed (a desync, a player left)
)

var castagnoli = crc32.MakeTable(crc32.Castagnoli)

// writer appends a packet to a reused buffer.
type writer struct{ b []byte }

func (w *writer) begin(k kind, session, seq uint32) {
	w.b = append(w.b[:0], magic...)
	w.b = append(w.b, protocolVersion, byte(k))
	w.b = binary.LittleEndian.AppendUint32(w.b, session)
	w.b = binary.LittleEndian.AppendUint32(w.b, seq)
}

func (w *writer) u8(v uint8)       { w.b = append(w.b, v) }
func (w *writer) u16(v uint16)     { w.b = binary.LittleEndian.AppendUint16(w.b, v) }
func (w *writer) u32(v uint32)     { w.b = binary.LittleEndian.AppendUint32(w.b, v) }
func (w *writer) u64(v uint64)     { w.b = binary.LittleEndian.AppendUint64(w.b, v) }
func (w *writer) uvarint(v uint64) { w.b = binary.AppendUvarint(w.b, v) }
func (w *writer) varint(v int64)   { w.b = binary.AppendVarint(w.b, v) }

// settings writes settings in the order of their names: a count, then
// each name and value. With limit >= 0 it writes only those that fit in
// limit bytes and that a reader takes (none longer than maxString).
func (w *writer) settings(settings map[string]string, limit int) {
	names := slices.Sorted(maps.Keys(settings))
	if limit >= 0 {
		size := 0
		names = slices.DeleteFunc(names, func(name string) bool {
			v := settings[name]
			if len(name) > maxString || len(v) > maxString || size+len(name)+len(v)+4 > limit {
				return true
			}
			size += len(name) + len(v) + 4
			return false
		})
	}
	w.uvarint(uint64(len(names)))
	for _, name := range names {
		w.str(name)
		w.str(settings[name])
	}
}

func (w *writer) str(s string) { w.text(s, maxString) }

// text writes s as str does, cut to at most max bytes: cut short, it ends
// with "...".
func (w *writer) text(s string, max int) {
	if len(s) > max {
		s = strings.ToValidUTF8(s[:max-3], "") + "..."
	}
	w.uvarint(uint64(len(s)))
	w.b = append(w.b, s...)
}

// end seals the packet with its CRC and returns it.
func (w *writer) end() []byte {
	w.b = binary.LittleEndian.AppendUint32(w.b, crc32.Checksum(w.b, castagnoli))
	return w.b
}

// header is what every packet begins with.
type header struct {
	kind    kind
	session uint32
	seq     uint32
}

// Why a packet was dropped; Stats counts each.
type dropReason uint8

const (
	dropOversized    dropReason = iota // longer than MaxPacket
	dropForeign                        // not this protocol or version
	dropDamaged                        // fails its CRC
	dropStranger                       // from an address that is no peer
	dropOtherSession                   // another session's number
	dropStale                          // a sequence number seen already: late, duplicated or replayed
	dropMalformed                      // a payload that makes no sense, or input no player can give
	dropConflicting                    // input for a tick that differs from what arrived before
	dropOutOfWindow                    // input too far ahead to keep, or after input lost on the way
	dropQueueFull                      // arrived faster than the game takes packets in
	dropReasons
)

var dropNames = [dropReasons]string{"oversized", "foreign", "damaged", "stranger", "other session", "stale",
	"malformed", "conflicting", "out of window", "queue full"}

func (d dropReason) String() string { return dropNames[d] }

// parseHeader checks a datagram's size, protocol, version and CRC, and
// returns its header and payload.
func parseHeader(p []byte) (header, []byte, dropReason, bool) {
	switch {
	case len(p) > MaxPacket:
		return header{}, nil, dropOversized, false
	case len(p) < headerSize+crcSize || string(p[:4]) != magic || p[4] != protocolVersion:
		return header{}, nil, dropForeign, false
	}
	body := p[:len(p)-crcSize]
	if crc32.Checksum(body, castagnoli) != binary.LittleEndian.Uint32(p[len(body):]) {
		return header{}, nil, dropDamaged, false
	}
	h := header{kind: kind(p[5]), session: binary.LittleEndian.Uint32(p[6:]), seq: binary.LittleEndian.Uint32(p[10:])}
	return h, body[headerSize:], 0, true
}

// reader reads a payload; past its end or on a bad value it reads zeros
// and remembers that the payload was bad.
type reader struct{ wirebytes.Reader }

// tick reads a tick: a uvarint that fits an int64 with room to add to it.
func (r *reader) tick() int64 {
	v := r.Uvarint()
	if v > math.MaxInt64/2 {
		r.Bad = true
		return 0
	}
	return int64(v)
}

// settings reads what writer.settings wrote: a count no larger than the
// bytes left can hold (a setting takes 2 at least), then the settings in
// the order of their names, none named twice.
func (r *reader) settings() map[string]string {
	n := r.Uvarint()
	if n > uint64(r.Left()/2) {
		r.Bad = true
	}
	settings := map[string]string{}
	prev := ""
	for i := uint64(0); i < n && !r.Bad; i++ {
		k := r.str()
		if i > 0 && k <= prev {
			r.Bad = true
		}
		settings[k], prev = r.str(), k
	}
	return settings
}

func (r *reader) str() string { return r.text(maxString) }

// text reads what writer.text wrote, of at most max bytes.
func (r *reader) text(max int) string {
	n := r.Uvarint()
	if n > uint64(max) {
		r.Bad = true
		return ""
	}
	return string(r.Take(int(n)))
}

// printable returns a peer's text as this machine may show it (in an
// error, in its log): a tab or a line break becomes a space; any other
// control character (a terminal's escape sequences begin with one), a
// bidirectional control and a byte that is not UTF-8 becomes U+FFFD. Text
// with none of them is returned as it is, allocating nothing.
func printable(s string) string {
	shown := func(r rune) bool {
		return r != utf8.RuneError && !unicode.IsControl(r) && !unicode.Is(unicode.Bidi_Control, r)
	}
	if strings.IndexFunc(s, func(r rune) bool { return !shown(r) }) < 0 {
		return s
	}
	return strings.Map(func(r rune) rune {
		switch {
		case r == '\t' || r == '\n' || r == '\r':
			return ' '
		case !shown(r):
			return utf8.RuneError
		}
		return r
	}, s)
}
