package main

import (
	"bytes"
	"image/png"
	"os"
	"path/filepath"
	"regexp"
	"testing"
)

var checksumRE = regexp.MustCompile(`(?m)^(\w+): .* checksum ([0-9a-f]{16})$`)

// The same seed gives the same checksums whatever the virtual frame rate.
func TestHeadlessChecksumSameAtAnyFrameRate(t *testing.T) {
	sums := map[float64]string{}
	for _, fps := range []float64{24, 60, 144, 1000} {
		var out bytes.Buffer
		if err := run(config{headless: true, seconds: 2, fps: fps, seed: 7, frames: 1}, &out); err != nil {
			t.Fatal(err)
		}
		m := checksumRE.FindAllStringSubmatch(out.String(), -1)
		if len(m) != 2 || m[0][1] != "Bounce" || m[1][1] != "Orbit" {
			t.Fatalf("%v fps: summary %q", fps, out.String())
		}
		sums[fps] = m[0][2] + m[1][2]
	}
	for fps, sum := range sums {
		if sum != sums[60] {
			t.Errorf("checksums at %v fps %s differ from 60 fps %s", fps, sum, sums[60])
		}
	}
	var other bytes.Buffer
	if err := run(config{headless: true, seconds: 2, fps: 60, seed: 8, frames: 1}, &other); err != nil {
		t.Fatal(err)
	}
	if m := checksumRE.FindAllStringSubmatch(other.String(), -1); m[0][2]+m[1][2] == sums[60] {
		t.Error("another seed gave the same checksum")
	}
}

// Under Xvfb, -screenshot saves the window's frame, with the balls on it.
func TestScreenshotShowsTheBalls(t *testing.T) {
	if os.Getenv("DISPLAY") == "" {
		if os.Getenv("CI") != "" {
			t.Fatal("no DISPLAY in CI: run the tests through make test (xvfb-run)")
		}
		t.Skip("no DISPLAY: run under xvfb-run -a, or make test")
	}
	path := filepath.Join(t.TempDir(), "shot.png")
	if err := run(config{screenshot: path, frames: 30, seed: 1}, &bytes.Buffer{}); err != nil {
		t.Fatal(err)
	}
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	img, err := png.Decode(f)
	if err != nil {
		t.Fatal(err)
	}
	b := img.Bounds()
	ball, background := 0, 0
	for y := b.Min.Y; y < b.Max.Y; y++ {
		for x := b.Min.X; x < b.Max.X; x++ {
			r, g, bl, _ := img.At(x, y).RGBA()
			switch {
			case r>>8 == 16 && g>>8 == 20 && bl>>8 == 32:
				background++
			case bl>>8 > 200 && g>>8 > 40: // the balls are bright blue to pink
				ball++
			}
		}
	}
	total := b.Dx() * b.Dy()
	if background < total/2 || ball < 24*200 {
		t.Fatalf("%dx%d screenshot: %d background pixels, %d ball pixels", b.Dx(), b.Dy(), background, ball)
	}
}
