package windowtest

import (
	"errors"
	"fmt"
	"io"
	"log"
	"os"
	"os/exec"
	"strings"
	"syscall"
	"time"

	"github.com/jezek/xgb"
	"github.com/jezek/xgb/xproto"
)

// A Display is an X server of a test's own (Xvfb), so that the keys and
// clicks it sends reach its program's window and no other: tests that run
// at the same time (go test runs packages in parallel) each have their own
// focus. It needs Xvfb (Debian's xvfb package; make test installs it).
type Display struct {
	Name string // ":N", for DISPLAY
	proc *exec.Cmd
}

// NewDisplay starts an Xvfb server (1280x1024, 24 bits) on a display
// number it picks itself (-displayfd: no race with other servers starting
// at the same time) and waits for it to take connections.
func NewDisplay() (*Display, error) {
	bin, err := exec.LookPath("Xvfb")
	if err != nil {
		return nil, fmt.Errorf("windowtest: no Xvfb to start a display of the test's own (install xvfb): %w", err)
	}
	r, w, err := os.Pipe()
	if err != nil {
		return nil, err
	}
	defer r.Close()
	proc := exec.Command(bin, "-displayfd", "3", "-screen", "0", "1280x1024x24", "-nolisten", "tcp", "-noreset")
	proc.ExtraFiles = []*os.File{w} // fd 3
	err = proc.Start()
	w.Close()
	if err != nil {
		return nil, fmt.Errorf("windowtest: start Xvfb: %w", err)
	}
	got := make(chan string, 1)
	go func() {
		buf := make([]byte, 16)
		n, _ := r.Read(buf)
		got <- strings.TrimSpace(string(buf[:n]))
	}()
	select {
	case num := <-got:
		if num == "" {
			proc.Process.Kill()
			proc.Wait()
			return nil, errors.New("windowtest: Xvfb gave no display number")
		}
		d := &Display{Name: ":" + num, proc: proc}
		for deadline := time.Now().Add(10 * time.Second); time.Now().Before(deadline); time.Sleep(20 * time.Millisecond) {
			if c, err := xgb.NewConnDisplay(d.Name); err == nil {
				c.Close()
				return d, nil
			}
		}
		d.Close()
		return nil, fmt.Errorf("windowtest: Xvfb %s took no connection within 10 s", d.Name)
	case <-time.After(10 * time.Second):
		proc.Process.Kill()
		proc.Wait()
		return nil, errors.New("windowtest: Xvfb gave no display number within 10 s")
	}
}

// Close stops the server: SIGTERM, so that it removes its socket and lock
// file (a killed one leaves them, and the next server started may be handed
// the dead number), then SIGKILL if it has not stopped within 5 s.
func (d *Display) Close() {
	if d.proc == nil || d.proc.Process == nil {
		return
	}
	done := make(chan struct{})
	go func() { d.proc.Wait(); close(done) }()
	d.proc.Process.Signal(syscall.SIGTERM)
	select {
	case <-done:
	case <-time.After(5 * time.Second):
		d.proc.Process.Kill()
		<-done
	}
}

// Env returns env (nil: the process's) with DISPLAY set to d.
func (d *Display) Env(env []string) []string {
	if env == nil {
		env = os.Environ()
	}
	out := make([]string, 0, len(env)+1)
	for _, kv := range env {
		if !strings.HasPrefix(kv, "DISPLAY=") && !strings.HasPrefix(kv, "WAYLAND_DISPLAY=") {
			out = append(out, kv)
		}
	}
	return append(out, "DISPLAY="+d.Name)
}

// xgb logs, among other things, that a test's own display has no authority
// file (it needs none: it takes local connections). Its logger is a global
// that its connections' goroutines read: it is set here, before any.
func init() { xgb.Logger = log.New(io.Discard, "", 0) }

// DialDisplay connects to the X server named (":N").
func DialDisplay(name string) (*Client, error) {
	conn, err := xgb.NewConnDisplay(name)
	if err != nil {
		return nil, fmt.Errorf("connect to X %s: %w", name, err)
	}
	return &Client{conn: conn, screen: xproto.Setup(conn).DefaultScreen(conn), atoms: map[string]xproto.Atom{}}, nil
}
