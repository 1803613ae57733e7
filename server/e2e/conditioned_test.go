package e2e

import (
	"fmt"
	"net/url"
	"os/exec"
	"strings"
	"testing"
	"time"

	"github.com/fixedstep/fixedstep/engine/online/client"
	"github.com/fixedstep/fixedstep/engine/online/streamsim"
	"github.com/fixedstep/fixedstep/server/internal/nakamatest"
)

// Two clients play a 10 s match, the first through a streamsim proxy, 50
// ms ± 10 ms late each way (a round trip of about 100 ms), the second
// directly: every tick's checksum still equals the server's for both, and
// the server takes every input of both; most of the first's inputs,
// stamped two ticks (33 ms) ahead, arrive late and are moved, as on such a
// link.
func TestConditionedLink(t *testing.T) {
	t.Parallel()
	srv := nakamatest.Start(t)
	u, err := url.Parse(srv.URL)
	if err != nil {
		t.Fatal(err)
	}
	link := streamsim.Link{Latency: 50 * time.Millisecond, Jitter: 10 * time.Millisecond, Seed: 1}
	p, err := streamsim.Listen("127.0.0.1:0", u.Host, link)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { p.Close() }) // after the clients' Close: cleanups run last first
	start := time.Now()
	far := dialAt(t, "http://"+p.Addr().String(), srv.ServerKey, "conditioned-0")
	if took := time.Since(start); took < 4*(link.Latency-link.Jitter) {
		t.Errorf("signing in and opening the socket through the link took %v, less than two round trips", took)
	}
	const seconds = 10
	results, _ := playClients(t, []*client.Client{far, dial(t, srv, "conditioned-1")}, seconds, nil)
	checkEveryTick(t, results, seconds)
	checkBotsPlayed(t, results)
	if r := results[0]; r.Moved < r.Sent/2 {
		t.Errorf("player 1, 50 ms away: %d of its %d inputs arrived late, want most", r.Moved, r.Sent)
	}
	t.Logf("player 1 (conditioned): %d inputs sent, %d moved; player 2 (direct): %d sent, %d moved",
		results[0].Sent, results[0].Moved, results[1].Sent, results[1].Moved)
}

// The demo's -server-netsim plays a match through its own proxy: a
// headless demo, 50 ms ± 10 ms from the server each way with a stall now
// and then, checks every tick of a 3 s match against the server's
// checksum.
func TestConditionedDemo(t *testing.T) {
	t.Parallel()
	srv := nakamatest.Start(t)
	bin := buildDemo(t, t.TempDir())
	const seconds = 3
	out, err := exec.Command(bin, "-headless", "-autopilot", "-players", "1", "-seconds", fmt.Sprint(seconds),
		"-server", srv.URL, "-server-key", srv.ServerKey, "-server-netsim", "50ms,10ms,2%,100ms").CombinedOutput()
	for _, want := range []string{"goes through 127.0.0.1:", "a link of 50ms,10ms,2%,100ms each way (-server-netsim)",
		fmt.Sprintf("%d ticks checked against the server's checksum", seconds*hz)} {
		if err != nil || !strings.Contains(string(out), want) {
			t.Errorf("%v; want %q in the demo's output:\n%s", err, want, out)
		}
	}
}
