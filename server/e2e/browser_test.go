package e2e

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"image/color"
	"image/png"
	"net"
	"net/http"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/chromedp/cdproto/runtime"
	"github.com/chromedp/chromedp"

	"github.com/fixedstep/fixedstep/engine/online/client"
	"github.com/fixedstep/fixedstep/internal/windowtest"
	"github.com/fixedstep/fixedstep/server/internal/nakamatest"
)

// The demo built for the browser plays the server's Arena with a native
// client in one match. The page (cmd/web's, served from an origin of its
// own, so the server's CORS must let it in) finds a match of two with
// ?server= and waits in it for longer than the client's silence: only the
// Nakama Ping envelopes it sends (the browser sends the server no
// websocket ping a page could ask for) keep it from giving the server up.
// Then a native client finds the same match and plays it with the game's
// bot, the page with its autopilot in headless Chromium, predicting
// (?predict), and both check every tick against the server's checksum to
// the match's end. The page's
// last frame is the Arena. The waits follow progress (the page's frames
// and output, the match's ticks), but for the one in the match's lobby,
// which is the point.
func TestBrowserPlaysWithNative(t *testing.T) {
	t.Parallel()
	exe, err := chromiumPath()
	if err != nil {
		t.Skip(err)
	}
	srv := nakamatest.Start(t)
	dir := t.TempDir()
	site := servePage(t, dir)
	b := startChromium(t, exe, filepath.Join(dir, "profile"))

	const seconds = 5
	q := url.Values{"server": {srv.URL}, "server-key": {srv.ServerKey}, "players": {"2"}, "seconds": {fmt.Sprint(seconds)},
		"device": {"e2e-device-browser-page"}}
	p := openPage(t, b, site+"/demo/?"+q.Encode()+"&autopilot&predict")
	none := func() string { return "no match yet" }
	var id string
	if exit, exited := p.until(t, "the page to join a match", none, func(out string) bool {
		m := joinedRE.FindStringSubmatch(out)
		if m != nil {
			id = m[1]
		}
		return m != nil
	}); exited {
		t.Fatalf("the page exited (code %d) before it joined a match; console:\n%s", exit, p.console.text())
	}
	wait := client.DefaultSilence + client.DefaultSilence/2
	t.Logf("the page joined match %s; the native client joins %v later", id, wait)
	time.Sleep(wait)
	if exitRE.MatchString(p.console.text()) {
		t.Fatalf("the page gave the match up while it waited for its second player; console:\n%s", p.console.text())
	}

	c := dial(t, srv, "browser-native")
	ctx, onTick := progress(t, windowtest.Stall)
	found, err := c.Find(ctx, game, 2, seconds)
	if err != nil {
		t.Fatal(err)
	}
	if found != id {
		t.Fatalf("the native client found match %s, not the page's %s; the page's console:\n%s", found, id, p.console.text())
	}
	m, err := c.Join(ctx, game, id)
	if err != nil {
		t.Fatal(err)
	}
	var (
		res     client.Result
		playErr error
		lastMu  sync.Mutex
		last    int64 // the native client's last tick
	)
	played := make(chan struct{})
	go func() {
		defer close(played)
		res, playErr = m.Play(ctx, client.Play{OnTick: func(tick int64) {
			onTick(tick)
			lastMu.Lock()
			last = tick
			lastMu.Unlock()
		}})
	}()
	exit, _ := p.until(t, "the page's program to exit", func() string {
		lastMu.Lock()
		defer lastMu.Unlock()
		return fmt.Sprintf("the native client at tick %d", last)
	}, nil)
	<-played
	out := p.console.text()
	if playErr != nil {
		t.Fatalf("the native client: %v (%v); the page's console:\n%s", playErr, context.Cause(ctx), out)
	}
	end := res.End.Tick
	if end < 1 || res.Ticks != end || res.Checked != end {
		t.Errorf("the native client: %d ticks received, %d checked; the match ended at tick %d (%s)", res.Ticks, res.Checked, end, res.End.Reason)
	}
	want := fmt.Sprintf("online: player %d of 2 in match %s; %d ticks checked against the server's checksum", 2-res.Start.Seat, id, end)
	if exit != 0 || !strings.Contains(out, want) || !strings.Contains(out, "online: predicting ") {
		t.Fatalf("the page: exit code %d; want %q and its predicting in its console:\n%s", exit, want, out)
	}
	t.Logf("match %s, %d ticks (%s): the native client and the page checked every one against the server's checksum; the page said: %s",
		id, end, res.End.Reason, onlineRE.FindString(out))

	// The page's output covers the canvas once the program exits: hide it.
	if _, err := chromedp.Run(p.ctx, chromedp.Evaluate[string](`document.getElementById("play-output").style.display = "none"`)); err != nil {
		t.Fatal(err)
	}
	shot, err := chromedp.Run(p.ctx, chromedp.CaptureScreenshot())
	if err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(dir, "browser-online.png")
	if d := os.Getenv("E2E_SCREENSHOT_DIR"); d != "" { // to look at
		path = filepath.Join(d, "browser-online.png")
	}
	if err := os.WriteFile(path, shot, 0o644); err != nil {
		t.Fatal(err)
	}
	checkArenaShot(t, shot)
}

// checkArenaShot fails unless the screenshot is the Arena: mostly its
// floor, with the colours of what stands on it.
func checkArenaShot(t *testing.T, shot []byte) {
	t.Helper()
	img, err := png.Decode(bytes.NewReader(shot))
	if err != nil {
		t.Fatal(err)
	}
	colors := map[color.RGBA]int{}
	bounds := img.Bounds()
	for y := bounds.Min.Y; y < bounds.Max.Y; y++ {
		for x := bounds.Min.X; x < bounds.Max.X; x++ {
			r, g, bl, a := img.At(x, y).RGBA()
			colors[color.RGBA{uint8(r >> 8), uint8(g >> 8), uint8(bl >> 8), uint8(a >> 8)}]++
		}
	}
	floor := colors[color.RGBA{34, 40, 52, 255}]
	t.Logf("%v screenshot: %d pixels of the floor, %d colours", bounds, floor, len(colors))
	if floor < bounds.Dx()*bounds.Dy()/2 || len(colors) < 20 {
		t.Errorf("the page's last frame (%v) has %d pixels of the floor and %d colours: the Arena is not drawn", bounds, floor, len(colors))
	}
}

// chromiumPath finds the browser, or says what to install.
func chromiumPath() (string, error) {
	for _, name := range []string{"chromium", "chromium-browser", "google-chrome", "google-chrome-stable"} {
		if p, err := exec.LookPath(name); err == nil {
			return p, nil
		}
	}
	return "", errors.New("no Chromium on PATH: install Debian's chromium package (apt-get install chromium) to run the browser's e2e test")
}

// servePage builds the demo's page (cmd/web build, in a process of its
// own) into dir and serves it on 127.0.0.1, returning its base URL: an
// origin other than the game server's.
func servePage(t testing.TB, dir string) string {
	t.Helper()
	web := filepath.Join(dir, "web")
	build := exec.Command("go", "run", "./cmd/web", "build", "-out", web, "./cmd/demo")
	build.Dir = "../.." // the engine's module
	if out, err := build.CombinedOutput(); err != nil {
		t.Fatalf("go run ./cmd/web build: %v\n%s", err, out)
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	hs := &http.Server{Handler: http.FileServer(http.Dir(web))}
	go hs.Serve(ln)
	t.Cleanup(func() { hs.Close() })
	return "http://" + ln.Addr().String()
}

// startChromium starts a headless Chromium with a fresh profile, as
// cmd/web's tests do: WebGL in software, nothing but the page's own
// requests.
func startChromium(t testing.TB, exe, profile string) context.Context {
	t.Helper()
	opts := append(chromedp.DefaultExecAllocatorOptions[:],
		chromedp.ExecPath(exe),
		chromedp.UserDataDir(profile),
		chromedp.NoSandbox,
		chromedp.WindowSize(960, 540),
		chromedp.Flag("use-angle", "swiftshader"),
		chromedp.Flag("enable-unsafe-swiftshader", true),
		chromedp.Flag("disable-quic", true),
		chromedp.Flag("disable-component-update", true),
		chromedp.Flag("disable-sync", true),
		chromedp.Flag("disable-background-networking", true),
	)
	alloc, cancelAlloc := chromedp.NewExecAllocator(context.Background(), opts...)
	cx, cancel := chromedp.NewContext(alloc)
	t.Cleanup(func() { cancel(); cancelAlloc() })
	if err := chromedp.Do(cx); err != nil { // starts the browser
		t.Fatalf("start %s: %v", exe, err)
	}
	return cx
}

// page is a tab playing a game's page, and what it printed.
type page struct {
	ctx     context.Context
	console *console
	opened  time.Time
}

// console collects what a page printed to its console.
type console struct {
	mu    sync.Mutex
	lines []string
}

func (c *console) text() string {
	c.mu.Lock()
	defer c.mu.Unlock()
	return strings.Join(c.lines, "\n")
}

func (c *console) len() int {
	c.mu.Lock()
	defer c.mu.Unlock()
	return len(c.lines)
}

// openPage opens addr in a new tab of the browser b, its console
// collected, and returns once the page has loaded.
func openPage(t testing.TB, b context.Context, addr string) *page {
	t.Helper()
	ctx, cancel := chromedp.NewContext(b)
	t.Cleanup(cancel)
	p := &page{ctx: ctx, console: &console{}, opened: time.Now()}
	err := chromedp.Listen(ctx, func(ev any) {
		if ev, ok := ev.(*runtime.EventConsoleAPICalled); ok {
			var parts []string
			for _, a := range ev.Args {
				var s string
				if json.Unmarshal(a.Value, &s) == nil {
					parts = append(parts, s)
				} else {
					parts = append(parts, string(a.Value))
				}
			}
			p.console.mu.Lock()
			p.console.lines = append(p.console.lines, strings.Join(parts, " "))
			p.console.mu.Unlock()
		}
	})
	if err != nil {
		t.Fatal(err)
	}
	nav := ctx
	if dl := windowtest.Deadline(); !dl.IsZero() {
		var cancel context.CancelFunc
		nav, cancel = context.WithDeadline(ctx, dl)
		defer cancel()
	}
	if err := chromedp.Do(nav, chromedp.EmulateViewport(960, 540), chromedp.Navigate(addr)); err != nil {
		t.Fatalf("%s: %v\nconsole:\n%s", addr, err, p.console.text())
	}
	return p
}

// pageState is what wait reads from the page each time it looks.
type pageState struct {
	Exit    *int  `json:"exit"`    // the program's exit code, once it has exited
	Frames  int64 `json:"frames"`  // play.js's goProgress: animation frames requested
	Printed int64 `json:"printed"` // and bytes printed
}

var joinedRE = regexp.MustCompile(`joined match (\S+) of `)

var onlineRE = regexp.MustCompile(`online: .*`)

var exitRE = regexp.MustCompile(`(?m)^exit code (-?\d+)$`)

// until waits for done to hold of the page's console (nil: never) or for
// its program to exit, and returns the exit code and whether it had
// exited. It waits for as long as something moves on: the page runs
// frames or prints (play.js's goProgress), its console gets a line, or
// more (what more says, such as the match's ticks). Without that for
// windowtest.Stall the test fails, saying what the page had done, with its
// console.
func (p *page) until(t testing.TB, what string, more func() string, done func(console string) bool) (int, bool) {
	t.Helper()
	var st pageState
	watch := windowtest.NewWatch(func() string {
		return fmt.Sprintf("the page: %d animation frames, %d bytes printed, %d console lines; %s", st.Frames, st.Printed, p.console.len(), more())
	})
	const expr = `({exit: globalThis.goExitCode ?? null, frames: globalThis.goProgress?.frames ?? 0, printed: globalThis.goProgress?.printed ?? 0})`
	for {
		if done != nil && done(p.console.text()) {
			return 0, false
		}
		// A page busy running its program answers once it yields: a look
		// that gets no answer in 5 s is tried again.
		ctx, cancel := context.WithTimeout(p.ctx, 5*time.Second)
		got, err := chromedp.Run(ctx, chromedp.Evaluate[pageState](expr))
		cancel()
		if err == nil {
			st = got
		}
		switch {
		case err == nil && st.Exit != nil:
			return *st.Exit, true
		case err != nil && (p.ctx.Err() != nil || !errors.Is(err, context.DeadlineExceeded)):
			t.Fatalf("waiting for %s: %v; console:\n%s", what, err, p.console.text())
		}
		if m := exitRE.FindStringSubmatch(p.console.text()); m != nil { // the console said it first
			n, _ := strconv.Atoi(m[1])
			return n, true
		}
		if err := watch.Check(); err != nil {
			t.Fatalf("waiting for %s: %v, %v after the page was opened; console so far:\n%s",
				what, err, time.Since(p.opened).Round(100*time.Millisecond), p.console.text())
		}
		time.Sleep(200 * time.Millisecond)
	}
}
