package main

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"runtime"
	"runtime/debug"
	"runtime/metrics"
	"strings"
	"time"

	"github.com/fixedstep/fixedstep/engine"
	"github.com/fixedstep/fixedstep/engine/window"
	"github.com/fixedstep/fixedstep/internal/cputime"
	"github.com/fixedstep/fixedstep/scenes"
)

// Run runs the measurements cfg asks for and writes their lines to out: as
// a child, one run under the environment's GC settings; otherwise a header
// and cfg.count rounds of every setting, each in a child process.
func Run(cfg config, out io.Writer) error {
	if cfg.checksumEvery < 0 || cfg.keyframes < 0 || cfg.keyframes > engine.MaxKeyframes {
		return fmt.Errorf("-checksum-every %d, -keyframes %d: want 0 (none) or a number of ticks (-keyframes at most %d)",
			cfg.checksumEvery, cfg.keyframes, engine.MaxKeyframes)
	}
	if cfg.bodies <= 0 || cfg.seconds <= 0 || cfg.skip < 0 || cfg.count <= 0 {
		return fmt.Errorf("-bodies %d, -seconds %v, -skip %v, -count %d: want positive (-skip may be 0)",
			cfg.bodies, cfg.seconds, cfg.skip, cfg.count)
	}
	if cfg.child {
		r, err := measure(cfg)
		if err != nil {
			return err
		}
		_, err = fmt.Fprintln(out, r.line(cfg, currentSetting()))
		return err
	}
	if len(cfg.settings) == 0 {
		return errors.New("no -gc settings")
	}
	self, err := os.Executable()
	if err != nil {
		return err
	}
	fmt.Fprintf(out, "goos: %s\ngoarch: %s\npkg: github.com/fixedstep/fixedstep/cmd/stutter\n", runtime.GOOS, runtime.GOARCH)
	if cpu := cpuName(); cpu != "" {
		fmt.Fprintf(out, "cpu: %s\n", cpu)
	}
	for range cfg.count {
		for _, s := range cfg.settings {
			if err := runChild(self, cfg, s, out); err != nil {
				return fmt.Errorf("%s: %w", s.name(), err)
			}
		}
	}
	return nil
}

// runChild runs the command again as a child with s's GOGC and GOMEMLIMIT,
// copying its result line to out.
func runChild(self string, cfg config, s gcSetting, out io.Writer) error {
	args := []string{"-child", fmt.Sprint("-bodies=", cfg.bodies), fmt.Sprint("-seconds=", cfg.seconds),
		fmt.Sprint("-skip=", cfg.skip), fmt.Sprint("-window=", cfg.window), fmt.Sprint("-serial=", cfg.serial), fmt.Sprint("-sleeping=", cfg.sleeping),
		fmt.Sprint("-checksum-every=", cfg.checksumEvery), fmt.Sprint("-keyframes=", cfg.keyframes)}
	cmd := exec.Command(self, args...)
	cmd.Env = append(withoutGCEnv(os.Environ()), "GOGC="+s.GOGC)
	if s.MemLimit != "" {
		cmd.Env = append(cmd.Env, "GOMEMLIMIT="+s.MemLimit)
	}
	cmd.Stderr = os.Stderr
	res, err := cmd.Output()
	if err != nil {
		return err
	}
	sc := bufio.NewScanner(strings.NewReader(string(res)))
	for sc.Scan() {
		if strings.HasPrefix(sc.Text(), "BenchmarkStutter/") {
			_, err := fmt.Fprintln(out, sc.Text())
			return err
		}
	}
	return fmt.Errorf("the child printed no result: %q", res)
}

// withoutGCEnv drops GOGC and GOMEMLIMIT from an environment.
func withoutGCEnv(env []string) []string {
	var out []string
	for _, kv := range env {
		if !strings.HasPrefix(kv, "GOGC=") && !strings.HasPrefix(kv, "GOMEMLIMIT=") {
			out = append(out, kv)
		}
	}
	return out
}

// currentSetting is the GC setting this process runs under, read from the
// runtime (so a GOGC or GOMEMLIMIT the runtime refused shows as what it
// used).
func currentSetting() gcSetting {
	pct := debug.SetGCPercent(-1)
	debug.SetGCPercent(pct)
	s := gcSetting{GOGC: "off"}
	if pct >= 0 {
		s.GOGC = fmt.Sprint(pct)
	}
	if limit := debug.SetMemoryLimit(-1); limit != int64(^uint64(0)>>1) {
		s.MemLimit = formatBytes(limit)
	}
	return s
}

// formatBytes writes n in the largest binary unit that divides it.
func formatBytes(n int64) string {
	for _, u := range []struct {
		suffix string
		mult   int64
	}{{"TiB", 1 << 40}, {"GiB", 1 << 30}, {"MiB", 1 << 20}, {"KiB", 1 << 10}} {
		if n%u.mult == 0 {
			return fmt.Sprint(n/u.mult) + u.suffix
		}
	}
	return fmt.Sprint(n) + "B"
}

// result is what one run measured.
type result struct {
	wall     time.Duration   // the measured part of the run
	ticks    []time.Duration // physics ticks
	tickCPU  []time.Duration // their thread CPU time (threadTime)
	frames   []time.Duration // frame to frame
	gcCycles uint64          // completed during the measured part
	gcPauses time.Duration   // stop-the-world pauses in it, in total
	heapPeak uint64          // the largest heap goal seen, bytes
	dropped  time.Duration   // game time the loop gave up (ticks too slow to catch up)
	// pipelined counts the frames whose ticks ran beside the presentation
	// of the frame before (a window's, window.PipelinedFrames), over the
	// whole run.
	pipelined int64
}

// measure runs the Stress scene once, as cfg says, in this process.
func measure(cfg config) (*result, error) {
	opts := &scenes.Options{Seed: 1, Bodies: cfg.bodies, Seconds: cfg.skip + cfg.seconds}
	if !cfg.sleeping {
		c := scenes.StressPhysics(cfg.bodies)
		c.SleepTimeThreshold, c.IdleSpeedThreshold = 0, 0
		opts.Physics = &c
	}
	skip := time.Duration(cfg.skip * float64(time.Second))
	r := &result{}
	p := newProbe(skip)
	first, err := scenes.First("stress", opts)
	if err != nil {
		return nil, err
	}
	eopts := &engine.Options{OnEvent: []engine.EventHook{p.event}}
	if cfg.checksumEvery > 0 || cfg.keyframes > 0 {
		eopts.Record = &engine.InputLog{ChecksumEvery: cfg.checksumEvery}
		if cfg.checksumEvery == 0 {
			eopts.Record.ChecksumEvery = engine.NoChecksums
		}
		eopts.Keyframes = cfg.keyframes
	}
	runtime.LockOSThread() // headless, the scene runs here: threadTime reads this thread
	defer runtime.UnlockOSThread()
	if cfg.window {
		err = window.Run(first, eopts, &window.Options{Title: "stutter", Width: 960, Height: 540, ScreenWidth: 960, ScreenHeight: 540, Serial: cfg.serial})
		r.pipelined = window.PipelinedFrames()
	} else {
		eopts.Headless = &engine.Headless{FPS: 60}
		err = engine.Run(first, eopts)
	}
	if err != nil {
		return nil, err
	}
	if !p.started {
		return nil, fmt.Errorf("the run ended before %v of game time", skip)
	}
	p.stop()
	r.wall, r.ticks, r.tickCPU, r.frames = p.wall, p.ticks, p.tickCPU, p.frames
	r.gcCycles, r.gcPauses, r.heapPeak, r.dropped = p.gcCycles, p.gcPauses, p.heapPeak, p.dropped
	return r, nil
}

// probe is the scene's OnEvent hook: it times ticks and frames once game
// time passes skip, and reads the GC's counters at the start and the end.
type probe struct {
	skip          time.Duration
	started       bool
	start         time.Time
	last          time.Time // the previous event
	lastCPU       time.Duration
	lastKind      engine.EventKind
	frameStart    time.Time
	ticks, frames []time.Duration
	tickCPU       []time.Duration
	loop          *engine.Loop

	gc0      gcCounters
	wall     time.Duration
	gcCycles uint64
	gcPauses time.Duration
	heapPeak uint64
	dropped  time.Duration
	dropped0 time.Duration
	samples  []metrics.Sample
}

func newProbe(skip time.Duration) *probe {
	p := &probe{skip: skip, ticks: make([]time.Duration, 0, 1<<14), frames: make([]time.Duration, 0, 1<<14),
		tickCPU: make([]time.Duration, 0, 1<<14)}
	p.samples = []metrics.Sample{{Name: "/gc/cycles/total:gc-cycles"}, {Name: "/gc/heap/goal:bytes"}}
	return p
}

// gcCounters are the runtime's GC figures at one moment.
type gcCounters struct {
	cycles  uint64
	pauseNs uint64
}

func (p *probe) readGC() gcCounters {
	var ms runtime.MemStats
	runtime.ReadMemStats(&ms) // a stop-the-world: only at the start and the end
	return gcCounters{cycles: uint64(ms.NumGC), pauseNs: ms.PauseTotalNs}
}

func (p *probe) event(loop *engine.Loop, ev engine.Event) {
	now, cpu := time.Now(), threadTime()
	if !p.started {
		if ev.Kind != engine.Input || ev.Time < p.skip {
			return
		}
		p.started, p.loop = true, loop
		p.gc0 = p.readGC()
		p.dropped0 = loop.Stats().Dropped
		p.start, p.frameStart = time.Now(), time.Now()
		p.last, p.lastCPU, p.lastKind = p.start, threadTime(), ev.Kind
		return
	}
	if p.lastKind == engine.Update {
		p.ticks = append(p.ticks, now.Sub(p.last))
		p.tickCPU = append(p.tickCPU, cpu-p.lastCPU)
	}
	if ev.Kind == engine.Input {
		p.frames = append(p.frames, now.Sub(p.frameStart))
		p.frameStart = now
		if len(p.frames)%60 == 0 {
			metrics.Read(p.samples)
			p.heapPeak = max(p.heapPeak, p.samples[1].Value.Uint64())
		}
	}
	p.lastKind = ev.Kind
	p.last, p.lastCPU = time.Now(), threadTime() // the hook's own time is not the tick's
}

// stop ends the measured part.
func (p *probe) stop() {
	p.wall = time.Since(p.start)
	gc := p.readGC()
	p.gcCycles = gc.cycles - p.gc0.cycles
	p.gcPauses = time.Duration(gc.pauseNs - p.gc0.pauseNs)
	p.dropped = p.loop.Stats().Dropped - p.dropped0
}

// line is the run's result in `go test -bench` format.
func (r *result) line(cfg config, s gcSetting) string {
	mode, window := "headless", ""
	if cfg.window {
		mode = "window"
		if r.pipelined == 0 {
			mode = "window-serial"
		}
		window = fmt.Sprintf("\t%.2f fps\t%d pipelined-frames\t%d procs",
			float64(len(r.frames))/r.wall.Seconds(), r.pipelined, runtime.GOMAXPROCS(0))
	}
	name := fmt.Sprintf("BenchmarkStutter/mode=%s/bodies=%d/%s", mode, cfg.bodies, s.name())
	if cfg.checksumEvery > 0 || cfg.keyframes > 0 {
		name += fmt.Sprintf("/checksum=%d/keyframes=%d", cfg.checksumEvery, cfg.keyframes)
	}
	ms := func(d time.Duration) string { return fmt.Sprintf("%.3f", float64(d)/float64(time.Millisecond)) }
	tp, cp, fp := percentiles(r.ticks), percentiles(r.tickCPU), percentiles(r.frames)
	cpu := "" // the thread CPU times, headless only (see threadCPUUsable)
	if threadCPUUsable(cfg) {
		cpu = fmt.Sprintf("\t%s tick-cpu-p50-ms\t%s tick-cpu-p99-ms", ms(cp.p50), ms(cp.p99))
	}
	return fmt.Sprintf("%s\t%d\t%d ns/op\t%s tick-p50-ms\t%s tick-p99-ms\t%s tick-max-ms%s\t%s frame-p50-ms\t%s frame-p99-ms\t%s frame-max-ms\t%d gc-cycles\t%s gc-pause-ms\t%.1f heap-goal-MiB\t%s dropped-ms%s",
		name, 1, r.wall.Nanoseconds(), ms(tp.p50), ms(tp.p99), ms(tp.max), cpu, ms(fp.p50), ms(fp.p99), ms(fp.max),
		r.gcCycles, ms(r.gcPauses), float64(r.heapPeak)/(1<<20), ms(r.dropped), window)
}

// threadCPUUsable reports whether the tick's thread CPU time means anything
// in this run: headless on Linux, where the scene runs on this goroutine,
// locked to its thread. In a window the scene is a coroutine resumed from
// ebiten's game loop, and between two events its thread may also run
// ebiten's own work (measured: tick CPU p99s of hundreds of milliseconds
// beside wall-clock p99s of 8 ms), so the figure is left out.
func threadCPUUsable(cfg config) bool {
	return !cfg.window && runtime.GOOS == "linux"
}

// cpuName is the processor's model name from /proc/cpuinfo, or "".
func cpuName() string {
	b, err := os.ReadFile("/proc/cpuinfo")
	if err != nil {
		return ""
	}
	for _, l := range strings.Split(string(b), "\n") {
		if k, v, ok := strings.Cut(l, ":"); ok && strings.TrimSpace(k) == "model name" {
			return strings.TrimSpace(v)
		}
	}
	return ""
}

// threadTime is this thread's CPU time (cputime.Thread), 0 where it
// cannot be read: the tick CPU figures are then 0.
func threadTime() time.Duration {
	d, _ := cputime.Thread()
	return d
}
