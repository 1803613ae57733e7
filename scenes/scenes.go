// Package scenes holds the demo's scenes. Each is a value that owns its world,
// its scheduler and what it loads, runs on the loop it is handed, and returns
// the scene that follows.
package scenes

import (
	"fmt"
	"hash/fnv"
	"io"
	"math"
	"time"

	"github.com/hajimehoshi/ebiten/v2"

	"github.com/fixedstep/fixedstep/engine"
)

// Options are what every demo scene is given.
type Options struct {
	// Seconds is how long each scene lasts, in game seconds (0: until Esc or
	// Space in a window; 5 s headless).
	Seconds float64
	// Seed seeds every random choice a scene makes.
	Seed uint64
	// Out receives a summary of each scene as it ends (nil: none).
	Out io.Writer
	// AfterRender, if set, is called after every frame is drawn (for
	// screenshots).
	AfterRender func(loop *engine.Loop, ev engine.Event)
}

// First returns the scene the demo starts with.
func First(opts *Options) engine.Scene { return &Bounce{opts: opts} }

// sceneOver reports whether the scene has lasted its time, or the player asked
// to move on (Space or Enter) or to quit (Esc, which also stops the loop).
func sceneOver(loop *engine.Loop, ev engine.Event, opts *Options) bool {
	if ev.Kind == engine.Input {
		in := ev.Input
		if in.KeyPressed(ebiten.KeyEscape) {
			loop.Stop()
			return true
		}
		return in.KeyPressed(ebiten.KeySpace) || in.KeyPressed(ebiten.KeyEnter)
	}
	return ev.Kind == engine.Render && opts.Seconds > 0 &&
		ev.Time >= time.Duration(opts.Seconds*float64(time.Second))
}

// summary writes what a scene did, ending with a checksum of its state.
func summary(opts *Options, name string, loop *engine.Loop, state []float64) {
	if opts.Out == nil {
		return
	}
	h := fnv.New64a()
	var b [8]byte
	for _, v := range state {
		u := math.Float64bits(v)
		for i := range b {
			b[i] = byte(u >> (8 * i))
		}
		h.Write(b[:])
	}
	st := loop.Stats()
	fmt.Fprintf(opts.Out, "%s: game time %v, ticks %d, frames since start %d, dropped %v, checksum %016x\n",
		name, st.GameTime, loop.Ticks(0), st.Frames, st.Dropped, h.Sum64())
}
