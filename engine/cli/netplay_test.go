package cli_test

import (
	"errors"
	"os"
	"regexp"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/fixedstep/fixedstep/engine/cli"
	"github.com/fixedstep/fixedstep/engine/cli/netplaymode"
	"github.com/fixedstep/fixedstep/engine/netplay"
)

// lineWriter hands each line written to it to a func, and keeps them all.
type lineWriter struct {
	mu    sync.Mutex
	all   strings.Builder
	lines chan string
}

func (w *lineWriter) Write(b []byte) (int, error) {
	w.mu.Lock()
	defer w.mu.Unlock()
	w.all.Write(b)
	for _, l := range strings.Split(strings.TrimRight(string(b), "\n"), "\n") {
		select {
		case w.lines <- l:
		default:
		}
	}
	return len(b), nil
}

func (w *lineWriter) String() string {
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.all.String()
}

// playNet runs two of the game on cli.App, a host and a joiner, in this
// process over 127.0.0.1, with each one's arguments, and returns their
// output and errors.
func playNet(t *testing.T, host, join []string) ([2]string, [2]error) {
	t.Helper()
	outs, errs := playPeers(t, host, peerArgs{args: append(join, "-join")})
	return [2]string{outs[0], outs[1]}, [2]error{errs[0], errs[1]}
}

// peerArgs are a peer's arguments, the last of which is given the host's
// address, and how long after the host listens it starts.
type peerArgs struct {
	args  []string
	after time.Duration
}

// playPeers runs the game on cli.App, a host and peers, in this process
// over 127.0.0.1, with each one's arguments, and returns their output and
// errors, the host's first. A peer has a minute of silence before it has
// left (-peer-timeout), not 5 s: a busy machine can stall the whole test
// binary for seconds, and these tests are not about a peer that vanished.
func playPeers(t *testing.T, host []string, peers ...peerArgs) ([]string, []error) {
	t.Helper()
	return playPeersWith(t, nil, host, peers...)
}

// playPeersWith is playPeers with every peer's cli.App set by set first.
func playPeersWith(t *testing.T, set func(*cli.App), host []string, peers ...peerArgs) ([]string, []error) {
	t.Helper()
	all := append([]peerArgs{{args: host}}, peers...)
	outs := make([]*lineWriter, len(all))
	errs := make([]error, len(all))
	var wg sync.WaitGroup
	hostAt := make(chan string, 1)
	var addr string
	for i, p := range all {
		outs[i] = &lineWriter{lines: make(chan string, 100)}
		g := newAppGame(&netplaymode.Mode{})
		g.app.Out, g.app.Err = outs[i], outs[i]
		if set != nil {
			set(g.app)
		}
		args := append([]string{"-peer-timeout", "1m"}, p.args...)
		if i == 1 {
			select {
			case addr = <-hostAt:
			case <-time.After(30 * time.Second):
				t.Fatalf("the host did not listen:\n%s", outs[0])
			}
		}
		if i > 0 {
			args = append(slices.Clone(args), addr)
		}
		wg.Add(1)
		go func() {
			defer wg.Done()
			time.Sleep(p.after)
			errs[i] = g.app.Run(args, g.first)
		}()
		if i == 0 {
			go func() {
				re := regexp.MustCompile(`hosting game on (\S+)`)
				for l := range outs[0].lines {
					if m := re.FindStringSubmatch(l); m != nil {
						hostAt <- m[1]
						return
					}
				}
			}()
		}
	}
	wg.Wait()
	texts := make([]string, len(outs))
	for i, o := range outs {
		texts[i] = o.String()
	}
	return texts, errs
}

// A spectator watches a session from its start (-spectate before the
// players join) or joins it under way (two seconds in): each simulates
// the game from its first tick and ends with the players' checksum.
func TestSpectators(t *testing.T) {
	outs, errs := playPeers(t, []string{"-headless", "-seconds", "5", "-host", "127.0.0.1:0"},
		peerArgs{args: []string{"-headless", "-spectate"}},
		peerArgs{args: []string{"-headless", "-join"}, after: 200 * time.Millisecond},
		peerArgs{args: []string{"-headless", "-spectate"}, after: 2 * time.Second})
	want := appChecksumRE.FindString(outs[0])
	for i, out := range outs {
		if errs[i] != nil || want == "" || appChecksumRE.FindString(out) != want {
			t.Fatalf("peer %d: %v, want it to end with the host's %q:\n%s", i+1, errs[i], want, out)
		}
	}
	for i, who := range []string{"", "a spectator of 2 players", "player 2 of 2", "caught up"} {
		if !strings.Contains(outs[i], who) {
			t.Errorf("peer %d's summary does not say %q:\n%s", i+1, who, outs[i])
		}
	}
}

// Two players of a game on cli.App with SparseSaving, through a link of 40
// ms, 5 ms of jitter and 2% loss each way, end on one checksum, having
// rolled back.
func TestAppSparseSaving(t *testing.T) {
	sparse := func(a *cli.App) { a.SparseSaving = true }
	outs, errs := playPeersWith(t, sparse, []string{"-headless", "-seconds", "3", "-host", "127.0.0.1:0", "-netsim", "40ms,5ms,2%"},
		peerArgs{args: []string{"-headless", "-netsim", "40ms,5ms,2%", "-join"}})
	if errs[0] != nil || errs[1] != nil {
		t.Fatalf("%v, %v:\n%s\n%s", errs[0], errs[1], outs[0], outs[1])
	}
	if a, b := appChecksumRE.FindString(outs[0]), appChecksumRE.FindString(outs[1]); a == "" || a != b {
		t.Fatalf("the two runs end on %q and %q:\n%s\n%s", a, b, outs[0], outs[1])
	}
	rolled := regexp.MustCompile(`; ([1-9][0-9]*) rollbacks`)
	if !rolled.MatchString(outs[0]) && !rolled.MatchString(outs[1]) {
		t.Fatalf("neither run rolled back:\n%s\n%s", outs[0], outs[1])
	}
	t.Logf("the host:\n%s", outs[0])
}

// Two players of a game on cli.App, one of whose builds drifts from tick
// 100 (an unrecorded flag): both runs end with a desync at that tick, and
// write both players' worlds there, side by side; without the drift both
// end on one checksum.
func TestAppDesyncWritesBothWorlds(t *testing.T) {
	t.Chdir(t.TempDir())
	outs, errs := playNet(t, []string{"-headless", "-seconds", "3", "-host", "127.0.0.1:0"}, []string{"-headless"})
	if errs[0] != nil || errs[1] != nil {
		t.Fatalf("%v, %v:\n%s\n%s", errs[0], errs[1], outs[0], outs[1])
	}
	if a, b := appChecksumRE.FindString(outs[0]), appChecksumRE.FindString(outs[1]); a == "" || a != b {
		t.Fatalf("the two runs end on %q and %q", a, b)
	}
	outs, errs = playNet(t, []string{"-headless", "-seconds", "5", "-host", "127.0.0.1:0"}, []string{"-headless", "-drift", "1e-9"})
	for i, err := range errs {
		var de *netplay.DesyncError
		if !errors.As(err, &de) || de.Tick != 100 || len(de.Dumps) != 2 {
			t.Fatalf("player %d: %v, want a desync at tick 100 and two worlds written:\n%s", i+1, err, outs[i])
		}
		if !strings.Contains(err.Error(), "desync-100-player1.txt") || !strings.Contains(err.Error(), "desync-100-player2.txt") {
			t.Fatalf("player %d: %v does not name the files", i+1, err)
		}
	}
	a, errA := os.ReadFile("desync-100-player1.txt")
	b, errB := os.ReadFile("desync-100-player2.txt")
	if errA != nil || errB != nil || !strings.HasPrefix(string(a), "x = ") || string(a) == string(b) {
		t.Fatalf("the worlds: %q (%v) and %q (%v)", a, errA, b, errB)
	}
	var fe *cli.FlagError
	if _, err := newAppGame(&netplaymode.Mode{}).run("-headless", "-join", "127.0.0.1:9", "-players", "3"); !errors.As(err, &fe) || fe.Flag != "players" {
		t.Errorf("-players with -join: %v", err)
	}
	if _, err := newAppGame(&netplaymode.Mode{}).run("-headless", "-host", ":0", "-synctest", "4"); !errors.As(err, &fe) {
		t.Errorf("-host with -synctest: %v", err)
	}
}

// -netsim refuses a link that would overflow a packet's delay or means
// nothing, before the game's first scene is made, naming the range: a
// latency past netsim.MaxLatency (2562047h panicked on the first packet),
// a negative zero, a share that is no number.
func TestNetsimFlagRanges(t *testing.T) {
	for link, says := range map[string]string{
		"2562047h,2562047h": "want a latency from 0 to 1m0s",
		"80ms,10ms,-0%":     "negative: want a share from 0% to 100%",
		"80ms,10ms,NaN":     "not a number: want a share from 0% to 100%",
		"80ms,2m":           "want a jitter from 0 to 80ms, the latency",
	} {
		g := newAppGame(&netplaymode.Mode{})
		g.seen = -1
		_, err := g.run("-headless", "-host", "127.0.0.1:0", "-netsim", link)
		var fe *cli.FlagError
		if !errors.As(err, &fe) || fe.Flag != "netsim" || !strings.Contains(err.Error(), says) || g.seen != -1 {
			t.Errorf("-netsim %s: %v (first scene made: %v), want a FlagError saying %q", link, err, g.seen != -1, says)
		}
	}
}

// -peer-timeout is refused, before any scene is made, outside its range
// and without a networked run.
func TestPeerTimeoutFlag(t *testing.T) {
	for _, c := range []struct {
		args []string
		says string
	}{
		{[]string{"-host", "127.0.0.1:0", "-peer-timeout", "10ms"}, "must be 100ms to 1h"},
		{[]string{"-host", "127.0.0.1:0", "-peer-timeout", "2h"}, "must be 100ms to 1h"},
		{[]string{"-host", "127.0.0.1:0", "-peer-timeout", "-1s"}, "must be 100ms to 1h"},
		{[]string{"-seconds", "1", "-peer-timeout", "30s"}, "goes with -host, -join or -spectate"},
	} {
		g := newAppGame(&netplaymode.Mode{})
		g.seen = -1
		_, err := g.run(append([]string{"-headless"}, c.args...)...)
		var fe *cli.FlagError
		if !errors.As(err, &fe) || fe.Flag != "peer-timeout" || !strings.Contains(err.Error(), c.says) || g.seen != -1 {
			t.Errorf("%v: %v (first scene made: %v), want a FlagError saying %q", c.args, err, g.seen != -1, c.says)
		}
	}
}
