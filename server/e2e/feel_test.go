package e2e

import (
	"fmt"
	"regexp"
	"strconv"
	"testing"
	"time"

	"github.com/fixedstep/fixedstep/server/internal/nakamatest"
)

// feelSeconds is each measured match's length.
const feelSeconds = 10

// BenchmarkOnlineFeel measures what a player of an online match feels,
// for two demos (headless, the autopilot playing, -realtime) in a match of
// two, each some round trip from the server (-server-netsim: half of it
// each way, with a jitter of a tenth of it): 0, 50, 100 and 150 ms; each
// way of playing: the server's ticks as they come (wait) and predicting
// (-predict). It reports the ticks from the tick that sampled a change of
// the player's input to the first tick that ran with it (input-delay-
// ticks), rollbacks a second and ticks simulated again per tick (the
// predicting clients'), the clients' CPU (% of a core), the bytes a
// second each received and sent, the p99s of a frame's work (its input to
// its drawing done: the ticks it ran, rollbacks among them) and of the
// time from one frame's start to the next's (ms; headless, the second is
// the driver's sleep to its next frame or tick, not a display's), and the
// server's CPU per second of the match (server-ms/match-s). Means of the
// two clients. About 15 s a case.
func BenchmarkOnlineFeel(b *testing.B) {
	srv := nakamatest.Start(b)
	bin := buildDemo(b, b.TempDir())
	for _, rtt := range []int{0, 50, 100, 150} {
		for _, how := range []string{"wait", "predict"} {
			b.Run(fmt.Sprintf("rtt=%dms/how=%s", rtt, how), func(b *testing.B) {
				for b.Loop() {
					feel(b, srv, bin, rtt, how == "predict")
				}
			})
		}
	}
}

var (
	feelDelay   = regexp.MustCompile(`input ran ([0-9.]+) ticks after it was sampled`)
	feelPredict = regexp.MustCompile(`(\d+) rollbacks \(([0-9.]+) a second\), \d+ ticks simulated again \(([0-9.]+) a tick\)`)
	feelBytes   = regexp.MustCompile(`received (\d+) B/s, sent (\d+) B/s`)
	feelCPU     = regexp.MustCompile(`CPU = ([0-9.]+)% of one core`)
	feelChecked = regexp.MustCompile(`(\d+) ticks checked against the server's checksum`)
	feelFrames  = regexp.MustCompile(`frames: \d+ timed; a frame's work \(its input to its drawing done\) p50 \S+, p99 (\S+), max \S+; ` +
		`from a frame's start to the next's p50 \S+, p99 (\S+), max \S+`)
)

// feel plays one match of BenchmarkOnlineFeel and reports its figures.
func feel(b *testing.B, srv *nakamatest.Server, bin string, rtt int, predict bool) {
	args := append([]string{"-headless", "-autopilot", "-realtime", "-players", "2", "-seconds", fmt.Sprint(feelSeconds),
		"-server", srv.URL, "-server-key", srv.ServerKey}, feelArgs(rtt, predict)...)
	cpu0, err := cpuOf(srv.PID())
	if err != nil {
		b.Fatal(err)
	}
	outs, errs := runTogether(b, bin, 2, func(int) []string { return args })
	cpu1, _ := cpuOf(srv.PID())
	sums := map[string]float64{}
	for i, out := range outs {
		if errs[i] != nil {
			b.Fatalf("demo %d: %v\n%s", i+1, errs[i], out)
		}
		for name, v := range feelFigures(b, "the demo", out, predict, true) {
			sums[name] += v / float64(len(outs))
		}
	}
	for name, v := range sums {
		b.ReportMetric(v, name)
	}
	b.ReportMetric(float64(cpu1-cpu0)/float64(time.Millisecond)/feelSeconds, "server-ms/match-s")
}

// feelArgs are a native demo's flags for a match rtt ms of round trip
// from the server (-server-netsim: half of it each way, with a jitter of
// a tenth of it), predicting or not.
func feelArgs(rtt int, predict bool) []string {
	var args []string
	if rtt > 0 {
		oneWay := time.Duration(rtt) * time.Millisecond / 2
		args = append(args, "-server-netsim", fmt.Sprintf("%v,%v", oneWay, oneWay/5))
	}
	if predict {
		args = append(args, "-predict")
	}
	return args
}

// feelFigures reads a client's figures from what it printed (who: the
// demo, the page): its input delay, bytes a second, frame p99s (ms), its
// CPU (cpu: a -realtime run's line; a page has none), and a predicting
// one's rollbacks. It fails unless the client checked every tick of the
// match.
func feelFigures(b *testing.B, who, out string, predict, cpu bool) map[string]float64 {
	figures := map[string]float64{}
	add := func(re *regexp.Regexp, names ...string) {
		m := re.FindStringSubmatch(out)
		if m == nil {
			b.Fatalf("no %v in %s's output:\n%s", re, who, out)
		}
		for i, name := range names {
			if name == "" {
				continue
			}
			v, err := strconv.ParseFloat(m[i+1], 64)
			if err != nil { // a duration
				d, _ := time.ParseDuration(m[i+1])
				v = float64(d) / float64(time.Millisecond)
			}
			figures[name] = v
		}
	}
	add(feelChecked, "ticks-checked")
	add(feelDelay, "input-delay-ticks")
	add(feelBytes, "received-B/s", "sent-B/s")
	add(feelFrames, "frame-work-p99-ms", "frame-interval-p99-ms")
	if cpu {
		add(feelCPU, "client-cpu-%")
	}
	if predict {
		add(feelPredict, "", "rollbacks/s", "resimulated/tick")
	}
	if figures["ticks-checked"] != feelSeconds*hz {
		b.Fatalf("%s checked %v ticks of %d:\n%s", who, figures["ticks-checked"], feelSeconds*hz, out)
	}
	delete(figures, "ticks-checked")
	return figures
}
