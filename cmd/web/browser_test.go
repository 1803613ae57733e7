package main

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"image"
	"image/png"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/chromedp/cdproto/browser"
	"github.com/chromedp/cdproto/input"
	"github.com/chromedp/cdproto/runtime"
	"github.com/chromedp/chromedp"

	"github.com/fixedstep/fixedstep/internal/windowtest"
)

// The end-to-end tests build the demo to WebAssembly once, serve it with
// this command's handler on 127.0.0.1, and play it in a real headless
// Chromium (Debian's chromium package; WebGL in software through
// SwiftShader), driven over the DevTools protocol by chromedp.

var (
	setupOnce sync.Once
	setupErr  error
	served    string // the server's base URL
	nativeBin string // the demo built for this machine
	nativePf  string // the platformer built for this machine
	wasmPath  string // the demo's main.wasm (main.wasm.gz beside it)
	browserCx context.Context
	chromium  string // the browser's executable
	tmpDir    string
)

func TestMain(m *testing.M) {
	code := m.Run()
	if browserCx != nil {
		chromedp.Cancel(browserCx)
	}
	if tmpDir != "" {
		os.RemoveAll(tmpDir)
	}
	os.Exit(code)
}

// chromiumPath finds the browser, or says what to install.
func chromiumPath() (string, error) {
	for _, name := range []string{"chromium", "chromium-browser", "google-chrome", "google-chrome-stable"} {
		if p, err := exec.LookPath(name); err == nil {
			return p, nil
		}
	}
	return "", fmt.Errorf("no Chromium on PATH: install Debian's chromium package " +
		"(apt-get install chromium; make test does it) to run the browser tests")
}

// setup builds the wasm and the native demo, starts the server and the
// browser, once per test binary. Without Chromium the test is skipped.
func setup(t testing.TB) {
	t.Helper()
	exe, err := chromiumPath()
	if err != nil {
		t.Skip(err)
	}
	setupOnce.Do(func() { setupErr = doSetup(exe) })
	if setupErr != nil {
		t.Fatal(setupErr)
	}
}

func doSetup(exe string) error {
	var err error
	if tmpDir, err = os.MkdirTemp("", "web-test"); err != nil {
		return err
	}
	out := filepath.Join(tmpDir, "web")
	// The command itself builds the page, as make web does (in a process of
	// its own: gzip under the race detector would take half a minute).
	if msg, err := exec.Command("go", "run", ".", "build", "-out", out, demoPkg, platformerPkg).CombinedOutput(); err != nil {
		return fmt.Errorf("go run ./cmd/web build: %v\n%s", err, msg)
	}
	wasmPath = filepath.Join(out, "demo", "main.wasm")
	nativeBin = filepath.Join(tmpDir, "demo")
	nativePf = filepath.Join(tmpDir, "platformer")
	for bin, pkg := range map[string]string{nativeBin: demoPkg, nativePf: platformerPkg} {
		if msg, err := exec.Command("go", "build", "-o", bin, pkg).CombinedOutput(); err != nil {
			return fmt.Errorf("go build %s: %v\n%s", pkg, err, msg)
		}
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return err
	}
	go http.Serve(ln, handler(out))
	served = "http://" + ln.Addr().String()
	chromium = exe
	browserCx, err = startBrowser("profile")
	return err
}

// startBrowser starts a headless Chromium with a fresh profile in tmpDir
// (named profile) and the options given after the tests' own.
func startBrowser(profile string, more ...chromedp.ExecAllocatorOption) (context.Context, error) {
	opts := append(chromedp.DefaultExecAllocatorOptions[:],
		chromedp.ExecPath(chromium),
		chromedp.UserDataDir(filepath.Join(tmpDir, profile)), // a fresh profile
		chromedp.NoSandbox,                                   // as root
		chromedp.WindowSize(960, 540),
		// WebGL without a GPU: ANGLE over SwiftShader.
		chromedp.Flag("use-angle", "swiftshader"),
		chromedp.Flag("enable-unsafe-swiftshader", true),
		// This machine's network is closed: nothing but the page's own requests.
		chromedp.Flag("disable-quic", true),
		chromedp.Flag("disable-component-update", true),
		chromedp.Flag("disable-sync", true),
		chromedp.Flag("disable-background-networking", true),
	)
	alloc, _ := chromedp.NewExecAllocator(context.Background(), append(opts, more...)...)
	cx, _ := chromedp.NewContext(alloc)
	if err := chromedp.Do(cx); err != nil { // starts the browser
		return nil, fmt.Errorf("start %s: %w", chromium, err)
	}
	return cx, nil
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

// played is one run of a game in a page: its console, its exit code and
// the tab, still open until the test ends.
type played struct {
	ctx      context.Context
	console  *console
	exitCode int
	start    time.Time     // navigation
	elapsed  time.Duration // from navigation to the program's exit
	download string        // directory downloads go to, each file named by its GUID

	mu       sync.Mutex
	names    map[string]string // download GUID -> the name the page gave it
	done     map[string]bool   // GUIDs of completed downloads
	received int64             // bytes downloaded, all downloads together

	completed chan struct{} // a download completed
}

// downloaded waits for the page's download of name to complete and returns
// its contents. It waits for as long as the browser downloads (a download
// begins, bytes arrive, one completes), at most windowtest.Stall without
// that.
func (p *played) downloaded(t testing.TB, name string) []byte {
	t.Helper()
	watch := windowtest.NewWatch(func() string {
		p.mu.Lock()
		defer p.mu.Unlock()
		return fmt.Sprintf("downloads begun %v, %d completed, %d bytes received", p.names, len(p.done), p.received)
	})
	for {
		p.mu.Lock()
		for guid, n := range p.names {
			if n == name && p.done[guid] {
				p.mu.Unlock()
				data, err := os.ReadFile(filepath.Join(p.download, guid))
				if err != nil {
					t.Fatal(err)
				}
				return data
			}
		}
		p.mu.Unlock()
		select {
		case <-p.completed:
		case <-time.After(100 * time.Millisecond):
			if err := watch.Check(); err != nil {
				t.Fatalf("no completed download of %s: %v; console:\n%s", name, err, p.console.text())
			}
		}
	}
}

// play opens path on the server in a new tab and waits for the program to
// exit (see wait).
func play(t testing.TB, path string) *played {
	t.Helper()
	p := open(t, path)
	p.wait(t)
	return p
}

// open opens path on the server in a new tab, with its console and its
// downloads watched, and returns once the page has loaded.
func open(t testing.TB, path string) *played { t.Helper(); return openIn(t, browserCx, path) }

// openIn is open in the browser of the context in.
func openIn(t testing.TB, in context.Context, path string) *played {
	t.Helper()
	ctx, cancel := chromedp.NewContext(in)
	t.Cleanup(cancel)
	p := &played{ctx: ctx, console: &console{}, download: t.TempDir(),
		names: map[string]string{}, done: map[string]bool{}, completed: make(chan struct{}, 1)}
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
	err = chromedp.ListenBrowser(ctx, func(ev any) {
		switch ev := ev.(type) {
		case *browser.EventDownloadWillBegin:
			p.mu.Lock()
			p.names[ev.GUID] = ev.SuggestedFilename
			p.mu.Unlock()
		case *browser.EventDownloadProgress:
			p.mu.Lock()
			p.received += int64(ev.ReceivedBytes)
			p.mu.Unlock()
			if ev.State == browser.DownloadProgressStateCompleted {
				p.mu.Lock()
				p.done[ev.GUID] = true
				p.mu.Unlock()
				select {
				case p.completed <- struct{}{}:
				default:
				}
			}
		}
	})
	if err != nil {
		t.Fatal(err)
	}
	yes := true
	if _, err := chromedp.CallBrowser(ctx, browser.SetDownloadBehavior, browser.SetDownloadBehaviorParams{
		Behavior: browser.SetDownloadBehaviorBehaviorAllowAndName, DownloadPath: p.download,
		EventsEnabled: &yes}); err != nil {
		t.Fatal(err)
	}
	p.start = time.Now()
	// Until the page's load event: its scripts loaded (the program is then
	// fetched and run, which wait follows). Only the test binary's deadline,
	// if it has one, bounds it.
	nav := ctx
	if dl := windowtest.Deadline(); !dl.IsZero() {
		var cancel context.CancelFunc
		nav, cancel = context.WithDeadline(ctx, dl)
		defer cancel()
	}
	if err := chromedp.Do(nav, chromedp.EmulateViewport(960, 540), chromedp.Navigate(served+path)); err != nil {
		t.Fatalf("%s: %v\nconsole:\n%s", path, err, p.console.text())
	}
	return p
}

// pageState is what until reads from the page each time it looks.
type pageState struct {
	Done    bool  `json:"done"`    // the condition waited for holds
	Exit    *int  `json:"exit"`    // the program's exit code, once it has exited
	Frames  int64 `json:"frames"`  // play.js's goProgress: animation frames requested
	Printed int64 `json:"printed"` // and bytes printed
}

// until waits for the JavaScript expression cond to be true in the page,
// for as long as the page makes progress: its program runs frames or prints
// (play.js's goProgress), or the console gets a line. Without progress for
// windowtest.Stall, or at the test's deadline, the test fails, and says
// what the page had done and when, with its console so far. A program that
// never yields to the browser (the headless driver on its manual clock)
// leaves the page no time to answer until it exits, which it does within a
// few seconds: a page that has not answered for Stall is a stuck page.
func (p *played) until(t testing.TB, what, cond string) pageState {
	t.Helper()
	var st pageState
	var answered time.Time // when the page last answered
	watch := windowtest.NewWatch(func() string {
		return fmt.Sprintf("%d animation frames, %d bytes printed, %d console lines", st.Frames, st.Printed, p.console.len())
	})
	expr := `({done: !!(` + cond + `), exit: globalThis.goExitCode ?? null,
		frames: globalThis.goProgress?.frames ?? 0, printed: globalThis.goProgress?.printed ?? 0})`
	for {
		// A page busy running its program answers once the program yields:
		// a look that gets no answer in 5 s is tried again.
		ctx, cancel := context.WithTimeout(p.ctx, 5*time.Second)
		got, err := chromedp.Run(ctx, chromedp.Evaluate[pageState](expr))
		cancel()
		switch {
		case err == nil:
			st, answered = got, time.Now()
			if st.Done {
				return st
			}
		case p.ctx.Err() != nil || !errors.Is(err, context.DeadlineExceeded):
			t.Fatalf("waiting for %s: %v; console:\n%s", what, err, p.console.text())
		}
		if err := watch.Check(); err != nil {
			last := "never answered"
			if !answered.IsZero() {
				last = "last answered " + time.Since(answered).Round(100*time.Millisecond).String() + " ago"
			}
			t.Fatalf("waiting for %s: the page: %v; it %s, %v after it was opened; console so far:\n%s",
				what, err, last, time.Since(p.start).Round(100*time.Millisecond), p.console.text())
		}
		time.Sleep(200 * time.Millisecond)
	}
}

// wait waits for the page's program to exit (see until for how long).
func (p *played) wait(t testing.TB) {
	t.Helper()
	st := p.until(t, "the program to exit", `globalThis.goExitCode !== undefined`)
	p.elapsed = time.Since(p.start)
	p.exitCode = *st.Exit
}

var realtimeRE = regexp.MustCompile(`realtime: .*`)

var checksumRE = regexp.MustCompile(`(?m)^checksum ([0-9a-f]{16})$`)

// checksum returns the last checksum line the page printed.
func (p *played) checksum(t testing.TB) string {
	t.Helper()
	m := checksumRE.FindAllStringSubmatch(p.console.text(), -1)
	if p.exitCode != 0 || m == nil {
		t.Fatalf("exit code %d, checksum lines %v; console:\n%s", p.exitCode, m, p.console.text())
	}
	return m[len(m)-1][1]
}

// native runs the demo built for this machine and returns its output.
func native(t testing.TB, args ...string) string {
	t.Helper()
	return nativeRun(t, nativeBin, args...)
}

// nativeRun runs a game built for this machine and returns its output.
func nativeRun(t testing.TB, bin string, args ...string) string {
	t.Helper()
	out, err := exec.Command(bin, args...).CombinedOutput()
	if err != nil {
		t.Fatalf("demo %s: %v\n%s", strings.Join(args, " "), err, out)
	}
	return string(out)
}

func lastChecksum(t testing.TB, out string) string {
	t.Helper()
	m := checksumRE.FindAllStringSubmatch(out, -1)
	if m == nil {
		t.Fatalf("no checksum line in:\n%s", out)
	}
	return m[len(m)-1][1]
}

// The platformer plays in the browser too: its autopilot, from the Title
// through the first level, 10 game seconds, to the checksum of the native
// headless run (its sounds taken alike: the browser holds them until a
// key is pressed, as browsers require).
func TestBrowserPlatformerMatchesNative(t *testing.T) {
	setup(t)
	out := nativeRun(t, nativePf, "-headless", "-seconds", "10")
	want := lastChecksum(t, out)
	p := play(t, "/platformer/?autopilot&seconds=10")
	if got := p.checksum(t); got != want {
		t.Errorf("browser checksum %s, native headless %s; console:\n%s", got, want, p.console.text())
	}
	if w, b := soundsRE.FindString(out), soundsRE.FindString(p.console.text()); w == "" || b != w {
		t.Errorf("sounds: browser %q, native %q", b, w)
	}
}

var soundsRE = regexp.MustCompile(`sounds: \d+ taken`)

// The autopilot plays the Arena for 10 game seconds in the browser's frame
// loop (WebGL through SwiftShader) and prints the same checksum as the
// native headless run of the same seed; then the page shows the Arena's last
// frame, with its sprites.
func TestBrowserAutopilotMatchesNative(t *testing.T) {
	setup(t)
	want := lastChecksum(t, native(t, "-headless", "-seconds", "10", "-seed", "1"))
	p := play(t, "/demo/?scene=arena&autopilot&seconds=10&seed=1")
	got := p.checksum(t)
	t.Logf("checksum: browser %s, native headless %s (page ran %v)", got, want, p.elapsed.Round(time.Millisecond))
	if got != want {
		t.Errorf("browser checksum %s, native headless %s", got, want)
	}
	t.Logf("console:\n%s", p.console.text())

	// The program's output covers the page when it exits: hide it, and look
	// at the canvas.
	if _, err := chromedp.Run(p.ctx, chromedp.Evaluate[string](`document.getElementById("play-output").style.display = "none"`)); err != nil {
		t.Fatal(err)
	}
	shot, err := chromedp.Run(p.ctx, chromedp.CaptureScreenshot())
	if err != nil {
		t.Fatal(err)
	}
	if dir := os.Getenv("WEB_SCREENSHOT_DIR"); dir != "" { // to look at
		os.WriteFile(filepath.Join(dir, "browser-arena.png"), shot, 0o644)
	}
	img, err := png.Decode(bytes.NewReader(shot))
	if err != nil {
		t.Fatal(err)
	}
	checkArena(t, img)
}

// checkArena counts the Arena's colours in a screenshot of it at 960x540: the
// floor, the agents' orange, the player's cyan and the stars' yellow.
func checkArena(t testing.TB, img image.Image) {
	t.Helper()
	b := img.Bounds()
	var floor, agent, player, star int
	for y := b.Min.Y; y < b.Max.Y; y++ {
		for x := b.Min.X; x < b.Max.X; x++ {
			r, g, bl, _ := img.At(x, y).RGBA()
			r, g, bl = r>>8, g>>8, bl>>8
			switch {
			case r == 34 && g == 40 && bl == 52:
				floor++
			case r > 200 && g > 70 && g < 140 && bl < 80:
				agent++
			case r < 100 && g > 180 && bl > 200:
				player++
			case r > 220 && g > 180 && bl < 90:
				star++
			}
		}
	}
	t.Logf("%dx%d screenshot: floor %d, agent %d, player %d, star %d pixels", b.Dx(), b.Dy(), floor, agent, player, star)
	if b.Dx() != 960 || b.Dy() != 540 || floor < b.Dx()*b.Dy()/2 || agent < 10*100 || player < 50 || star < 3*50 {
		t.Errorf("not the Arena: %dx%d: floor %d, agent %d, player %d, star %d pixels", b.Dx(), b.Dy(), floor, agent, player, star)
	}
}

// The headless driver under WebAssembly (?headless: no canvas drawn) gives
// the native checksum too: on its manual clock for several seeds and the
// Stress scene, and on the real clock (the browser's timers), with its
// report of tick timing.
func TestBrowserHeadlessMatchesNative(t *testing.T) {
	setup(t)
	for _, args := range [][]string{
		{"-seconds", "10", "-seed", "1"},
		{"-seconds", "10", "-seed", "2"},
		{"-seconds", "10", "-seed", "3"},
		{"-scene", "stress", "-bodies", "300", "-seconds", "2"},
		{"-realtime", "-seconds", "2", "-seed", "5"},
	} {
		query := "headless"
		for i := 0; i < len(args); i++ {
			query += "&" + args[i][1:]
			if i+1 < len(args) && !strings.HasPrefix(args[i+1], "-") {
				query += "=" + args[i+1]
				i++
			}
		}
		want := lastChecksum(t, native(t, append([]string{"-headless"}, args...)...))
		p := play(t, "/demo/?"+query)
		got := p.checksum(t)
		t.Logf("?%s: checksum: browser %s, native %s (page ran %v)", query, got, want, p.elapsed.Round(time.Millisecond))
		if got != want {
			t.Errorf("?%s: browser checksum %s, native headless %s", query, got, want)
		}
		if args[0] == "-realtime" {
			t.Log(realtimeRE.FindString(p.console.text()))
		}
		if args[0] == "-realtime" && !strings.Contains(p.console.text(), "tick timing error over 120 ticks") {
			t.Errorf("?%s: no realtime report:\n%s", query, p.console.text())
		}
	}
}

// A run recorded in the browser (-record: the file becomes a download)
// replays natively, headless, to the checksum the browser printed; -replay
// in the browser fails and says why.
func TestBrowserRecordingReplaysNatively(t *testing.T) {
	setup(t)
	p := play(t, "/demo/?scene=arena&autopilot&seconds=3&seed=4&record=arena.input")
	got := p.checksum(t)
	rec := filepath.Join(t.TempDir(), "arena.input")
	if err := os.WriteFile(rec, p.downloaded(t, "arena.input"), 0o644); err != nil {
		t.Fatal(err)
	}
	replayed := lastChecksum(t, native(t, "-headless", "-seconds", "3", "-replay", rec, "-fps", "37"))
	if replayed != got {
		t.Fatalf("native replay of the browser's recording: checksum %s, browser %s", replayed, got)
	}

	// A page cannot read a file it did not write: the demo says so.
	p = play(t, "/demo/?replay=arena.input")
	if p.exitCode == 0 || !strings.Contains(p.console.text(), "open arena.input: No such file or directory") {
		t.Errorf("-replay in the browser: exit code %d, console:\n%s", p.exitCode, p.console.text())
	}
}

// F12 in the browser saves a screenshot as it does natively, and the page
// hands it over as a download: a PNG of the Arena.
func TestBrowserScreenshotKeyDownloads(t *testing.T) {
	setup(t)
	p := open(t, "/demo/?scene=arena&autopilot&seconds=6&seed=1")
	// Once the Arena has drawn a few frames, hold F12 for two frames (a press
	// and release within one frame would never be seen).
	frames := `new Promise(r => requestAnimationFrame(() => requestAnimationFrame(() => requestAnimationFrame(r))))`
	p.until(t, "the Arena's canvas", `!!document.querySelector("canvas") && document.querySelector("canvas").width >= 960`)
	key := input.DispatchKeyEventParams{Key: "F12", Code: "F12", WindowsVirtualKeyCode: 123, NativeVirtualKeyCode: 123}
	down, up := key, key
	down.Type, up.Type = input.DispatchKeyEventTypeKeyDown, input.DispatchKeyEventTypeKeyUp
	// Each step is three frames of the page or a key sent to it: within
	// windowtest.Stall on a page that makes progress at all.
	for i, step := range []func(context.Context) error{
		func(ctx context.Context) error {
			_, err := chromedp.Run(ctx, chromedp.Evaluate[any](frames, chromedp.EvalAwaitPromise))
			return err
		},
		func(ctx context.Context) error {
			_, err := chromedp.Call(ctx, input.DispatchKeyEvent, down)
			return err
		},
		func(ctx context.Context) error {
			_, err := chromedp.Run(ctx, chromedp.Evaluate[any](frames, chromedp.EvalAwaitPromise))
			return err
		},
		func(ctx context.Context) error { _, err := chromedp.Call(ctx, input.DispatchKeyEvent, up); return err },
	} {
		ctx, cancel := context.WithTimeout(p.ctx, windowtest.Stall)
		err := step(ctx)
		cancel()
		if err != nil {
			t.Fatalf("step %d of F12 (frames, down, frames, up): %v, %v after the page was opened; console:\n%s",
				i+1, err, time.Since(p.start).Round(100*time.Millisecond), p.console.text())
		}
	}
	p.wait(t)
	p.checksum(t)
	var name string
	for _, line := range strings.Split(p.console.text(), "\n") {
		if n, ok := strings.CutPrefix(line, "play.js: downloading "); ok && strings.HasPrefix(n, "screenshot-") {
			name, _, _ = strings.Cut(n, " ")
		}
	}
	if name == "" {
		t.Fatalf("no screenshot download; console:\n%s", p.console.text())
	}
	data := p.downloaded(t, name)
	if dir := os.Getenv("WEB_SCREENSHOT_DIR"); dir != "" {
		os.WriteFile(filepath.Join(dir, "browser-f12.png"), data, 0o644)
	}
	img, err := png.Decode(bytes.NewReader(data))
	if err != nil {
		t.Fatalf("%s: %v", name, err)
	}
	checkArena(t, img)
}
