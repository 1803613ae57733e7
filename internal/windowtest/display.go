package windowtest

import (
	"fmt"
	"io"
	"log"
	"os"
	"os/exec"
	"strings"
	"sync"
	"syscall"
	"time"

	"github.com/jezek/xgb"
	"github.com/jezek/xgb/damage"
	"github.com/jezek/xgb/xproto"
)

// A Display is an X server of a test's own (Xvfb), so that the keys and
// clicks it sends reach its program's window and no other: tests that run
// at the same time (go test runs packages in parallel) each have their own
// focus. It needs Xvfb (Debian's xvfb package; make test installs it).
type Display struct {
	Name string // ":N", for DISPLAY

	proc   *exec.Cmd
	exited chan struct{} // closed once proc has exited
}

// NewDisplay starts an Xvfb server (1280x1024, 24 bits) on a display
// number it picks itself (-displayfd: no race with other servers starting
// at the same time) and waits for it to take connections, for as long as
// Xvfb works at starting (its CPU time, with that of the xkbcomp it runs,
// grows), at most Stall without that (and not past Deadline).
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
	var stderr output
	proc := exec.Command(bin, "-displayfd", "3", "-screen", "0", "1280x1024x24", "-nolisten", "tcp", "-noreset")
	proc.ExtraFiles = []*os.File{w} // fd 3
	proc.Stderr = &stderr
	err = proc.Start()
	w.Close()
	if err != nil {
		return nil, fmt.Errorf("windowtest: start Xvfb: %w", err)
	}
	exited := make(chan struct{})
	go func() { proc.Wait(); close(exited) }()
	fail := func(format string, args ...any) (*Display, error) {
		proc.Process.Kill()
		<-exited
		return nil, fmt.Errorf("windowtest: Xvfb "+format+"; its output:\n%s", append(args, stderr.String())...)
	}
	got := make(chan string, 1)
	go func() {
		buf := make([]byte, 16)
		n, _ := r.Read(buf)
		got <- strings.TrimSpace(string(buf[:n]))
	}()
	watch := NewWatch(CPUProgress(proc.Process.Pid))
	var num string
	for num == "" {
		select {
		case num = <-got:
			if num == "" {
				return fail("gave no display number")
			}
		case <-exited:
			return fail("exited before it gave a display number (%v)", proc.ProcessState)
		case <-time.After(20 * time.Millisecond):
			if err := watch.Check(); err != nil {
				return fail("gave no display number: %v", err)
			}
		}
	}
	d := &Display{Name: ":" + num, proc: proc, exited: exited}
	watch = NewWatch(CPUProgress(proc.Process.Pid))
	for {
		c, err := xgb.NewConnDisplay(d.Name)
		if err == nil {
			c.Close()
			return d, nil
		}
		if werr := watch.Check(); werr != nil {
			d.Close()
			return nil, fmt.Errorf("windowtest: Xvfb %s took no connection (%v): %w; its output:\n%s", d.Name, err, werr, stderr.String())
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// Close stops the server: SIGTERM, so that it removes its socket and lock
// file (a killed one leaves them, and the next server started may be handed
// the dead number), then SIGKILL if it has not stopped within 5 s.
func (d *Display) Close() {
	if d.proc == nil || d.proc.Process == nil {
		return
	}
	d.proc.Process.Signal(syscall.SIGTERM)
	select {
	case <-d.exited:
	case <-time.After(5 * time.Second):
		d.proc.Process.Kill()
		<-d.exited
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

// DialDisplay connects to the X server named (":N"; "" for $DISPLAY).
func DialDisplay(name string) (*Client, error) {
	registerDamage(name)
	conn, err := xgb.NewConnDisplay(name)
	if err != nil {
		return nil, fmt.Errorf("connect to X %s: %w", name, err)
	}
	return &Client{conn: conn, screen: xproto.Setup(conn).DefaultScreen(conn), atoms: map[string]xproto.Atom{}}, nil
}

// damageNumbers are the DAMAGE extension's first event and error numbers,
// as damage.Init registered its constructors for them in xgb's global
// tables, once for the process (ok false: it could not).
var damageNumbers struct {
	once                   sync.Once
	firstEvent, firstError byte
	ok                     bool
}

// registerDamage runs damage.Init once, on a connection of its own, before
// the first Client connects. damage.Init writes xgb's global tables of event
// and error constructors, which every connection's reader goroutine reads
// as events arrive: run for each connection, as tests start one program
// after another in one process, it races with the readers of connections
// still open. Once is enough: the servers here are one Xvfb, which numbers
// its extensions the same each time; useDamage checks that it did.
func registerDamage(display string) {
	damageNumbers.once.Do(func() {
		conn, err := xgb.NewConnDisplay(display)
		if err != nil {
			return
		}
		defer conn.Close()
		r, err := xproto.QueryExtension(conn, uint16(len("DAMAGE")), "DAMAGE").Reply()
		if err != nil || !r.Present || damage.Init(conn) != nil {
			return
		}
		damageNumbers.firstEvent, damageNumbers.firstError, damageNumbers.ok = r.FirstEvent, r.FirstError, true
	})
}

// useDamage readies conn for DAMAGE requests as damage.Init does, without
// writing xgb's global tables (registerDamage did): false if the server
// has no DAMAGE, or numbers it otherwise than the tables do.
func useDamage(conn *xgb.Conn) bool {
	if !damageNumbers.ok {
		return false
	}
	r, err := xproto.QueryExtension(conn, uint16(len("DAMAGE")), "DAMAGE").Reply()
	if err != nil || !r.Present || r.FirstEvent != damageNumbers.firstEvent || r.FirstError != damageNumbers.firstError {
		return false
	}
	conn.ExtLock.Lock()
	conn.Extensions["DAMAGE"] = r.MajorOpcode
	conn.ExtLock.Unlock()
	return true
}
