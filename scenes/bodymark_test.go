package scenes

import (
	"flag"
	"fmt"
	"math"
	"math/rand/v2"
	"runtime"
	"slices"
	"testing"
	"time"

	"github.com/fixedstep/fixedstep/engine"
	"github.com/fixedstep/fixedstep/internal/cputime"
	"github.com/fixedstep/fixedstep/systems/physics"
	"github.com/fixedstep/fixedstep/third_party/cp"
	"github.com/fixedstep/fixedstep/third_party/donburi"
)

// The bodymark: how many balls the Stress scene holds while its physics tick
// stays within a budget. See BenchmarkBodymark.

var (
	bodymarkBudget = flag.Duration("bodymark.budget", 8*time.Millisecond,
		"BenchmarkBodymark: the budget for the Stress scene's median physics tick")
	bodymarkTol = flag.Float64("bodymark.tol", 0.03,
		"BenchmarkBodymark: the search stops when the body count is known to within this fraction")
)

// Ticks of a bodymark probe, at 60 Hz: after the pour (stressPour balls a
// tick), the pile settles for bodymarkSettle ticks; then bodymarkWindow
// ticks are timed. At rest, the probe waits up to bodymarkMaxSettle ticks
// after the pour for every ball to fall asleep before it times the window.
const (
	bodymarkSettle    = 120
	bodymarkMaxSettle = 1200
	bodymarkWindow    = 60
)

// stressVariant is one way of running the Stress scene for the bodymark.
type stressVariant struct {
	name string
	// raw runs the scene as a bare cp space with cp's defaults, stepped by a
	// plain loop: rawStressTicks. Otherwise the scene runs through the
	// engine with config(n) as its space's settings.
	raw    bool
	config func(n int) physics.Config
	// atRest waits for the pile to fall asleep before timing.
	atRest bool
}

// cpDefaults is the Stress scene's space with cp's own defaults: what
// rawStressTicks steps.
func cpDefaults(int) physics.Config {
	return physics.Config{Gravity: cp.Vector{Y: 300}, NoCollisionEvents: true}
}

// hashOnly is the scene's own settings without sleeping.
func hashOnly(n int) physics.Config {
	c := StressPhysics(n)
	c.SleepTimeThreshold, c.IdleSpeedThreshold = 0, 0
	return c
}

// hashIter5 is hashOnly with 5 solver iterations instead of 10: what a
// softer pile buys.
func hashIter5(n int) physics.Config {
	c := hashOnly(n)
	c.Iterations = 5
	return c
}

var bodymarkVariants = []stressVariant{
	{name: "raw-cp", raw: true},
	{name: "engine-cp-defaults", config: cpDefaults},
	{name: "engine-hash", config: hashOnly},
	{name: "engine-hash-iter5", config: hashIter5},
	{name: "engine-tuned-at-rest", config: StressPhysics, atRest: true},
}

// stressTicks runs the Stress scene headless (a manual clock, one 60 Hz
// tick a frame) with n balls and v's settings, and returns the times of
// window ticks after the pour and the settling (see bodymarkSettle), timed
// from the event that runs each tick to the next event: the scene's spawn
// system (a count, once the pour is over) and the physics system. It also
// returns how many balls slept in the window's last tick.
//
// Times are the thread's CPU time (threadTime, on Linux): on a machine
// shared with other work, a tick's wall-clock time counts whatever else ran
// meanwhile, its CPU time does not. The caller locks the goroutine to its
// thread.
func stressTicks(n int, v stressVariant, window int) (ticks []time.Duration, asleep int, err error) {
	if v.raw {
		t, err := rawStressTicks(n, window)
		return t, 0, err
	}
	cfg := v.config(n)
	opts := &Options{Seed: 1, Bodies: n, Physics: &cfg}
	s := &Stress{opts: opts}
	pour := int64((n + stressPour - 1) / stressPour)
	start := pour + bodymarkSettle                                       // the last tick before the window
	opts.Seconds = float64(pour+bodymarkMaxSettle+int64(window)+60) / 60 // a bound; the probe stops the loop itself
	var last time.Duration
	var lastWasUpdate bool
	var lastTick int64
	onEvent := func(loop *engine.Loop, ev engine.Event) {
		if lastWasUpdate && lastTick > start {
			ticks = append(ticks, threadTime()-last)
			if len(ticks) == window {
				asleep = s.st.Physics.Sleeping()
				loop.Stop()
			}
		}
		if v.atRest && ev.Kind == engine.Update && ev.Tick == start && ev.Tick < pour+bodymarkMaxSettle &&
			s.st.Physics.Sleeping() < n {
			start += 30 // not all asleep yet: look again in half a second
		}
		lastWasUpdate, lastTick = ev.Kind == engine.Update, ev.Tick
		last = threadTime()
	}
	if err := engine.Run(s, &engine.Options{Headless: &engine.Headless{FPS: 60}, OnEvent: []engine.EventHook{onEvent}}); err != nil {
		return nil, 0, err
	}
	if len(ticks) < window {
		return nil, 0, fmt.Errorf("stress scene of %d balls ended after %d of %d timed ticks", n, len(ticks), window)
	}
	return ticks, asleep, nil
}

// rawStressTicks is stressTicks for the Stress scene in a bare cp space with
// cp's defaults (but the scene's gravity), stepped by a plain loop: the same
// bin and the same balls, poured the same way (stressBin and stressBall, the
// scene's own code; TestRawStressMatchesTheScene shows the two step alike).
// A tick is the pour and the step.
func rawStressTicks(n, window int) ([]time.Duration, error) {
	_, step := rawStress(n)
	pour := (n + stressPour - 1) / stressPour
	ticks := make([]time.Duration, 0, window)
	for tick := 1; len(ticks) < window; tick++ {
		t := threadTime()
		step()
		if tick > pour+bodymarkSettle {
			ticks = append(ticks, threadTime()-t)
		}
	}
	return ticks, nil
}

// rawStress builds the Stress scene in a bare cp space and returns it with
// a function that runs one tick: pour up to stressPour balls, then step.
func rawStress(n int) (*cp.Space, func()) {
	space := cp.NewSpace()
	space.SetGravity(cp.Vector{Y: 300})
	bin, walls := stressBin()
	space.AddBody(bin)
	for _, w := range walls {
		space.AddShape(w)
	}
	rng := rand.New(rand.NewPCG(1, 4))
	balls := 0
	return space, func() {
		for i := 0; i < stressPour && balls < n; i, balls = i+1, balls+1 {
			b, sh, _ := stressBall(rng, n)
			space.AddBody(b)
			space.AddShape(sh)
		}
		space.Step(1.0 / 60)
	}
}

// median returns the median of ds (the upper middle one for an even count),
// without changing ds.
func median(ds []time.Duration) time.Duration {
	s := slices.Clone(ds)
	slices.Sort(s)
	return s[len(s)/2]
}

// bodymarkSearch returns the largest count n in [lo, hi] for which fits(n)
// holds, to within a factor 1+tol: fits is taken to hold up to some count
// and fail above it (on a noisy machine it may not be quite so; the search
// then ends at one of the counts where it changes). It probes guess first,
// moves up or down by a factor grow until the answer is bracketed, then
// halves the bracket geometrically until its ends are within 1+tol. The
// answer is the largest count that fitted: 0 if even lo does not, hi if hi
// does. probes is how many times fits was called.
func bodymarkSearch(guess, lo, hi int, grow, tol float64, fits func(n int) bool) (n, probes int) {
	probe := func(n int) bool { probes++; return fits(n) }
	guess = min(max(guess, lo), hi)
	var good, bad int // good fits, bad does not (0: not found yet)
	if probe(guess) {
		good = guess
		for bad == 0 {
			if good == hi {
				return hi, probes
			}
			next := min(int(math.Ceil(float64(good)*grow)), hi)
			if probe(next) {
				good = next
			} else {
				bad = next
			}
		}
	} else {
		bad = guess
		for good == 0 {
			if bad == lo {
				return 0, probes
			}
			next := max(int(math.Floor(float64(bad)/grow)), lo)
			if probe(next) {
				good = next
			} else {
				bad = next
			}
		}
	}
	for float64(bad) > float64(good)*(1+tol) && bad-good > 1 {
		mid := int(math.Round(math.Sqrt(float64(good) * float64(bad))))
		mid = min(max(mid, good+1), bad-1)
		if probe(mid) {
			good = mid
		} else {
			bad = mid
		}
	}
	return good, probes
}

// bodymarkGuess is each variant's last result, the next run's first probe.
var bodymarkGuess = map[string]int{}

// BenchmarkBodymark finds, for each way of running the Stress scene, the
// most balls at which the scene's median physics tick stays within the
// budget (-bodymark.budget, 8 ms: half a 60 Hz frame), by search
// (bodymarkSearch: up or down from the last run's answer, then bisection to
// -bodymark.tol). Each probe pours n balls into the bin, lets them settle 2
// s, and takes the median of the next 60 ticks, each timed by its thread's
// CPU time (see stressTicks); at rest, it waits (up to 20 s) for the whole
// pile to fall asleep first.
//
// The variants, searched one after the other in each run: raw cp with its
// defaults (a bare space and a plain loop); the engine with cp's defaults;
// the engine with the scene's spatial hash (sleeping off: every ball
// awake); the same with 5 solver iterations instead of 10; the engine with
// the scene's own settings (hash and sleeping) once the pile sleeps. The
// at-rest search starts at twice raw cp's answer of the same run and stops
// at four times it. It reports each variant's count, the median tick at
// that count, whether the count is the search's cap (at-cap 1: it fitted
// there, so the answer is at least that), the ratio of the count to raw
// cp's in the same run, and the probes made.
//
// Under -short (make bench) the at-rest variant is left out: its probes
// pour and put to sleep 5,000 to 14,000 balls, about 90 s of each run.
func BenchmarkBodymark(b *testing.B) {
	runtime.LockOSThread() // threadTime measures this goroutine
	defer runtime.UnlockOSThread()
	budget := *bodymarkBudget
	var rawN int
	for _, v := range bodymarkVariants {
		if v.atRest && testing.Short() {
			continue
		}
		guess, lo, hi, grow := bodymarkGuess[v.name], 100, 100_000, 1.25
		if guess == 0 {
			guess = 2000
		}
		if v.atRest && rawN > 0 {
			guess, hi, grow = 2*rawN, 4*rawN, 2
		}
		var failed error
		tickAt := map[int]time.Duration{}
		n, probes := bodymarkSearch(guess, lo, hi, grow, *bodymarkTol, func(n int) bool {
			ticks, asleep, err := stressTicks(n, v, bodymarkWindow)
			if err != nil {
				failed = err
				return false
			}
			m := median(ticks)
			tickAt[n] = m
			b.Logf("%s: %d balls: median tick %v, %d asleep", v.name, n, m, asleep)
			return m <= budget
		})
		if failed != nil {
			b.Fatal(failed)
		}
		bodymarkGuess[v.name] = n
		if v.raw {
			rawN = n
		}
		b.ReportMetric(float64(n), v.name+"-bodies")
		if n == hi {
			b.ReportMetric(1, v.name+"-at-cap") // it fits at the search's cap: the answer is at least n
		} else {
			b.ReportMetric(0, v.name+"-at-cap")
		}
		b.ReportMetric(float64(tickAt[n])/float64(time.Millisecond), v.name+"-tick-ms")
		b.ReportMetric(float64(probes), v.name+"-probes")
		if !v.raw && rawN > 0 {
			b.ReportMetric(float64(n)/float64(rawN), v.name+"/raw-cp")
		}
	}
	b.ReportMetric(float64(budget)/float64(time.Millisecond), "budget-ms")
}

// The raw baseline is the Stress scene: with cp's defaults, the scene
// through the engine and rawStress in a bare space hold every ball at the
// same place, bit for bit, after the pour of 400 balls and 2 s more.
func TestRawStressMatchesTheScene(t *testing.T) {
	const n, ticks = 400, 140
	cfg := cpDefaults(n)
	opts := &Options{Seed: 1, Bodies: n, Physics: &cfg}
	s := &Stress{opts: opts}
	var scene []cp.Vector
	onEvent := func(loop *engine.Loop, ev engine.Event) {
		if ev.Kind == engine.Input && loop.Ticks(0) == ticks {
			s.st.Physics.Space().EachBody(func(b *cp.Body) { scene = append(scene, b.Position()) })
			loop.Stop()
		}
	}
	if err := engine.Run(s, &engine.Options{Headless: &engine.Headless{FPS: 60}, OnEvent: []engine.EventHook{onEvent}}); err != nil {
		t.Fatal(err)
	}
	space, step := rawStress(n)
	for range ticks {
		step()
	}
	var raw []cp.Vector
	space.EachBody(func(b *cp.Body) { raw = append(raw, b.Position()) })
	if len(scene) != n+1 || len(raw) != n+1 { // the balls and the bin
		t.Fatalf("%d bodies in the scene, %d raw; want %d", len(scene), len(raw), n+1)
	}
	moved := 0
	for i := range raw {
		if raw[i] != scene[i] {
			t.Fatalf("body %d: %v in the scene, %v raw", i, scene[i], raw[i])
		}
		if raw[i].Y > 300 {
			moved++
		}
	}
	if moved < n/2 {
		t.Fatalf("only %d balls fell into the lower half of the bin: the scene did not run", moved)
	}
}

// bodymarkFits is a synthetic probe: a tick of c·n^1.2 ns for n bodies (a
// per-body cost that grows slowly with the pile), within budget or not,
// times noise(n) (1 for none).
func bodymarkFits(c float64, budget time.Duration, noise func(n int) float64) func(n int) bool {
	return func(n int) bool {
		return c*math.Pow(float64(n), 1.2)*noise(n) <= float64(budget)
	}
}

// The search finds the largest count within budget on synthetic timings,
// from guesses below, above and at the answer, within the tolerance, in a
// few probes; it reports 0 when even the smallest count does not fit and the
// cap when the cap fits.
func TestBodymarkSearch(t *testing.T) {
	const budget = 8 * time.Millisecond
	none := func(int) float64 { return 1 }
	// 2 µs·n^1.2 = 8 ms at n = (4000)^(1/1.2)
	exact := math.Pow(float64(budget)/2000, 1/1.2)
	for _, guess := range []int{100, 1000, int(exact), 3000, 50_000} {
		n, probes := bodymarkSearch(guess, 10, 100_000, 1.25, 0.02, bodymarkFits(2000, budget, none))
		if float64(n) > exact || float64(n) < exact/1.02 {
			t.Errorf("guess %d: found %d, want within 2%% below %.1f", guess, n, exact)
		}
		if probes > 25 {
			t.Errorf("guess %d: %d probes", guess, probes)
		}
		t.Logf("guess %5d: %d in %d probes (exact %.1f)", guess, n, probes, exact)
	}
	if n, _ := bodymarkSearch(1000, 10, 100_000, 1.25, 0.02, func(int) bool { return false }); n != 0 {
		t.Errorf("nothing fits: found %d, want 0", n)
	}
	if n, probes := bodymarkSearch(1000, 10, 4000, 2, 0.02, func(int) bool { return true }); n != 4000 || probes != 3 {
		t.Errorf("everything fits: found %d in %d probes, want the cap 4000 in 3 (1000, 2000, 4000)", n, probes)
	}
	// Seeded ±10% noise on every probe (a shared machine): the answer is
	// still within the noise of the exact one.
	rng := rand.New(rand.NewPCG(3, 3))
	for range 20 {
		noisy := func(int) float64 { return 0.9 + 0.2*rng.Float64() }
		n, _ := bodymarkSearch(1500, 10, 100_000, 1.25, 0.02, bodymarkFits(2000, budget, noisy))
		// c·n^1.2·noise = budget: n within (1/1.1)^(1/1.2) .. (1/0.9)^(1/1.2) of exact, and the tolerance
		if lo, hi := exact*math.Pow(1/1.1, 1/1.2)/1.02, exact*math.Pow(1/0.9, 1/1.2); float64(n) < lo || float64(n) > hi {
			t.Errorf("with noise: found %d, want %.0f..%.0f", n, lo, hi)
		}
	}
}

// The probe statistic is the median tick: on synthetic ticks where one in
// ten takes a GC-sized hitch, the median ignores them.
func TestBodymarkMedian(t *testing.T) {
	ticks := make([]time.Duration, 60)
	for i := range ticks {
		ticks[i] = 7*time.Millisecond + time.Duration(i%3)*100*time.Microsecond
		if i%10 == 0 {
			ticks[i] = 40 * time.Millisecond
		}
	}
	if m := median(ticks); m < 7*time.Millisecond || m > 7200*time.Microsecond {
		t.Fatalf("median %v, want about 7.1 ms", m)
	}
	if ticks[0] != 40*time.Millisecond {
		t.Fatal("median reordered its input")
	}
}

// physicsStress is the Stress scene's pile through the physics system alone
// (a world, a Physics with cfg, the scene's bin and balls), without the
// scene's stage: two of them step side by side in one benchmark. The
// function it returns runs one tick: the pour, then the physics step.
func physicsStress(n int, cfg physics.Config) func() {
	w := donburi.NewWorld()
	p := physics.New(w, cfg)
	p.Spawn(stressBin())
	rng := rand.New(rand.NewPCG(1, 4))
	balls := 0
	ev := engine.Event{Kind: engine.Update, DT: 1.0 / 60}
	return func() {
		for i := 0; i < stressPour && balls < n; i, balls = i+1, balls+1 {
			b, sh, _ := stressBall(rng, n)
			p.Spawn(b, []*cp.Shape{sh})
		}
		ev.Tick++
		p.Update(w, ev)
	}
}

// stressSettings are the space settings BenchmarkStressSettings weighs, each
// applied to the scene's settings without sleeping and compared with cp's
// defaults.
var stressSettings = []struct {
	name string
	set  func(c *physics.Config, n int)
}{
	{"hash", func(c *physics.Config, n int) {
		h := hashOnly(n)
		c.SpatialHashCell, c.SpatialHashCells = h.SpatialHashCell, h.SpatialHashCells
	}},
	{"iterations=5", func(c *physics.Config, _ int) { c.Iterations = 5 }},
	{"slop=1", func(c *physics.Config, _ int) { c.CollisionSlop = 1 }},
}

// BenchmarkStressSettings is what each space setting buys per tick on the
// Stress scene's awake pile of 2,500 balls: the pile with cp's defaults and
// the pile with the setting, poured and settled side by side (2 s after the
// pour), then stepped in lockstep, alternating which goes first, each tick
// timed by its thread's CPU time. It reports both medians per tick and the
// median of the per-tick ratios, setting over defaults, minus one, in
// percent (negative: the setting saves time).
func BenchmarkStressSettings(b *testing.B) {
	runtime.LockOSThread()
	defer runtime.UnlockOSThread()
	const n = 2500
	for _, s := range stressSettings {
		b.Run(s.name, func(b *testing.B) {
			tuned := cpDefaults(n)
			s.set(&tuned, n)
			base, alt := physicsStress(n, cpDefaults(n)), physicsStress(n, tuned)
			for range (n+stressPour-1)/stressPour + bodymarkSettle {
				base()
				alt()
			}
			timed := func(tick func(), into *[]float64) {
				t := threadTime()
				tick()
				*into = append(*into, float64(threadTime()-t))
			}
			var baseNs, altNs []float64
			i := 0
			for b.Loop() {
				if i++; i%2 == 0 {
					timed(base, &baseNs)
					timed(alt, &altNs)
				} else {
					timed(alt, &altNs)
					timed(base, &baseNs)
				}
			}
			ratios := make([]float64, len(altNs))
			for i := range altNs {
				ratios[i] = altNs[i] / baseNs[i]
			}
			b.ReportMetric(medianFloat(altNs), "setting-ns/tick")
			b.ReportMetric(medianFloat(baseNs), "defaults-ns/tick")
			b.ReportMetric((medianFloat(ratios)-1)*100, "change-%")
		})
	}
}

func medianFloat(xs []float64) float64 {
	s := slices.Clone(xs)
	slices.Sort(s)
	return s[len(s)/2]
}

var threadStart = time.Now()

// threadTime is this thread's CPU time (cputime.Thread), or the
// monotonic wall clock where that cannot be read.
func threadTime() time.Duration {
	if d, ok := cputime.Thread(); ok {
		return d
	}
	return time.Since(threadStart)
}
