// Package window runs a game's scene chain in a window, with ebiten: the
// driver of the engine's loop (ebiten calls Update once a frame, the loop
// delivers the frame's events, Draw renders), the keyboard, mouse and
// gamepads read into the engine's input state, and the frame's screen,
// screenshots of it included. Package engine is the simulation core and
// knows nothing of ebiten; this package is where ebiten enters.
//
//	err := window.Run(&Title{}, &engine.Options{}, &window.Options{Title: "my game"})
//
// A render system draws on the screen of its Render event:
//
//	sched.AddRender(0, "draw", func(w donburi.World, ev engine.Event) {
//		if screen := window.Screen(ev); screen != nil { // nil headless
//			render.Fill(screen, color.Black) // package systems/render
//		}
//	})
package window

import (
	"errors"
	"fmt"
	"image"
	"iter"
	"os"
	"path/filepath"
	"runtime"
	"sync/atomic"
	"time"

	"github.com/fixedstep/fixedstep/engine"
	"github.com/fixedstep/fixedstep/engine/input"
	"github.com/hajimehoshi/ebiten/v2"
	"github.com/hajimehoshi/ebiten/v2/inpututil"
)

// The driver. ebiten calls Update once per frame (TPS is SyncWithFPS) and
// then Draw. The scene chain runs as a coroutine (iter.Pull) that the two
// callbacks resume: Update resumes it until its frame's updates are done and
// it waits to render; Draw resumes it to render, until it waits for the next
// frame. The coroutine is created inside the first Update, on ebiten's game
// goroutine, because a coroutine must be resumed with the OS-thread locking
// it was created with (that goroutine is not locked to a thread, as the
// worker below is not).
//
// Pipelined (see Options.Serial), Draw does not leave the next frame's
// updates to the next Update: once the scene has drawn, it hands the
// coroutine to a worker goroutine, which begins the next frame (the clock,
// and the devices as this frame's Update read them) and runs its ticks
// while ebiten presents the frame drawn; the next Update waits for the
// worker instead of resuming the coroutine, and reads the devices for the
// frame after. One goroutine at a time resumes the coroutine, the handover
// a channel's send and receive, so render systems still read a world
// nothing changes meanwhile. An Update with no Draw since the worker ran
// (ebiten skipped Draw) resumes the coroutine itself, as serially.
//
// In a browser the scene draws straight on ebiten's final screen (the
// canvas's drawing buffer) rather than on ebiten's offscreen image, which
// ebiten would then clear each frame and copy to the canvas: see
// drawsOnFinalScreen. Draw then only marks the offscreen used (ebiten
// presents no frame whose offscreen was left untouched) and the frame is
// rendered in DrawFinalScreen, on the final screen when it has the
// offscreen's size and nothing scales it (otherwise on the offscreen,
// cleared first, which is then drawn as ebiten would).

// Options are the window's. Zero fields take the defaults.
//
// The game keeps running while the window is unfocused (ebiten's
// SetRunnableOnUnfocused is always on, so the engine decides): by default
// ticks and frames go on as if it had focus. With PauseOnFocusLoss, losing
// focus holds game time: no Update event arrives, Render events keep coming
// with the same Time and Alpha, and regaining focus resumes from the held
// time, without catching up the time spent unfocused. The hold is apart from
// engine.Loop.SetPaused: a scene's own pause stays on when focus returns, and
// engine.Loop.FocusPaused reports the hold. The driver asks ebiten for the
// focus 20 times a second from a goroutine of its own (ebiten.IsFocused is a
// round trip to the window system, and allocates), so the hold begins and
// ends within about 50 ms of the change and frames allocate nothing for it.
//
// In a browser, a screen of the canvas's size in device pixels (the
// window's size, ScreenWidth and ScreenHeight 0 or the same, at a device
// scale of 1) is the canvas itself, filled opaque black, rather than an
// image ebiten clears to transparent and then draws on the canvas: the
// pixels shown are the same, and each frame costs two passes over the
// screen fewer, which a browser drawing WebGL in software needs.
//
// Closing the window (the window manager's close button) ends the event
// stream and [Run] returns nil. A resize reaches the scene through the
// screen: with ScreenWidth and ScreenHeight 0, the Render event's screen has
// the window's new size from the next frame on.
type Options struct {
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
	// Serial runs each frame's ticks and its drawing one after the other,
	// on ebiten's game goroutine. By default, where the process has more
	// than one CPU (GOMAXPROCS) and outside the browser, they are
	// pipelined: the next frame's ticks run on a goroutine of their own
	// while ebiten presents the frame just drawn (its draw commands sent to
	// the GPU, the buffer swap), so that a frame takes about the longer of
	// the two instead of their sum. The simulation is the same either way
	// (the same ticks, inputs and checksums); what pipelining costs is a
	// frame of latency: a frame's ticks see the devices as they were at the
	// frame before. Every key press still reaches the game, one shorter
	// than a frame too. Render systems still run on ebiten's game
	// goroutine while no tick runs. [PipelinedFrames] counts the frames
	// pipelined.
	Serial bool
}

type phase uint8

const (
	inUpdate phase = iota + 1
	inDraw
)

type driver struct {
	clock   engine.Clock
	suspend func(struct{}) bool // the coroutine's yield
	phase   phase               // the callback that resumed the coroutine
	started bool                // a frame began in this Update
	open    bool                // that frame has not rendered yet
	drawn   bool                // the frame was rendered in this Draw
	closing bool                // the window is being closed
	screen  *ebiten.Image
	final   bool // screen is ebiten's final screen (see drawsOnFinalScreen)
	devices deviceInput

	pauseOnFocusLoss bool
	unfocused        atomic.Bool // the window has no focus (watched under PauseOnFocusLoss)
	shot             shotRequest // see Screenshot

	// Pipelined, the devices as Update read them, for the frame that
	// samples next (sampled true): see game.Update.
	sample  input.State
	sampled bool
}

// BeginFrame starts a frame in an Update: the next one, or this one again
// when the frame begun in it was abandoned before rendering (a scene ended
// in an Update event and the next scene starts its own frame), so that the
// Draw that follows draws the new scene instead of nothing. It reports
// false once the window is being closed.
func (d *driver) BeginFrame() (time.Duration, bool) {
	for d.phase != inUpdate || d.started && !d.open {
		if !d.suspend(struct{}{}) {
			return 0, false
		}
	}
	if d.closing {
		return 0, false
	}
	d.started, d.open = true, true
	return d.clock.Now(), true
}

// BeginRender waits for Draw and returns its screen, or nil when ebiten
// skipped Draw.
func (d *driver) BeginRender() (any, bool) {
	for d.phase != inDraw || d.drawn {
		if !d.suspend(struct{}{}) {
			return nil, false
		}
		if d.phase == inUpdate {
			// ebiten skipped Draw: render this frame without a screen and
			// start the next one in this Update.
			d.open = false
			return nil, true
		}
	}
	d.drawn, d.open = true, false
	return d.screen, true
}

// Held reports whether the window has lost the focus under
// Options.PauseOnFocusLoss: the loop holds game time meanwhile.
func (d *driver) Held() bool { return d.pauseOnFocusLoss && d.unfocused.Load() }

// Sample reads the devices: the loop samples them once a frame, into a
// zeroed state. Pipelined, it gives the state Update read (see game.Update).
func (d *driver) Sample(frame int64, in *input.State) {
	if d.sampled {
		*in = d.sample
		return
	}
	d.devices.Sample(frame, in)
}

// EndFrame saves the screenshot asked for, if any, once the scene has
// drawn the whole frame on the screen Draw gave.
func (d *driver) EndFrame() {
	if d.screen != nil {
		d.shot.take(d.screen)
	}
}

// game is the ebiten.Game that runs the scene chain.
type game struct {
	d        driver
	loop     *engine.Loop
	first    engine.Scene
	win      Options
	resume   func() (struct{}, bool)
	finished bool
	err      error

	// Pipelining: Draw wakes the worker, which resumes the coroutine for
	// the next frame's updates and sends resume's ok on ran.
	pipeline bool
	wake     chan struct{}
	ran      chan bool
	ahead    bool // the worker was woken and its ran not yet received

	// Drawing on the final screen (see drawsOnFinalScreen): direct is on
	// for the run, pending says Draw left this frame's rendering to
	// DrawFinalScreen.
	direct  bool
	pending bool
}

// drawsOnFinalScreen says whether a window draws its scenes straight on
// ebiten's final screen: in a browser. ebiten's own path clears its
// offscreen image every frame, has the scene draw on it, fills the canvas
// black and draws the offscreen on it: two passes over every pixel more
// than the scene's own, one of them reading a texture drawn in the same
// frame. A browser that draws WebGL in software (SwiftShader: no GPU, or
// one it will not use) pays for each pass in full (cmd/web's
// BenchmarkArenaFrameRate). The pixels are the same but for rounding and
// the odd pixel on a turned sprite's edge: a screen drawn with source-over
// on opaque black has the colours of one drawn on transparent black and
// then over black. (cmd/web's build also leaves out ebiten's black fill
// of the canvas, so that the scene's own passes are the frame's only
// ones: the scene draws on the transparent buffer the browser hands each
// frame, as it draws natively on a cleared offscreen.)
// Natively ebiten's path stays. Tests set it.
var drawsOnFinalScreen = runtime.GOOS == "js"

// touch marks the offscreen drawn on in a frame whose scene draws on the
// final screen: ebiten stops calling DrawFinalScreen after a few frames
// with an untouched offscreen. One pixel, cleared: nothing reads it.
var touchRect = image.Rect(0, 0, 1, 1)

// pipelined counts the frames of the window running (or of the last one)
// whose ticks ran while ebiten presented the frame before: PipelinedFrames.
var pipelined atomic.Int64

// PipelinedFrames returns how many frames of the window running, or of the
// last one run, had their ticks run beside the presentation of the frame
// before (see [Options].Serial): 0 when serial.
func PipelinedFrames() int64 { return pipelined.Load() }

// closedByPlayer is whether the window running, or the last one run, was
// closed by the player: Closed.
var closedByPlayer atomic.Bool

// Closed reports whether the window running, or the last one run, was
// closed by the player (its close button, the system's way to close a
// window), as opposed to the game ending its run: for a networked run,
// whose other players are told that this one quit.
func Closed() bool { return closedByPlayer.Load() }

// worker resumes the coroutine for the next frame's updates each time Draw
// wakes it, until the chain ends or wake is closed.
func (g *game) worker() {
	for range g.wake {
		_, ok := g.resume()
		g.ran <- ok
		if !ok {
			return
		}
	}
}

func (g *game) run(yield func(struct{}) bool) {
	g.d.suspend = yield
	g.err = g.loop.Run(g.first)
}

func (g *game) Update() error {
	// A Draw whose DrawFinalScreen did not follow (ebiten presented no
	// frame): the frame renders without a screen below, as when ebiten
	// skips Draw.
	g.pending = false
	if g.resume == nil {
		// iter.Pull's stop is not kept: the coroutine ends by itself when the
		// chain ends (closing the window ends the loop's next frame, see
		// BeginFrame), and stop called after RunGame returns would run on
		// another goroutine.
		g.resume, _ = iter.Pull(g.run)
	}
	ranAhead := false // this frame's updates ran after the last Draw
	if g.ahead {
		g.ahead = false
		ranAhead = <-g.ran
		g.finished = !ranAhead
	}
	if g.finished {
		return ebiten.Termination
	}
	if g.pipeline {
		// The devices are read here, in ebiten's tick, for the frame that
		// samples next (the one the worker begins after this Draw): ebiten
		// reports a key pressed and released within one tick as pressed
		// only during that tick's Update, and the worker runs after it.
		g.d.sample = input.State{}
		g.d.devices.Sample(0, &g.d.sample)
		g.d.sampled = true
	}
	g.d.closing = ebiten.IsWindowBeingClosed()
	if g.d.closing {
		closedByPlayer.Store(true)
	}
	if ranAhead {
		pipelined.Add(1)
		return nil
	}
	g.d.phase, g.d.started = inUpdate, false
	if _, ok := g.resume(); !ok {
		g.finished = true
		return ebiten.Termination
	}
	return nil
}

func (g *game) Draw(screen *ebiten.Image) {
	if g.ahead { // a Draw with no Update since the last (not under SyncWithFPS): the worker first
		g.ahead = false
		g.finished = !<-g.ran
	}
	if g.resume == nil || g.finished {
		return
	}
	if g.direct {
		screen.SubImage(touchRect).(*ebiten.Image).Clear()
		g.pending = true
		return
	}
	g.render(screen)
}

// DrawFinalScreen implements ebiten.FinalScreenDrawer: ebiten's own
// drawing of the offscreen, or, on the direct path, the frame's rendering,
// on the final screen when it can (see drawsOnFinalScreen).
func (g *game) DrawFinalScreen(screen ebiten.FinalScreen, offscreen *ebiten.Image, geoM ebiten.GeoM) {
	if !g.pending {
		ebiten.DefaultDrawFinalScreen(screen, offscreen, geoM)
		return
	}
	g.pending = false
	if final, ok := screen.(*ebiten.Image); ok && geoM == (ebiten.GeoM{}) && final.Bounds() == offscreen.Bounds() {
		g.d.final = true
		g.render(final)
		g.d.final = false
		return
	}
	offscreen.Clear() // what ebiten does before Draw, off on the direct path
	g.render(offscreen)
	ebiten.DefaultDrawFinalScreen(screen, offscreen, geoM)
}

// render resumes the coroutine to render the frame on screen, then, when
// pipelined, hands it to the worker for the next frame's updates.
func (g *game) render(screen *ebiten.Image) {
	g.d.phase, g.d.drawn, g.d.screen = inDraw, false, screen
	if _, ok := g.resume(); !ok {
		g.finished = true
	}
	g.d.screen = nil
	if g.pipeline && !g.finished {
		g.d.phase, g.d.started = inUpdate, false
		g.ahead = true
		g.wake <- struct{}{}
	}
}

func (g *game) Layout(outsideWidth, outsideHeight int) (int, int) {
	w, h := outsideWidth, outsideHeight
	if g.win.ScreenWidth > 0 && g.win.ScreenHeight > 0 {
		w, h = g.win.ScreenWidth, g.win.ScreenHeight
	}
	if layoutObserver != nil {
		layoutObserver(outsideWidth, outsideHeight, w, h)
	}
	return w, h
}

// layoutObserver, when set (by tests, before Run), sees every Layout call:
// the outside size ebiten passed and the screen size returned.
var layoutObserver func(outsideWidth, outsideHeight, screenWidth, screenHeight int)

// ErrNoDisplay is wrapped by the error Run returns when no window can be opened.
var ErrNoDisplay = errors.New("no display to open a window on")

// running is the game a window runs: ebiten runs one per process.
var running atomic.Pointer[game]

// Run runs the scene chain that starts with first in a window, as
// engine.Run does headless: until a scene returns nil, the window closes,
// engine.Loop.Stop is called or the context is cancelled; nil in the first
// three cases, otherwise the first error, wrapped in an *engine.SceneError
// naming the scene. opts configures the loop (its Headless field is
// ignored), win the window (nil: the defaults). The window's devices are
// the loop's input unless opts.Input replaces them. A bad option is an
// error before the window opens.
//
// Run must be called once per process, from the main goroutine (ebiten's
// rule); without a display it returns an error wrapping ErrNoDisplay that
// says how to run headless or under xvfb-run.
func Run(first engine.Scene, opts *engine.Options, win *Options) error {
	if first == nil {
		return engine.ErrNilScene
	}
	g := &game{first: first}
	closedByPlayer.Store(false)
	if win != nil {
		g.win = *win
	}
	g.d.clock = engine.NewRealClock()
	loop, err := engine.NewLoop(&g.d, opts)
	if err != nil {
		return err
	}
	g.loop = loop
	g.d.pauseOnFocusLoss = g.win.PauseOnFocusLoss
	w := g.win
	if w.Title == "" {
		w.Title = "fixedstep"
	}
	if w.Width <= 0 || w.Height <= 0 {
		w.Width, w.Height = 960, 540
	}
	ebiten.SetWindowTitle(w.Title)
	ebiten.SetWindowSize(w.Width, w.Height)
	if w.Resizable {
		ebiten.SetWindowResizingMode(ebiten.WindowResizingModeEnabled)
	}
	ebiten.SetFullscreen(w.Fullscreen)
	ebiten.SetTPS(ebiten.SyncWithFPS)
	if g.direct = drawsOnFinalScreen; g.direct {
		// The offscreen holds nothing to clear; a frame drawn on it after all
		// is cleared in DrawFinalScreen.
		ebiten.SetScreenClearedEveryFrame(false)
	}
	ebiten.SetWindowClosingHandled(true)
	ebiten.SetRunnableOnUnfocused(true) // the engine decides: see Options
	if w.PauseOnFocusLoss {
		stop, done := make(chan struct{}), make(chan struct{})
		go func() {
			defer close(done)
			watchFocus(&g.d.unfocused, stop)
		}()
		defer func() {
			close(stop)
			<-done
		}()
	}
	g.pipeline = !g.win.Serial && runtime.GOMAXPROCS(0) > 1 && runtime.GOOS != "js"
	pipelined.Store(0)
	if g.pipeline {
		g.wake, g.ran = make(chan struct{}), make(chan bool, 1)
		go g.worker()
	}
	running.Store(g)
	defer running.Store(nil)
	err = ebiten.RunGame(g)
	if g.pipeline {
		if g.ahead { // ebiten stopped (an error) with the worker running
			<-g.ran
		}
		close(g.wake)
	}
	g.d.shot.cancel()
	switch {
	case err != nil && g.resume == nil:
		return loop.Finish(fmt.Errorf("engine: %w (%v): run headless (engine.Run; "+
			"the -headless flag of a game on cli.App) or under a virtual display: xvfb-run -a %s",
			ErrNoDisplay, err, filepath.Base(os.Args[0])))
	case err != nil:
		return loop.Finish(fmt.Errorf("engine: ebiten: %w", err))
	}
	return g.err
}

// focusPoll is how often the driver asks ebiten whether the window has the
// focus, under Options.PauseOnFocusLoss.
const focusPoll = 50 * time.Millisecond

// watchFocus keeps unfocused up to date until stop is closed. ebiten.IsFocused
// is a round trip to the window system's thread that allocates (7 times a
// call in ebiten v2.10.4 on X11), so it is asked here, 20 times a second,
// rather than in every frame: Update reads an atomic and allocates nothing.
func watchFocus(unfocused *atomic.Bool, stop <-chan struct{}) {
	tick := time.NewTicker(focusPoll)
	defer tick.Stop()
	for {
		unfocused.Store(!ebiten.IsFocused())
		select {
		case <-stop:
			return
		case <-tick.C:
		}
	}
}

// deviceInput samples the keyboard, mouse and gamepads through ebiten, once a
// frame, into an input state. Its buffers are reused: no allocation per frame.
type deviceInput struct {
	keys []ebiten.Key
	pads []ebiten.GamepadID
}

func (d *deviceInput) Sample(_ int64, in *input.State) {
	d.keys = inpututil.AppendPressedKeys(d.keys[:0])
	for _, k := range d.keys {
		in.SetKey(input.Key(k), true)
	}
	for b := ebiten.MouseButton0; b <= ebiten.MouseButtonMax; b++ {
		in.SetMouseButton(input.MouseButton(b), ebiten.IsMouseButtonPressed(b))
	}
	x, y := ebiten.CursorPosition()
	in.CursorX, in.CursorY = float64(x), float64(y)
	in.WheelX, in.WheelY = ebiten.Wheel()
	d.pads = ebiten.AppendGamepadIDs(d.pads[:0])
	for i, id := range d.pads[:min(len(d.pads), input.MaxGamepads)] {
		in.Gamepads[i].Connected = true
		if !ebiten.IsStandardGamepadLayoutAvailable(id) {
			continue
		}
		for b := ebiten.StandardGamepadButton(0); b <= ebiten.StandardGamepadButtonMax; b++ {
			in.SetGamepadButton(i, input.GamepadButton(b), ebiten.IsStandardGamepadButtonPressed(id, b))
		}
		for a := ebiten.StandardGamepadAxis(0); a <= ebiten.StandardGamepadAxisMax; a++ {
			in.SetGamepadAxis(i, input.GamepadAxis(a), ebiten.StandardGamepadAxisValue(id, a))
		}
	}
}
