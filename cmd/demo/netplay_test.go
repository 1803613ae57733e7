package main

import (
	"bufio"
	"bytes"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"
)

// peer is a demo process in a networked run: its command and what it
// printed.
type peer struct {
	cmd    *exec.Cmd
	mu     sync.Mutex
	out    bytes.Buffer // standard output and error, as they came
	stdout bytes.Buffer // standard output alone: the summary
	rec    string
	done   chan struct{}
	code   int
}

// output returns what the peer printed so far.
func (p *peer) output() string {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.out.String()
}

// checksum returns the checksum that ends the peer's summary, or "". Its
// standard error (the session's log) comes through another pipe, so in
// output a line of it may follow the summary.
func (p *peer) checksum() string {
	p.mu.Lock()
	defer p.mu.Unlock()
	if m := checksumRE.FindStringSubmatch(p.stdout.String()); m != nil {
		return m[1]
	}
	return ""
}

// lockedWriter is a peer's output, written by two pipes' copies; stdout
// marks standard output's.
type lockedWriter struct {
	p      *peer
	stdout bool
}

func (w lockedWriter) Write(b []byte) (int, error) {
	w.p.mu.Lock()
	defer w.p.mu.Unlock()
	if w.stdout {
		w.p.stdout.Write(b)
	}
	return w.p.out.Write(b)
}

// start starts the demo with args, recording to rec (unless ""), and
// returns the peer; lines, if set, gets every line it writes to standard
// error.
func start(t *testing.T, rec string, lines chan<- string, args ...string) *peer {
	t.Helper()
	p := &peer{rec: rec, done: make(chan struct{})}
	if rec != "" {
		args = append(args, "-record", rec)
	}
	p.cmd = exec.Command(demoBin, args...)
	p.cmd.Stdout = lockedWriter{p, true}
	stderr, err := p.cmd.StderrPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := p.cmd.Start(); err != nil {
		t.Fatal(err)
	}
	go func() {
		sc := bufio.NewScanner(stderr)
		for sc.Scan() {
			lockedWriter{p, false}.Write([]byte(sc.Text() + "\n"))
			if lines != nil {
				select {
				case lines <- sc.Text():
				default:
				}
			}
		}
		io.Copy(io.Discard, stderr)
		err := p.cmd.Wait()
		if ee, ok := err.(*exec.ExitError); ok {
			p.code = ee.ExitCode()
		}
		close(p.done)
	}()
	t.Cleanup(func() {
		p.cmd.Process.Kill()
		<-p.done
	})
	return p
}

var hostingRE = regexp.MustCompile(`hosting demo on (\S+) for`)

// host starts the demo hosting a session on a port of 127.0.0.1 it picks,
// and returns the peer and the address the others join.
func host(t *testing.T, dir string, args ...string) (*peer, string) {
	t.Helper()
	lines := make(chan string, 64)
	p := start(t, filepath.Join(dir, "host.input"), lines, append([]string{"-host", "127.0.0.1:0"}, args...)...)
	tick := time.NewTicker(time.Second)
	defer tick.Stop()
	var w progress
	for {
		select {
		case line := <-lines:
			if m := hostingRE.FindStringSubmatch(line); m != nil {
				return p, m[1]
			}
		case <-p.done:
			t.Fatalf("the host ended before it listened:\n%s", p.output())
		case <-tick.C:
			if w.stalled(p) {
				t.Fatalf("the host printed and recorded nothing for %v, and did not say where it listens:\n%s", stall, p.output())
			}
		}
	}
}

// stall is how long a peer may go without printing or recording anything
// before it is taken as hung: a busy machine's peer makes progress
// slowly, a hung one none.
const stall = 2 * time.Minute

// progress follows a peer's progress: what it printed and recorded.
type progress struct {
	last  int64
	since time.Time
}

// stalled reports whether p printed and recorded nothing for stall.
func (w *progress) stalled(p *peer) bool {
	n := int64(len(p.output())) + max(fileSize(p.rec), 0) + max(fileSize(p.rec+".partial"), 0)
	if n != w.last || w.since.IsZero() {
		w.last, w.since = n, time.Now()
	}
	return time.Since(w.since) > stall
}

func fileSize(path string) int64 {
	st, err := os.Stat(path)
	if err != nil {
		return -1
	}
	return st.Size()
}

// wait waits for a peer to end, and returns its exit code; it fails the
// test if the peer stalls.
func (p *peer) wait(t *testing.T, what string) int {
	t.Helper()
	tick := time.NewTicker(time.Second)
	defer tick.Stop()
	var w progress
	for {
		select {
		case <-p.done:
			return p.code
		case <-tick.C:
			if w.stalled(p) {
				t.Fatalf("%s printed and recorded nothing for %v:\n%s", what, stall, p.output())
			}
		}
	}
}

// Two and four demos in separate processes play the Arena together over
// UDP on 127.0.0.1, each by its autopilot, through a link of 30 ms, 5 ms of
// jitter and 2% loss each way: each ends on the same state, and each one's
// recording replays alone, at another frame rate, to it.
func TestPlayTogether(t *testing.T) {
	for _, players := range []int{2, 4} {
		t.Run(fmt.Sprintf("players=%d", players), func(t *testing.T) {
			dir := t.TempDir()
			link := []string{"-netsim", "30ms,5ms,2%", "-peer-timeout", "1m"} // a busy machine stalls a peer for seconds
			h, addr := host(t, dir, append([]string{"-headless", "-seconds", "6", "-players", fmt.Sprint(players)}, link...)...)
			peers := []*peer{h}
			for i := 1; i < players; i++ {
				peers = append(peers, start(t, filepath.Join(dir, fmt.Sprintf("join%d.input", i)), nil,
					append([]string{"-headless", "-join", addr}, link...)...))
			}
			var want string
			for i, p := range peers {
				if code := p.wait(t, fmt.Sprintf("peer %d", i+1)); code != 0 {
					t.Fatalf("peer %d: exit %d:\n%s", i+1, code, p.output())
				}
				sum := p.checksum()
				if sum == "" || !strings.Contains(p.output(), "netplay: player") {
					t.Fatalf("peer %d printed no checksum or session summary:\n%s", i+1, p.output())
				}
				if i == 0 {
					want = sum
				} else if sum != want {
					t.Fatalf("peer %d ended on %s, the host on %s:\n%s", i+1, sum, want, p.output())
				}
				if got := run(t, "-headless", "-replay", p.rec, "-fps", "41"); got != want {
					t.Fatalf("peer %d's recording replays to %s, the run ended on %s", i+1, got, want)
				}
			}
			t.Logf("host: %s", regexp.MustCompile(`netplay: player.*`).FindString(h.output()))
		})
	}
}

// A player whose process is killed mid-game (no goodbye) ends the game for
// the other once it has been silent for netplay.DefaultTimeout, when the
// host keeps no seat for it (-seat-wait 0): the host exits with status 1
// and a message naming the player and why.
func TestPlayerKilled(t *testing.T) {
	dir := t.TempDir()
	h, addr := host(t, dir, "-headless", "-seconds", "60", "-seat-wait", "0")
	j := start(t, filepath.Join(dir, "join.input"), nil, "-headless", "-join", addr)
	// A second of play: the joiner's recording has begun.
	time.Sleep(2 * time.Second)
	j.cmd.Process.Signal(syscall.SIGKILL)
	j.wait(t, "the killed joiner")
	code := h.wait(t, "the host")
	if out := h.output(); code != 1 || !regexp.MustCompile(`player 2 \(127\.0\.0\.1:\d+\) left: nothing heard for 5s`).MatchString(out) {
		t.Fatalf("the host: exit %d, want 1 and a message naming player 2:\n%s", code, out)
	}
}

// A player whose process is killed mid-game takes its seat back with
// -join: the host plays on while its seat waits (-seat-wait's default),
// the new process begins from the host's state, and both end alike, every
// tick after the state checked; the host's recording, the empty seat's
// ticks in it, replays to the host's run.
func TestPlayerKilledTakesSeatBack(t *testing.T) {
	h, back := takeSeatBack(t, 2*time.Second)
	t.Logf("host: %s", regexp.MustCompile(`netplay: player 2 begins.*`).FindString(h.output()))
	if strings.Contains(back.output(), "of its scene") {
		t.Fatalf("the player who came back began from a state of a scene after the first:\n%s", back.output())
	}
}

// The same, the game begun at the Title (its autopilot chooses Play after
// a second): the player who comes back begins from the host's state of the
// Arena, the run's second scene, which its Title makes afresh
// (engine.SceneMaker), not from the session's first tick; both end alike,
// stopped by -seconds on the same tick of the Arena.
func TestPlayerKilledTakesSeatBackPastTitle(t *testing.T) {
	h, back := takeSeatBack(t, 3*time.Second, "-scene", "title", "-autopilot")
	began := regexp.MustCompile(`run: begun from the match's state after tick (\d+) of its scene 2 "Arena", the match's tick (\d+)`)
	m := began.FindStringSubmatch(back.output())
	if m == nil || m[1] == m[2] || strings.Contains(back.output(), "simulating the session from its first tick") {
		t.Fatalf("the player who came back did not begin from the host's state of the Arena:\n%s", back.output())
	}
	if !strings.Contains(h.output(), "player 2 begins from the state of tick "+m[2]) {
		t.Fatalf("the host gave no state of tick %s:\n%s", m[2], h.output())
	}
	t.Logf("the player who came back began after the Arena's tick %s, the session's %s", m[1], m[2])
}

// takeSeatBack hosts a game of two headless demos (more args to the host,
// which the joiners get), kills the joiner after wait, joins again once
// the host keeps its seat, and checks that the player who came back began
// from the host's state and that both ended alike; it returns the host and
// the player who came back.
func takeSeatBack(t *testing.T, wait time.Duration, args ...string) (h, back *peer) {
	t.Helper()
	dir := t.TempDir()
	h, addr := host(t, dir, append([]string{"-headless", "-seconds", "14", "-peer-timeout", "2s"}, args...)...)
	j := start(t, filepath.Join(dir, "join.input"), nil, "-headless", "-join", addr)
	time.Sleep(wait)
	j.cmd.Process.Signal(syscall.SIGKILL)
	j.wait(t, "the killed joiner")
	for !strings.Contains(h.output(), "player 2's seat waits") {
		select {
		case <-h.done:
			t.Fatalf("the host ended before it kept player 2's seat:\n%s", h.output())
		case <-time.After(50 * time.Millisecond):
		}
	}
	back = start(t, "", nil, "-headless", "-join", addr)
	for i, p := range []*peer{h, back} {
		if code := p.wait(t, fmt.Sprintf("peer %d", i+1)); code != 0 {
			t.Fatalf("peer %d: exit %d:\n%s", i+1, code, p.output())
		}
	}
	if !strings.Contains(back.output(), "beginning from the host's state of tick") {
		t.Fatalf("the player who came back did not begin from the host's state:\n%s", back.output())
	}
	// Both checked every tick after the state against the other's (a
	// desync fails a run); a run from a state has no run checksum of the
	// ticks before it, so the scores they ended with are compared.
	scores := regexp.MustCompile(`player \d: score \d+, health \d+`)
	if hs, bs := scores.FindAllString(h.output(), -1), scores.FindAllString(back.output(), -1); len(hs) != 2 || fmt.Sprint(hs) != fmt.Sprint(bs) {
		t.Fatalf("the host ended with %q, the player who came back with %q:\nhost:\n%s\nback:\n%s", hs, bs, h.output(), back.output())
	}
	if got := run(t, "-headless", "-replay", h.rec, "-fps", "41"); got != h.checksum() {
		t.Fatalf("the host's recording replays to %s, the run ended on %s", got, h.checksum())
	}
	return h, back
}

// A player in a window (the host, under Xvfb, its autopilot at the stick)
// and one headless play the Arena together: both end on the same state,
// the window's frames paced by the display, the headless peer's by the
// real clock.
func TestPlayTogetherInAWindow(t *testing.T) {
	needDisplay(t)
	dir := t.TempDir()
	h, addr := host(t, dir, "-scene", "arena", "-autopilot", "-seconds", "4", "-peer-timeout", "1m")
	j := start(t, filepath.Join(dir, "join.input"), nil, "-headless", "-join", addr, "-peer-timeout", "1m")
	var sums []string
	for i, p := range []*peer{h, j} {
		if code := p.wait(t, fmt.Sprintf("peer %d", i+1)); code != 0 {
			t.Fatalf("peer %d: exit %d:\n%s", i+1, code, p.output())
		}
		sum := p.checksum()
		if sum == "" {
			t.Fatalf("peer %d printed no checksum:\n%s", i+1, p.output())
		}
		sums = append(sums, sum)
	}
	if sums[0] != sums[1] {
		t.Fatalf("the window ended on %s, the headless peer on %s", sums[0], sums[1])
	}
}

// Seats on two machines in one networked run: the host seats two players
// (kb1 and pad0) and the joiner one (pad0@2), each machine's autopilot at
// its pad 0's stick; the joiner takes the seats from the host's settings,
// both split every machine's input the same way and end on the same state,
// and each one's recording replays alone to it.
func TestPlayTogetherWithSeats(t *testing.T) {
	dir := t.TempDir()
	h, addr := host(t, dir, "-headless", "-seconds", "4", "-players", "2", "-seats", "kb1,pad0,pad0@2")
	j := start(t, filepath.Join(dir, "join.input"), nil, "-headless", "-join", addr)
	var sums []string
	for i, p := range []*peer{h, j} {
		if code := p.wait(t, fmt.Sprintf("peer %d", i+1)); code != 0 {
			t.Fatalf("peer %d: exit %d:\n%s", i+1, code, p.output())
		}
		sum := p.checksum()
		if sum == "" {
			t.Fatalf("peer %d printed no checksum:\n%s", i+1, p.output())
		}
		sums = append(sums, sum)
		if got := run(t, "-headless", "-replay", p.rec, "-fps", "41"); got != sum {
			t.Fatalf("peer %d's recording replays to %s, the run ended on %s", i+1, got, sum)
		}
	}
	if sums[0] != sums[1] {
		t.Fatalf("the host ended on %s, the joiner on %s", sums[0], sums[1])
	}
	// The same run with the joiner's seat left out ends elsewhere: the
	// third body is there, and moved by the joiner's pad.
	h2, addr2 := host(t, dir, "-headless", "-seconds", "4", "-players", "2", "-seats", "kb1,pad0")
	j2 := start(t, filepath.Join(dir, "join2.input"), nil, "-headless", "-join", addr2)
	for i, p := range []*peer{h2, j2} {
		if code := p.wait(t, fmt.Sprintf("peer %d without the joiner's seat", i+1)); code != 0 {
			t.Fatalf("peer %d: exit %d:\n%s", i+1, code, p.output())
		}
	}
	if h2.checksum() == sums[0] || h2.checksum() != j2.checksum() {
		t.Fatalf("without the joiner's seat: the host ended on %s, the joiner on %s; with it on %s", h2.checksum(), j2.checksum(), sums[0])
	}
}
