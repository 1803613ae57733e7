package client

import (
	"context"
	"errors"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/gorilla/websocket"
	"github.com/heroiclabs/nakama-common/api"
	"github.com/heroiclabs/nakama-common/rtapi"
	"google.golang.org/protobuf/proto"

	"github.com/fixedstep/fixedstep/engine/lockstep"
)

// testSilence stands for the client's 30 s in these tests; a server
// making progress sends something at least every tenth of it.
const testSilence = time.Second

// noAnswer waits for f, which must fail with a *NoAnswerError of server
// after testSilence, no sooner. The wait has a bound only against a hang
// of the code under test: a minute past the silence.
func noAnswer(t *testing.T, server string, f func() error) {
	t.Helper()
	began := time.Now()
	done := make(chan error, 1)
	go func() { done <- f() }()
	var err error
	select {
	case err = <-done:
	case <-time.After(testSilence + time.Minute):
		t.Fatalf("still waiting for a silent server a minute past the client's silence of %v", testSilence)
	}
	var na *NoAnswerError
	want := "no answer from " + server + " after 1 s"
	if !errors.As(err, &na) || !strings.Contains(err.Error(), want) {
		t.Fatalf("%v, want an error saying %q", err, want)
	}
	t.Logf("after %v: %v", time.Since(began).Round(time.Millisecond), err)
	if waited := time.Since(began); waited < testSilence {
		t.Fatalf("gave up after %v, before the silence of %v", waited, testSilence)
	}
}

// silentTCP listens on 127.0.0.1, accepts every connection and says
// nothing on it, reading nothing; it returns host:port.
func silentTCP(t *testing.T) string {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	var conns []net.Conn
	accepted := make(chan struct{})
	go func() {
		defer close(accepted)
		for {
			c, err := ln.Accept()
			if err != nil {
				return
			}
			conns = append(conns, c)
		}
	}()
	t.Cleanup(func() {
		ln.Close()
		<-accepted
		for _, c := range conns {
			c.Close()
		}
	})
	return ln.Addr().String()
}

// A server that accepts the connection and never answers the HTTP call
// is reported after the silence.
func TestDialSilentServer(t *testing.T) {
	addr := silentTCP(t)
	noAnswer(t, addr, func() error {
		_, err := Dial(context.Background(), "http://"+addr, Options{Device: "silent-test-device", Silence: testSilence})
		return err
	})
}

// fakeServer is a stand-in for Nakama on 127.0.0.1: it authenticates any
// device (through auth, when set) and hands the test the server's end of
// each realtime socket it upgrades.
func fakeServer(t *testing.T, auth http.HandlerFunc) (url string, sockets chan *websocket.Conn) {
	t.Helper()
	sockets = make(chan *websocket.Conn, 4)
	mux := http.NewServeMux()
	if auth == nil {
		auth = func(w http.ResponseWriter, r *http.Request) {
			io.WriteString(w, `{"token": "x.e30.y", "created": true}`)
		}
	}
	mux.HandleFunc("/v2/account/authenticate/device", auth)
	mux.HandleFunc("/ws", func(w http.ResponseWriter, r *http.Request) {
		ws, err := (&websocket.Upgrader{}).Upgrade(w, r, nil)
		if err != nil {
			t.Error(err)
			return
		}
		t.Cleanup(func() { ws.Close() })
		sockets <- ws
	})
	srv := httptest.NewServer(mux)
	t.Cleanup(srv.Close)
	return srv.URL, sockets
}

// A server that takes the HTTP call and never answers it is reported.
func TestDialUnansweredCall(t *testing.T) {
	unblock := make(chan struct{})
	url, _ := fakeServer(t, func(w http.ResponseWriter, r *http.Request) { <-unblock })
	t.Cleanup(func() { close(unblock) }) // before the server closes: it waits for its handlers
	noAnswer(t, strings.TrimPrefix(url, "http://"), func() error {
		_, err := Dial(context.Background(), url, Options{Device: "silent-test-device", Silence: testSilence})
		return err
	})
}

// A server that answers the HTTP call and never answers the websocket
// upgrade is reported.
func TestDialUnansweredUpgrade(t *testing.T) {
	unblock := make(chan struct{})
	mux := http.NewServeMux()
	mux.HandleFunc("/v2/account/authenticate/device", func(w http.ResponseWriter, r *http.Request) {
		io.WriteString(w, `{"token": "x.e30.y", "created": true}`)
	})
	mux.HandleFunc("/ws", func(w http.ResponseWriter, r *http.Request) { <-unblock })
	srv := httptest.NewServer(mux)
	t.Cleanup(srv.Close)
	t.Cleanup(func() { close(unblock) }) // before the server closes: it waits for its handlers
	noAnswer(t, strings.TrimPrefix(srv.URL, "http://"), func() error {
		_, err := Dial(context.Background(), srv.URL, Options{Device: "silent-test-device", Silence: testSilence})
		return err
	})
}

// A server that completes the websocket upgrade and then says nothing,
// reading nothing (no pong to the client's pings), is reported: to a
// request, and to a match's first message once the join was answered.
func TestSilentAfterUpgrade(t *testing.T) {
	url, sockets := fakeServer(t, nil)
	host := strings.TrimPrefix(url, "http://")
	game := &lockstep.Game{Name: "g", Version: "1", MaxPlayers: 4, Hz: 60}
	c, err := Dial(context.Background(), url, Options{Device: "silent-test-device", Silence: testSilence})
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	<-sockets // held, silent
	noAnswer(t, host, func() error {
		_, err := c.Find(context.Background(), game, 2, 0)
		return err
	})

	c, err = Dial(context.Background(), url, Options{Device: "silent-test-device", Silence: testSilence})
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	ws := <-sockets
	joined := make(chan error, 1)
	go func() { joined <- answerJoin(ws) }() // then silent
	m, err := c.Join(context.Background(), game, matchID)
	if err != nil {
		t.Fatal(err)
	}
	if err := <-joined; err != nil {
		t.Fatal(err)
	}
	noAnswer(t, host, func() error {
		_, err := m.Session(context.Background(), 0)
		return err
	})
}

// answerJoin reads a MatchJoin from the server's end of a socket and
// answers it.
func answerJoin(ws *websocket.Conn) error {
	_, b, err := ws.ReadMessage()
	env := &rtapi.Envelope{}
	if err == nil {
		err = proto.Unmarshal(b, env)
	}
	if err == nil {
		b, _ = proto.Marshal(&rtapi.Envelope{Cid: env.Cid, Message: &rtapi.Envelope_Match{Match: &rtapi.Match{MatchId: matchID}}})
		err = ws.WriteMessage(websocket.BinaryMessage, b)
	}
	return err
}

// A server making progress is never cut off, however long it takes: an
// HTTP answer sent a byte at a time over three silences, and a reply
// that comes three silences later, the server answering the client's
// pings meanwhile (its reader runs) or pinging it itself (it reads
// nothing).
func TestSlowServerIsWaitedFor(t *testing.T) {
	const answer = `{"token": "x.e30.y", "created": true}`
	gap := 3 * testSilence / time.Duration(len(answer))
	url, sockets := fakeServer(t, func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Length", "37")
		w.WriteHeader(http.StatusOK)
		for i := range len(answer) {
			time.Sleep(gap)
			io.WriteString(w, answer[i:i+1])
			w.(http.Flusher).Flush()
		}
	})
	began := time.Now()
	c, err := Dial(context.Background(), url, Options{Device: "slow-test-device", Silence: testSilence})
	if err != nil {
		t.Fatalf("a server answering a byte every %v: %v", gap, err)
	}
	defer c.Close()
	if took := time.Since(began); took < 2*testSilence {
		t.Fatalf("the slow answer took %v: the test's server was not slow", took)
	}

	ws := <-sockets
	reply := func(b []byte) error {
		var env rtapi.Envelope
		if err := proto.Unmarshal(b, &env); err != nil {
			return err
		}
		b, _ = proto.Marshal(&rtapi.Envelope{Cid: env.Cid, Message: &rtapi.Envelope_Rpc{Rpc: &api.Rpc{Payload: "late"}}})
		return ws.WriteMessage(websocket.BinaryMessage, b)
	}
	rpc := func(what string) {
		t.Helper()
		began := time.Now()
		if answer, err := c.RPC(context.Background(), "slow", "{}"); err != nil || answer != "late" {
			t.Fatalf("a reply three silences late (%s): %q, %v", what, answer, err)
		}
		if took := time.Since(began); took < 2*testSilence {
			t.Fatalf("the late reply took %v: the test's server was not slow", took)
		}
	}

	// The server reads nothing, so it answers no ping: it pings the
	// client, then reads the request and replies.
	replied := make(chan error, 1)
	go func() {
		for range 30 {
			time.Sleep(testSilence / 10)
			if err := ws.WriteControl(websocket.PingMessage, nil, time.Now().Add(testSilence)); err != nil {
				replied <- err
				return
			}
		}
		_, b, err := ws.ReadMessage()
		if err == nil {
			err = reply(b)
		}
		replied <- err
	}()
	rpc("the server pinging")
	if err := <-replied; err != nil {
		t.Fatal(err)
	}

	// The server's reader runs, answering the client's pings, and the
	// request is replied to three silences after it came.
	requests := make(chan []byte, 1)
	go func() {
		defer close(requests)
		for {
			_, b, err := ws.ReadMessage()
			if err != nil {
				return
			}
			requests <- b
		}
	}()
	go func() {
		b := <-requests
		time.Sleep(3 * testSilence)
		replied <- reply(b)
	}()
	rpc("the server answering pings")
	if err := <-replied; err != nil {
		t.Fatal(err)
	}
}

// A cancelled context ends the wait for a silent server at once, the
// websocket upgrade's too (gorilla's handshake heeds no context).
func TestCancelledWaitForSilentServer(t *testing.T) {
	unblock := make(chan struct{})
	mux := http.NewServeMux()
	mux.HandleFunc("/v2/account/authenticate/device", func(w http.ResponseWriter, r *http.Request) {
		io.WriteString(w, `{"token": "x.e30.y", "created": true}`)
	})
	mux.HandleFunc("/ws", func(w http.ResponseWriter, r *http.Request) { <-unblock })
	srv := httptest.NewServer(mux)
	t.Cleanup(srv.Close)
	t.Cleanup(func() { close(unblock) })
	for _, url := range []string{"http://" + silentTCP(t), srv.URL} {
		ctx, cancel := context.WithCancel(context.Background())
		time.AfterFunc(testSilence/10, cancel)
		_, err := Dial(ctx, url, Options{Device: "silent-test-device", Silence: time.Minute})
		if !errors.Is(err, context.Canceled) {
			t.Errorf("%s: %v, want the context's cancellation", url, err)
		}
	}
}
