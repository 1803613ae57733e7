package windowtest

import (
	"bufio"
	"fmt"
	"io"
	"os"
	"os/exec"
	"strings"
	"sync"
	"time"
)

// A test whose window must be the only one in its process (ebiten runs one
// game a process) runs it in a child process: the test binary itself,
// selected by an environment variable. The child starts ChildWatchdog with
// its progress (frames drawn, the step it is at); the parent runs it with
// RunChild, which waits for as long as the child prints.

// progressPrefix opens the lines ChildWatchdog prints, which RunChild
// leaves out of the output it returns.
const progressPrefix = "PROGRESS "

// childStall is how long RunChild waits for a line from the child: longer
// than Stall, so that the child's own watchdog, which says what the child
// waited for, speaks first.
const childStall = Stall + 30*time.Second

// ChildWatchdog, in a test's child process (see RunChild), reads progress
// every 100 ms. When it has changed it prints it for the parent, on a line of
// its own (at most one a second), and once it has not changed for Stall it
// ends the process: "CHILD FAIL: no progress for 1m30s (...)" and exit
// status 2. Give it a progress that changes as the child moves on (frames
// drawn, the step it is at), and that stops changing when the child has
// only to exit: a child that does not exit is then ended too.
func ChildWatchdog(progress func() string) {
	watch := NewWatch(progress)
	watch.Deadline = time.Time{} // the parent's is the one that counts
	go func() {
		var printed string
		var printedAt time.Time
		for range time.Tick(100 * time.Millisecond) {
			if err := watch.Check(); err != nil {
				fmt.Printf("CHILD FAIL: %v\n", err)
				os.Exit(2)
			}
			if watch.last != printed && time.Since(printedAt) >= time.Second {
				printed, printedAt = watch.last, time.Now()
				fmt.Printf("%s%s\n", progressPrefix, printed)
			}
		}
	}()
}

// RunChild runs cmd, a test's child process, with its stdout and stderr
// read as it runs, and returns what it printed (but for the progress lines
// of its ChildWatchdog) once it has exited, and how it exited. It waits for
// as long as the child prints something (its watchdog's lines among it):
// after Stall and 30 s more without a line, or at Deadline, it kills the
// child, and the error says so, with the last line seen.
func RunChild(cmd *exec.Cmd) (string, error) {
	pr, pw := io.Pipe()
	cmd.Stdout, cmd.Stderr = pw, pw
	if err := cmd.Start(); err != nil {
		return "", err
	}
	var (
		mu    sync.Mutex
		out   strings.Builder
		lines int
		last  string
	)
	read := make(chan struct{})
	go func() {
		defer close(read)
		sc := bufio.NewScanner(pr)
		sc.Buffer(nil, 1<<20)
		for sc.Scan() {
			mu.Lock()
			lines++
			last = sc.Text()
			if !strings.HasPrefix(last, progressPrefix) {
				out.WriteString(last + "\n")
			}
			mu.Unlock()
		}
		io.Copy(io.Discard, pr)
	}()
	exited := make(chan error, 1)
	go func() {
		err := cmd.Wait()
		pw.Close()
		exited <- err
	}()
	watch := NewWatch(func() string {
		mu.Lock()
		defer mu.Unlock()
		return fmt.Sprintf("%d lines printed, the last %q", lines, last)
	})
	watch.Stall = childStall
	var err error
	for done := false; !done; {
		select {
		case err = <-exited:
			done = true
		case <-time.After(100 * time.Millisecond):
			if werr := watch.Check(); werr != nil {
				cmd.Process.Kill()
				<-exited
				err, done = fmt.Errorf("windowtest: child killed: %w", werr), true
			}
		}
	}
	<-read
	return out.String(), err
}
