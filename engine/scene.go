package engine

import (
	"context"
	"errors"
	"fmt"
	"runtime/debug"
	"strings"
	"time"
)

// A Scene is a value that owns what it needs (its world, its scheduler, its
// assets) and runs on the loop it is handed, as in Piston: Run pulls events
// until the scene is over, then returns the next scene, or nil to end the game.
// Loading belongs in Run before the first event (the loop starts a fresh
// timeline when the scene asks for events, so loading time is never caught
// up) and releasing in a defer, so that it runs however the scene ends.
type Scene interface {
	Run(loop *Loop) (next Scene, err error)
}

// SceneName returns the name of s: its Name method if it has one, otherwise
// its type name ("Arena" for a *scenes.Arena).
func SceneName(s Scene) string {
	if n, ok := s.(interface{ Name() string }); ok {
		return n.Name()
	}
	name := fmt.Sprintf("%T", s)
	name = strings.TrimLeft(name, "*")
	if i := strings.LastIndexByte(name, '.'); i >= 0 {
		name = name[i+1:]
	}
	return name
}

// NewScene makes a Scene of a function, named name.
func NewScene(name string, run func(loop *Loop) (Scene, error)) Scene {
	return &funcScene{name: name, run: run}
}

type funcScene struct {
	name string
	run  func(*Loop) (Scene, error)
}

func (s *funcScene) Name() string                  { return s.name }
func (s *funcScene) Run(loop *Loop) (Scene, error) { return s.run(loop) }

// A SceneError is an error returned, or a panic raised, by a scene's Run.
type SceneError struct {
	Scene string // the scene's name (see SceneName)
	Err   error  // what it returned; for a panic, an error describing the panic value
	Panic any    // the panic value, nil if the scene returned an error
	Stack []byte // the stack where it panicked
}

func (e *SceneError) Error() string {
	if e.Panic != nil {
		return fmt.Sprintf("scene %s: panic: %v", e.Scene, e.Panic)
	}
	return fmt.Sprintf("scene %s: %v", e.Scene, e.Err)
}

func (e *SceneError) Unwrap() error { return e.Err }

// Options configure [Run]. The zero value (or nil) runs the scenes in a
// window with the default loop.
type Options struct {
	// Context, when cancelled, ends the event stream after the current
	// event, as Stop does, and the scene chain with it (even scenes that
	// never ask for events); Run then returns an error wrapping the
	// context's error.
	Context context.Context

	// Config is the loop's configuration.
	Config Config

	// Headless, if set, runs without a window or GPU; see [Headless].
	Headless *Headless

	// Window sets up the window when not headless.
	Window Window

	// Input replaces the driver's own input, sampled once a frame: the
	// devices in a window, nothing headless. It is for devices (or a test
	// that plays a device): what a frame-sampled source gives depends on the
	// frame rate. An autopilot, a script or a bot goes in TickInput.
	Input InputSource

	// TickInput, if set, gives every tick of every group its input, one
	// tick at a time, so that it is the same at any frame rate (see
	// [TickInput]); a scene's own [Loop.SetTickInput] takes precedence for
	// its group. Input events still carry the frame's sample.
	TickInput TickInput

	// Record, if set, receives the run: every scene's timeline and the input
	// of every tick (see [InputLog]). It must be new (or just given a file
	// by [InputLog.Create]); Run marks it complete when the chain ends and
	// writes its file's last records, but does not close the file.
	Record *InputLog

	// StopAt, when positive, stops the run (as Loop.Stop does) right after
	// the tick that brings the game time of its scenes' first groups, summed
	// over the scenes, to StopAt: the same tick at any frame rate.
	StopAt time.Duration

	// OnEvent, if set, sees every event as the loop delivers it, before the
	// scene does: for measurements and tools. AfterFrame, if set, is called
	// once the scene has handled each Render event (its Screen then holds
	// the frame the scene drew, until the next event). Both run on the
	// loop's goroutine; they should not allocate if frames are to stay
	// allocation-free.
	OnEvent, AfterFrame func(loop *Loop, ev Event)

	// AfterUpdate, if set, is called once the scene has handled each Update
	// event (at the next call to Loop.Next): the state after that tick, for
	// a dump (Loop.DumpState) or a measurement.
	AfterUpdate func(loop *Loop, ev Event)

	// OnDivergence, if set, is told of a replay's divergence as it is
	// found, with the scene's state still as it diverged (Loop.DumpState
	// writes it); it may fill in the error's Dump.
	OnDivergence func(loop *Loop, err *DivergenceError)

	// Restart, if set, makes the run's first scene anew, for Loop.Rewind,
	// which re-runs the run from it. engine.App sets it.
	Restart func() (Scene, error)

	// Replay, if set, feeds every tick the input it had when recorded, in
	// place of live input and TickInput (Input events still carry the live
	// sample), checks the state, and ends the run where the recording
	// ended; [InputLog.Replayed] then says how far it went.
	Replay *InputLog
}

// Window is the window of the ebiten driver. Zero fields take the defaults.
//
// The game keeps running while the window is unfocused (ebiten's
// SetRunnableOnUnfocused is always on, so the engine decides): by default
// ticks and frames go on as if it had focus. With PauseOnFocusLoss, losing
// focus holds game time: no Update event arrives, Render events keep coming
// with the same Time and Alpha, and regaining focus resumes from the held
// time, without catching up the time spent unfocused. The hold is apart from
// [Loop.SetPaused]: a scene's own pause stays on when focus returns, and
// [Loop.FocusPaused] reports the hold. The driver asks ebiten for the focus
// 20 times a second from a goroutine of its own (ebiten.IsFocused is a round
// trip to the window system, and allocates), so the hold begins and ends
// within about 50 ms of the change and frames allocate nothing for it.
//
// Closing the window (the window manager's close button) ends the event
// stream and [Run] returns nil. A resize reaches the scene through the
// screen: with ScreenWidth and ScreenHeight 0, the Render event's Screen has
// the window's new size from the next frame on.
type Window struct {
	Title         string // default "fixedstep"
	Width, Height int    // window size in device-independent pixels; default 960x540
	// ScreenWidth, ScreenHeight fix the size of the screen image render
	// systems draw on; 0 means the window's size.
	ScreenWidth, ScreenHeight int
	Resizable                 bool
	Fullscreen                bool
	// PauseOnFocusLoss holds game time while the window is unfocused;
	// false (the default) keeps it running.
	PauseOnFocusLoss bool
}

// Run runs the scene chain that starts with first, handing each scene the
// loop, until a scene returns nil, the window closes, [Loop.Stop] is called or
// the context is cancelled. It returns nil in the first three cases, and
// otherwise the first error, wrapped in a *SceneError naming the scene. A
// panic in a scene is recovered into such an error.
//
// In a window (opts.Headless nil), Run must be called once per process, from
// the main goroutine; without a display it returns an error that says how to
// run headless or under xvfb-run.
func Run(first Scene, opts *Options) error {
	if opts == nil {
		opts = &Options{}
	}
	if first == nil {
		return errors.New("engine: Run: the first scene is nil")
	}
	if opts.Record != nil && (opts.Record.Scenes() > 0 || opts.Record.Complete()) {
		return errors.New("engine: Run: Options.Record holds a recording already: give it a new InputLog")
	}
	if opts.Headless != nil {
		loop, err := NewHeadlessLoop(opts.Config, opts.Headless, opts)
		if err != nil {
			return err
		}
		return loop.finish(loop.runChains(first))
	}
	return runWindow(first, opts)
}

// runChain runs scenes on loop until the chain ends.
func runChain(loop *Loop, scene Scene) error {
	for scene != nil {
		if loop.Stopped() {
			if loop.cancelled.Load() {
				return &SceneError{Scene: SceneName(scene), Err: loop.ctx.Err()}
			}
			break
		}
		loop.begun = false
		loop.rec.sceneStarts()
		loop.tickSrc = loop.tickSrc[:0]
		name := SceneName(scene)
		loop.sceneName = name
		next, err := runScene(loop, scene)
		if loop.rec.rewind != nil { // the chain is to run again, to an earlier tick
			return errRewind
		}
		if err == nil && loop.err != nil {
			err = loop.err
		}
		end := EndReturned
		switch {
		case err != nil && !(loop.cancelled.Load() && errors.Is(err, loop.ctx.Err())):
			end = EndFailed
		case loop.Stopped(): // the window closed, Stop, a cancelled context
			end = EndStopped
		}
		if rerr := loop.endTimeline(end, err); rerr != nil && err == nil {
			err = rerr
		}
		if err != nil {
			var se *SceneError
			if errors.As(err, &se) && se.Scene == name {
				return err
			}
			return &SceneError{Scene: name, Err: err}
		}
		scene = next
	}
	return nil
}

func runScene(loop *Loop, scene Scene) (next Scene, err error) {
	defer func() {
		if v := recover(); v != nil {
			next = nil
			err = &SceneError{Scene: SceneName(scene), Err: fmt.Errorf("panic: %v", v), Panic: v, Stack: debug.Stack()}
		}
	}()
	return scene.Run(loop)
}
