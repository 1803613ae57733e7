package netplay_test

import (
	"bytes"
	"context"
	"encoding/binary"
	"errors"
	"flag"
	"fmt"
	"io"
	"math"
	"net"
	"net/netip"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/fixedstep/fixedstep/engine"
	"github.com/fixedstep/fixedstep/engine/netplay"
)

// tap is a UDP relay on 127.0.0.1 in front of a host: joiners join it, it
// passes each datagram on (to the host from a socket of its own for each
// joiner, so that the host sees each at an address of its own, and back),
// and keeps a copy of every datagram it passed, either way.
type tap struct {
	front *net.UDPConn
	host  netip.AddrPort

	mu    sync.Mutex
	seen  []datagram
	backs map[netip.AddrPort]*net.UDPConn // by joiner
	wg    sync.WaitGroup
}

// newTap starts a relay in front of the host at host.
func newTap(host net.Addr) (*tap, error) {
	front, err := net.ListenUDP("udp", &net.UDPAddr{IP: net.IPv4(127, 0, 0, 1)})
	if err != nil {
		return nil, err
	}
	tp := &tap{front: front, host: host.(*net.UDPAddr).AddrPort(), backs: map[netip.AddrPort]*net.UDPConn{}}
	tp.wg.Add(1)
	go tp.relayFront()
	return tp, nil
}

// A datagram is one the relay passed: to the host, or from it to joiner.
type datagram struct {
	b      []byte
	toHost bool
	joiner netip.AddrPort
}

// keep keeps a copy of a datagram passed.
func (tp *tap) keep(b []byte, toHost bool, joiner netip.AddrPort) {
	tp.mu.Lock()
	tp.seen = append(tp.seen, datagram{bytes.Clone(b), toHost, joiner})
	tp.mu.Unlock()
}

// relayFront passes the joiners' datagrams to the host.
func (tp *tap) relayFront() {
	defer tp.wg.Done()
	buf := make([]byte, 64<<10)
	for {
		n, joiner, err := tp.front.ReadFromUDPAddrPort(buf)
		if errors.Is(err, net.ErrClosed) {
			return
		}
		if err != nil {
			continue
		}
		tp.mu.Lock()
		back := tp.backs[joiner]
		if back == nil {
			if back, err = net.ListenUDP("udp", &net.UDPAddr{IP: net.IPv4(127, 0, 0, 1)}); err != nil {
				tp.mu.Unlock()
				continue
			}
			tp.backs[joiner] = back
			tp.wg.Add(1)
			go tp.relayBack(back, joiner)
		}
		tp.mu.Unlock()
		tp.keep(buf[:n], true, joiner)
		back.WriteToUDPAddrPort(buf[:n], tp.host)
	}
}

// relayBack passes the host's datagrams to a joiner.
func (tp *tap) relayBack(back *net.UDPConn, joiner netip.AddrPort) {
	defer tp.wg.Done()
	buf := make([]byte, 64<<10)
	for {
		n, _, err := back.ReadFromUDPAddrPort(buf)
		if errors.Is(err, net.ErrClosed) {
			return
		}
		if err != nil {
			continue
		}
		tp.keep(buf[:n], false, joiner)
		tp.front.WriteToUDPAddrPort(buf[:n], joiner)
	}
}

// Close stops the relay and returns every datagram it passed, in the
// order it passed them.
func (tp *tap) Close() []datagram {
	tp.front.Close()
	tp.mu.Lock()
	for _, b := range tp.backs {
		b.Close()
	}
	tp.mu.Unlock()
	tp.wg.Wait()
	return tp.seen
}

// captured is the datagrams of a real session (see capture), made once
// for a test binary.
var captured struct {
	once    sync.Once
	packets []datagram
}

// capture returns the datagrams of a real session over UDP on 127.0.0.1,
// as a relay in front of its host saw them: a joiner of another version
// says hello and is refused; a spectator and a player say hello and are
// welcomed; the host starts the session; the three exchange input
// packets (inputs, acknowledgements, checksums) as they play; a second
// spectator joins under way, and the host sends it its state in pieces,
// which it acknowledges; the two
// players' games differ after tick 120, so that they find a desync and
// exchange their reports (each with its systems, its parts and a world
// of some 4 kB: in several pieces); each says goodbye. They seed the
// fuzz targets (TestWriteCorpus writes them), so that the fuzzer starts
// from what a peer sends, with every kind and every field in it.
func capture(tb testing.TB) []datagram {
	captured.once.Do(func() {
		var tp *tap
		play(tb, setup{players: 2, spectators: 1, seconds: 2.5, lateAt: 60, lateFromState: true,
			game: func(i int, final *uint64) engine.Scene { return probed(i == 1, final) },
			joinAt: func(lobby net.Addr) string {
				var err error
				if tp, err = newTap(lobby); err != nil {
					tb.Fatal(err)
				}
				return tp.front.LocalAddr().String()
			},
			lobby: func(net.Addr) { // a joiner of another version, through the relay, before the others
				ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
				defer cancel()
				netplay.Join(ctx, netplay.Config{Addr: tp.front.LocalAddr().String(), Game: "arena", Version: "0.9"})
			}})
		captured.packets = tp.Close()
	})
	kinds := map[string]int{}
	for _, d := range captured.packets {
		k, _, _ := netplay.Header(d.b)
		kinds[k]++
	}
	for _, k := range []string{"hello", "welcome", "refuse", "start", "input", "report", "bye", "state", "stateack"} {
		if kinds[k] == 0 {
			tb.Fatalf("the session captured no %s packet: %v", k, kinds)
		}
	}
	return captured.packets
}

// reportRuns returns the report packets of the capture, one run for each
// way between the host and a joiner, each run framed (frame) as FuzzReport
// takes them.
func reportRuns(packets []datagram) [][]byte {
	type way struct {
		toHost bool
		joiner netip.AddrPort
	}
	runs := map[way][][]byte{}
	var order []way
	for _, d := range packets {
		if k, _, _ := netplay.Header(d.b); k != "report" {
			continue
		}
		w := way{d.toHost, d.joiner}
		if runs[w] == nil {
			order = append(order, w)
		}
		runs[w] = append(runs[w], d.b)
	}
	var framed [][]byte
	for _, w := range order {
		framed = append(framed, frame(runs[w]))
	}
	return framed
}

// frame returns packets framed as one: each its uvarint length, then its
// bytes.
func frame(packets [][]byte) []byte {
	var b []byte
	for _, p := range packets {
		b = binary.AppendUvarint(b, uint64(len(p)))
		b = append(b, p...)
	}
	return b
}

// unframe returns the packets of b, framed by frame (at most 64; what
// follows a length that runs past the end is dropped).
func unframe(b []byte) [][]byte {
	var packets [][]byte
	for len(b) > 0 && len(packets) < 64 {
		n, k := binary.Uvarint(b)
		if k <= 0 || n > uint64(len(b)-k) {
			break
		}
		packets = append(packets, b[k:k+int(n)])
		b = b[k+int(n):]
	}
	return packets
}

// The capture holds every kind of packet; each player's report, sent
// in pieces through the relay, arrives whole with its systems, parts and
// world.
func TestCapture(t *testing.T) {
	start := time.Now()
	packets := capture(t)
	kinds := map[string]int{}
	sizes := map[string]int{}
	for _, d := range packets {
		k, _, _ := netplay.Header(d.b)
		kinds[k]++
		sizes[k] = max(sizes[k], len(d.b))
	}
	t.Logf("%d packets in %v: %v; the longest of each: %v", len(packets), time.Since(start), kinds, sizes)
	reports := 0
	for _, run := range reportRuns(packets) {
		dropped, rep, whole := netplay.TakeReport(unframe(run))
		if !whole {
			continue // the spectator's way: no report
		}
		if dropped != 0 || rep == nil || len(rep.Systems) == 0 || len(rep.Parts) != 2 || len(rep.Dump) < 4000 {
			t.Fatalf("a report run: %d dropped, %+v", dropped, rep)
		}
		reports++
	}
	if reports != 2 {
		t.Errorf("%d reports arrived whole, want the two players'", reports)
	}
}

var update = flag.Bool("update", false, "write the fuzz targets' seed corpora, testdata/fuzz/Fuzz{Take,Report,JoinAnswers,State}/, from a real session (capture)")

// seeds returns the seed corpus of each fuzz target, by file name, from
// the datagrams of a real session: FuzzTake's every datagram but most
// input packets (every eighth, and the longest: the most input),
// FuzzReport's the report runs and each piece alone, FuzzJoinAnswers's
// the welcomes and the refusal, FuzzState's the state's pieces together
// and each alone.
func seeds(packets []datagram) map[string]map[string][]byte {
	corpora := map[string]map[string][]byte{"FuzzTake": {}, "FuzzReport": {}, "FuzzJoinAnswers": {}, "FuzzState": {}}
	n := map[string]int{}
	var longest []byte
	var state [][]byte
	for _, d := range packets {
		k, _, _ := netplay.Header(d.b)
		n[k]++
		if k == "input" && len(d.b) > len(longest) {
			longest = d.b
		}
		if k != "input" || n[k]%8 == 0 {
			corpora["FuzzTake"][fmt.Sprintf("%s-%03d", k, n[k])] = d.b
		}
		switch k {
		case "report":
			corpora["FuzzReport"][fmt.Sprintf("piece-%03d", n[k])] = frame([][]byte{d.b})
		case "welcome", "refuse":
			corpora["FuzzJoinAnswers"][fmt.Sprintf("%s-%03d", k, n[k])] = d.b
		case "state":
			state = append(state, d.b)
			corpora["FuzzState"][fmt.Sprintf("piece-%03d", n[k])] = frame([][]byte{d.b})
		}
	}
	corpora["FuzzState"]["whole"] = frame(state)
	corpora["FuzzTake"]["input-longest"] = longest
	for i, run := range reportRuns(packets) {
		corpora["FuzzReport"][fmt.Sprintf("run-%d", i+1)] = run
	}
	return corpora
}

// TestWriteCorpus writes the fuzz targets' seed corpora from a real
// session with -update:
//
//	go test ./engine/netplay/ -run TestWriteCorpus -update
//
// (after a change to the protocol: the seeds are what this build sends).
// Without it, it checks the corpora written: every kind of datagram there,
// each of this protocol's version, with a right CRC.
func TestWriteCorpus(t *testing.T) {
	if *update {
		for target, corpus := range seeds(capture(t)) {
			dir := filepath.Join("testdata", "fuzz", target)
			if err := os.RemoveAll(dir); err != nil {
				t.Fatal(err)
			}
			if err := os.MkdirAll(dir, 0o755); err != nil {
				t.Fatal(err)
			}
			for name, b := range corpus {
				if err := os.WriteFile(filepath.Join(dir, name), fmt.Appendf(nil, "go test fuzz v1\n[]byte(%q)\n", b), 0o644); err != nil {
					t.Fatal(err)
				}
			}
			t.Logf("%s: %d seeds", dir, len(corpus))
		}
	}
	kinds := map[string]int{}
	for _, target := range []string{"FuzzTake", "FuzzReport", "FuzzJoinAnswers", "FuzzState"} {
		files, _ := filepath.Glob(filepath.Join("testdata", "fuzz", target, "*"))
		if len(files) == 0 {
			t.Fatalf("no seeds for %s: write them with go test ./engine/netplay/ -run TestWriteCorpus -update", target)
		}
		for _, file := range files {
			b := readSeed(t, file)
			if target == "FuzzReport" || target == "FuzzState" {
				if packets := unframe(b); len(packets) > 0 {
					b = packets[0]
				}
			}
			k, _, ok := netplay.Header(b)
			if !ok {
				t.Fatalf("%s is no datagram of this protocol (its version or its CRC): write the seeds again with -update", file)
			}
			kinds[target+" "+k]++
		}
	}
	for _, want := range []string{"FuzzTake hello", "FuzzTake welcome", "FuzzTake refuse", "FuzzTake start", "FuzzTake input",
		"FuzzTake report", "FuzzTake bye", "FuzzReport report", "FuzzJoinAnswers welcome", "FuzzJoinAnswers refuse", "FuzzTake state", "FuzzTake stateack", "FuzzState state"} {
		if kinds[want] == 0 {
			t.Errorf("no seed of %s (%v): write them with -update", want, kinds)
		}
	}
}

// readSeed returns the bytes of a seed file of Go's corpus format that
// holds one []byte.
func readSeed(t *testing.T, file string) []byte {
	t.Helper()
	data, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	lit, ok := strings.CutPrefix(strings.TrimSpace(string(data)), "go test fuzz v1\n[]byte(")
	if !ok || !strings.HasSuffix(lit, ")") {
		t.Fatalf("%s: not a corpus file of one []byte", file)
	}
	s, err := strconv.Unquote(strings.TrimSuffix(lit, ")"))
	if err != nil {
		t.Fatalf("%s: %v", file, err)
	}
	return []byte(s)
}

// probed is the drifting arena (see drifting) as a scene that tells the
// loop all it can for a desync report: the state after each of its two
// systems, its parts, a world written as text.
func probed(drift bool, final *uint64) engine.Scene {
	return engine.NewScene("Arena", func(loop *engine.Loop) (engine.Scene, error) {
		a := &arena{n: loop.Players()}
		loop.Recording().SetChecksum(a.checksum)
		loop.Recording().SetSceneState(&arenaState{a: a, slots: map[int]arena{}})
		loop.Recording().SetStateParts(func(dst []engine.StatePart) []engine.StatePart {
			return append(dst, engine.StatePart{Name: "Puck", Sum: math.Float64bits(a.x[0]) ^ math.Float64bits(a.y[0])},
				engine.StatePart{Name: "Kicks", Sum: uint64(a.kicks)})
		})
		loop.Recording().SetStateDump(func(w io.Writer) error {
			h := a.checksum()
			for k := range 200 { // hashes: text that gzip hardly shrinks
				h = (h ^ uint64(k)) * 1099511628211
				fmt.Fprintf(w, "line %d: %016x\n", k, h)
			}
			return nil
		})
		for ev := range loop.Events(engine.Group{Name: "physics", Hz: 60}, engine.Group{Name: "kicks", Hz: 10}) {
			if ev.Kind == engine.Update {
				a.update(ev)
				loop.Recording().AfterSystem(ev, "move")
				if drift && ev.Group == 0 && ev.Tick > 120 {
					a.vx[0] *= 0.999
				}
				loop.Recording().AfterSystem(ev, "drag")
				*final = a.checksum()
			}
		}
		return nil, loop.Err()
	})
}
