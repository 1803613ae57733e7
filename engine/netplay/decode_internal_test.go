package netplay

import (
	"bytes"
	"compress/gzip"
	"fmt"
	"math"
	"net/netip"
	"strings"
	"testing"

	"github.com/fixedstep/fixedstep/engine"
	"github.com/fixedstep/fixedstep/internal/wirebytes"
)

// inputHead writes the fields of player 2's input packet up to its acks:
// its tick 5, advantage adv, no echo.
func inputHead(w *writer, adv int64) {
	w.u8(1)
	w.uvarint(5)
	w.varint(adv)
	w.u32(0)
	w.u32(0)
	w.u16(0)
}

// An input packet whose counts claim more than the packet holds, or more
// than a packet may carry, is dropped as malformed before anything is
// read or kept by them, and changes nothing; one that claims none of them
// is taken.
func TestInputCountsChecked(t *testing.T) {
	for _, c := range []struct {
		name    string
		payload func(w *writer)
	}{
		{"200 checksums (a packet carries 24)", func(w *writer) {
			inputHead(w, 0)
			w.u8(0)
			w.uvarint(0)
			w.uvarint(1)
			w.u8(200)
			w.u8(0)
		}},
		{"24 checksums in 3 bytes", func(w *writer) {
			inputHead(w, 0)
			w.u8(0)
			w.uvarint(0)
			w.uvarint(1)
			w.u8(24)
			w.b = append(w.b, 1, 2, 3)
		}},
		{"2 acks in no bytes", func(w *writer) {
			inputHead(w, 0)
			w.u8(2)
		}},
		{"255 blocks in 3 bytes", func(w *writer) {
			inputHead(w, 0)
			w.u8(0)
			w.uvarint(0)
			w.uvarint(0)
			w.u8(0)
			w.u8(255)
			w.b = append(w.b, 1, 3, 0)
		}},
		{"a block of 2^63+1 entries", func(w *writer) { // an int of it is negative
			inputHead(w, 0)
			w.u8(0)
			w.uvarint(0)
			w.uvarint(0)
			w.u8(0)
			w.u8(1)
			w.u8(1)
			w.uvarint(3)
			w.uvarint(1<<63 + 1)
		}},
		{"a block of 100 entries in 4 bytes", func(w *writer) {
			inputHead(w, 0)
			w.u8(0)
			w.uvarint(0)
			w.uvarint(0)
			w.u8(0)
			w.u8(1)
			w.u8(1)
			w.uvarint(3)
			w.uvarint(100)
			w.b = append(w.b, 1, 0, 1, 0)
		}},
		{"an advantage of MaxInt64", func(w *writer) {
			inputHead(w, math.MaxInt64)
			w.u8(0)
			w.uvarint(0)
			w.uvarint(0)
			w.u8(0)
			w.u8(0)
		}},
		{"an advantage of MinInt64", func(w *writer) {
			inputHead(w, math.MinInt64)
			w.u8(0)
			w.uvarint(0)
			w.uvarint(0)
			w.u8(0)
			w.u8(0)
		}},
	} {
		s, p := bare()
		if got := deliver(s, p, packet(kindInput, 1, c.payload)); got != 1 {
			t.Errorf("%s: %d dropped as malformed, want 1", c.name, got)
		}
		if p.seq != 0 || p.tick != 0 || p.adv != 0 || s.q.conf[1] != 2 || s.Hold() {
			t.Errorf("%s: it changed the session: seq %d, tick %d, advantage %d, confirmed %d, hold %v",
				c.name, p.seq, p.tick, p.adv, s.q.conf[1], s.Hold())
		}
	}
	s, p := bare()
	good := packet(kindInput, 1, func(w *writer) {
		inputHead(w, -3)
		w.u8(0)
		w.uvarint(0)
		w.uvarint(0)
		w.u8(0)
		w.u8(0)
	})
	if got := deliver(s, p, good); got != 0 || p.seq != 1 || p.tick != 5 || p.adv != -3 {
		t.Errorf("a good packet: %d dropped, seq %d, tick %d, advantage %d", got, p.seq, p.tick, p.adv)
	}
}

// hello writes the payload of a player's hello of game "arena" version
// "1", with settings written by settings.
func hello(settings func(w *writer)) func(w *writer) {
	return func(w *writer) {
		w.u64(0) // nonce
		w.u8(rolePlayer)
		w.str("arena")
		w.str("1")
		w.u8(engine.Determinism)
		w.u8(0)
		w.u64(0)
		settings(w)
		w.u8(0) // from the state, if under way
	}
}

// Settings (a hello's, a welcome's) are read as written: a count the
// bytes left can hold, names in order, none twice. Others are malformed:
// a hello is dropped, a welcome refused.
func TestSettingsChecked(t *testing.T) {
	pairs := func(kv ...string) func(w *writer) {
		return func(w *writer) {
			w.uvarint(uint64(len(kv) / 2))
			for _, s := range kv {
				w.str(s)
			}
		}
	}
	for _, c := range []struct {
		name     string
		settings func(w *writer)
		good     bool
	}{
		{"none", pairs(), true},
		{"two in order", pairs("a", "1", "b", "2"), true},
		{"one named twice", pairs("bodies", "60", "bodies", "40"), false},
		{"out of order", pairs("b", "2", "a", "1"), false},
		{"1000 in 4 bytes", func(w *writer) { w.uvarint(1000); w.b = append(w.b, 1, 'a', 1, 'b') }, false},
		{"a value of 300 bytes", func(w *writer) { w.uvarint(1); w.str("a"); w.uvarint(300); w.b = append(w.b, make([]byte, 300)...) }, false},
	} {
		s, p := bare()
		got := deliver(s, p, packet(kindHello, 0, hello(c.settings)))
		if want := map[bool]int64{true: 0, false: 1}[c.good]; got != want {
			t.Errorf("a hello's settings, %s: %d dropped as malformed, want %d", c.name, got, want)
		}
		var w writer
		w.u8(1)
		w.u8(2)
		w.u8(2)
		w.u8(8)
		w.u64(5)
		c.settings(&w)
		w.u8(0) // not under way
		j := &Session{}
		err := j.takeWelcome(&reader{wirebytes.Reader{B: w.b}}, 9)
		if (err == nil) != c.good {
			t.Errorf("a welcome's settings, %s: %v", c.name, err)
		}
	}
}

// A welcome of session 0 (a hello's number) makes no sense.
func TestWelcomeOfSessionZero(t *testing.T) {
	var w writer
	w.u8(1)
	w.u8(2)
	w.u8(2)
	w.u8(8)
	w.u64(5)
	w.uvarint(0)
	w.u8(0)
	if err := (&Session{}).takeWelcome(&reader{wirebytes.Reader{B: w.b}}, 0); err == nil {
		t.Error("a welcome of session 0 was taken")
	}
	if err := (&Session{}).takeWelcome(&reader{wirebytes.Reader{B: w.b}}, 9); err != nil {
		t.Errorf("a good welcome: %v", err)
	}
}

// A peer's text is shown (in a PeerError, in the log) with no control
// character: a bye's message that would clear a terminal and retitle its
// window arrives as text.
func TestPeerTextPrintable(t *testing.T) {
	for in, want := range map[string]string{
		"its state differs":               "its state differs",
		"line one\nline two\ttab":         "line one line two tab",
		"\x1b[2J\x1b]0;owned\x07":         "\uFFFD[2J\uFFFD]0;owned\uFFFD",
		"bad \xff byte, \u202eright-left": "bad \uFFFD byte, \uFFFDright-left",
		"ünïcødé":                         "ünïcødé",
	} {
		if got := printable(in); got != want {
			t.Errorf("printable(%q) = %q, want %q", in, got, want)
		}
	}
	s, p := bare()
	deliver(s, p, packet(kindBye, 1, func(w *writer) {
		w.u8(byeFailed)
		w.uvarint(9)
		w.text("\x1b[2Jdesync", maxMessage)
	}))
	if p.gone != "its run failed: \uFFFD[2Jdesync" {
		t.Errorf("the peer left saying %q", p.gone)
	}
	// A joiner's setting in the host's refusal, which its log shows too.
	var log strings.Builder
	s, p = bare()
	s.cfg = Config{Game: "arena", Version: "1", Log: &log}
	s.settings = map[string]string{"bodies": "40"}
	p.nonce = 1 // the hello is another joiner's
	deliver(s, p, packet(kindHello, 0, hello(func(w *writer) {
		w.uvarint(1)
		w.str("bodies")
		w.str("\x1b[2J")
	})))
	if got := log.String(); !strings.HasSuffix(got, "this session was made with -bodies 40, yours with -bodies \uFFFD[2J (drop -bodies to play it)\n") {
		t.Errorf("the host's log: %q", got)
	}
}

// desynced returns a bare host that found a desync after tick 50 with its
// peer, and has its own report ready to send.
func desynced() (*Session, *peer) {
	s, p := bare()
	s.desync = &DesyncError{Tick: 50}
	s.exchange.peer = p
	s.Report(&engine.DesyncReport{Tick: 50, Scene: 1, SceneName: "Arena", SceneTick: 50, Simulated: true,
		Dump: bytes.Repeat([]byte("x = 1\n"), 10)})
	return s, p
}

// reportPacket writes a report packet: of the desync after tick 50, piece
// i of n of a report of size bytes, acknowledging ack pieces, carrying data.
func reportPacket(n, i, ack int, size uint64, data []byte) []byte {
	return packet(kindReport, 1, func(w *writer) {
		w.uvarint(50)
		w.u16(uint16(n))
		w.u16(uint16(i))
		w.u16(uint16(ack))
		w.uvarint(size)
		w.b = append(w.b, data...)
	})
}

// A piece of a desync report is taken only when it is what its header
// says: an acknowledgement carries no piece; a piece is the size its index
// and the report's size make it; every piece of one report says the same
// size. One that is not is dropped as malformed and changes nothing, not
// even what the peer acknowledged.
func TestReportPiecesChecked(t *testing.T) {
	report := encodeReport(&engine.DesyncReport{Tick: 50, Scene: 1, SceneName: "Arena", SceneTick: 50, Simulated: true,
		Parts: []engine.StatePart{{Name: "Body", Sum: 3}}, Dump: []byte("x = 2\n")})
	size := uint64(len(report))
	for _, c := range []struct {
		name   string
		before []byte // a good piece taken first
		bad    []byte
	}{
		{"an acknowledgement with bytes after it", nil, reportPacket(0, 0, 1, size, []byte("junk"))},
		{"an acknowledgement of piece 3", nil, reportPacket(0, 3, 1, size, nil)},
		{"a piece cut short", nil, reportPacket(1, 0, 1, size, report[:len(report)-1])},
		{"a piece with a byte more", nil, reportPacket(1, 0, 1, size, append(bytes.Clone(report), 0))},
		{"piece 2 of 1", nil, reportPacket(1, 2, 1, size, report)},
		{"a report of 5 MiB", nil, reportPacket(4615, 0, 1, 5<<20, report)},
		{"a piece of another size than the first's", reportPacket(2, 0, 0, reportPiece+10, make([]byte, reportPiece)),
			reportPacket(2, 1, 1, reportPiece+11, make([]byte, 11))},
	} {
		s, p := desynced()
		if c.before != nil && deliver(s, p, c.before) != 0 {
			t.Fatalf("%s: the first piece was dropped", c.name)
		}
		got := deliver(s, p, c.bad)
		if got != 1 || s.exchange.acked != 0 || s.exchange.report != nil {
			t.Errorf("%s: %d dropped as malformed, acknowledged %d, report %v", c.name, got, s.exchange.acked, s.exchange.report)
		}
	}
	s, p := desynced()
	if got := deliver(s, p, reportPacket(1, 0, 1, size, report)); got != 0 || s.exchange.acked != 1 ||
		s.exchange.report == nil || len(s.exchange.report.Parts) != 1 || string(s.exchange.report.Dump) != "x = 2\n" {
		t.Errorf("a good report: %d dropped, acknowledged %d, report %+v", got, s.exchange.acked, s.exchange.report)
	}
}

// A report whose counts claim more than its bytes, whose scene or
// simulated flag means nothing, is an error; its names are made printable.
func TestDecodeReportChecked(t *testing.T) {
	head := func(scene uint64, simulated uint8) *writer {
		w := &writer{}
		w.uvarint(50)
		w.uvarint(scene)
		w.str("Arena\x1b[2J")
		w.uvarint(50)
		w.u8(simulated)
		w.u64(7)
		return w
	}
	var z bytes.Buffer
	gzip.NewWriter(&z).Close()
	tail := func(w *writer) []byte {
		w.uvarint(uint64(z.Len()))
		w.b = append(w.b, z.Bytes()...)
		return w.b
	}
	good := head(1, 1)
	good.uvarint(1)
	good.str("physics")
	good.uvarint(50)
	good.str("move\x07")
	good.u32(9)
	good.uvarint(0)
	rep, err := decodeReport(tail(good))
	if err != nil || rep.SceneName != "Arena\uFFFD[2J" || len(rep.Systems) != 1 || rep.Systems[0].System != "move\uFFFD" {
		t.Fatalf("a good report: %+v, %v", rep, err)
	}
	for name, b := range map[string][]byte{
		"scene 2^40":  func() []byte { w := head(1<<40, 1); w.uvarint(0); w.uvarint(0); return tail(w) }(),
		"simulated 2": func() []byte { w := head(1, 2); w.uvarint(0); w.uvarint(0); return tail(w) }(),
		"a million systems": func() []byte {
			w := head(1, 1)
			w.uvarint(1e6)
			w.b = append(w.b, make([]byte, 40)...)
			return w.b
		}(),
		"a million parts": func() []byte {
			w := head(1, 1)
			w.uvarint(0)
			w.uvarint(1e6)
			w.b = append(w.b, make([]byte, 40)...)
			return w.b
		}(),
		"a world longer than the report": func() []byte {
			w := head(1, 1)
			w.uvarint(0)
			w.uvarint(0)
			w.uvarint(1 << 62)
			return w.b
		}(),
	} {
		if rep, err := decodeReport(b); err == nil {
			t.Errorf("%s: %+v", name, rep)
		}
	}
}

// A joiner whose engine computes with another determinism version is
// refused, saying so: the two runs would compute different games.
func TestJoinerOfAnotherDeterminismRefused(t *testing.T) {
	var log strings.Builder
	s, _ := bare()
	s.cfg = Config{Game: "arena", Version: "1", Log: &log}
	other := &peer{addr: netip.MustParseAddrPort("127.0.0.1:4001")} // another machine
	deliver(s, other, packet(kindHello, 0, func(w *writer) {
		w.u64(2)
		w.u8(roleSpectator)
		w.str("arena")
		w.str("1")
		w.u8(engine.Determinism - 1)
		w.u8(0)
		w.u64(0)
		w.uvarint(0)
		w.u8(0)
	}))
	if len(s.peers) != 1 || !strings.Contains(log.String(), fmt.Sprintf("determinism version %d, yours with %d", engine.Determinism, engine.Determinism-1)) {
		t.Fatalf("%d peers; the host's log: %q", len(s.peers), log.String())
	}
}
