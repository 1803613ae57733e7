package engine_test

import (
	"fmt"
	"time"

	"github.com/jezek/xgb"
	"github.com/jezek/xgb/xproto"
)

// xClient is a second client of the X server that stands in for a window
// manager: it finds a window by its title and closes, resizes and focuses it
// with the requests a window manager makes, so that the window's owner sees
// real X events (a WM_DELETE_WINDOW ClientMessage, ConfigureNotify, FocusOut
// and FocusIn). It is used by one goroutine.
type xClient struct {
	conn   *xgb.Conn
	screen *xproto.ScreenInfo
	atoms  map[string]xproto.Atom
}

// dialX connects to the server named by $DISPLAY.
func dialX() (*xClient, error) {
	conn, err := xgb.NewConn()
	if err != nil {
		return nil, fmt.Errorf("connect to X: %w", err)
	}
	return &xClient{conn: conn, screen: xproto.Setup(conn).DefaultScreen(conn), atoms: map[string]xproto.Atom{}}, nil
}

func (x *xClient) close() { x.conn.Close() }

func (x *xClient) atom(name string) (xproto.Atom, error) {
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

// title returns the window's _NET_WM_NAME, or else its WM_NAME.
func (x *xClient) title(win xproto.Window) string {
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

// findWindow waits up to timeout for a viewable window titled title, searched
// from the root down (a direct child of the root when no window manager has
// reparented it).
func (x *xClient) findWindow(title string, timeout time.Duration) (xproto.Window, error) {
	deadline := time.Now().Add(timeout)
	for {
		if w, ok, err := x.search(x.screen.Root, title); err != nil || ok {
			return w, err
		}
		if time.Now().After(deadline) {
			return 0, fmt.Errorf("no viewable window titled %q after %v", title, timeout)
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// search looks for the window under parent. Other clients' windows may be
// destroyed while it looks: a window that is gone is skipped, and only an
// error on the root is returned.
func (x *xClient) search(parent xproto.Window, title string) (xproto.Window, bool, error) {
	tree, err := xproto.QueryTree(x.conn, parent).Reply()
	if err != nil {
		if parent != x.screen.Root {
			return 0, false, nil
		}
		return 0, false, fmt.Errorf("query tree: %w", err)
	}
	for _, w := range tree.Children {
		if x.title(w) == title {
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

// requestClose asks the window's owner to close it, as a window manager's
// close button does: a WM_PROTOCOLS ClientMessage carrying WM_DELETE_WINDOW.
func (x *xClient) requestClose(win xproto.Window) error {
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

// resize sets the window's size in pixels. Without a window manager the server
// applies it at once and sends the owner a ConfigureNotify.
func (x *xClient) resize(win xproto.Window, w, h int) error {
	err := xproto.ConfigureWindowChecked(x.conn, win, xproto.ConfigWindowWidth|xproto.ConfigWindowHeight,
		[]uint32{uint32(w), uint32(h)}).Check()
	if err != nil {
		return fmt.Errorf("configure window %dx%d: %w", w, h, err)
	}
	return nil
}

// size returns the window's size in pixels.
func (x *xClient) size(win xproto.Window) (int, int, error) {
	g, err := xproto.GetGeometry(x.conn, xproto.Drawable(win)).Reply()
	if err != nil {
		return 0, 0, fmt.Errorf("get geometry: %w", err)
	}
	return int(g.Width), int(g.Height), nil
}

// focus gives the window the input focus; the window that loses it gets a
// FocusOut event and this one a FocusIn.
func (x *xClient) focus(win xproto.Window) error {
	if err := xproto.SetInputFocusChecked(x.conn, xproto.InputFocusParent, win, xproto.TimeCurrentTime).Check(); err != nil {
		return fmt.Errorf("set input focus: %w", err)
	}
	return nil
}

// focused returns the window that has the input focus.
func (x *xClient) focused() (xproto.Window, error) {
	r, err := xproto.GetInputFocus(x.conn).Reply()
	if err != nil {
		return 0, fmt.Errorf("get input focus: %w", err)
	}
	return r.Focus, nil
}

// newWindow creates and maps a 1x1 window of this client at the root's
// corner (out of the way of a centred game window), to take the focus.
func (x *xClient) newWindow() (xproto.Window, error) {
	wid, err := xproto.NewWindowId(x.conn)
	if err != nil {
		return 0, err
	}
	err = xproto.CreateWindowChecked(x.conn, x.screen.RootDepth, wid, x.screen.Root, 0, 0, 1, 1, 0,
		xproto.WindowClassInputOutput, x.screen.RootVisual, 0, nil).Check()
	if err != nil {
		return 0, fmt.Errorf("create window: %w", err)
	}
	if err := xproto.MapWindowChecked(x.conn, wid).Check(); err != nil {
		return 0, fmt.Errorf("map window: %w", err)
	}
	return wid, nil
}
