package netsoak

import (
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"
)

// When a peer quits (Ctrl-C), is killed, freezes, or its host is killed,
// and the host keeps no seat for it (-seat-wait 0: see TestPlayerKilledTakesSeatBack, cmd/demo, for a seat that waits),
// the other peer ends within 10 s, saying which it was, with a non-zero
// exit status: no peer plays on, or waits, alone. Each case logs how long
// the other took to notice.
func TestPeerEnds(t *testing.T) {
	if testing.Short() {
		t.Skip("real networked sessions in real time")
	}
	dir := t.TempDir()
	bin := filepath.Join(dir, "breakout")
	cmd := exec.Command("go", "build", "-o", bin, "./cmd/breakout")
	cmd.Dir = "../.."
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	for _, c := range []struct {
		name   string
		victim int // 0: the host, 1: the joiner
		sig    syscall.Signal
		says   string // what the other peer's error says
	}{
		{"a joiner quits (Ctrl-C)", 1, syscall.SIGINT, "it quit"},
		{"a joiner is killed", 1, syscall.SIGKILL, "nothing heard for 5s (it froze or crashed"},
		{"a joiner freezes", 1, syscall.SIGSTOP, "nothing heard for 5s (it froze or crashed"},
		{"the host is killed", 0, syscall.SIGKILL, "nothing heard for 5s (it froze or crashed"},
	} {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel() // real time: the sessions mostly wait
			sdir := t.TempDir()
			recs := [2]string{filepath.Join(sdir, "host.input"), filepath.Join(sdir, "join.input")}
			lines := make(chan string, 64)
			procs := [2]chan *exec.Cmd{make(chan *exec.Cmd, 1), make(chan *exec.Cmd, 1)}
			done := [2]chan struct{}{make(chan struct{}), make(chan struct{})}
			peers := [2]*peer{}
			ended := [2]time.Time{}
			startPeer := func(i int, args []string, lines chan<- string) {
				defer close(done[i])
				p := &peer{rec: recs[i]}
				peers[i] = p
				cmd := exec.Command(bin, args...)
				cmd.Dir = sdir
				out := &lineSink{lines: lines, b: &p.out}
				cmd.Stdout, cmd.Stderr = out, out
				if p.err = cmd.Start(); p.err != nil {
					close(procs[i])
					return
				}
				procs[i] <- cmd
				p.err = cmd.Wait()
				ended[i] = time.Now()
				p.parse()
			}
			go startPeer(0, []string{"-headless", "-seconds", "120", "-host", "127.0.0.1:0", "-seat-wait", "0", "-record", recs[0]}, lines)
			host := <-procs[0]
			addr := ""
			for addr == "" {
				select {
				case l := <-lines:
					if m := hostRE.FindStringSubmatch(l); m != nil {
						addr = m[1]
					}
				case <-done[0]:
					t.Fatalf("the host ended before it listened:\n%s", peers[0].out.String())
				}
			}
			go func() { // the host's further lines are in its output
				for {
					select {
					case <-lines:
					case <-done[0]:
						return
					}
				}
			}()
			go startPeer(1, []string{"-headless", "-join", addr, "-record", recs[1]}, nil)
			joiner := <-procs[1]
			if host == nil || joiner == nil {
				<-done[0]
				<-done[1]
				t.Fatalf("the session did not start:\n%s\n%s", peers[0].out.String(), peers[1].out.String())
			}
			// Once both play (the joiner's recording has grown with a few
			// seconds of game time), the victim's end.
			for fileSize(recs[1]+".partial") < 2000 {
				select {
				case <-done[1]:
					<-done[0]
					t.Fatalf("the joiner ended before the test:\n%s\n%s", peers[0].out.String(), peers[1].out.String())
				case <-time.After(50 * time.Millisecond):
				}
			}
			victim, other := [2]*exec.Cmd{host, joiner}[c.victim], 1-c.victim
			at := time.Now()
			victim.Process.Signal(c.sig)
			deadline := time.AfterFunc(60*time.Second, func() { // well past the 10 s promised: a hang, ended
				[2]*exec.Cmd{host, joiner}[other].Process.Kill()
			})
			<-done[other]
			if c.sig == syscall.SIGSTOP { // the frozen peer is let go
				victim.Process.Signal(syscall.SIGKILL)
				victim.Process.Signal(syscall.SIGCONT)
			}
			<-done[c.victim]
			deadline.Stop()
			took := ended[other].Sub(at)
			o := peers[other]
			t.Logf("%s: the other peer ended %.2f s later: %s", c.name, took.Seconds(), lastLine(o.out.String()))
			if took > 10*time.Second || o.err == nil || !strings.Contains(o.out.String(), c.says) {
				t.Errorf("%s: the other peer ended %v later with %v, want within 10 s, a non-zero status and a message saying %q:\n%s",
					c.name, took, o.err, c.says, o.out.String())
			}
			if c.sig == syscall.SIGINT {
				v := peers[c.victim]
				if code := exitCode(v.err); code != 128+2 || fileSize(recs[c.victim]) <= 0 {
					t.Errorf("the peer that quit: exit %d (want 130), its recording %d bytes:\n%s", code, fileSize(recs[c.victim]), v.out.String())
				}
			}
		})
	}
}

// lineSink writes what a process prints into b, and each line to lines.
type lineSink struct {
	mu    sync.Mutex
	lines chan<- string
	b     *strings.Builder
	part  string
}

func (s *lineSink) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.b.Write(p)
	if s.lines == nil {
		return len(p), nil
	}
	s.part += string(p)
	for {
		i := strings.IndexByte(s.part, '\n')
		if i < 0 {
			break
		}
		select {
		case s.lines <- s.part[:i]:
		default:
		}
		s.part = s.part[i+1:]
	}
	return len(p), nil
}

func lastLine(s string) string {
	lines := strings.Split(strings.TrimSpace(s), "\n")
	return lines[len(lines)-1]
}

func exitCode(err error) int {
	if ee, ok := err.(*exec.ExitError); ok {
		return ee.ExitCode()
	}
	if err != nil {
		return -1
	}
	return 0
}
