package windowtest

import (
	"os"
	"testing"
	"time"

	"github.com/jezek/xgb/xproto"
)

// Counting a program's frames needs the DAMAGE extension's events decoded,
// which xgb does from global tables that every connection's reader
// goroutine reads. A connection that has read events (one left open by an
// earlier test) and a second one that starts counting frames do so without
// a data race (this test runs under -race), and the count sees what the
// second one draws.
func TestFramesCountedBesideAnotherConnectionsEvents(t *testing.T) {
	if os.Getenv("DISPLAY") == "" {
		if os.Getenv("CI") != "" {
			t.Fatal("no DISPLAY in CI: run the tests through make test (xvfb-run)")
		}
		t.Skip("no DISPLAY: run under xvfb-run -a, or make test")
	}
	d, err := NewDisplay()
	if err != nil {
		t.Fatal(err)
	}
	defer d.Close()

	// The first connection's reader decodes key events that nobody polls,
	// typed through another connection: nothing orders the reader's work
	// with this goroutine's, as with an earlier test's connection left open.
	a, err := DialDisplay(d.Name)
	if err != nil {
		t.Fatal(err)
	}
	defer a.Close()
	listener, err := a.NewWindow()
	if err != nil {
		t.Fatal(err)
	}
	if err := a.Listen(listener); err != nil {
		t.Fatal(err)
	}
	if err := a.Focus(listener); err != nil {
		t.Fatal(err)
	}
	typist, err := DialDisplay(d.Name)
	if err != nil {
		t.Fatal(err)
	}
	defer typist.Close()
	if err := typist.Tap("space", time.Millisecond); err != nil {
		t.Fatal(err)
	}
	time.Sleep(50 * time.Millisecond) // for a's reader to take them

	b, err := DialDisplay(d.Name)
	if err != nil {
		t.Fatal(err)
	}
	defer b.Close()
	win, err := b.NewWindowAt(100, 100, 64, 64)
	if err != nil {
		t.Fatal(err)
	}
	p := &Program{Client: b, Window: win}
	count, stop := p.countFrames()
	defer stop()

	gc, err := xproto.NewGcontextId(b.conn)
	if err != nil {
		t.Fatal(err)
	}
	if err := xproto.CreateGCChecked(b.conn, gc, xproto.Drawable(win), xproto.GcForeground, []uint32{b.screen.WhitePixel}).Check(); err != nil {
		t.Fatal(err)
	}
	seen := 0
	for frame := 0; frame < 200 && seen == 0; frame++ {
		xproto.PolyFillRectangle(b.conn, xproto.Drawable(win), gc, []xproto.Rectangle{{X: 0, Y: 0, Width: 64, Height: 64}})
		xproto.GetInputFocus(b.conn).Reply() // drawn, and its report sent
		time.Sleep(5 * time.Millisecond)
		seen = count()
	}
	if seen == 0 {
		t.Fatal("200 fills of the window drawn, no frame counted: DAMAGE reports did not arrive or were not decoded")
	}
}
