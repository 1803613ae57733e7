package netplay_test

import (
	"context"
	"encoding/binary"
	"net"
	"strings"
	"testing"
	"time"

	"github.com/fixedstep/fixedstep/engine"
	"github.com/fixedstep/fixedstep/engine/netplay"
)

// forger is a hand-made peer on 127.0.0.1: it joins a session as a
// spectator, as netplay.Spectate would, then sends the host what a test
// forges, from its own address, with the package's own writer (so that
// every CRC is right).
type forger struct {
	conn    *net.UDPConn
	host    *net.UDPAddr
	session uint32
	seq     uint32
}

// forgeSpectator joins the lobby at addr as a spectator, and returns once
// it is welcomed (nil, having failed t, when it is not).
func forgeSpectator(t *testing.T, addr net.Addr) *forger {
	conn, err := net.ListenUDP("udp", &net.UDPAddr{IP: net.IPv4(127, 0, 0, 1)})
	if err != nil {
		t.Error(err)
		return nil
	}
	t.Cleanup(func() { conn.Close() })
	f := &forger{conn: conn, host: addr.(*net.UDPAddr)}
	var w netplay.Writer
	w.Begin("hello", 0, 0)
	w.U64(0x5eed)  // nonce
	w.U8(1)        // role: a spectator
	w.Str("arena") // game
	w.Str("1")     // version
	w.U8(engine.Determinism)
	w.U8(0)      // no seed given
	w.U64(0)     // seed
	w.Uvarint(0) // settings
	w.U8(1)      // every tick from the first
	hello := w.End()
	buf := make([]byte, 2048)
	for deadline := time.Now().Add(10 * time.Second); time.Now().Before(deadline); {
		conn.WriteTo(hello, f.host)
		conn.SetReadDeadline(time.Now().Add(100 * time.Millisecond))
		n, _, err := conn.ReadFromUDP(buf)
		if err != nil {
			continue
		}
		if kind, session, ok := netplay.Header(buf[:n]); ok && kind == "welcome" {
			f.session = session
			return f
		}
	}
	t.Error("the host did not welcome the forged spectator")
	return nil
}

// send sends the host a packet of kind k, its payload written by payload.
func (f *forger) send(t *testing.T, k string, payload func(w *netplay.Writer)) []byte {
	if f == nil {
		return nil
	}
	f.seq++
	var w netplay.Writer
	w.Begin(k, f.session, f.seq)
	payload(&w)
	b := w.End()
	if _, err := f.conn.WriteTo(b, f.host); err != nil {
		t.Error(err)
	}
	return b
}

// spectatorInput writes the payload of a spectator's input packet that
// holds no input and claims sums checksums from tick 1 (the bytes of none
// of them follow).
func spectatorInput(sums uint8) func(w *netplay.Writer) {
	return func(w *netplay.Writer) {
		w.U8(255)    // from: a spectator
		w.Uvarint(0) // its tick
		w.Varint(0)  // its advantage
		w.U32(0)     // sentAt
		w.U32(0)     // echo
		w.U16(0)     // echoAge
		w.U8(0)      // acks
		w.Uvarint(0) // sumAck
		w.Uvarint(1) // first
		w.U8(sums)   // sums
		w.U8(0)      // blocks
	}
}

// A spectator that sends the host a 36-byte input packet claiming 200
// checksums (more than a packet carries: 24) ends nothing: over UDP on
// 127.0.0.1, mid-game, the host drops it as malformed and counts it, and
// both players play on to the same end.
func TestTooManyChecksumsDropped(t *testing.T) {
	var f *forger
	var sent []byte
	dropped := -1
	var last [2]int64 // each player's last tick
	runs := play(t, setup{players: 2, seconds: 2, realtime: true,
		lobby: func(addr net.Addr) { f = forgeSpectator(t, addr) },
		afterUpdate: func(i int, r *peerRun, l *engine.Loop, ev engine.Event) {
			if ev.Group != 0 || l.Session().Resimulating() {
				return
			}
			last[i] = ev.Tick
			if i != 0 {
				return
			}
			switch ev.Tick {
			case 30:
				sent = f.send(t, "input", spectatorInput(200))
			case 90: // the forger leaves, so that the host's Close need not wait for it
				dropped = int(r.session.Dropped("malformed"))
				f.send(t, "bye", func(w *netplay.Writer) { w.U8(2); w.Uvarint(0); w.Uvarint(0) })
			}
		}})
	if len(sent) != 36 {
		t.Errorf("the forged packet is %d bytes, want 36", len(sent))
	}
	for i, r := range runs {
		if r.err != nil {
			t.Fatalf("peer %d: %v", i+1, r.err)
		}
		if r.final != runs[0].final {
			t.Fatalf("peer %d ended on %x, the host on %x", i+1, r.final, runs[0].final)
		}
		if last[i] < 110 {
			t.Errorf("peer %d ran %d ticks: it stopped playing", i+1, last[i])
		}
	}
	if dropped != 1 || runs[0].session.Dropped("malformed") != 1 {
		t.Errorf("the host dropped %d packets as malformed by tick 90 (%d in all), want the forged one", dropped,
			runs[0].session.Dropped("malformed"))
	}
}

// A joiner drops a refusal that is malformed (a byte after its reason)
// and counts it, rather than taking it as the host's word; a refusal's
// reason is shown with no control character. The host here is forged, on
// 127.0.0.1.
func TestJoinerChecksRefusals(t *testing.T) {
	host, err := net.ListenUDP("udp", &net.UDPAddr{IP: net.IPv4(127, 0, 0, 1)})
	if err != nil {
		t.Fatal(err)
	}
	defer host.Close()
	go func() {
		buf := make([]byte, 2048)
		for sent := 0; sent < 2; {
			n, from, err := host.ReadFromUDP(buf)
			if err != nil {
				return
			}
			if kind, _, ok := netplay.Header(buf[:n]); !ok || kind != "hello" {
				continue
			}
			nonce := binary.LittleEndian.Uint64(buf[14:])
			var w netplay.Writer
			w.Begin("refuse", 0, 0)
			w.U64(nonce)
			if sent == 0 {
				w.Str("a reason, then a byte more")
				w.U8(0)
			} else {
				w.Str("\x1b]0;owned\x07\x1b[2Jgo away")
			}
			host.WriteToUDP(w.End(), from)
			sent++
		}
	}()
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	_, err = netplay.Join(ctx, netplay.Config{Addr: host.LocalAddr().String(), Game: "arena", Version: "1", Timeout: 5 * time.Second})
	if err == nil || !strings.HasSuffix(err.Error(), "refused to let us join: \uFFFD]0;owned\uFFFD\uFFFD[2Jgo away") {
		t.Errorf("got %v, want the second refusal, shown without its control characters", err)
	}
}
