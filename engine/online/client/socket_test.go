package client

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/gorilla/websocket"
	"github.com/heroiclabs/nakama-common/rtapi"
	"google.golang.org/protobuf/encoding/protowire"
	"google.golang.org/protobuf/proto"

	"github.com/fixedstep/fixedstep/engine"
	"github.com/fixedstep/fixedstep/engine/input"
	"github.com/fixedstep/fixedstep/engine/lockstep"
	"github.com/fixedstep/fixedstep/engine/online/wire"
)

// matchID is a match id as Nakama makes them: a UUID and the node's name.
const matchID = "3f0d7c8e-5b7a-4c1e-9a55-2f4a1c9b8d10.nakama1"

// socketPair returns the two ends of a websocket on 127.0.0.1, made by
// gorilla's Dialer and Upgrader: the test's stand-in for a socket to
// Nakama, for what gorilla's own reader and writer allocate.
func socketPair(t testing.TB) (client, server *websocket.Conn) {
	t.Helper()
	conns := make(chan *websocket.Conn, 1)
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		ws, err := (&websocket.Upgrader{}).Upgrade(w, r, nil)
		if err != nil {
			t.Error(err)
			return
		}
		conns <- ws
	}))
	t.Cleanup(srv.Close)
	client, _, err := websocket.DefaultDialer.Dial("ws"+strings.TrimPrefix(srv.URL, "http"), nil)
	if err != nil {
		t.Fatal(err)
	}
	server = <-conns
	t.Cleanup(func() { client.Close(); server.Close() })
	return client, server
}

// joinFake dials a stand-in for Nakama's HTTP API and realtime socket on
// 127.0.0.1 (it authenticates any device and answers a MatchJoin) and
// joins match matchID: it returns the client, the match and the server's
// end of the socket, which the test writes the server's messages to.
func joinFake(t testing.TB) (*Client, *Match, *websocket.Conn) {
	t.Helper()
	conns := make(chan *websocket.Conn, 1)
	mux := http.NewServeMux()
	mux.HandleFunc("/v2/account/authenticate/device", func(w http.ResponseWriter, r *http.Request) {
		io.WriteString(w, `{"token": "x.e30.y", "created": true}`)
	})
	mux.HandleFunc("/ws", func(w http.ResponseWriter, r *http.Request) {
		ws, err := (&websocket.Upgrader{}).Upgrade(w, r, nil)
		if err != nil {
			t.Error(err)
			return
		}
		conns <- ws
	})
	srv := httptest.NewServer(mux)
	t.Cleanup(srv.Close)
	ctx := context.Background()
	c, err := Dial(ctx, srv.URL, Options{Device: "socket-test-device"})
	if err != nil {
		t.Fatal(err)
	}
	ws := <-conns
	t.Cleanup(func() { c.Close(); ws.Close() })
	joined := make(chan error, 1)
	go func() { // the server's side of the join
		_, b, err := ws.ReadMessage()
		env := &rtapi.Envelope{}
		if err == nil {
			err = proto.Unmarshal(b, env)
		}
		if err == nil {
			b, _ = proto.Marshal(&rtapi.Envelope{Cid: env.Cid, Message: &rtapi.Envelope_Match{Match: &rtapi.Match{MatchId: matchID}}})
			err = ws.WriteMessage(websocket.BinaryMessage, b)
		}
		joined <- err
	}()
	m, err := c.Join(ctx, &lockstep.Game{Name: "g", Version: "1", MaxPlayers: 4, Hz: 60}, matchID)
	if err != nil {
		t.Fatal(err)
	}
	if err := <-joined; err != nil {
		t.Fatal(err)
	}
	return c, m, ws
}

// ticks returns n tick messages of a two players' match, from tick 1 on,
// each the wire's encoding and the envelope Nakama sends it in (the
// match's broadcast: no presence).
func ticks(t testing.TB, n int) (msgs, envs [][]byte) {
	in, prev := make([]input.State, 2), make([]input.State, 2)
	for tk := int64(1); tk <= int64(n); tk++ {
		in[tk%2].SetGamepadAxis(0, input.AxisLeftStickHorizontal, float64(tk%9)/10)
		in[(tk+1)%2].SetKey(input.KeyArrowLeft, tk%5 == 0)
		msg := wire.AppendTick(nil, tk, uint64(tk)*0x9e3779b97f4a7c15, in, prev)
		copy(prev, in)
		env, err := proto.Marshal(&rtapi.Envelope{Message: &rtapi.Envelope_MatchData{MatchData: &rtapi.MatchData{
			MatchId: matchID, OpCode: wire.OpTick, Data: msg, Reliable: true}}})
		if err != nil {
			t.Fatal(err)
		}
		msgs, envs = append(msgs, msg), append(envs, env)
	}
	return msgs, envs
}

// mallocs returns the heap allocations f made (every goroutine's: the
// socket's reader's among them).
func mallocs(f func()) uint64 {
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	f()
	runtime.ReadMemStats(&after)
	return after.Mallocs - before.Mallocs
}

// fewestMallocs returns the fewest heap allocations f made in up to three
// runs, stopping at a run of at most want: the runtime itself now and then
// allocates (a new thread's structures, a handful), which a run of f that
// sleeps may happen to include; an allocation of the code measured would
// come back every run, once a message.
func fewestMallocs(want uint64, f func()) uint64 {
	least := mallocs(f)
	for i := 0; i < 2 && least > want; i++ {
		least = min(least, mallocs(f))
	}
	return least
}

// The socket's reader and a match's consumer allocate nothing of their
// own for the server's ticks once warm: a tick from the socket to Play's
// next (or a Session's Poll) allocates what gorilla/websocket's reader
// does for any message (its NextReader makes a small reader each time:
// measured here on a bare socket), and no more. The messages arrive as
// sent.
func TestReceiveAllocatesNothing(t *testing.T) {
	const n = 2000
	msgs, envs := ticks(t, 4*n)

	bare, server := socketPair(t)
	var b []byte
	readBare := func(i int) {
		server.WriteMessage(websocket.BinaryMessage, envs[i])
		_, r, err := bare.NextReader()
		if err != nil {
			t.Fatal(err)
		}
		b = b[:cap(b)]
		k, err := io.ReadFull(r, b)
		if err != io.ErrUnexpectedEOF || k != len(envs[i]) {
			t.Fatalf("bare socket: %d bytes, %v", k, err)
		}
	}
	b = make([]byte, 1024)
	for i := range n {
		readBare(i)
	}
	gorilla := mallocs(func() {
		for i := range n {
			readBare(i)
		}
	})

	t.Run("Play", func(t *testing.T) {
		c, m, server := joinFake(t)
		ctx := context.Background()
		receive := func(from, to int) {
			for i := from; i < to; i++ {
				if err := server.WriteMessage(websocket.BinaryMessage, envs[i]); err != nil {
					t.Fatal(err)
				}
				d, err := m.next(ctx)
				if err != nil {
					t.Fatal(err)
				}
				if d.op != wire.OpTick || !bytes.Equal(d.data, msgs[i]) {
					t.Fatalf("message %d: op %d, %x; sent %x", i, d.op, d.data, msgs[i])
				}
			}
		}
		receive(0, n) // warm
		in0, _ := c.Bytes()
		next := n
		got := fewestMallocs(gorilla, func() { receive(next, next+n); next += n })
		t.Logf("%d messages: %d allocations; %d on a bare gorilla socket", n, got, gorilla)
		if got > gorilla {
			t.Errorf("%d messages from the socket to Play's next: %d allocations, gorilla's reader alone %d", n, got, gorilla)
		}
		in1, _ := c.Bytes()
		want := 0
		for _, env := range envs[n:next] {
			want += len(env)
		}
		if in1-in0 != int64(want) {
			t.Errorf("Bytes counted %d bytes in, the messages were %d", in1-in0, want)
		}
	})

	t.Run("Session", func(t *testing.T) {
		_, m, server := joinFake(t)
		start, _ := proto.Marshal(&rtapi.Envelope{Message: &rtapi.Envelope_MatchData{MatchData: &rtapi.MatchData{
			MatchId: matchID, OpCode: wire.OpStart, Reliable: true,
			Data: []byte(`{"game": "g", "version": "1", "determinism": ` + fmt.Sprint(engine.Determinism) + `, "players": 2, "seat": 0, "max_lead": 120}`)}}})
		server.WriteMessage(websocket.BinaryMessage, start)
		s, err := m.Session(context.Background(), 0)
		if err != nil {
			t.Fatal(err)
		}
		players := make([]input.State, 2)
		receive := func(from, to int) {
			for i := from; i < to; i++ {
				if err := server.WriteMessage(websocket.BinaryMessage, envs[i]); err != nil {
					t.Fatal(err)
				}
				tk := int64(i + 1)
				for !s.Ready(tk) {
					if err := s.Poll(); err != nil {
						t.Fatal(err)
					}
					time.Sleep(10 * time.Microsecond) // the reader's turn (a goroutine spinning here delays the network's poll)
				}
				s.Inputs(tk, players)
				s.Checksum(tk, uint64(tk)*0x9e3779b97f4a7c15)
			}
		}
		receive(0, n)
		next := n
		got := fewestMallocs(gorilla, func() { receive(next, next+n); next += n })
		t.Logf("%d messages: %d allocations; %d on a bare gorilla socket", n, got, gorilla)
		if got > gorilla {
			t.Errorf("%d messages from the socket to a Session's Poll: %d allocations, gorilla's reader alone %d", n, got, gorilla)
		}
		if s.Checked() != int64(next) {
			t.Errorf("%d ticks checked, want %d", s.Checked(), next)
		}
	})
}

// Sending an input allocates nothing of the client's own: what gorilla's
// writer does for a client's message (NextWriter makes a writer each
// time: measured here on a bare socket), and no more.
func TestSendAllocatesNothing(t *testing.T) {
	const n = 2000
	msg := wire.AppendInput(nil, 12345, &input.State{})

	bare, server := socketPair(t)
	go io.Copy(io.Discard, server.NetConn()) // the server's end reads without gorilla: its allocations would count
	for range n {
		bare.WriteMessage(websocket.BinaryMessage, msg)
	}
	gorilla := mallocs(func() {
		for range n {
			bare.WriteMessage(websocket.BinaryMessage, msg)
		}
	})

	c, m, ws := joinFake(t)
	go io.Copy(io.Discard, ws.NetConn())
	for range n {
		if err := m.Send(wire.OpInput, msg); err != nil {
			t.Fatal(err)
		}
	}
	_, out0 := c.Bytes()
	sent := 0
	got := fewestMallocs(gorilla, func() {
		for range n {
			m.Send(wire.OpInput, msg)
		}
		sent += n
	})
	t.Logf("%d inputs sent: %d allocations; %d on a bare gorilla socket", n, got, gorilla)
	if got > gorilla {
		t.Errorf("%d inputs sent: %d allocations, gorilla's writer alone %d", n, got, gorilla)
	}
	_, out1 := c.Bytes()
	env, _ := proto.Marshal(&rtapi.Envelope{Message: &rtapi.Envelope_MatchDataSend{MatchDataSend: &rtapi.MatchDataSend{
		MatchId: matchID, OpCode: wire.OpInput, Data: msg, Reliable: true}}})
	if out1-out0 != int64(sent*len(env)) {
		t.Errorf("Bytes counted %d bytes out, the messages were %d", out1-out0, sent*len(env))
	}
}

// A match's messages arrive whichever way the reader decodes them: by
// hand, or by proto.Unmarshal when the envelope holds more than match
// data; another match's are dropped.
func TestReceiveEitherWay(t *testing.T) {
	_, m, server := joinFake(t)
	other, _ := proto.Marshal(&rtapi.Envelope{Message: &rtapi.Envelope_MatchData{MatchData: &rtapi.MatchData{
		MatchId: "another." + matchID, OpCode: 1, Data: []byte("not ours")}}})
	more := &rtapi.Envelope{Message: &rtapi.Envelope_MatchData{MatchData: &rtapi.MatchData{MatchId: matchID, OpCode: 1, Data: []byte("unknown beside")}}}
	more.ProtoReflect().SetUnknown(protowire.AppendVarint(protowire.AppendTag(nil, 99, protowire.VarintType), 1))
	moreb, _ := proto.Marshal(more)
	plain, _ := proto.Marshal(&rtapi.Envelope{Message: &rtapi.Envelope_MatchData{MatchData: &rtapi.MatchData{MatchId: matchID, OpCode: 2, Data: []byte("by hand")}}})
	for _, b := range [][]byte{other, moreb, plain} {
		server.WriteMessage(websocket.BinaryMessage, b)
	}
	for _, want := range []string{"unknown beside", "by hand"} {
		d, err := m.next(context.Background())
		if err != nil || string(d.data) != want {
			t.Fatalf("%v %q, want %q", err, d.data, want)
		}
	}
}

// A consumer a queue's length behind is out of the match: it gets the
// messages queued, intact, then an error that says so.
func TestReceiveOverflow(t *testing.T) {
	_, m, server := joinFake(t)
	msgs, envs := ticks(t, queued+1)
	for _, env := range envs {
		if err := server.WriteMessage(websocket.BinaryMessage, env); err != nil {
			t.Fatal(err)
		}
	}
	// The reader queues the messages until the queue overflows: a wait
	// that follows its progress, failing after 10 s with no message queued.
	for last, at := -1, time.Now(); !m.overflowed.Load(); time.Sleep(time.Millisecond) {
		if n := len(m.data); n != last {
			last, at = n, time.Now()
		} else if time.Since(at) > 10*time.Second {
			t.Fatalf("no overflow after %d messages; %d queued, none for 10 s", len(envs), n)
		}
	}
	for i := range queued {
		d, err := m.next(context.Background())
		if err != nil || !bytes.Equal(d.data, msgs[i]) {
			t.Fatalf("message %d: %v, %x; sent %x", i, err, d.data, msgs[i])
		}
	}
	if _, err := m.next(context.Background()); err == nil || !strings.Contains(err.Error(), "fell more than 4096 messages behind") {
		t.Fatalf("after the messages queued: %v, want the overflow's error", err)
	}
}

// BenchmarkReceive: a tick's envelope from the server's end of a socket
// on 127.0.0.1 through the client's reader to Play's next, in batches of
// 64.
func BenchmarkReceive(b *testing.B) {
	_, envs := ticks(b, 64)
	_, m, server := joinFake(b)
	ctx := context.Background()
	b.ReportAllocs()
	for i := 0; b.Loop(); i++ {
		server.WriteMessage(websocket.BinaryMessage, envs[i%64])
		if i%64 == 63 {
			for range 64 {
				if _, err := m.next(ctx); err != nil {
					b.Fatal(err)
				}
			}
		}
	}
}

// BenchmarkSend: an input message sent to a socket on 127.0.0.1 (its
// other end discards it).
func BenchmarkSend(b *testing.B) {
	msg := wire.AppendInput(nil, 12345, &input.State{})
	_, m, ws := joinFake(b)
	go io.Copy(io.Discard, ws.NetConn())
	b.ReportAllocs()
	for b.Loop() {
		if err := m.Send(wire.OpInput, msg); err != nil {
			b.Fatal(err)
		}
	}
}

// A message from the server longer than the longest it sends (maxMessage)
// closes the socket with an error, before it is read whole: a match's
// data of 5 MB in a well-formed envelope is not queued.
func TestServerMessageBounded(t *testing.T) {
	_, m, server := joinFake(t)
	big, _ := proto.Marshal(&rtapi.Envelope{Message: &rtapi.Envelope_MatchData{MatchData: &rtapi.MatchData{
		MatchId: matchID, OpCode: 2, Data: make([]byte, maxMessage+1)}}})
	server.WriteMessage(websocket.BinaryMessage, big)
	// No deadline of the test's: the message is refused as it arrives, or
	// read whole and returned; the client's silence bounds the wait.
	if d, err := m.next(context.Background()); err == nil || !strings.Contains(err.Error(), "read limit") {
		n := 0
		if d != nil {
			n = len(d.data)
		}
		t.Fatalf("got a message of %d bytes (%v), want the socket closed for its size", n, err)
	}
}
