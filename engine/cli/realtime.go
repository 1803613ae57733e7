package cli

import (
	"fmt"
	"slices"
	"time"

	"github.com/fixedstep/fixedstep/engine"
	"github.com/fixedstep/fixedstep/internal/cputime"
)

// realtimeProbe measures a real-clock run: the CPU the process uses, and how
// late each tick of the first group is delivered against the real time it
// is due (the scene's first frame plus the tick's game time plus the game
// time the loop gave up, clamped or dropped, which it reports on its own).
// Beside it, the same measure of a bare time.Sleep: what the Go runtime and
// the OS give any program on this machine, taken in the same run.
type realtimeProbe struct {
	start    time.Time
	cpuStart time.Duration
	base     time.Time     // real time of the scene's game time 0
	scene    int           // the timeline base belongs to
	lost     time.Duration // game time given up (clamped, dropped) before it
	errors   []time.Duration

	interrupted bool // a signal ended the run: no second of sleeps after it
}

func newRealtimeProbe(seconds float64) *realtimeProbe {
	cpu, _ := cputime.Process()
	return &realtimeProbe{start: time.Now(), cpuStart: cpu,
		errors: make([]time.Duration, 0, int(seconds*60)+120)}
}

// event is the run's OnEvent hook.
func (p *realtimeProbe) event(loop *engine.Loop, ev engine.Event) {
	now := time.Now()
	scene, _ := loop.Scene()
	switch {
	case ev.Kind == engine.Input && scene != p.scene:
		st := loop.Stats() // a timeline's first frame: its game time 0 is now
		p.base, p.scene, p.lost = now, scene, st.Clamped+st.Dropped
	case ev.Kind == engine.Update && ev.Group == 0 && !p.base.IsZero():
		st := loop.Stats()
		p.errors = append(p.errors, now.Sub(p.base)-ev.Time-(st.Clamped+st.Dropped-p.lost))
	}
}

// line returns CPU use and the tick timing error percentiles, for the
// scene's report, then the bare sleep's (one second more of the run, left
// out when a signal ended it: the player asked to stop).
func (p *realtimeProbe) line() string {
	wall := time.Since(p.start)
	cpuNow, measured := cputime.Process()
	cpu := cpuNow - p.cpuStart
	usage := fmt.Sprintf("%v CPU = %.2f%% of one core", cpu.Round(time.Millisecond), 100*cpu.Seconds()/wall.Seconds())
	if !measured {
		usage = "CPU time not measured here"
	}
	p50, p99, worst := percentiles(p.errors)
	timing := fmt.Sprintf("realtime: %v wall, %s; tick timing error over %d ticks: p50 %v, p99 %v, max %v",
		wall.Round(time.Millisecond), usage, len(p.errors), p50, p99, worst)
	if p.interrupted {
		return timing + " (interrupted: no bare time.Sleep measured after it)"
	}
	sleeps := make([]time.Duration, 60)
	for i := range sleeps {
		const period = time.Second / 60
		t := time.Now()
		time.Sleep(period)
		sleeps[i] = time.Since(t) - period
	}
	s50, s99, sMax := percentiles(sleeps)
	return fmt.Sprintf("%s (a bare time.Sleep of 1/60 s, 60 times after the run, overslept by p50 %v, p99 %v, max %v)",
		timing, s50, s99, sMax)
}

// percentiles returns the median, 99th percentile and maximum of ds.
func percentiles(ds []time.Duration) (p50, p99, worst time.Duration) {
	if len(ds) == 0 {
		return 0, 0, 0
	}
	e := slices.Clone(ds)
	slices.Sort(e)
	pct := func(q float64) time.Duration { return e[min(len(e)-1, int(q*float64(len(e))))] }
	return pct(0.5), pct(0.99), e[len(e)-1]
}
