package windowtest

import (
	"bytes"
	"fmt"
	"os/exec"
	"strings"
	"sync"
	"time"

	"github.com/jezek/xgb/damage"
	"github.com/jezek/xgb/xproto"
)

// A Program is a game's program run in a window for a test (see Start): on
// a display of its own, a Client connected to it, the program's window,
// found and focused, and the program's output, kept.
type Program struct {
	*Client
	Window  xproto.Window
	Display *Display

	cmd  *exec.Cmd
	out  output
	done chan error
}

// output is a buffer the program writes to while the test reads it.
type output struct {
	mu  sync.Mutex
	buf bytes.Buffer
}

func (o *output) Write(b []byte) (int, error) {
	o.mu.Lock()
	defer o.mu.Unlock()
	return o.buf.Write(b)
}

func (o *output) Len() int {
	o.mu.Lock()
	defer o.mu.Unlock()
	return o.buf.Len()
}

func (o *output) String() string {
	o.mu.Lock()
	defer o.mu.Unlock()
	return o.buf.String()
}

// Start starts cmd on a display of its own (NewDisplay: so that keys and
// clicks reach its window whatever other tests do meanwhile; its stdout and
// stderr are kept: Output), waits for its window titled title, and gives
// the window the focus. It waits for as long as the program works at
// starting (its CPU time or its output grows), at most Stall without that
// (and not past Deadline). On an error the program is killed and the error
// holds its output. Close the Program when done.
func Start(cmd *exec.Cmd, title string) (*Program, error) {
	d, err := NewDisplay()
	if err != nil {
		return nil, err
	}
	p := &Program{cmd: cmd, Display: d, done: make(chan error, 1)}
	cmd.Stdout, cmd.Stderr = &p.out, &p.out
	cmd.Env = d.Env(cmd.Env)
	if err := cmd.Start(); err != nil {
		d.Close()
		return nil, err
	}
	go func() { p.done <- cmd.Wait() }()
	c, err := DialDisplay(d.Name)
	if err == nil {
		p.Client = c
		cpu := CPUProgress(cmd.Process.Pid)
		p.Window, err = c.FindWindow(title, NewWatch(func() string {
			return fmt.Sprintf("%s, %d bytes of output", cpu(), p.out.Len())
		}))
	}
	if err == nil {
		err = c.Focus(p.Window)
	}
	if err != nil {
		p.Close()
		return nil, fmt.Errorf("windowtest: %s: %w\n%s", cmd.Path, err, p.Output())
	}
	return p, nil
}

// Output returns what the program has printed so far.
func (p *Program) Output() string { return p.out.String() }

// Wait waits for the program to exit and returns its output and how it
// exited. It waits for as long as the program makes progress: it draws
// frames in its window (as the X server's DAMAGE extension reports them) or
// prints; at most stall without either (Stall is the package's choice;
// more is no better), and not past Deadline. A program still running then
// is killed, and the error says so, with the progress last seen.
func (p *Program) Wait(stall time.Duration) (string, error) {
	err := p.await(stall, func(int) bool { return false })
	if exit, ok := err.(exitError); ok {
		return p.Output(), exit.err
	}
	return p.Output(), err
}

// WaitOutput waits until the program has printed s, for as long as it
// makes progress (as Wait does, with Stall: a program that stalls is
// killed). It returns an error if the program exits first, or stalls.
func (p *Program) WaitOutput(s string) error {
	err := p.await(Stall, func(int) bool { return strings.Contains(p.Output(), s) })
	if exit, ok := err.(exitError); ok {
		return fmt.Errorf("windowtest: %s exited (%v) without printing %q", p.cmd.Path, exit.err, s)
	}
	if err != nil {
		return fmt.Errorf("waiting for %q: %w", s, err)
	}
	return nil
}

// exitError is await's error when the program has exited: err is how.
type exitError struct{ err error }

func (e exitError) Error() string { return fmt.Sprintf("exited: %v", e.err) }

// WaitFrames waits until the program has drawn n frames more in its window
// (as the X server's DAMAGE reports count them: at least n were drawn),
// and fails if it exits or stalls for stall before. Without the DAMAGE
// extension it cannot count and returns an error saying so.
func (p *Program) WaitFrames(n int, stall time.Duration) error {
	if !useDamage(p.conn) {
		return fmt.Errorf("windowtest: the X server has no DAMAGE extension: frames cannot be counted")
	}
	return p.await(stall, func(frames int) bool { return frames >= n })
}

// await waits until cond, given the frames seen drawn since the call,
// holds (nil), the program exits (an exitError) or stalls for stall (it is
// then killed).
func (p *Program) await(stall time.Duration, cond func(frames int) bool) error {
	frames, stop := p.countFrames()
	defer stop()
	watch := NewWatch(func() string {
		return fmt.Sprintf("%d frames seen drawn, %d bytes of output", frames(), p.out.Len())
	})
	watch.Stall = stall
	for !cond(frames()) {
		select {
		case err := <-p.done:
			p.done <- err // for Close and the next wait
			return exitError{err}
		case <-time.After(50 * time.Millisecond):
			if err := watch.Check(); err != nil {
				p.cmd.Process.Kill()
				return fmt.Errorf("windowtest: %s killed: %w", p.cmd.Path, err)
			}
		}
	}
	return nil
}

// countFrames has the X server report each frame the program draws in its
// window (DAMAGE at the non-empty level: a report, then nothing until the
// test takes it and clears the damage) and returns a function that counts
// the reports that have arrived, and one that stops the count. Reports are
// taken when the count is read, so it counts at most one frame a read:
// fewer than were drawn, but it grows while the program draws. The count
// takes the Client's events (PollEvent gets none meanwhile). Without the
// extension it counts nothing: the output is then the only progress seen.
func (p *Program) countFrames() (count func() int, stop func()) {
	none := func() int { return 0 }
	if !useDamage(p.conn) {
		return none, func() {}
	}
	if _, err := damage.QueryVersion(p.conn, 1, 1).Reply(); err != nil {
		return none, func() {}
	}
	id, err := damage.NewDamageId(p.conn)
	if err != nil {
		return none, func() {}
	}
	if damage.CreateChecked(p.conn, id, xproto.Drawable(p.Window), damage.ReportLevelNonEmpty).Check() != nil {
		return none, func() {}
	}
	n := 0
	count = func() int {
		for {
			// Errors are for the requests below once the window is
			// gone with its damage, as the program exits: not counted.
			ev, _ := p.conn.PollForEvent()
			if ev == nil {
				return n
			}
			if e, ok := ev.(damage.NotifyEvent); ok && e.Damage == id {
				n++
				damage.Subtract(p.conn, id, 0, 0) // report the next frame
			}
		}
	}
	return count, func() { damage.Destroy(p.conn, id) }
}

// TapSeen presses the key named and holds it until the program has drawn
// two frames (the second frame's update began after the press), then
// releases it: on a busy machine a frame can take longer than any fixed
// hold, and a key pressed and released between two frames is never seen.
func (p *Program) TapSeen(key string) error { return p.Hold(key, 0) }

// Hold presses the key named, holds it for at least d and until the
// program has drawn two frames (as TapSeen), and releases it. A program
// that exits while the key is held is no error here (a key that quits
// it, as Esc often does): Wait says how it ended.
func (p *Program) Hold(key string, d time.Duration) error {
	if err := p.Press(key); err != nil {
		return err
	}
	time.Sleep(d)
	if err := p.held(); err != nil {
		p.Release(key)
		return err
	}
	return p.Release(key)
}

// held waits, while a key or a button is held, until the program has drawn
// two frames or exited.
func (p *Program) held() error {
	if err := p.WaitFrames(2, Stall); err != nil {
		if _, exited := err.(exitError); !exited {
			return err
		}
	}
	return nil
}

// ClickSeen moves the pointer to (wx, wy) of the program's window and
// clicks button b there, as TapSeen taps a key: the pointer rests, and the
// button is held, until the program has drawn two frames (or, the button
// held, exited).
func (p *Program) ClickSeen(wx, wy, b int) error {
	if err := p.MovePointer(p.Window, wx, wy); err != nil {
		return err
	}
	if err := p.WaitFrames(2, Stall); err != nil {
		return err
	}
	if err := p.MouseDown(b); err != nil {
		return err
	}
	if err := p.held(); err != nil {
		p.MouseUp(b)
		return err
	}
	return p.MouseUp(b)
}

// TapAll taps the keys named in turn, each held for hold and until the
// program has drawn two frames (as TapSeen), with gap before each, and
// returns the first error.
func (p *Program) TapAll(hold, gap time.Duration, keys ...string) error {
	for _, k := range keys {
		time.Sleep(gap)
		if err := p.Hold(k, hold); err != nil {
			return err
		}
	}
	return nil
}

// Close kills the program if it still runs, closes the connection and stops
// the display.
func (p *Program) Close() {
	select {
	case err := <-p.done:
		p.done <- err
	default:
		p.cmd.Process.Kill()
		<-p.done
		p.done <- nil
	}
	if p.Client != nil {
		p.Client.Close()
	}
	p.Display.Close()
}
