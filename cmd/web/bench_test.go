package main

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"sync"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
)

// arenaPkg plays the Arena with the autopilot in a window and prints its
// report with the frames drawn (testdata/arenafps).
const arenaPkg = "github.com/fixedstep/fixedstep/cmd/web/testdata/arenafps"

var (
	arenaOnce sync.Once
	arenaErr  error
	arenaBin  string // arenafps built for this machine
)

// BenchmarkArenaFrameRate plays the Arena with the autopilot for 10 game
// seconds (seed 1) in headless Chromium (WebGL through SwiftShader), then
// in a native window (under Xvfb in make bench-web), one after the other
// in each iteration, and reports the frames per second of each, the
// browser's over the window's, and the size of the demo's .wasm raw and
// gzipped. The frame rate is the frames drawn over the real time the scene
// ran, which its report gives as game time plus the time the loop dropped
// or clamped (time scale 1).
//
// The window under Xvfb has no display to wait for: its frames are not
// held to a refresh rate. The browser's are, to 60 Hz, by its animation
// frames, as a player's browser on a 60 Hz display is (at most 60). (A
// Chromium started with --disable-frame-rate-limit and --disable-gpu-vsync
// runs animation frames faster, but composites none of them: their count
// is the page's own work, not frames drawn.) The tab is closed before the
// window plays, so that the browser does not draw meanwhile.
//
// Beside them, in each iteration, a bare page (barePage) clears a WebGL2
// canvas of the Arena's size in each of its animation frames for 10
// seconds: the most frames a page can have drawn on this machine, whatever
// it draws. It reports bare-frames/s and browser/bare: how near the Arena
// comes to that ceiling.
func BenchmarkArenaFrameRate(b *testing.B) {
	if os.Getenv("DISPLAY") == "" {
		b.Skip("no DISPLAY for the native window: run under xvfb-run -a, or make bench-web")
	}
	if testing.Short() {
		b.Skip("not under -short: make bench-web runs it")
	}
	setup(b)
	arenaOnce.Do(func() {
		out := filepath.Join(tmpDir, "web")
		if msg, err := exec.Command("go", "run", ".", "build", "-out", out, arenaPkg).CombinedOutput(); err != nil {
			arenaErr = fmt.Errorf("go run ./cmd/web build %s: %v\n%s", arenaPkg, err, msg)
			return
		}
		arenaBin = filepath.Join(tmpDir, "arenafps")
		if msg, err := exec.Command("go", "build", "-o", arenaBin, arenaPkg).CombinedOutput(); err != nil {
			arenaErr = fmt.Errorf("go build %s: %v\n%s", arenaPkg, err, msg)
			return
		}
	})
	if arenaErr != nil {
		b.Fatal(arenaErr)
	}
	const page = "/arenafps/?seconds=10&seed=1"
	inBrowser := func(browser context.Context) (fps float64, report string) {
		p := openIn(b, browser, page)
		p.wait(b)
		if p.exitCode != 0 {
			b.Fatalf("exit code %d:\n%s", p.exitCode, p.console.text())
		}
		if err := chromedp.Cancel(p.ctx); err != nil { // the tab closed
			b.Fatal(err)
		}
		return frameRate(b, p.console.text()), p.console.text()
	}
	var browserFPS, windowFPS, bareFPS []float64
	for b.Loop() {
		bareFPS = append(bareFPS, barePage(b, browserCx))
		fps, report := inBrowser(browserCx)
		browserFPS = append(browserFPS, fps)
		out, err := exec.Command(arenaBin, "-seconds", "10", "-seed", "1").CombinedOutput()
		if err != nil {
			b.Fatalf("arenafps: %v\n%s", err, out)
		}
		windowFPS = append(windowFPS, frameRate(b, string(out)))
		b.Logf("browser:\n%s\nwindow:\n%s", report, out)
	}
	br, win, bare := mean(browserFPS), mean(windowFPS), mean(bareFPS)
	b.ReportMetric(br, "browser-frames/s")
	b.ReportMetric(win, "window-frames/s")
	b.ReportMetric(br/win, "browser/window")
	b.ReportMetric(bare, "bare-frames/s")
	b.ReportMetric(br/bare, "browser/bare")
	for _, f := range []struct{ path, unit string }{{wasmPath, "wasm-bytes"}, {wasmPath + ".gz", "wasm-gzip-bytes"}} {
		st, err := os.Stat(f.path)
		if err != nil {
			b.Fatal(err)
		}
		b.ReportMetric(float64(st.Size()), f.unit)
	}
}

// bareFrames clears a WebGL2 canvas of the Arena's size (960×540, without
// multisampling, as play.js asks for the game's) in each animation frame
// for 10 seconds and resolves to the frames a second.
const bareFrames = `new Promise(resolve => {
	document.body.style.margin = "0";
	const c = document.createElement("canvas");
	c.width = 960; c.height = 540;
	document.body.appendChild(c);
	const gl = c.getContext("webgl2", {antialias: false});
	let n = 0, t0 = 0;
	const frame = (t) => {
		gl.clearColor(0.1, 0.1, 0.1, 1);
		gl.clear(gl.COLOR_BUFFER_BIT);
		if (n++ === 0) t0 = t;
		if (t - t0 < 10000) requestAnimationFrame(frame); else resolve((n - 1) / ((t - t0) / 1000));
	};
	requestAnimationFrame(frame);
})`

// barePage runs bareFrames in a tab of its own, closed after it, and
// returns its frames a second.
func barePage(b *testing.B, browser context.Context) float64 {
	b.Helper()
	ctx, cancel := chromedp.NewContext(browser)
	defer cancel()
	if err := chromedp.Do(ctx, chromedp.EmulateViewport(960, 540), chromedp.Navigate("about:blank")); err != nil {
		b.Fatal(err)
	}
	fps, err := chromedp.Run(ctx, chromedp.Evaluate[float64](bareFrames, chromedp.EvalAwaitPromise))
	if err != nil {
		b.Fatal(err)
	}
	if err := chromedp.Cancel(ctx); err != nil {
		b.Fatal(err)
	}
	return fps
}

var (
	summaryRE = regexp.MustCompile(`scene Arena: game time (\S+), frames (\d+)`)
	lostRE    = regexp.MustCompile(`dropped (\S+), clamped (\S+),`)
)

// frameRate reads frames per real second from the Arena's report.
func frameRate(b *testing.B, out string) float64 {
	b.Helper()
	s, l := summaryRE.FindStringSubmatch(out), lostRE.FindStringSubmatch(out)
	if s == nil || l == nil {
		b.Fatalf("no report in:\n%s", out)
	}
	var real time.Duration
	for _, d := range []string{s[1], l[1], l[2]} {
		v, err := time.ParseDuration(d)
		if err != nil {
			b.Fatal(err)
		}
		real += v
	}
	frames, err := strconv.Atoi(s[2])
	if err != nil {
		b.Fatal(err)
	}
	return float64(frames) / real.Seconds()
}

func mean(xs []float64) float64 {
	var s float64
	for _, x := range xs {
		s += x
	}
	return s / float64(len(xs))
}
