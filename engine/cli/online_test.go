package cli_test

import (
	"errors"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/gorilla/websocket"

	"github.com/fixedstep/fixedstep/engine/cli"
	"github.com/fixedstep/fixedstep/engine/cli/netplaymode"
	"github.com/fixedstep/fixedstep/engine/cli/onlinemode"
	"github.com/fixedstep/fixedstep/engine/lockstep"
)

// testGame is a game a server plays, for -server's tests.
var testGame = &lockstep.Game{Name: "game", Version: "1", MaxPlayers: 4, Hz: 60}

// -server's flags are checked before anything connects: a game without
// online play, a URL that is not a server's HTTP API, and what a match
// cannot go with are *FlagErrors naming the flag. (Matches on a real
// server: server/e2e's TestDemo.)
func TestServerFlags(t *testing.T) {
	online := func() *appGame { return newAppGame(&netplaymode.Mode{}, &onlinemode.Mode{Game: testGame}) }
	cases := []struct {
		g    *appGame
		args []string
		flag string
		want string
	}{
		{newAppGame(&onlinemode.Mode{}), []string{"-server", "http://127.0.0.1:9"}, "server", "no online play"},
		{newAppGame(&netplaymode.Mode{}), []string{"-server", "http://127.0.0.1:9"}, "", "flag provided but not defined: -server"},
		{newAppGame(&onlinemode.Mode{Game: testGame}), []string{"-host", ":0"}, "", "flag provided but not defined: -host"},
		{newAppGame(&onlinemode.Mode{Game: testGame}), []string{"-server", "http://127.0.0.1:9", "-players", "0"}, "players", "1 to 4"},
		{online(), []string{"-server", "ftp://127.0.0.1:9"}, "server", "HTTP API"},
		{online(), []string{"-server", "127.0.0.1:9"}, "server", "HTTP API"},
		{online(), []string{"-server", "http://127.0.0.1:9", "-host", ":0"}, "server", "one of -host, -join, -spectate and -server"},
		{online(), []string{"-server", "http://127.0.0.1:9", "-synctest", "4"}, "server", "synctest"},
		{online(), []string{"-server", "http://127.0.0.1:9", "-players", "5"}, "players", "1 to 4"},
		{online(), []string{"-server", "http://127.0.0.1:9", "-device", "short"}, "device", "10 to 128"},
		{online(), []string{"-server-key", "k"}, "server-key", "goes with -server"},
		{online(), []string{"-players", "1"}, "players", "must be 2 to 4"},
		{online(), []string{"-players", "3"}, "players", "goes with -host"},
		{online(), []string{"-server", "http://127.0.0.1:9", "-netsim", "80ms"}, "netsim", "goes with -host, -join or -spectate"},
		{online(), []string{"-server-netsim", "50ms"}, "server-netsim", "goes with -server"},
		{online(), []string{"-watch", "m"}, "watch", "goes with -server"},
		{online(), []string{"-predict"}, "predict", "goes with -server"},
		{online(), []string{"-server", "http://127.0.0.1:9", "-watch", "m", "-predict"}, "predict", "nothing to predict"},
		{online(), []string{"-server", "http://127.0.0.1:9", "-watch", "m", "-players", "2"}, "players", "has its players"},
		{online(), []string{"-server", "http://127.0.0.1:9", "-watch", "m", "-server-netsim", "50ms"}, "server-netsim", "no link"},
		{online(), []string{"-host", ":0", "-server-netsim", "50ms"}, "server-netsim", "goes with -server"},
		{online(), []string{"-server", "http://127.0.0.1:9", "-server-netsim", "50ms,60ms"}, "server-netsim", "want a jitter from 0 to 50ms"},
		{online(), []string{"-server", "http://127.0.0.1:9", "-server-netsim", "50ms,1ms,1%,-1s"}, "server-netsim", "negative: want a stall"},
		{online(), []string{"-server", "https://127.0.0.1:9", "-server-netsim", "50ms"}, "server-netsim", "an https:// server's certificate"},
	}
	for _, c := range cases {
		c.g.seen = -1
		_, err := c.g.run(append([]string{"-headless"}, c.args...)...)
		var fe *cli.FlagError
		if !errors.As(err, &fe) || fe.Flag != c.flag || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%q: %v, want a -%s error saying %q", c.args, err, c.flag, c.want)
		}
		if c.g.seen != -1 {
			t.Errorf("%q: the game's first scene was made", c.args)
		}
	}
}

// -server-netsim sends the client's connections through a proxy on
// 127.0.0.1 that delays them: the server sees the proxy's address as its
// host, and the two HTTP exchanges before the websocket's refusal (the
// device's authentication, the upgrade) take at least two round trips
// of 2×50 ms. The proxy is closed when Start fails.
func TestServerNetsim(t *testing.T) {
	hosts := make(chan string, 2)
	mux := http.NewServeMux()
	mux.HandleFunc("/v2/account/authenticate/device", func(w http.ResponseWriter, r *http.Request) {
		hosts <- r.Host
		io.WriteString(w, `{"token": "x.e30.y", "created": true}`)
	})
	mux.HandleFunc("/ws", func(w http.ResponseWriter, r *http.Request) {
		hosts <- r.Host
		http.Error(w, "no socket here", http.StatusServiceUnavailable)
	})
	srv := httptest.NewServer(mux)
	t.Cleanup(srv.Close)
	g := newAppGame(&onlinemode.Mode{Game: testGame, Silence: 10 * time.Second})
	g.seen = -1
	start := time.Now()
	out, err := g.run("-headless", "-server", srv.URL, "-server-netsim", "50ms")
	took := time.Since(start)
	if err == nil || !strings.Contains(err.Error(), "-server "+srv.URL) || !strings.Contains(err.Error(), "no socket here") {
		t.Fatalf("%v, want the websocket's refusal\n%s", err, out)
	}
	if !strings.Contains(out, "goes through 127.0.0.1:") || !strings.Contains(out, "a link of 50ms each way (-server-netsim)") {
		t.Errorf("the log does not name the proxy:\n%s", out)
	}
	for range 2 {
		if h := <-hosts; h == strings.TrimPrefix(srv.URL, "http://") || !strings.HasPrefix(h, "127.0.0.1:") {
			t.Errorf("the server saw host %s, not the proxy's", h)
		}
	}
	if took < 200*time.Millisecond {
		t.Errorf("two HTTP exchanges over a 50 ms link took %v, less than 200 ms", took)
	}
}

// -server at a server that says nothing ends with an error that says so
// after the client's silence (30 s; a second here), rather than waiting
// for ever: a server that accepts the connection and never answers the
// HTTP call, and one that completes the websocket upgrade, then is
// silent.
func TestServerThatNeverAnswers(t *testing.T) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	held := make(chan net.Conn, 4)
	go func() {
		for {
			c, err := ln.Accept()
			if err != nil {
				return
			}
			held <- c // never read, never written
		}
	}()
	t.Cleanup(func() {
		ln.Close()
		for len(held) > 0 {
			(<-held).Close()
		}
	})

	mux := http.NewServeMux()
	mux.HandleFunc("/v2/account/authenticate/device", func(w http.ResponseWriter, r *http.Request) {
		io.WriteString(w, `{"token": "x.e30.y", "created": true}`)
	})
	sockets := make(chan *websocket.Conn, 1)
	mux.HandleFunc("/ws", func(w http.ResponseWriter, r *http.Request) {
		if ws, err := (&websocket.Upgrader{}).Upgrade(w, r, nil); err == nil {
			sockets <- ws // then silent: it reads nothing, so answers no ping
		}
	})
	upgraded := httptest.NewServer(mux)
	t.Cleanup(func() {
		upgraded.Close()
		if len(sockets) > 0 {
			(<-sockets).Close()
		}
	})

	for _, url := range []string{"http://" + ln.Addr().String(), upgraded.URL} {
		g := newAppGame(&onlinemode.Mode{Game: testGame, Silence: time.Second})
		g.seen = -1
		out, err := g.run("-headless", "-server", url)
		want := "no answer from " + strings.TrimPrefix(url, "http://") + " after 1 s"
		if err == nil || !strings.Contains(err.Error(), "-server "+url) || !strings.Contains(err.Error(), want) || g.seen != -1 {
			t.Errorf("-server %s, a server that says nothing: %v (first scene made: %v), want an error saying %q\n%s", url, err, g.seen != -1, want, out)
		}
		t.Logf("%v", err)
	}
}
