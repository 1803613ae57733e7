// Package windowtest drives a game's window from outside, as a window
// manager and a player at the keyboard do, for tests under a virtual X
// display (Xvfb, xvfb-run): it finds a window by its title, focuses,
// resizes and closes it with the requests a window manager makes, and
// presses keys, moves the pointer and clicks through the X server's XTEST
// extension, so that the game reads them as it reads a real keyboard and
// mouse. It needs $DISPLAY; it does not need a window manager.
//
// Its waits follow the progress of what they wait on, never a guess of how
// long it takes (a shared machine may be many times slower than a quiet
// one): a Watch lets a wait go on while the program draws frames, prints or
// starts up, and fails it after Stall without any, saying what it saw last.
//
// A Client is used by one goroutine.
package windowtest

import (
	"fmt"
	"time"

	"github.com/jezek/xgb"
	"github.com/jezek/xgb/xproto"
	"github.com/jezek/xgb/xtest"
)

// Client is a second client of the X server.
type Client struct {
	conn   *xgb.Conn
	screen *xproto.ScreenInfo
	atoms  map[string]xproto.Atom
	codes  map[xproto.Keysym]xproto.Keycode
	xtest  bool
}

// Dial connects to the server named by $DISPLAY.
func Dial() (*Client, error) { return DialDisplay("") }

// Close closes the connection.
func (x *Client) Close() { x.conn.Close() }

func (x *Client) atom(name string) (xproto.Atom, error) {
	if a, ok := x.atoms[name]; ok {
		return a, nil
	}
	r, err := xproto.InternAtom(x.conn, false, uint16(len(name)), name).Reply()
	if err != nil {
		return 0, fmt.Errorf("intern atom %s: %w", name, err)
	}
	x.atoms[name] = r.Atom
	return r.Atom, nil
}

// Title returns the window's _NET_WM_NAME, or else its WM_NAME.
func (x *Client) Title(win xproto.Window) string {
	for _, name := range []string{"_NET_WM_NAME", "WM_NAME"} {
		a, err := x.atom(name)
		if err != nil {
			continue
		}
		r, err := xproto.GetProperty(x.conn, false, win, a, xproto.GetPropertyTypeAny, 0, 1024).Reply()
		if err == nil && r.ValueLen > 0 {
			return string(r.Value)
		}
	}
	return ""
}

// FindWindow waits for a viewable window titled title, searched from the
// root down (a direct child of the root when no window manager has
// reparented it), for as long as watch's Check allows (see Watch: the
// progress of the program that is to open it, such as its CPU time).
func (x *Client) FindWindow(title string, watch *Watch) (xproto.Window, error) {
	for {
		if w, ok, err := x.search(x.screen.Root, title); err != nil || ok {
			return w, err
		}
		if err := watch.Check(); err != nil {
			return 0, fmt.Errorf("no viewable window titled %q: %w", title, err)
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// search looks for the window under parent. Other clients' windows may be
// destroyed while it looks: a window that is gone is skipped, and only an
// error on the root is returned.
func (x *Client) search(parent xproto.Window, title string) (xproto.Window, bool, error) {
	tree, err := xproto.QueryTree(x.conn, parent).Reply()
	if err != nil {
		if parent != x.screen.Root {
			return 0, false, nil
		}
		return 0, false, fmt.Errorf("query tree: %w", err)
	}
	for _, w := range tree.Children {
		if x.Title(w) == title {
			attr, err := xproto.GetWindowAttributes(x.conn, w).Reply()
			if err == nil && attr.MapState == xproto.MapStateViewable {
				return w, true, nil
			}
		}
		if found, ok, _ := x.search(w, title); ok {
			return found, true, nil
		}
	}
	return 0, false, nil
}

// RequestClose asks the window's owner to close it, as a window manager's
// close button does: a WM_PROTOCOLS ClientMessage carrying WM_DELETE_WINDOW.
func (x *Client) RequestClose(win xproto.Window) error {
	protocols, err := x.atom("WM_PROTOCOLS")
	if err != nil {
		return err
	}
	del, err := x.atom("WM_DELETE_WINDOW")
	if err != nil {
		return err
	}
	ev := xproto.ClientMessageEvent{Format: 32, Window: win, Type: protocols,
		Data: xproto.ClientMessageDataUnionData32New([]uint32{uint32(del), xproto.TimeCurrentTime, 0, 0, 0})}
	if err := xproto.SendEventChecked(x.conn, false, win, xproto.EventMaskNoEvent, string(ev.Bytes())).Check(); err != nil {
		return fmt.Errorf("send WM_DELETE_WINDOW: %w", err)
	}
	return nil
}

// Resize sets the window's size in pixels. Without a window manager the
// server applies it at once and sends the owner a ConfigureNotify.
func (x *Client) Resize(win xproto.Window, w, h int) error {
	err := xproto.ConfigureWindowChecked(x.conn, win, xproto.ConfigWindowWidth|xproto.ConfigWindowHeight,
		[]uint32{uint32(w), uint32(h)}).Check()
	if err != nil {
		return fmt.Errorf("configure window %dx%d: %w", w, h, err)
	}
	return nil
}

// Size returns the window's size in pixels.
func (x *Client) Size(win xproto.Window) (int, int, error) {
	g, err := xproto.GetGeometry(x.conn, xproto.Drawable(win)).Reply()
	if err != nil {
		return 0, 0, fmt.Errorf("get geometry: %w", err)
	}
	return int(g.Width), int(g.Height), nil
}

// Focus gives the window the input focus; the window that loses it gets a
// FocusOut event and this one a FocusIn. Keys pressed go to it.
func (x *Client) Focus(win xproto.Window) error {
	if err := xproto.SetInputFocusChecked(x.conn, xproto.InputFocusParent, win, xproto.TimeCurrentTime).Check(); err != nil {
		return fmt.Errorf("set input focus: %w", err)
	}
	return nil
}

// Focused returns the window that has the input focus.
func (x *Client) Focused() (xproto.Window, error) {
	r, err := xproto.GetInputFocus(x.conn).Reply()
	if err != nil {
		return 0, fmt.Errorf("get input focus: %w", err)
	}
	return r.Focus, nil
}

// NewWindow creates and maps a 1x1 window of this client at the root's
// corner (out of the way of a centred game window), to take the focus.
func (x *Client) NewWindow() (xproto.Window, error) { return x.NewWindowAt(0, 0, 1, 1) }

// NewWindowAt creates and maps a window of this client of w by h pixels with
// its top-left corner at x0, y0 of the root window, for a test to click in.
// A size below 1 is taken as 1.
func (x *Client) NewWindowAt(x0, y0, w, h int) (xproto.Window, error) {
	wid, err := xproto.NewWindowId(x.conn)
	if err != nil {
		return 0, err
	}
	err = xproto.CreateWindowChecked(x.conn, x.screen.RootDepth, wid, x.screen.Root, int16(x0), int16(y0),
		uint16(max(w, 1)), uint16(max(h, 1)), 0, xproto.WindowClassInputOutput, x.screen.RootVisual, 0, nil).Check()
	if err != nil {
		return 0, fmt.Errorf("create window: %w", err)
	}
	if err := xproto.MapWindowChecked(x.conn, wid).Check(); err != nil {
		return 0, fmt.Errorf("map window: %w", err)
	}
	return wid, nil
}

// Keys are the X keysyms of the keys tests press, by name.
var Keys = map[string]xproto.Keysym{
	"Return": 0xff0d, "Escape": 0xff1b, "space": 0x20, "Tab": 0xff09,
	"Left": 0xff51, "Up": 0xff52, "Right": 0xff53, "Down": 0xff54,
	"F3": 0xffc0, "F4": 0xffc1, "F11": 0xffc8, "F12": 0xffc9, "Shift_L": 0xffe1,
	"period": 0x2e, "comma": 0x2c, "bracketleft": 0x5b, "bracketright": 0x5d, "minus": 0x2d, "equal": 0x3d,
	"a": 0x61, "d": 0x64, "p": 0x70, "q": 0x71, "s": 0x73, "w": 0x77,
}

// Press holds the key named (see Keys) down, as a keyboard does, for the
// window that has the focus.
func (x *Client) Press(key string) error { return x.fake(key, xproto.KeyPress) }

// Release lets the key named go.
func (x *Client) Release(key string) error { return x.fake(key, xproto.KeyRelease) }

// Tap presses the key named, holds it for hold, and releases it. A game
// that samples its keys once a frame sees a key held for at least a frame
// (hold 100 ms is six frames at 60 Hz).
func (x *Client) Tap(key string, hold time.Duration) error {
	if err := x.Press(key); err != nil {
		return err
	}
	time.Sleep(hold)
	return x.Release(key)
}

func (x *Client) fake(key string, kind byte) error {
	sym, ok := Keys[key]
	if !ok {
		return fmt.Errorf("windowtest: no key %q", key)
	}
	code, err := x.keycode(sym)
	if err != nil {
		return err
	}
	return x.fakeInput(kind, byte(code), 0, 0, key)
}

// fakeInput sends one XTEST event and waits until the server has taken it.
func (x *Client) fakeInput(kind, detail byte, rootX, rootY int16, what string) error {
	if err := x.initXTest(); err != nil {
		return err
	}
	if err := xtest.FakeInputChecked(x.conn, kind, detail, xproto.TimeCurrentTime, x.screen.Root, rootX, rootY, 0).Check(); err != nil {
		return fmt.Errorf("windowtest: XTEST %s: %w", what, err)
	}
	xproto.GetInputFocus(x.conn).Reply() // a round trip: the server has taken the event
	return nil
}

func (x *Client) initXTest() error {
	if !x.xtest {
		if err := xtest.Init(x.conn); err != nil {
			return fmt.Errorf("windowtest: the X server has no XTEST extension: %w", err)
		}
		x.xtest = true
	}
	return nil
}

// The mouse buttons, as X numbers them: Click, MouseDown and MouseUp take them.
const (
	ButtonLeft   = 1
	ButtonMiddle = 2
	ButtonRight  = 3
)

// X reports a wheel turned by a notch as a click of button 4 (up) or 5 (down).
const (
	buttonWheelUp   = 4
	buttonWheelDown = 5
)

// MovePointer moves the pointer to x, y in win's coordinates (pixels from its
// top-left corner; outside the window is allowed), as a mouse moved there
// does: the window under it gets a MotionNotify. A game that reads the cursor
// once a frame sees it there from its next frame.
func (x *Client) MovePointer(win xproto.Window, wx, wy int) error {
	r, err := xproto.TranslateCoordinates(x.conn, win, x.screen.Root, int16(wx), int16(wy)).Reply()
	if err != nil {
		return fmt.Errorf("windowtest: translate %d,%d of window 0x%x: %w", wx, wy, win, err)
	}
	// detail 0: an absolute motion to rootX, rootY of the root window.
	return x.fakeInput(xproto.MotionNotify, 0, r.DstX, r.DstY, fmt.Sprintf("motion to %d,%d", wx, wy))
}

// Pointer returns where the pointer is, in win's coordinates.
func (x *Client) Pointer(win xproto.Window) (int, int, error) {
	r, err := xproto.QueryPointer(x.conn, win).Reply()
	if err != nil {
		return 0, 0, fmt.Errorf("windowtest: query pointer: %w", err)
	}
	return int(r.WinX), int(r.WinY), nil
}

// MouseDown presses mouse button b (ButtonLeft, ButtonMiddle, ButtonRight)
// where the pointer is: the window under it gets a ButtonPress.
func (x *Client) MouseDown(b int) error {
	if b < 1 || b > 255 {
		return fmt.Errorf("windowtest: no mouse button %d", b)
	}
	return x.fakeInput(xproto.ButtonPress, byte(b), 0, 0, fmt.Sprintf("button %d down", b))
}

// MouseUp lets mouse button b go.
func (x *Client) MouseUp(b int) error {
	if b < 1 || b > 255 {
		return fmt.Errorf("windowtest: no mouse button %d", b)
	}
	return x.fakeInput(xproto.ButtonRelease, byte(b), 0, 0, fmt.Sprintf("button %d up", b))
}

// Click moves the pointer to wx, wy of win, presses button b there, holds it
// for hold and releases it. A game that samples its mouse once a frame sees
// the press when hold is at least a frame (50 ms is three frames at 60 Hz);
// the pointer is moved first and given a frame's time to arrive, so that
// the press is seen where the pointer is.
func (x *Client) Click(win xproto.Window, wx, wy, b int, hold time.Duration) error {
	if err := x.MovePointer(win, wx, wy); err != nil {
		return err
	}
	time.Sleep(hold)
	if err := x.MouseDown(b); err != nil {
		return err
	}
	time.Sleep(hold)
	return x.MouseUp(b)
}

// Wheel turns the mouse wheel where the pointer is by notches: up (away
// from the user) for a positive count, down for a negative one, hold apart.
func (x *Client) Wheel(notches int, hold time.Duration) error {
	b := buttonWheelUp
	if notches < 0 {
		b, notches = buttonWheelDown, -notches
	}
	for range notches {
		if err := x.MouseDown(b); err != nil {
			return err
		}
		if err := x.MouseUp(b); err != nil {
			return err
		}
		time.Sleep(hold)
	}
	return nil
}

// keycode finds the key that types sym in the server's keyboard mapping.
func (x *Client) keycode(sym xproto.Keysym) (xproto.Keycode, error) {
	if err := x.initXTest(); err != nil {
		return 0, err
	}
	if x.codes == nil {
		setup := xproto.Setup(x.conn)
		first, n := setup.MinKeycode, int(setup.MaxKeycode-setup.MinKeycode)+1
		r, err := xproto.GetKeyboardMapping(x.conn, first, byte(n)).Reply()
		if err != nil {
			return 0, fmt.Errorf("windowtest: keyboard mapping: %w", err)
		}
		x.codes = map[xproto.Keysym]xproto.Keycode{}
		per := int(r.KeysymsPerKeycode)
		for i := range n {
			for j := range per {
				if s := r.Keysyms[i*per+j]; s != 0 {
					if _, seen := x.codes[s]; !seen {
						x.codes[s] = first + xproto.Keycode(i)
					}
				}
			}
		}
	}
	code, ok := x.codes[sym]
	if !ok {
		return 0, fmt.Errorf("windowtest: no key types keysym %#x", sym)
	}
	return code, nil
}

// Listen asks the server for the key presses and releases, mouse button
// presses and releases and pointer motion of a window of this client (see
// NewWindow), to read with PollEvent.
func (x *Client) Listen(win xproto.Window) error {
	err := xproto.ChangeWindowAttributesChecked(x.conn, win, xproto.CwEventMask,
		[]uint32{xproto.EventMaskKeyPress | xproto.EventMaskKeyRelease |
			xproto.EventMaskButtonPress | xproto.EventMaskButtonRelease | xproto.EventMaskPointerMotion}).Check()
	if err != nil {
		return fmt.Errorf("windowtest: listen: %w", err)
	}
	return nil
}

// PollEvent returns the next event the server sent this client, nil when
// none is waiting.
func (x *Client) PollEvent() (xgb.Event, error) {
	ev, err := x.conn.PollForEvent()
	if err != nil {
		return nil, err
	}
	return ev, nil
}

// Keysym returns the keysym the key with keycode code types first.
func (x *Client) Keysym(code xproto.Keycode) xproto.Keysym {
	for sym, c := range x.codes {
		if c == code {
			return sym
		}
	}
	return 0
}
