package main

import (
	"errors"
	"fmt"
	"io"
	"os"
	"runtime/pprof"

	"github.com/fixedstep/fixedstep/engine"
	"github.com/fixedstep/fixedstep/scenes"
)

// config is the demo's command line.
type config struct {
	headless, realtime bool
	seconds, fps       float64
	seed               uint64
	scene              string
	bodies             int
	record, replay     string
	screenshot         string
	frames             int
	cpuprofile         string
}

// run runs the demo as configured, writing its summary to out.
func run(cfg config, out io.Writer) error {
	if cfg.screenshot != "" && (cfg.headless || cfg.realtime) {
		return errors.New("-screenshot needs a window: drop -headless (run under xvfb-run -a without a display)")
	}
	if cfg.frames < 1 {
		return fmt.Errorf("-frames %d: must be at least 1", cfg.frames)
	}
	if cfg.seconds < 0 {
		return fmt.Errorf("-seconds %v: must not be negative", cfg.seconds)
	}
	headless := cfg.headless || cfg.realtime
	opts := &scenes.Options{Seed: cfg.seed, Seconds: cfg.seconds, Bodies: cfg.bodies, Out: out}
	engineOpts := &engine.Options{Window: engine.Window{Title: "fixedstep demo", Width: scenes.ArenaWidth,
		Height: scenes.ArenaHeight, ScreenWidth: scenes.ArenaWidth, ScreenHeight: scenes.ArenaHeight, Resizable: true}}
	if headless {
		if cfg.scene == "" {
			cfg.scene = "arena"
		}
		if cfg.scene == "title" {
			return errors.New("-scene title needs a window: headless runs start at arena or stress")
		}
		if opts.Seconds == 0 {
			opts.Seconds = 10
		}
		opts.Autopilot = true
		engineOpts.Headless = &engine.Headless{FPS: cfg.fps, Realtime: cfg.realtime}
	}
	if cfg.replay != "" {
		log, err := engine.LoadInputLog(cfg.replay)
		if err != nil {
			return err
		}
		// The autopilot steers without input: a run it played replays with it.
		engineOpts.Replay, opts.Seed, opts.Autopilot = log, log.Seed, log.Settings["autopilot"] == "1"
	}
	var recording *engine.InputLog
	if cfg.record != "" {
		recording = &engine.InputLog{Seed: opts.Seed}
		if opts.Autopilot {
			recording.Settings = map[string]string{"autopilot": "1"}
		}
		engineOpts.Record = recording
	}
	first, err := scenes.First(cfg.scene, opts)
	if err != nil {
		return fmt.Errorf("-scene: %w", err)
	}

	var shotErr error
	frames := 0
	if cfg.screenshot != "" {
		opts.AfterRender = func(loop *engine.Loop, ev engine.Event) {
			if frames++; frames == cfg.frames {
				shotErr = scenes.SavePNG(cfg.screenshot, ev.Screen)
				loop.Stop()
			}
		}
	}
	if cfg.cpuprofile != "" {
		f, err := os.Create(cfg.cpuprofile)
		if err != nil {
			return fmt.Errorf("-cpuprofile: %w", err)
		}
		defer f.Close()
		if err := pprof.StartCPUProfile(f); err != nil {
			return fmt.Errorf("-cpuprofile: %w", err)
		}
		defer pprof.StopCPUProfile()
	}

	var probe *realtimeProbe
	if cfg.realtime {
		probe = newRealtimeProbe(opts.Seconds)
		opts.OnEvent, opts.ReportLine = probe.event, probe.line
	}
	if err := engine.Run(first, engineOpts); err != nil {
		return err
	}
	if recording != nil {
		if err := recording.Save(cfg.record); err != nil {
			return err
		}
	}
	if shotErr != nil {
		return shotErr
	}
	if cfg.screenshot != "" && frames < cfg.frames {
		return fmt.Errorf("-screenshot: the demo ended after %d frames, before frame %d", frames, cfg.frames)
	}
	return nil
}
