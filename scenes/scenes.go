// Package scenes holds the demo's scenes: Title, Arena, Results and Stress.
// Each is a value that owns its world, its scheduler and its asset bundle,
// loads them when it starts, releases them when it ends, and hands the loop to
// the scene that follows.
package scenes

import (
	"fmt"
	"hash"
	"hash/fnv"
	"image"
	"image/png"
	"io"
	"math"
	"os"
	"slices"
	"time"

	"github.com/hajimehoshi/ebiten/v2"
	"github.com/yohamta/donburi"
	"github.com/yohamta/donburi/filter"

	"github.com/fixedstep/fixedstep/assets"
	"github.com/fixedstep/fixedstep/components"
	"github.com/fixedstep/fixedstep/engine"
	"github.com/fixedstep/fixedstep/systems"
)

// Options are what every demo scene is given.
type Options struct {
	Seed uint64
	// Seconds, when positive, overrides how long the Arena and the Stress
	// scene last, in game seconds, and makes the chain end after them (no
	// Results, no return to the Title): for headless runs and tests.
	Seconds float64
	// Bodies is the Stress scene's starting body count (0: 1000).
	Bodies int
	// Autopilot plays the Arena with a seeded pilot instead of the input.
	Autopilot bool
	// Churn, when positive, makes the Arena remove its Churn oldest props
	// (boxes and balls) and spawn as many new ones, away from the player,
	// every second of game time: constant spawning and despawning at a
	// constant body count, for soak tests. 0: the props stay.
	Churn int
	// Undying keeps the Arena going when the player's health runs out (it
	// stays at 0): then only its time limit (Seconds, or 60 s), Esc or the
	// loop's end stop it. For soak tests.
	Undying bool
	// Out receives the report of the last gameplay scene when the chain ends
	// (see Report); nil: none.
	Out io.Writer
	// AfterRender, if set, is called after every frame is drawn.
	AfterRender func(loop *engine.Loop, ev engine.Event)
	// OnEvent, if set, sees every event of the Arena and Stress scenes
	// before they handle it (for measurements).
	OnEvent func(loop *engine.Loop, ev engine.Event)
	// ReportLine, if set, adds a line of its own to the report that the
	// Arena and Stress scenes print at their end.
	ReportLine func() string
	// OnRelease, if set, is told each time a scene has released its world
	// and assets: what was left (0 entities and bodies, a released bundle).
	OnRelease func(scene string, left Leftovers)
}

// Leftovers is what a scene still held after releasing: all zero and true
// when it released everything.
type Leftovers struct {
	Entities, Bodies int
	BundleReleased   bool
}

// First returns the first scene: the Title, or the scene named (title,
// arena, stress). Unknown names are an error naming the choices.
func First(name string, opts *Options) (engine.Scene, error) {
	switch name {
	case "", "title":
		return &Title{opts: opts}, nil
	case "arena":
		return &Arena{opts: opts}, nil
	case "stress":
		return &Stress{opts: opts}, nil
	}
	return nil, fmt.Errorf("no scene %q: choose title, arena or stress", name)
}

// stage is what every scene has: a world, a scheduler over it, an asset
// bundle, the overlay, and the keys every scene shares.
type stage struct {
	opts    *Options
	name    string
	world   donburi.World
	sched   *engine.Scheduler
	bundle  *assets.Bundle
	overlay *systems.Overlay
	physics *systems.Physics // nil in scenes without physics
	shot    bool             // F12 was pressed: save the next frame
	over    bool             // set by a system: play returns
	quit    bool             // Esc: back to the Title
}

// load makes the stage's world, scheduler (with groups) and bundle.
func (s *stage) load(loop *engine.Loop, name string, opts *Options, groups ...engine.Group) error {
	s.opts, s.name = opts, name
	s.world = donburi.NewWorld()
	s.sched = engine.NewScheduler(s.world, groups...)
	b, err := assets.LoadDefault()
	if err != nil {
		return err
	}
	s.bundle = b
	s.overlay = systems.NewOverlay(loop, s.sched, &systems.OverlayOptions{Hidden: true})
	return nil
}

// release removes every entity (taking bodies out of the space) and frees
// the bundle's GPU memory, then reports what was left.
func (s *stage) release() {
	var all []donburi.Entity
	donburi.NewQuery(filter.Contains()).Each(s.world, func(e *donburi.Entry) {
		all = append(all, e.Entity())
	})
	for _, e := range all {
		if s.world.Valid(e) {
			s.world.Remove(e)
		}
	}
	s.bundle.Deallocate()
	if s.opts.OnRelease != nil {
		left := Leftovers{Entities: s.world.Len(), BundleReleased: s.bundle.Released()}
		if s.physics != nil {
			left.Bodies, _ = s.physics.Bodies()
		}
		s.opts.OnRelease(s.name, left)
	}
}

// controls handles the keys every scene shares, on the loop's Input events:
// F3 overlay, P pause, period single step, [ and ] time scale, F11
// fullscreen, F12 screenshot. It reports whether Esc was pressed.
func (s *stage) controls(loop *engine.Loop, in *engine.InputState) (esc bool) {
	switch {
	case in.KeyPressed(ebiten.KeyF3):
		s.overlay.Toggle()
	case in.KeyPressed(ebiten.KeyP):
		loop.SetPaused(!loop.Paused())
	case in.KeyPressed(ebiten.KeyPeriod):
		loop.Step()
	case in.KeyPressed(ebiten.KeyBracketLeft):
		_ = loop.SetTimeScale(max(loop.TimeScale()/2, 1.0/16))
	case in.KeyPressed(ebiten.KeyBracketRight):
		_ = loop.SetTimeScale(min(loop.TimeScale()*2, 16))
	case in.KeyPressed(ebiten.KeyF11):
		ebiten.SetFullscreen(!ebiten.IsFullscreen())
	case in.KeyPressed(ebiten.KeyF12):
		s.shot = true
	}
	return in.KeyPressed(ebiten.KeyEscape)
}

// play runs the stage's events until a system sets s.over or the loop stops:
// the shared keys on Input events (Esc is left to the scene's systems, which
// read it on a tick with quitOnEsc, so that a replay ends where its recording
// did), the scheduler on Update and Render events. sum hashes the scene's
// game state: a recording stores it every tick, and a replay stops where its
// state first differs from the recording (see engine.Loop.SetChecksum).
func (s *stage) play(loop *engine.Loop, sum func() uint64) {
	loop.SetChecksum(sum)
	for ev := range loop.Events(s.sched.Groups()...) {
		if s.opts.OnEvent != nil {
			s.opts.OnEvent(loop, ev)
		}
		switch ev.Kind {
		case engine.Input:
			s.controls(loop, ev.Input)
		case engine.Update:
			s.sched.Update(ev)
		case engine.Render:
			s.sched.Render(ev)
			s.rendered(loop, ev)
		}
		if s.over {
			return
		}
	}
}

// quitOnEsc ends play and asks for the Title when a tick's input has Esc
// pressed.
func (s *stage) quitOnEsc(in *engine.InputState) {
	if in.KeyPressed(ebiten.KeyEscape) {
		s.over, s.quit = true, true
	}
}

// rendered runs after each frame is drawn: a pending F12 screenshot, then
// the demo's hook.
func (s *stage) rendered(loop *engine.Loop, ev engine.Event) {
	if s.shot && ev.Screen != nil {
		s.shot = false
		name := fmt.Sprintf("screenshot-%s.png", time.Now().Format("20060102-150405.000"))
		if err := SavePNG(name, ev.Screen); err != nil {
			fmt.Fprintln(os.Stderr, "demo:", err)
		}
	}
	if s.opts.AfterRender != nil {
		s.opts.AfterRender(loop, ev)
	}
}

// SavePNG writes an image (the screen inside a Render event) to a PNG file.
func SavePNG(path string, img *ebiten.Image) error {
	rgba := image.NewRGBA(img.Bounds())
	img.ReadPixels(rgba.Pix)
	f, err := os.Create(path)
	if err != nil {
		return fmt.Errorf("screenshot: %w", err)
	}
	if err := png.Encode(f, rgba); err != nil {
		f.Close()
		return fmt.Errorf("screenshot %s: %w", path, err)
	}
	return f.Close()
}

// report writes the summary of a gameplay scene: ticks per group, frames,
// lost time, per-system mean and max time, and last a checksum line.
func (s *stage) report(loop *engine.Loop, sum uint64, lines ...string) {
	out := s.opts.Out
	if out == nil {
		return
	}
	st := loop.Stats()
	fmt.Fprintf(out, "scene %s: game time %v, frames %d\n", s.name, st.GameTime, st.Frames)
	if s.opts.ReportLine != nil {
		lines = append(lines, s.opts.ReportLine())
	}
	for _, l := range lines {
		fmt.Fprintf(out, "  %s\n", l)
	}
	for i, g := range s.sched.Groups() {
		fmt.Fprintf(out, "  group %-8s %6.2f Hz: %d ticks\n", g.Name, g.Hz, loop.Ticks(i))
	}
	fmt.Fprintf(out, "  dropped %v, clamped %v, clock went back %d times\n", st.Dropped, st.Clamped, st.ClockBackwards)
	fmt.Fprintf(out, "  %-12s %-8s %8s %10s %10s\n", "system", "phase", "calls", "mean", "max")
	for _, sys := range s.sched.Stats() {
		phase := "render"
		if sys.Group >= 0 {
			phase = s.sched.Groups()[sys.Group].Name
		}
		fmt.Fprintf(out, "  %-12s %-8s %8d %10v %10v\n", sys.Name, phase, sys.Count, sys.Mean(), sys.Max)
	}
	fmt.Fprintf(out, "checksum %016x\n", sum)
}

// checksum hashes the simulation state of every entity: transforms, body
// velocities and agents, in entity order.
func checksum(w donburi.World, extra ...float64) uint64 {
	h := fnv.New64a()
	q := donburi.NewQuery(filter.Contains(components.TransformC))
	var ents []donburi.Entity
	q.Each(w, func(e *donburi.Entry) { ents = append(ents, e.Entity()) })
	slices.Sort(ents)
	for _, e := range ents {
		entry := w.Entry(e)
		tr := components.TransformC.Get(entry)
		writeFloats(h, float64(e.Id()), tr.Cur.X, tr.Cur.Y, tr.Cur.Angle)
		if entry.HasComponent(components.BodyC) {
			v := components.BodyC.Get(entry).Body.Velocity()
			writeFloats(h, v.X, v.Y)
		}
		if entry.HasComponent(components.AgentC) {
			a := components.AgentC.Get(entry)
			writeFloats(h, float64(a.State), a.Health, a.Desired.X, a.Desired.Y)
		}
	}
	writeFloats(h, extra...)
	return h.Sum64()
}

func writeFloats(h hash.Hash64, vs ...float64) {
	var b [8]byte
	for _, v := range vs {
		u := math.Float64bits(v)
		for i := range b {
			b[i] = byte(u >> (8 * i))
		}
		h.Write(b[:])
	}
}
