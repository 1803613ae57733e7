package main

import (
	"errors"
	"fmt"
	"image"
	"image/png"
	"io"
	"os"
	"time"

	"github.com/fixedstep/fixedstep/engine"
	"github.com/fixedstep/fixedstep/scenes"
)

// config is the demo's command line.
type config struct {
	headless, realtime bool
	seconds, fps       float64
	seed               uint64
	screenshot         string
	frames             int
}

// run runs the demo as configured, writing its summary to out.
func run(cfg config, out io.Writer) error {
	if cfg.screenshot != "" && cfg.headless {
		return errors.New("-screenshot needs a window: drop -headless (run under xvfb-run -a without a display)")
	}
	if cfg.frames < 1 {
		return fmt.Errorf("-frames %d: must be at least 1", cfg.frames)
	}
	opts := &scenes.Options{Seconds: cfg.seconds, Seed: cfg.seed, Out: out}
	engineOpts := &engine.Options{Window: engine.Window{Title: "fixedstep demo", Resizable: true}}
	if cfg.headless || cfg.realtime {
		if opts.Seconds == 0 {
			opts.Seconds = 5
		}
		engineOpts.Headless = &engine.Headless{FPS: cfg.fps, Realtime: cfg.realtime}
	}
	var shotErr error
	frames := 0
	if cfg.screenshot != "" {
		opts.AfterRender = func(loop *engine.Loop, ev engine.Event) {
			if frames++; frames == cfg.frames {
				shotErr = savePNG(cfg.screenshot, ev)
				loop.Stop()
			}
		}
	}
	start := time.Now()
	err := engine.Run(scenes.First(opts), engineOpts)
	if err != nil {
		return err
	}
	if shotErr != nil {
		return shotErr
	}
	if cfg.screenshot != "" && frames < cfg.frames {
		return fmt.Errorf("-screenshot: the demo ended after %d frames, before frame %d", frames, cfg.frames)
	}
	fmt.Fprintf(out, "ran in %v of real time\n", time.Since(start).Round(time.Millisecond))
	return nil
}

// savePNG writes the frame just drawn to a PNG file.
func savePNG(path string, ev engine.Event) error {
	if ev.Screen == nil {
		return errors.New("screenshot: the frame has no screen")
	}
	b := ev.Screen.Bounds()
	img := image.NewRGBA(b)
	ev.Screen.ReadPixels(img.Pix)
	f, err := os.Create(path)
	if err != nil {
		return fmt.Errorf("screenshot: %w", err)
	}
	if err := png.Encode(f, img); err != nil {
		f.Close()
		return fmt.Errorf("screenshot %s: %w", path, err)
	}
	return f.Close()
}
