package netplay

import (
	"bytes"
	"encoding/binary"
	"hash/crc32"
	"net"
	"net/netip"
	"time"

	"github.com/fixedstep/fixedstep/engine"
	"github.com/fixedstep/fixedstep/internal/wirebytes"
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
	"input": kindInput, "bye": kindBye, "report": kindReport, "state": kindState, "stateack": kindStateAck}

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

// discard is a socket that writes nowhere: a bare session's answers go
// into it.
type discard struct{ net.PacketConn }

func (discard) WriteTo(b []byte, _ net.Addr) (int, error) { return len(b), nil }

// bare returns the host of a 2-player session with player 2 as its peer,
// as it stands after the start, with no socket: packets reach it through
// take.
func bare() (*Session, *peer) {
	from := netip.MustParseAddrPort("127.0.0.1:4000")
	s := &Session{host: true, local: 0, players: 2, id: 7, delay: 2, maxPred: 8, timeout: time.Second,
		start: time.Now(), conn: discard{}}
	p := &peer{addr: from, udpAddr: net.UDPAddrFromAddrPort(from), player: 1, heard: time.Now(), started: true}
	s.peers = []*peer{p}
	s.q.reset(2, 2)
	return s, p
}

// packet returns a packet of kind k to the bare session, its payload
// written by payload.
func packet(k kind, seq uint32, payload func(w *writer)) []byte {
	var w writer
	w.begin(k, 7, seq)
	payload(&w)
	return append([]byte(nil), w.end()...)
}

// deliver hands s the datagram b from p, as its reader would (one longer
// than MaxPacket+1 bytes is read as that long), and returns how many
// packets s dropped as malformed in all.
func deliver(s *Session, p *peer, b []byte) int64 {
	d := &datagram{n: min(len(b), len(datagram{}.b)), from: p.addr}
	copy(d.b[:], b)
	s.take(d, time.Now())
	return s.stats.Dropped[dropMalformed]
}

// ForgetSeq forgets the sequence number each peer's packets reached, so
// that the next packet of any number is no stale one.
func (s *Session) ForgetSeq() {
	for _, p := range s.peers {
		p.seq = 0
	}
}

// Resession returns packet b as of session id, its CRC made right.
func Resession(b []byte, id uint32) []byte {
	if len(b) < headerSize+crcSize {
		return b
	}
	b = bytes.Clone(b)
	binary.LittleEndian.PutUint32(b[6:], id)
	return Reseal(b)
}

// reporter is TakeReport's bare host, made once (a session is 2 MB to
// clear) and its exchange started anew for every call.
var reporter struct {
	s    *Session
	p    *peer
	ours []byte // its own report, encoded
}

// TakeReport hands a bare host (see bare) that found a desync with its
// peer, after the tick the first report packet names, the report packets
// given, from that peer, as they arrive. It returns how many it dropped
// as malformed, and the peer's report once it has arrived whole (decoded:
// nil when it did not). Calls must not overlap.
func TakeReport(packets [][]byte) (dropped int64, report *engine.DesyncReport, whole bool) {
	if reporter.s == nil {
		reporter.s, reporter.p = bare()
		reporter.ours = encodeReport(&engine.DesyncReport{Scene: 1, SceneName: "Arena", Simulated: true})
	}
	s, p := reporter.s, reporter.p
	s.exchange, s.stats = reportExchange{}, Stats{}
	s.desync = &DesyncError{Tick: -1}
	for _, b := range packets {
		if _, payload, _, ok := parseHeader(b); ok && s.desync.Tick < 0 {
			r := reader{wirebytes.Reader{B: payload}}
			s.desync.Tick = r.tick()
			s.exchange.peer, s.exchange.ours = p, reporter.ours
		}
		deliver(s, p, Resession(b, s.id))
	}
	x := &s.exchange
	if x.report == nil {
		return s.stats.Dropped[dropMalformed], nil, false
	}
	if x.report.Scene == 0 { // useless: none
		return s.stats.Dropped[dropMalformed], nil, true
	}
	return s.stats.Dropped[dropMalformed], x.report, true
}

// JoinAnswer reads datagram b as a joiner reads the host's answer to its
// hello: a refusal or a welcome (whose terms it takes into a new
// session); kind is "" for anything else. ok says whether it was taken;
// a welcome's terms are returned.
func JoinAnswer(b []byte) (kind string, ok bool, players, player int, settings map[string]string) {
	h, payload, _, good := parseHeader(b)
	if !good {
		return "", false, 0, 0, nil
	}
	switch h.kind {
	case kindRefuse:
		_, _, ok := readRefuse(payload)
		return "refuse", ok, 0, 0, nil
	case kindWelcome:
		r := reader{wirebytes.Reader{B: payload}}
		r.U64() // the nonce
		s := &Session{}
		if err := s.takeWelcome(&r, h.session); err != nil {
			return "welcome", false, 0, 0, nil
		}
		return "welcome", true, s.players, s.local, s.settings
	}
	return "", false, 0, 0, nil
}

// TakeState hands a joiner under way (player, -1 for a spectator, of a
// session of players) the state packets a host sends, as its handshake
// takes them; once the state is whole, the joiner begins from it. It
// reports how many were dropped as malformed, whether the state was
// whole, the error of beginning from it, and the state file it keeps.
func TakeState(packets [][]byte, players, player int) (dropped int, whole bool, err error, state []byte) {
	s := &Session{cfg: Config{Game: "arena", Version: "1"}, players: players, local: player, underWay: true}
	host := &peer{}
	var in incoming
	for _, b := range packets {
		h, payload, _, ok := parseHeader(b)
		if !ok || h.kind != kindState {
			continue
		}
		if !s.takeState(&in, payload) {
			dropped++
		}
	}
	if !in.done {
		return dropped, false, nil, nil
	}
	err = s.beginFrom(host, &in)
	return dropped, true, err, s.state
}

// SetFixedStatePace has joiners' state pieces sent stateWindow at a time,
// as frames end (the pace before ack-clocking and the growing window), or
// not: BenchmarkStateTransfer's baseline. Set it between sessions only.
func SetFixedStatePace(on bool) { fixedStatePace = on }
