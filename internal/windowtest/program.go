package windowtest

import (
	"bytes"
	"fmt"
	"os/exec"
	"sync"
	"time"

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

func (o *output) String() string {
	o.mu.Lock()
	defer o.mu.Unlock()
	return o.buf.String()
}

// Start starts cmd on a display of its own (NewDisplay: so that keys and
// clicks reach its window whatever other tests do meanwhile; its stdout and
// stderr are kept: Output), waits up to 20 s for its window titled title,
// and gives the window the focus. On an error the program is killed and the
// error holds its output. Close the Program when done.
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
		p.Window, err = c.FindWindow(title, 20*time.Second)
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

// Wait waits up to timeout for the program to exit and returns its output
// and how it exited; a program still running then is killed, and the
// error says so.
func (p *Program) Wait(timeout time.Duration) (string, error) {
	select {
	case err := <-p.done:
		p.done <- err // for Close
		return p.Output(), err
	case <-time.After(timeout):
		p.cmd.Process.Kill()
		return p.Output(), fmt.Errorf("windowtest: %s still ran after %v: killed", p.cmd.Path, timeout)
	}
}

// TapAll taps the keys named in turn, each held for hold, with gap before
// each, and returns the first error.
func (p *Program) TapAll(hold, gap time.Duration, keys ...string) error {
	for _, k := range keys {
		time.Sleep(gap)
		if err := p.Tap(k, hold); err != nil {
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
