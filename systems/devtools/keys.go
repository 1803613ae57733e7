package devtools

import (
	"fmt"
	"io"
	"os"
	"path/filepath"
	"time"

	"github.com/hajimehoshi/ebiten/v2"

	"github.com/fixedstep/fixedstep/engine"
	"github.com/fixedstep/fixedstep/engine/input"
	"github.com/fixedstep/fixedstep/engine/window"
	"github.com/fixedstep/fixedstep/third_party/donburi"
)

// Keys are the keys every game has while it is made and tested:
//
//	F3      the overlay (FPS, ticks per second, alpha, per-system timings)
//	F4      the inspector (click an entity, or Tab, to see its components)
//	P       pause
//	.       a single step while paused
//	,       a step back while paused (engine.Rewinder.Back: to one tick before, from a keyframe)
//	[ and ] time scale halved and doubled (1/16 to 16)
//	F11     fullscreen
//	F12     a screenshot of the next frame, to a PNG file
//
// They act on the frame's live input (Input events): they change how the
// game is shown and how fast it runs, never what happens in it, so replays
// are the same with or without them. A step back goes to the tick before,
// exactly (engine.Rewinder.Back: from the last keyframe, or by re-running the
// run); it needs a run made by cli.App (or recorded, with Options.Keyframes
// or Options.Restart), and the recording then goes on from the tick
// stepped back to. Add Input as an input system
// (Scheduler.AddInput); Stage does. Nothing here allocates per frame, but
// for the screenshot.
type Keys struct {
	// Dir is the folder screenshots go to; "" is the current folder. They
	// are named screenshot-<date>-<time>.png.
	Dir string
	// Log receives a line for every screenshot saved (or not) and every
	// rewind; nil means os.Stderr.
	Log io.Writer

	// Inspector is what F4 toggles (nil: F4 does nothing); Stage sets it.
	Inspector *Inspector

	loop    *engine.Loop
	overlay *Overlay
	last    string // the last screenshot's path, "" before the first
	err     error  // and how it went
}

// NewKeys returns the dev keys of loop; F3 toggles overlay (nil: F3
// does nothing).
func NewKeys(loop *engine.Loop, overlay *Overlay) *Keys {
	return &Keys{loop: loop, overlay: overlay}
}

// Input acts on the keys pressed in ev's frame. It is an engine.System for
// Input events (Scheduler.AddInput).
func (d *Keys) Input(_ donburi.World, ev engine.Event) {
	in := ev.Input
	if ev.Kind != engine.Input || in == nil {
		return
	}
	l := d.loop
	if in.KeyPressed(input.KeyF3) && d.overlay != nil {
		d.overlay.Toggle()
	}
	if in.KeyPressed(input.KeyF4) && d.Inspector != nil {
		d.Inspector.Toggle()
	}
	if in.KeyPressed(input.KeyP) {
		l.SetPaused(!l.Paused())
	}
	if in.KeyPressed(input.KeyPeriod) {
		l.Step()
	}
	if in.KeyPressed(input.KeyComma) {
		to := l.Ticks(0) - 1
		carry(l, d.overlay, d.Inspector)
		if err := l.Rewinder().Back(1); err != nil {
			fmt.Fprintf(d.log(), "rewind: %v\n", err)
		} else {
			fmt.Fprintf(d.log(), "rewind: back to tick %d\n", max(to, 0))
			if err := l.Rewinder().KeyframesStopped(); err != nil {
				fmt.Fprintf(d.log(), "rewind: %v (a step back past them re-runs the run)\n", err)
			}
		}
	}
	if in.KeyPressed(input.KeyBracketLeft) {
		_ = l.SetTimeScale(max(l.TimeScale()/2, 1.0/16))
	}
	if in.KeyPressed(input.KeyBracketRight) {
		_ = l.SetTimeScale(min(l.TimeScale()*2, 16))
	}
	if in.KeyPressed(input.KeyF11) {
		ebiten.SetFullscreen(!ebiten.IsFullscreen())
	}
	if in.KeyPressed(input.KeyF12) {
		name := fmt.Sprintf("screenshot-%s.png", time.Now().Format("20060102-150405.000"))
		window.Screenshot(filepath.Join(d.Dir, name), d.saved)
	}
}

// Screenshot returns the path of the last screenshot F12 asked for ("" if
// none yet) and how its save went (nil once it is on disk).
func (d *Keys) Screenshot() (path string, err error) { return d.last, d.err }

func (d *Keys) log() io.Writer {
	if d.Log == nil {
		return os.Stderr
	}
	return d.Log
}

func (d *Keys) saved(path string, err error) {
	d.last, d.err = path, err
	out := d.log()
	if err != nil {
		fmt.Fprintf(out, "screenshot: %v\n", err)
		return
	}
	fmt.Fprintf(out, "screenshot saved to %s\n", path)
}
