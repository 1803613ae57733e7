package main

import (
	"bufio"
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/fixedstep/fixedstep/internal/cmdtest"
)

var hostingRE = regexp.MustCompile(`hosting shooter on (\S+) for`)

// Two headless peers play from the Title over UDP on 127.0.0.1, each by
// its autopilot (the host's passes the Title's menu, the joiner's flies its
// own ship), through a link of 100 ms, 10 ms of jitter and 5% loss each
// way: both end on the same checksum, having rolled back. The peers are
// killed, and the test fails, if neither prints nor records anything for
// stall: a busy machine's peers make progress slowly, hung ones none.
func TestNetplayFromTheTitle(t *testing.T) {
	link := []string{"-headless", "-seconds", "30", "-seed", "5", "-netsim", "100ms,10ms,5%", "-peer-timeout", "1m"}
	dir := t.TempDir()
	recs := [2]string{filepath.Join(dir, "host.input"), filepath.Join(dir, "join.input")}
	var outs [2]bytes.Buffer
	var mu sync.Mutex
	host := exec.Command(bin, append(link, "-host", "127.0.0.1:0", "-players", "2", "-record", recs[0])...)
	host.Stdout = &lockedBuffer{&mu, &outs[0]}
	stderr, err := host.StderrPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := host.Start(); err != nil {
		t.Fatal(err)
	}
	defer host.Process.Kill()
	addr := make(chan string, 1)
	done := make(chan struct{})
	go func() {
		defer close(done)
		sc := bufio.NewScanner(stderr)
		for sc.Scan() {
			(&lockedBuffer{&mu, &outs[0]}).Write([]byte(sc.Text() + "\n"))
			if m := hostingRE.FindStringSubmatch(sc.Text()); m != nil {
				addr <- m[1]
			}
		}
	}()
	var where string
	tick := time.NewTicker(time.Second)
	last, since := -1, time.Now()
	for where == "" {
		select {
		case where = <-addr:
		case <-done:
			t.Fatalf("the host ended before it listened:\n%s", outs[0].String())
		case <-tick.C:
			mu.Lock()
			n := outs[0].Len()
			mu.Unlock()
			if n != last {
				last, since = n, time.Now()
			} else if time.Since(since) > stall {
				host.Process.Kill()
				<-done
				t.Fatalf("the host printed nothing for %v and did not listen: killed\n%s", stall, outs[0].String())
			}
		}
	}
	tick.Stop()
	join := exec.Command(bin, append(link[:len(link):len(link)], "-join", where, "-record", recs[1])...)
	join.Stdout, join.Stderr = &lockedBuffer{&mu, &outs[1]}, &lockedBuffer{&mu, &outs[1]}
	if err := join.Start(); err != nil {
		t.Fatal(err)
	}
	stop := make(chan struct{})
	var stalled atomic.Bool
	go func() { // the watchdog: progress is output printed and input recorded
		last, since := int64(-1), time.Now()
		tick := time.NewTicker(time.Second)
		defer tick.Stop()
		for {
			select {
			case <-stop:
				return
			case <-tick.C:
			}
			mu.Lock()
			n := int64(outs[0].Len() + outs[1].Len())
			mu.Unlock()
			for _, r := range recs {
				n += fileSize(r) + fileSize(r+".partial")
			}
			if n != last {
				last, since = n, time.Now()
			} else if time.Since(since) > stall {
				stalled.Store(true)
				host.Process.Kill()
				join.Process.Kill()
				return
			}
		}
	}()
	joinErr := join.Wait()
	<-done
	hostErr := host.Wait()
	close(stop)
	if stalled.Load() {
		t.Fatalf("the peers printed and recorded nothing for %v: killed\nhost:\n%s\njoiner:\n%s", stall, outs[0].String(), outs[1].String())
	}
	if joinErr != nil {
		t.Fatalf("joiner: %v\n%s", joinErr, outs[1].String())
	}
	if hostErr != nil {
		t.Fatalf("host: %v\n%s", hostErr, outs[0].String())
	}
	var sums [2]string
	for i := range outs {
		out := outs[i].String()
		m := cmdtest.ChecksumRE.FindStringSubmatch(out)
		if m == nil {
			// the session's log may follow the summary
			if k := strings.LastIndex(out, "\nchecksum "); k >= 0 {
				m = []string{"", strings.Fields(out[k+10:])[0]}
			}
		}
		if m == nil || !strings.Contains(out, "rollbacks") || !gameRE.MatchString(out) {
			t.Fatalf("peer %d: no game, rollbacks or checksum:\n%s", i+1, out)
		}
		sums[i] = m[1]
	}
	if sums[0] != sums[1] {
		t.Errorf("checksums %s and %s:\nhost:\n%s\njoiner:\n%s", sums[0], sums[1], outs[0].String(), outs[1].String())
	}
}

// lockedBuffer is a buffer written by several goroutines.
type lockedBuffer struct {
	mu *sync.Mutex
	b  *bytes.Buffer
}

func (l *lockedBuffer) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.Write(p)
}

// stall is how long the peers may go without printing or recording
// anything before they are taken as hung.
const stall = 2 * time.Minute

// fileSize is the size of the file at path, 0 when there is none.
func fileSize(path string) int64 {
	st, err := os.Stat(path)
	if err != nil {
		return 0
	}
	return st.Size()
}
