package window_test

import (
	"fmt"
	"os"
	"runtime"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/fixedstep/fixedstep/engine"
	"github.com/fixedstep/fixedstep/engine/input"
	"github.com/fixedstep/fixedstep/engine/window"
)

// A key pressed and released within one of ebiten's ticks reaches the game
// pipelined (the default with two CPUs) as serially (Options.Serial): each
// of five taps of 2 ms, against frames of some 40 ms, is one press on an
// Input event. ebiten reports such a key pressed only during its tick's
// Update, before the worker that runs the next frame's ticks: the driver
// reads the devices there. Each run is a child process (RunGame runs once
// a process), with GOMAXPROCS 2.
func TestShortPressesReachTheGame(t *testing.T) {
	if sc := os.Getenv(windowScenario); strings.HasPrefix(sc, "taps") {
		tapsChild(t, sc)
		return
	}
	needDisplay(t)
	for _, scenario := range []string{"taps-pipelined", "taps-serial"} {
		t.Run(scenario, func(t *testing.T) {
			out := runWindowChild(t, "TestShortPressesReachTheGame", scenario)
			if !strings.Contains(out, "TAPS "+scenario+" ok") || !strings.Contains(out, "--- PASS") {
				t.Fatalf("child output:\n%s", out)
			}
			t.Log(lines(out, "TAPS", "X:"))
		})
	}
}

// taps is how many taps the child's X goroutine makes.
const taps = 5

func tapsChild(t *testing.T, scenario string) {
	runtime.GOMAXPROCS(2)
	serial := scenario == "taps-serial"
	title := childTitle(scenario)
	var frames, presses atomic.Int64
	childWatch(func() string { return fmt.Sprintf("%d frames, %d presses", frames.Load(), presses.Load()) })
	go func() {
		x, win := childWindow(title)
		defer x.Close()
		if err := x.Focus(win); err != nil {
			childFail("%v", err)
		}
		waitFrames(&frames, "10 frames", func() bool { return frames.Load() >= 10 })
		for i := range taps {
			if err := x.Tap("space", 2*time.Millisecond); err != nil {
				childFail("%v", err)
			}
			// the next tap a few frames later, whatever the frames' pace
			at := frames.Load()
			waitFrames(&frames, "3 frames", func() bool { return frames.Load() >= at+3 })
			fmt.Printf("X: tap %d sent; %d presses seen\n", i+1, presses.Load())
		}
		waitFrames(&frames, "the scene's end", childReturned.Load)
	}()
	scene := engine.NewScene("Taps", func(loop *engine.Loop) (engine.Scene, error) {
		for ev := range loop.Events() {
			switch ev.Kind {
			case engine.Input:
				if ev.Input.KeyPressed(input.KeySpace) {
					presses.Add(1)
				}
			case engine.Render:
				time.Sleep(40 * time.Millisecond) // a slow frame: a tap begins and ends within one tick
				if frames.Add(1); presses.Load() >= taps {
					return nil, nil
				}
			}
		}
		return nil, loop.Err()
	})
	err := window.Run(scene, nil, &window.Options{Title: title, Width: 320, Height: 240, Serial: serial})
	childReturned.Store(true)
	pipelined := window.PipelinedFrames()
	fmt.Printf("%s err=%v frames=%d presses=%d pipelined=%d\n", runReturned, err, frames.Load(), presses.Load(), pipelined)
	if err != nil || presses.Load() != taps || serial != (pipelined == 0) {
		t.Fatalf("want %d presses, and frames pipelined unless serial", taps)
	}
	fmt.Printf("TAPS %s ok: %d presses in %d frames, %d pipelined\n", scenario, presses.Load(), frames.Load(), pipelined)
}
