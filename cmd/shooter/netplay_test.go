package main

import (
	"bufio"
	"bytes"
	"os/exec"
	"regexp"
	"strings"
	"sync"
	"testing"

	"github.com/fixedstep/fixedstep/internal/cmdtest"
)

var hostingRE = regexp.MustCompile(`hosting shooter on (\S+) for`)

// Two headless peers play from the Title over UDP on 127.0.0.1, each by
// its autopilot (the host's passes the Title's menu, the joiner's flies its
// own ship), through a link of 100 ms, 10 ms of jitter and 5% loss each
// way: both end on the same checksum, having rolled back.
func TestNetplayFromTheTitle(t *testing.T) {
	link := []string{"-headless", "-seconds", "30", "-seed", "5", "-netsim", "100ms,10ms,5%", "-peer-timeout", "1m"}
	var outs [2]bytes.Buffer
	var mu sync.Mutex
	host := exec.Command(bin, append(link, "-host", "127.0.0.1:0", "-players", "2")...)
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
	select {
	case where = <-addr:
	case <-done:
		t.Fatalf("the host ended before it listened:\n%s", outs[0].String())
	}
	join := exec.Command(bin, append(link[:len(link):len(link)], "-join", where)...)
	join.Stdout, join.Stderr = &lockedBuffer{&mu, &outs[1]}, &lockedBuffer{&mu, &outs[1]}
	if err := join.Run(); err != nil {
		t.Fatalf("joiner: %v\n%s", err, outs[1].String())
	}
	<-done
	if err := host.Wait(); err != nil {
		t.Fatalf("host: %v\n%s", err, outs[0].String())
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
