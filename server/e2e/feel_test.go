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
// second each received and sent, and the server's CPU per second of the
// match (server-ms/match-s). Means of the two clients. About 15 s a case.
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
)

// feel plays one match of BenchmarkOnlineFeel and reports its figures.
func feel(b *testing.B, srv *nakamatest.Server, bin string, rtt int, predict bool) {
	args := []string{"-headless", "-autopilot", "-realtime", "-players", "2", "-seconds", fmt.Sprint(feelSeconds),
		"-server", srv.URL, "-server-key", srv.ServerKey}
	if rtt > 0 {
		oneWay := time.Duration(rtt) * time.Millisecond / 2
		args = append(args, "-server-netsim", fmt.Sprintf("%v,%v", oneWay, oneWay/5))
	}
	if predict {
		args = append(args, "-predict")
	}
	cpu0, err := cpuOf(srv.PID())
	if err != nil {
		b.Fatal(err)
	}
	outs, errs := runTogether(b, bin, 2, func(int) []string { return args })
	cpu1, _ := cpuOf(srv.PID())
	sums := map[string]float64{}
	add := func(re *regexp.Regexp, out string, names ...string) {
		m := re.FindStringSubmatch(out)
		if m == nil {
			b.Fatalf("no %v in the demo's output:\n%s", re, out)
		}
		for i, name := range names {
			if name == "" {
				continue
			}
			v, _ := strconv.ParseFloat(m[i+1], 64)
			sums[name] += v / float64(len(outs))
		}
	}
	for i, out := range outs {
		if errs[i] != nil {
			b.Fatalf("demo %d: %v\n%s", i+1, errs[i], out)
		}
		add(feelChecked, out, "ticks-checked")
		add(feelDelay, out, "input-delay-ticks")
		add(feelBytes, out, "received-B/s", "sent-B/s")
		add(feelCPU, out, "client-cpu-%")
		if predict {
			add(feelPredict, out, "", "rollbacks/s", "resimulated/tick")
		}
	}
	if sums["ticks-checked"] != feelSeconds*hz {
		b.Fatalf("%v ticks checked of %d", sums["ticks-checked"], feelSeconds*hz)
	}
	delete(sums, "ticks-checked")
	for name, v := range sums {
		b.ReportMetric(v, name)
	}
	b.ReportMetric(float64(cpu1-cpu0)/float64(time.Millisecond)/feelSeconds, "server-ms/match-s")
}
