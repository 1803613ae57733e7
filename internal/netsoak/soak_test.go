// Package netsoak plays the sample games over netplay, as players do:
// real processes on 127.0.0.1, every peer's packets through a bad link
// (-netsim), each game driven from its Title through scene after scene by
// its autopilot and menus, 2 and 4 players. Every peer of every session
// must end with the same checksum, and every peer's recording replay
// alone to it: a scene that ends on a press a peer learns of late (a
// menu's Enter under latency and loss) must end on the same tick
// everywhere.
package netsoak

import (
	"bufio"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"
)

// game is a sample game as the soak plays it.
type game struct {
	name, pkg string
	args      []string // after -headless -seconds: what drives it through its scenes
}

var games = []game{
	{name: "demo", pkg: "./cmd/demo", args: []string{"-scene", "title", "-round", "6"}}, // Title, Arena, Results, Title...
	{name: "breakout", pkg: "./cmd/breakout", args: []string{"-lives", "1"}},            // Title, Play (levels), Over, Title...
	{name: "platformer", pkg: "./cmd/platformer", args: []string{"-lives", "1"}},        // Title, Play (levels), Results, Title...
}

var links = []string{"100ms,10ms,5%", "150ms,20ms,10%"}

const seconds = "20" // game seconds a session plays

// session is one session of the soak: a game, its players, its link.
type session struct {
	g       game
	players int
	link    string
}

// peer is one process of a session, as it ended.
type peer struct {
	out     strings.Builder
	err     error
	rec     string
	sum     string
	scenes  int
	rolls   int64 // rollbacks
	resim   int64 // ticks simulated again
	elapsed time.Duration
}

var (
	checksumRE = regexp.MustCompile(`\nchecksum ([0-9a-f]{16})\n`)
	scenesRE   = regexp.MustCompile(`\nrun: (\d+) scenes`)
	rollsRE    = regexp.MustCompile(`(\d+) rollbacks \((\d+) ticks simulated again\)`)
	hostRE     = regexp.MustCompile(`hosting \S+ on (\S+) for`)
)

// stall is how long a peer may run with its recording not growing (it is
// written a second of game time and a tenth of a second of real time
// apart at most) before it is taken as hung and killed.
const stall = 2 * time.Minute

// run starts bin with args in dir, and returns once it ended: killed when
// its recording (rec) stops growing for stall. Each line of its output is
// also sent to lines, when not nil.
func run(bin, dir, rec string, args []string, lines chan<- string) *peer {
	p := &peer{rec: rec}
	cmd := exec.Command(bin, args...)
	cmd.Dir = dir
	pr, pw := io.Pipe()
	cmd.Stdout, cmd.Stderr = pw, pw
	start := time.Now()
	if err := cmd.Start(); err != nil {
		p.err = err
		return p
	}
	read := make(chan struct{})
	go func() {
		defer close(read)
		sc := bufio.NewScanner(pr)
		for sc.Scan() {
			p.out.WriteString(sc.Text() + "\n")
			if lines != nil {
				select {
				case lines <- sc.Text():
				default:
				}
			}
		}
	}()
	done := make(chan error, 1)
	go func() { done <- cmd.Wait(); pw.Close() }()
	size, grew := int64(-1), time.Now()
	tick := time.NewTicker(time.Second)
	defer tick.Stop()
	for {
		select {
		case err := <-done:
			<-read
			p.err, p.elapsed = err, time.Since(start)
			p.parse()
			return p
		case <-tick.C:
			n := fileSize(rec + ".partial")
			if m := fileSize(rec); m > n {
				n = m
			}
			if n != size {
				size, grew = n, time.Now()
			} else if time.Since(grew) > stall {
				cmd.Process.Kill()
				p.out.WriteString(fmt.Sprintf("(killed: its recording did not grow for %v)\n", stall))
			}
		}
	}
}

func fileSize(path string) int64 {
	st, err := os.Stat(path)
	if err != nil {
		return -1
	}
	return st.Size()
}

// parse reads the summary: the checksum, the scenes, the rollbacks.
func (p *peer) parse() {
	out := p.out.String()
	if m := checksumRE.FindStringSubmatch(out); m != nil {
		p.sum = m[1]
	}
	if m := scenesRE.FindStringSubmatch(out); m != nil {
		p.scenes, _ = strconv.Atoi(m[1])
	}
	if m := rollsRE.FindStringSubmatch(out); m != nil {
		p.rolls, _ = strconv.ParseInt(m[1], 10, 64)
		p.resim, _ = strconv.ParseInt(m[2], 10, 64)
	}
}

// play plays one session and returns its peers, the host's first.
func play(t *testing.T, bin, dir string, s session) []*peer {
	// A minute of silence before a peer has left, not 5 s: a busy machine
	// stalls a peer for seconds, and the soak is about desyncs
	// (TestPeerEnds, about peers that vanish, keeps the 5 s).
	base := []string{"-headless", "-seconds", seconds, "-netsim", s.link, "-peer-timeout", "1m"}
	peers := make([]*peer, s.players)
	hostLines := make(chan string, 64)
	rec := func(i int) string { return filepath.Join(dir, fmt.Sprintf("peer%d.input", i+1)) }
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		args := append(append(slices(base), s.g.args...), "-host", "127.0.0.1:0", "-players", fmt.Sprint(s.players), "-record", rec(0))
		peers[0] = run(bin, dir, rec(0), args, hostLines)
		close(hostLines)
	}()
	addr := ""
	for l := range hostLines {
		if m := hostRE.FindStringSubmatch(l); m != nil {
			addr = m[1]
			break
		}
	}
	if addr == "" {
		wg.Wait()
		t.Fatalf("%v: the host did not listen:\n%s", s, peers[0].out.String())
	}
	go func() { // the host's further lines are in its output
		for range hostLines {
		}
	}()
	for i := 1; i < s.players; i++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			args := append(slices(base), "-join", addr, "-record", rec(i))
			peers[i] = run(bin, dir, rec(i), args, nil)
		}()
	}
	wg.Wait()
	return peers
}

func slices(s []string) []string { return append([]string(nil), s...) }

func (s session) String() string {
	return fmt.Sprintf("%s, %d players, -netsim %s", s.g.name, s.players, s.link)
}

// Every sample game, 2 and 4 players, through two bad links: every peer of
// every session ends with the same checksum, and each one's recording
// replays alone to it. A desync that one scene end in eight caused would
// pass unnoticed with a chance of (7/8)^n for n scene ends: the soak
// crosses some 100 in 20 s sessions (it logs how many, and fails with fewer than 35, where
// the chance passes 1%), so under 10^-4.
func TestSoak(t *testing.T) {
	if testing.Short() {
		t.Skip("twelve networked sessions of 20 s of game time, in real time")
	}
	dir := t.TempDir()
	bins := map[string]string{}
	for _, g := range games {
		bins[g.name] = filepath.Join(dir, g.name)
		cmd := exec.Command("go", "build", "-o", bins[g.name], g.pkg)
		cmd.Dir = "../.."
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("go build %s: %v\n%s", g.pkg, err, out)
		}
	}
	var sessions []session
	for _, g := range games {
		for _, players := range []int{2, 4} {
			for _, link := range links {
				sessions = append(sessions, session{g: g, players: players, link: link})
			}
		}
	}
	type result struct {
		s     session
		peers []*peer
	}
	results := make([]result, len(sessions))
	// Four sessions at a time (10 processes, each in real time): more
	// would leave the machine's two cores behind the sessions' pace.
	sem := make(chan struct{}, 4)
	var wg sync.WaitGroup
	for i, s := range sessions {
		wg.Add(1)
		go func() {
			defer wg.Done()
			sem <- struct{}{}
			defer func() { <-sem }()
			sdir := filepath.Join(dir, fmt.Sprintf("session%d", i+1))
			os.Mkdir(sdir, 0o755)
			results[i] = result{s: s, peers: play(t, bins[s.g.name], sdir, s)}
		}()
	}
	wg.Wait()
	var sceneEnds, rolls, resim int64
	var peerSeconds float64
	desyncs := 0
	for _, r := range results {
		host := r.peers[0]
		for _, p := range r.peers {
			if p.sum != host.sum || strings.Contains(p.out.String(), "desync") {
				desyncs++
				break
			}
		}
		for i, p := range r.peers {
			if p.err != nil || p.sum == "" || p.sum != host.sum {
				t.Errorf("%v: peer %d ended with %v, checksum %q (the host's %q):\n%s", r.s, i+1, p.err, p.sum, host.sum, p.out.String())
				continue
			}
			rolls += p.rolls
			resim += p.resim
			peerSeconds += p.elapsed.Seconds()
			out, err := exec.Command(bins[r.s.g.name], "-headless", "-replay", p.rec).CombinedOutput()
			if m := checksumRE.FindSubmatch(out); err != nil || m == nil || string(m[1]) != p.sum {
				t.Errorf("%v: peer %d's recording replays to %v:\n%s", r.s, i+1, err, out)
			}
		}
		sceneEnds += int64(max(host.scenes-1, 0))
		t.Logf("%v: %d scenes, checksum %s; rollbacks %v", r.s, host.scenes, host.sum, rollCounts(r.peers))
	}
	t.Logf("%d sessions, %d scene ends, %d rollbacks (%.1f a second a peer), %d ticks simulated again, desyncs: %d",
		len(results), sceneEnds, rolls, float64(rolls)/peerSeconds, resim, desyncs)
	if sceneEnds < 35 {
		t.Errorf("the sessions crossed %d scene ends: fewer than the 35 that make a 1-in-8 failure show ((7/8)^35 < 1%%)", sceneEnds)
	}
}

func rollCounts(ps []*peer) []int64 {
	var n []int64
	for _, p := range ps {
		n = append(n, p.rolls)
	}
	return n
}
