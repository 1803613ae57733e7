package engine

import (
	"errors"
	"fmt"
	"iter"
	"os"
	"path/filepath"
	"sync/atomic"
	"time"

	"github.com/fixedstep/fixedstep/engine/input"
	"github.com/hajimehoshi/ebiten/v2"
	"github.com/hajimehoshi/ebiten/v2/inpututil"
)

// The ebiten driver. ebiten calls Update once per frame (TPS is SyncWithFPS)
// and then Draw. The scene chain runs as a coroutine (iter.Pull) that the two
// callbacks resume: Update resumes it until its frame's updates are done and it
// waits to render; Draw resumes it to render, until it waits for the next
// frame. The coroutine is created inside the first Update, on ebiten's game
// goroutine, because a coroutine must be resumed with the OS-thread locking it
// was created with.

type phase uint8

const (
	inUpdate phase = iota + 1
	inDraw
)

type windowDriver struct {
	clock   Clock
	suspend func(struct{}) bool // the coroutine's yield
	phase   phase               // the callback that resumed the coroutine
	started bool                // a frame began in this Update
	open    bool                // that frame has not rendered yet
	drawn   bool                // the frame was rendered in this Draw
	screen  *ebiten.Image
}

// beginFrame starts a frame in an Update: the next one, or this one again
// when the frame begun in it was abandoned before rendering (a scene ended
// in an Update event and the next scene starts its own frame), so that the
// Draw that follows draws the new scene instead of nothing.
func (d *windowDriver) beginFrame() (time.Duration, bool) {
	for d.phase != inUpdate || d.started && !d.open {
		if !d.suspend(struct{}{}) {
			return 0, false
		}
	}
	d.started, d.open = true, true
	return d.clock.Now(), true
}

func (d *windowDriver) beginRender() (*ebiten.Image, bool) {
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

// game is the ebiten.Game that runs the scene chain.
type game struct {
	d        windowDriver
	loop     *Loop
	first    Scene
	win      Window
	resume   func() (struct{}, bool)
	finished bool
	err      error

	unfocused atomic.Bool // the window has no focus (watched under Window.PauseOnFocusLoss)
}

func (g *game) run(yield func(struct{}) bool) {
	g.d.suspend = yield
	g.err = g.loop.runChains(g.first)
}

func (g *game) Update() error {
	if g.resume == nil {
		// iter.Pull's stop is not kept: the coroutine ends by itself when the
		// chain ends (closing the window stops the loop first, below), and
		// stop called after RunGame returns would run on another goroutine.
		g.resume, _ = iter.Pull(g.run)
	}
	if g.finished {
		return ebiten.Termination
	}
	if ebiten.IsWindowBeingClosed() {
		g.loop.Stop()
	}
	if g.win.PauseOnFocusLoss {
		g.loop.focusPaused = g.unfocused.Load()
	}
	g.d.phase, g.d.started = inUpdate, false
	if _, ok := g.resume(); !ok {
		g.finished = true
		return ebiten.Termination
	}
	return nil
}

func (g *game) Draw(screen *ebiten.Image) {
	if g.resume == nil || g.finished {
		return
	}
	g.d.phase, g.d.drawn, g.d.screen = inDraw, false, screen
	if _, ok := g.resume(); !ok {
		g.finished = true
	}
	g.d.screen = nil
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

func runWindow(first Scene, opts *Options) error {
	g := &game{first: first, win: opts.Window}
	g.d.clock = NewRealClock()
	input := opts.Input
	if input == nil {
		input = &deviceInput{}
	}
	loop, err := newLoop(opts.Config, &g.d, input, opts)
	if err != nil {
		return err
	}
	g.loop = loop

	w := opts.Window
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
	ebiten.SetWindowClosingHandled(true)
	ebiten.SetRunnableOnUnfocused(true) // the engine decides: see Window
	if w.PauseOnFocusLoss {
		stop, done := make(chan struct{}), make(chan struct{})
		go func() {
			defer close(done)
			watchFocus(&g.unfocused, stop)
		}()
		defer func() {
			close(stop)
			<-done
		}()
	}
	if err := ebiten.RunGame(g); err != nil {
		if g.resume == nil {
			return loop.finish(fmt.Errorf("engine: %w (%v): run headless (Options.Headless; "+
				"the -headless flag of a game on engine.App) or under a virtual display: xvfb-run -a %s",
				ErrNoDisplay, err, filepath.Base(os.Args[0])))
		}
		return loop.finish(fmt.Errorf("engine: ebiten: %w", err))
	}
	return loop.finish(g.err)
}

// focusPoll is how often the driver asks ebiten whether the window has the
// focus, under Window.PauseOnFocusLoss.
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
// frame, into an input.State. Its buffers are reused: no allocation per frame.
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
