package e2e

import (
	"bytes"
	"context"
	"fmt"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"github.com/fixedstep/fixedstep/engine/online/streamsim"
	"github.com/fixedstep/fixedstep/server/internal/nakamatest"
)

// BenchmarkOnlineFeelBrowser measures what BenchmarkOnlineFeel does for
// a player in a browser: the demo's page (cmd/web's build, its autopilot
// playing, in headless Chromium with WebGL in software) in a match of two
// with a native demo (headless, its autopilot playing, -realtime), both
// some round trip from the server, 0, 50, 100 and 150 ms, each waiting for
// the server's ticks or predicting (?predict, -predict). The native demo's
// link is its own -server-netsim; the page's is a streamsim proxy in front
// of the server that the page is given as its server (no proxy in the page
// can carry the browser's connections): half the round trip each way, a
// jitter of a tenth of it, on the page's HTTP calls and websocket alike.
// It reports the page's input delay in ticks, rollbacks a second and
// ticks simulated again a tick (predicting), the bytes a second it
// received and sent, its frames a second (drawn over the match's
// length), and the p99s of its frames' work and of the time
// from one frame's start to the next's (ms, its animation frames); and the
// native demo's input delay and frame p99s (native-...); and the CPU of
// the whole browser (% of a core, from the page's join to its exit: its
// GPU process drawing WebGL in software, its one tab's renderer, the
// browser's own process). About 20 s a case: the page loads, then the
// match plays feelSeconds.
func BenchmarkOnlineFeelBrowser(b *testing.B) {
	exe, err := chromiumPath()
	if err != nil {
		b.Skip(err)
	}
	srv := nakamatest.Start(b)
	dir := b.TempDir()
	bin := buildDemo(b, dir)
	site := servePage(b, dir)
	browser := startChromium(b, exe, filepath.Join(dir, "profile"))
	for _, rtt := range []int{0, 50, 100, 150} {
		for _, how := range []string{"wait", "predict"} {
			b.Run(fmt.Sprintf("rtt=%dms/how=%s", rtt, how), func(b *testing.B) {
				for b.Loop() {
					feelBrowser(b, srv, bin, site, browser, rtt, how == "predict")
				}
			})
		}
	}
}

// feelWindow is a window's frame count in its summary.
var feelWindow = regexp.MustCompile(`window: (\d+) frames`)

// feelBrowser plays one match of BenchmarkOnlineFeelBrowser, the page
// with the native demo, and reports their figures.
func feelBrowser(b *testing.B, srv *nakamatest.Server, bin, site string, browser context.Context, rtt int, predict bool) {
	server := srv.URL
	if rtt > 0 {
		u, err := url.Parse(srv.URL)
		if err != nil {
			b.Fatal(err)
		}
		oneWay := time.Duration(rtt) * time.Millisecond / 2
		p, err := streamsim.Listen("127.0.0.1:0", u.Host, streamsim.Link{Latency: oneWay, Jitter: oneWay / 5, Seed: uint64(rtt)})
		if err != nil {
			b.Fatal(err)
		}
		b.Cleanup(func() { p.Close() })
		server = "http://" + p.Addr().String()
	}
	q := url.Values{"server": {server}, "server-key": {srv.ServerKey}, "players": {"2"}, "seconds": {fmt.Sprint(feelSeconds)},
		"device": {fmt.Sprintf("feel-page-%d-%d", rtt, time.Now().UnixNano())}}
	addr := site + "/demo/?" + q.Encode() + "&autopilot"
	if predict {
		addr += "&predict"
	}
	p := openPage(b, browser, addr)
	var id string
	if exit, exited := p.until(b, "the page to join a match", func() string { return "no match yet" }, func(out string) bool {
		if m := joinedRE.FindStringSubmatch(out); m != nil {
			id = m[1]
		}
		return id != ""
	}); exited {
		b.Fatalf("the page exited (code %d) before it joined a match; console:\n%s", exit, p.console.text())
	}

	chromium := chromedp.FromContext(browser).Browser.Process().Pid
	cpu0, err := treeCPU(chromium)
	if err != nil {
		b.Fatal(err)
	}
	began := time.Now()
	args := append([]string{"-headless", "-autopilot", "-realtime", "-players", "2", "-seconds", fmt.Sprint(feelSeconds),
		"-server", srv.URL, "-server-key", srv.ServerKey}, feelArgs(rtt, predict)...)
	var native strings.Builder
	cmd := exec.Command(bin, args...)
	cmd.Stdout, cmd.Stderr = &native, &native
	if err := cmd.Start(); err != nil {
		b.Fatal(err)
	}
	ran := make(chan error, 1)
	go func() { ran <- cmd.Wait() }()
	exit, _ := p.until(b, "the page's program to exit", func() string { return "the native demo playing" }, nil)
	cpu1, err := treeCPU(chromium)
	if err != nil {
		b.Fatal(err)
	}
	wall := time.Since(began)
	if err := <-ran; err != nil {
		b.Fatalf("the native demo: %v\n%s", err, native.String())
	}
	out := p.console.text()
	if exit != 0 {
		b.Fatalf("the page: exit code %d; console:\n%s", exit, out)
	}
	if !strings.Contains(native.String(), " in match "+id+";") {
		b.Fatalf("the native demo did not play the page's match %s:\n%s", id, native.String())
	}
	b.Logf("the page: %s\nthe native demo: %s", feelLines(out), feelLines(native.String()))
	for name, v := range feelFigures(b, "the page", out, predict, false) {
		b.ReportMetric(v, name)
	}
	m := feelWindow.FindStringSubmatch(out)
	if m == nil {
		b.Fatalf("no %v in the page's console:\n%s", feelWindow, out)
	}
	frames, _ := strconv.Atoi(m[1])
	b.ReportMetric(float64(frames)/feelSeconds, "frames/s")
	b.ReportMetric(100*(cpu1-cpu0).Seconds()/wall.Seconds(), "browser-cpu-%")
	nat := feelFigures(b, "the native demo", native.String(), predict, true)
	for _, name := range []string{"input-delay-ticks", "frame-work-p99-ms", "frame-interval-p99-ms"} {
		b.ReportMetric(nat[name], "native-"+name)
	}
}

// treeCPU returns the CPU time (user and system) process root and every
// process below it have used: a browser's, its GPU process and its tabs'
// among them.
func treeCPU(root int) (time.Duration, error) {
	dirs, err := os.ReadDir("/proc")
	if err != nil {
		return 0, err
	}
	parent := map[int]int{}
	for _, d := range dirs {
		pid, err := strconv.Atoi(d.Name())
		if err != nil {
			continue
		}
		stat, err := os.ReadFile(filepath.Join("/proc", d.Name(), "stat"))
		if err != nil {
			continue // ended since
		}
		// The 4th field of the line, the 2nd after the command's parenthesis.
		f := strings.Fields(string(stat[bytes.LastIndexByte(stat, ')')+2:]))
		if len(f) > 1 {
			parent[pid], _ = strconv.Atoi(f[1])
		}
	}
	var total time.Duration
	for pid := range parent {
		for p := pid; p > 1; p = parent[p] {
			if p == root {
				cpu, err := cpuOf(pid)
				if err == nil { // else it ended since
					total += cpu
				}
				break
			}
		}
	}
	return total, nil
}

// feelLines are a client's lines of the figures feelFigures reads.
func feelLines(out string) string {
	var lines []string
	for line := range strings.Lines(out) {
		if strings.HasPrefix(line, "online: ") || strings.HasPrefix(line, "frames: ") ||
			strings.HasPrefix(line, "realtime: ") || strings.HasPrefix(line, "window: ") {
			lines = append(lines, strings.TrimSpace(line))
		}
	}
	return strings.Join(lines, "\n\t")
}
