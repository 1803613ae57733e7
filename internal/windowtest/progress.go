package windowtest

import (
	"flag"
	"fmt"
	"os"
	"strconv"
	"strings"
	"time"
)

// Stall is how long a test waits on a program, a window or a page that
// shows no progress (no frame drawn, no tick, no output, no window) before it
// gives up. A run that progresses at all shows some every few seconds even on
// a shared machine with a load average of 15 on 2 cores (a frame there takes
// a second or two at worst); 90 s without any is a hang, not a slow machine.
// How long the whole run takes does not matter: a wait that sees progress
// goes on (up to its Watch's deadline).
const Stall = 90 * time.Second

// deadlineMargin is how long before the test binary's deadline (go test
// -timeout) a wait gives up: time to kill what it waited on and to print
// what it saw, rather than go test's panic with its goroutines.
const deadlineMargin = 20 * time.Second

// started is about when the test binary started, and its -timeout with it.
var started = time.Now()

// Deadline returns the time at which a wait gives up whatever its
// progress: the test binary's deadline (go test -timeout, read from its
// -test.timeout flag and counted from the package's start) less a margin to
// report in. It is the zero time (no deadline) with -timeout 0 or outside a
// test binary. It is the last resort against a run that progresses forever
// and never ends (a key lost, a game that never reaches its end); Stall is
// what catches a hang.
func Deadline() time.Time {
	f := flag.Lookup("test.timeout")
	if f == nil {
		return time.Time{}
	}
	g, ok := f.Value.(flag.Getter)
	if !ok {
		return time.Time{}
	}
	d, ok := g.Get().(time.Duration)
	if !ok || d <= 0 {
		return time.Time{}
	}
	return started.Add(d - deadlineMargin)
}

// A Watch follows a wait's progress: a string that changes when what is
// waited on makes progress ("41 frames drawn, 1200 bytes of output"), read
// at each Check. A Watch is used by one goroutine.
type Watch struct {
	// Stall is how long the progress may stay the same before Check fails.
	Stall time.Duration

	// Deadline ends the wait whatever the progress; the zero time: never.
	Deadline time.Time

	progress func() string
	start    time.Time // when the wait began
	at       time.Time // when the progress last changed
	last     string    // the progress last read
	changes  int
}

// NewWatch starts a watch of progress, which Check calls, with the
// package's Stall and the test binary's Deadline.
func NewWatch(progress func() string) *Watch {
	now := time.Now()
	return &Watch{Stall: Stall, Deadline: Deadline(), progress: progress, start: now, at: now, last: progress()}
}

// Check reads the progress and returns nil while the wait may go on: the
// progress has changed within the last Stall and the Deadline has not come.
// Otherwise its error says which, with the last progress and when it was
// seen.
func (w *Watch) Check() error {
	now := time.Now()
	if p := w.progress(); p != w.last {
		w.last, w.at = p, now
		w.changes++
	}
	switch {
	case now.Sub(w.at) >= w.Stall:
		return fmt.Errorf("no progress for %v (%s)", w.Stall, w)
	case !w.Deadline.IsZero() && now.After(w.Deadline):
		return fmt.Errorf("still going at the test's deadline, though not stalled (%s)", w)
	}
	return nil
}

// String says what the progress was last, how long ago it changed, and how
// long the wait has taken.
func (w *Watch) String() string {
	now := time.Now()
	when := "never changed"
	if w.changes > 0 {
		when = fmt.Sprintf("last changed %v ago", now.Sub(w.at).Round(100*time.Millisecond))
	}
	return fmt.Sprintf("progress: %s, %s; %v into the wait", w.last, when, now.Sub(w.start).Round(100*time.Millisecond))
}

// CPUTime returns the CPU time (user and system) the process pid has used,
// with that of its children it has waited for: a starting program's one
// sign of progress before it opens a window or prints. It reads
// /proc/PID/stat (Linux).
func CPUTime(pid int) (time.Duration, error) {
	data, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/stat")
	if err != nil {
		return 0, err
	}
	// The command's name, in parentheses, may hold spaces: the fields
	// counted are those after it. utime, stime, cutime and cstime are the
	// 14th to 17th fields of the line, in clock ticks (100 a second on
	// Linux: USER_HZ).
	s := string(data)
	f := strings.Fields(s[strings.LastIndexByte(s, ')')+1:])
	if len(f) < 15 {
		return 0, fmt.Errorf("windowtest: /proc/%d/stat: %d fields after the name", pid, len(f))
	}
	var ticks int64
	for _, v := range f[11:15] {
		n, err := strconv.ParseInt(v, 10, 64)
		if err != nil {
			return 0, fmt.Errorf("windowtest: /proc/%d/stat: %w", pid, err)
		}
		ticks += n
	}
	return time.Duration(ticks) * (time.Second / 100), nil
}

// cpuProgress returns a progress function (see Watch) that reports the CPU
// time pid has used, for a program that has nothing else to show yet.
func CPUProgress(pid int) func() string {
	return func() string {
		d, err := CPUTime(pid)
		if err != nil {
			return "no CPU time to read: " + err.Error()
		}
		return fmt.Sprintf("%v of CPU used", d)
	}
}
