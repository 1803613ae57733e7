package scenes

import (
	"context"
	"flag"
	"fmt"
	"runtime"
	"runtime/pprof"
	"sync"
	"testing"
	"time"

	"github.com/fixedstep/fixedstep/engine"
	"github.com/fixedstep/fixedstep/engine/input"
	"github.com/fixedstep/fixedstep/third_party/cp"
)

// The rollback bodymark: how many awake balls the Stress scene holds while
// a rollback of 8 ticks stays within a 60 Hz frame. See
// BenchmarkRollbackBodymark.

var rollbackBudget = flag.Duration("rollback.budget", 16700*time.Microsecond,
	"BenchmarkRollbackBodymark: the budget for the Stress scene's median rollback frame")

// rollbackDepth is how many ticks a rollback goes back: it restores the
// state after tick now-rollbackDepth, simulates the rollbackDepth ticks
// after it again, then the frame's new tick.
const rollbackDepth = 8

// rollbackFrames is how many rollbacks a probe times (fewer under -short).
func rollbackFrames() int {
	if testing.Short() {
		return 60
	}
	return 180
}

// rollbackSession is an engine.Session of one player whose input never
// changes, and which reports a wrong prediction at tick `wrong` when it is
// set: the loop then rolls back to the state before that tick and
// simulates the ticks from there again, as it does for netplay's sessions.
// The ticks after `confirmed` run predicted: the loop keeps the state
// before each of them, for a rollback.
type rollbackSession struct {
	confirmed int64
	wrong     int64 // 0: none
}

func (s *rollbackSession) Players() int                 { return 1 }
func (s *rollbackSession) Poll() error                  { return nil }
func (s *rollbackSession) Hold() bool                   { return false }
func (s *rollbackSession) Ready(int64) bool             { return true }
func (s *rollbackSession) Local(int64, *input.State)    {}
func (s *rollbackSession) Confirmed() int64             { return s.confirmed }
func (s *rollbackSession) Checksum(int64, uint64)       {}
func (s *rollbackSession) EndFrame() error              { return nil }
func (s *rollbackSession) Discard(int64)                {}
func (s *rollbackSession) Rollback() (t int64, ok bool) { return s.wrong, s.wrong > 0 }

func (s *rollbackSession) Inputs(t int64, players []input.State) {
	clear(players)
	if t == s.wrong {
		s.wrong = 0 // simulated again: settled
	}
}

// stressRollbacks runs the Stress scene headless (a manual clock, one 60 Hz
// tick a frame) with n balls and the bodymark's "engine-hash" settings
// (the scene's spatial hash, sleeping off: every ball awake) under a
// rollbackSession, and returns the times of count rollback frames after
// the pour and the settling (bodymarkSettle ticks). From the settling's
// end on, every frame rolls back rollbackDepth ticks: the tick that proved
// wrong is the one whose input just arrived, confirmed, as when a remote
// player's input comes a tick at a time. A frame's time runs from its
// Input event to its Render event, the thread's CPU time (threadTime; the
// caller locks the goroutine to its thread). It also returns one state
// checksum, taken after the last rollback, and its time. With sparse, the
// loop runs with engine.Options.SparseSaving. Each frame waits for its
// turn (tn) before its Input event, and ends it after its Render event.
func stressRollbacks(n, count int, sparse bool, tn turn) (frames []time.Duration, checksum time.Duration, sum uint64, err error) {
	cfg := hashOnly(n)
	opts := &Options{Seed: 1, Bodies: n, Physics: &cfg}
	s := &Stress{opts: opts}
	pour := int64((n + stressPour - 1) / stressPour)
	settled := pour + bodymarkSettle
	// The state before each tick after the pour is kept (with sparse
	// saving, one every engine.SparseInterval ticks): by the first
	// rollback, the loop's ring holds the whole pile.
	sess := &rollbackSession{confirmed: pour}
	var began time.Duration
	var stats engine.SessionStats
	rolling := false
	holding := false // the turn, from a frame's Input event to its Render event
	defer func() {
		if holding {
			tn.end()
		}
	}()
	onEvent := func(loop *engine.Loop, ev engine.Event) {
		switch ev.Kind {
		case engine.Input:
			if !holding {
				tn.begin()
				holding = true
			}
			if now := loop.Ticks(0); now >= settled {
				sess.wrong = now - rollbackDepth + 1
				sess.confirmed = sess.wrong
				rolling = true
				began = threadTime()
			}
		case engine.Render:
			defer func() {
				if holding {
					tn.end()
					holding = false
				}
			}()
			if !rolling {
				return
			}
			frames = append(frames, threadTime()-began)
			rolling = false
			if len(frames) == count {
				t := threadTime()
				sum = s.st.State.Sum(s.st.World)
				checksum = threadTime() - t
				stats = loop.Session().Stats()
				loop.Stop()
			}
		}
	}
	err = engine.Run(s, &engine.Options{
		Headless:     &engine.Headless{FPS: 60, Frames: settled + int64(count) + 60}, // a bound: the hook stops the loop
		Session:      sess,
		SparseSaving: sparse,
		OnEvent:      []engine.EventHook{onEvent},
	})
	if err != nil {
		return nil, 0, 0, err
	}
	if len(frames) < count {
		return nil, 0, 0, fmt.Errorf("stress scene of %d balls ended after %d of %d rollbacks", n, len(frames), count)
	}
	// Sparse, the first rollback may go back to a state kept before the
	// tick that proved wrong; every later one finds the state before its
	// tick, kept as the rollback before ran it with the tick before it
	// confirmed.
	extra := stats.Resimulated - int64(count*rollbackDepth)
	if stats.Rollbacks != int64(count) || extra < 0 || extra > 0 && (!sparse || extra >= engine.SparseInterval) {
		return nil, 0, 0, fmt.Errorf("stress scene of %d balls, sparse saving %v: %d rollbacks simulated %d ticks again, want %d and %d",
			n, sparse, stats.Rollbacks, stats.Resimulated, count, count*rollbackDepth)
	}
	return frames, checksum, sum, nil
}

// The bodymark's rollbacks, with and without sparse saving, leave the
// Stress scene's pile in the same state after the same ticks, and roll
// back as often and as far as they should (stressRollbacks checks the
// loop's counts).
func TestRollbackBodymarkExact(t *testing.T) {
	n, count := 80, 12
	_, _, every, err := stressRollbacks(n, count, false, turn{})
	if err != nil {
		t.Fatal(err)
	}
	_, _, sparse, err := stressRollbacks(n, count, true, turn{})
	if err != nil {
		t.Fatal(err)
	}
	if every != sparse || every == 0 {
		t.Fatalf("after %d rollbacks of %d balls: state %x keeping every state, %x with sparse saving", count, n, every, sparse)
	}
}

// rawRollbacks is stressRollbacks for the Stress scene in a bare cp space
// (rawStress) with the same settings (the scene's spatial hash, sleeping
// off, cp's other defaults), stepped by a plain loop, keeping cp snapshots
// (cp.Space.Snapshot: what the engine's physics snapshot holds of the
// space) in a ring of engine.RollbackSlots, as the loop keeps its states.
// A rollback restores the snapshot taken after tick now-rollbackDepth and
// steps rollbackDepth+1 times. With keep, it takes a snapshot before each
// step but the first (whose state its slot holds), as the loop does, so
// that the next rollback may go back into the ticks stepped again;
// without, only the snapshot the next rollback restores is taken, off the
// clock: a frame is the restore and the steps. Each step before the
// rollbacks, and each rollback, waits for its turn (tn).
func rawRollbacks(n, count int, keep bool, tn turn) ([]time.Duration, error) {
	space, step := rawStress(n)
	c := hashOnly(n)
	space.UseSpatialHash(c.SpatialHashCell, c.SpatialHashCells)
	pour := (n + stressPour - 1) / stressPour
	ring := make([]cp.Snapshot, engine.RollbackSlots)
	tick := 0                                                             // ticks stepped
	save := func() error { return space.Snapshot(&ring[tick%len(ring)]) } // the state after them
	for ; tick < pour+bodymarkSettle; tick++ {
		tn.begin()
		if tick >= pour {
			if err := save(); err != nil {
				tn.end()
				return nil, err
			}
		}
		step()
		tn.end()
	}
	frames := make([]time.Duration, 0, count)
	for len(frames) < count {
		tn.begin()
		t := threadTime()
		var untimed time.Duration
		tick -= rollbackDepth
		if err := space.Restore(&ring[tick%len(ring)]); err != nil {
			return nil, err
		}
		for i := range rollbackDepth + 1 {
			var err error
			switch {
			case keep && i > 0:
				err = save()
			case i == 1: // the state the next rollback restores
				u := threadTime()
				err = save()
				untimed += threadTime() - u
			}
			if err != nil {
				tn.end()
				return nil, err
			}
			step()
			tick++
		}
		frames = append(frames, threadTime()-t-untimed)
		tn.end()
	}
	return frames, nil
}

// turns runs the frames of several sides, each on a goroutine of its own,
// one at a time, round the sides still running: each side's frames then
// meet the machine's fast and slow spells alike (this VM runs for seconds
// at a time some 40% slower), and their figures compare within a run.
type turns struct {
	mu      sync.Mutex
	cond    sync.Cond
	next    int    // the side whose turn is next
	frames  int    // frames the side with the turn has run in it
	running []bool // the sides that have not left
}

// framesATurn is how many frames a side runs in a turn: a side's first
// frame in its turn finds the caches full of the others' data, and a turn
// of 10 frames (1/6 s) is still far shorter than the machine's spells.
var framesATurn = flag.Int("rollback.turn", 10, "BenchmarkRollbackBodymark, BenchmarkRollbackAt: the frames a side runs in its turn")

func newTurns(sides int) *turns {
	t := &turns{running: make([]bool, sides)}
	t.cond.L = &t.mu
	for i := range t.running {
		t.running[i] = true
	}
	return t
}

// advance gives the next turn to the side after side i still running.
func (t *turns) advance(i int) {
	t.frames = 0
	for j := 1; j <= len(t.running); j++ {
		if k := (i + j) % len(t.running); t.running[k] {
			t.next = k
			break
		}
	}
	t.cond.Broadcast()
}

// leave ends side i's part: the others go on without it.
func (t *turns) leave(i int) {
	t.mu.Lock()
	defer t.mu.Unlock()
	t.running[i] = false
	if t.next == i {
		t.advance(i)
	}
}

// A turn is side i's place in its turns; with none (nil), a side runs
// its frames when it likes.
type turn struct {
	t *turns
	i int
}

// begin waits for the side's turn.
func (tn turn) begin() {
	if tn.t == nil {
		return
	}
	tn.t.mu.Lock()
	for tn.t.next != tn.i {
		tn.t.cond.Wait()
	}
	tn.t.mu.Unlock()
}

// end ends a frame, and hands the turn on after framesATurn of them.
func (tn turn) end() {
	if tn.t == nil {
		return
	}
	tn.t.mu.Lock()
	if tn.t.frames++; tn.t.frames >= *framesATurn {
		tn.t.advance(tn.i)
	}
	tn.t.mu.Unlock()
}

// rollbackGuess is each side's last result, the next run's first probe.
var rollbackGuess = map[string]int{}

// BenchmarkRollbackBodymark finds the most awake balls of the Stress
// scene for which a rollback of 8 ticks stays within a 60 Hz frame
// (-rollback.budget, 16.7 ms, median): the engine's and, in the same run,
// raw cp's, by the bodymark's search (bodymarkSearch, from the last run's
// answer, to -bodymark.tol). Each probe pours n balls into the bin with
// the bodymark's engine-hash settings (the scene's spatial hash, sleeping
// off), lets them settle 2 s, then times 180 rollback frames (60 under
// -short) by the thread's CPU time, one after the other, and takes their
// median. A rollback is what a networked game pays when a remote player's
// input proves its prediction wrong: it has to fit in the frame. The four
// searches below run side by side, each on a thread of its own, their
// frames in turns of -rollback.turn (10; see turns): the machine's slow
// spells fall on every side alike.
//
// The engine's rollback is the loop's own, the one netplay's sessions
// take: a session (rollbackSession) reports, each frame, that the tick 8
// ticks back ran with a wrong prediction, and the loop restores the state
// it kept before that tick (the stage's snapshot: the world, the cp space,
// the scene's kept values) and delivers the 8 ticks after it again, then
// the frame's new tick. A frame is timed from its Input event to its
// Render event: the restore, and 9 times what the loop does for a
// predicted tick in a session: keep the state before it (a snapshot into
// its ring of engine.RollbackSlots; but the first tick's, which its slot
// holds already), run the scene's update systems (the spawn count and the
// physics step) and take the state checksum the session compares. The
// checksum is paid on every tick of a session, rollback or not; one
// checksum's time at the answer is checksum-ms.
//
// sparse-balls is the engine's figure with engine.Options.SparseSaving:
// the loop keeps the state before the first tick not confirmed only (and
// one every engine.SparseInterval ticks), so a rollback keeps one state,
// before the tick after the one that proved wrong, in place of eight.
//
// Raw cp (rawRollbacks), in a bare space with the same settings, twice:
// raw-balls restores the cp snapshot from 8 ticks back and steps 9 times,
// the least a rollback does; raw-kept-balls also takes a cp snapshot
// before each step, as the loop keeps its states, so that the next
// rollback can go back into the ticks stepped again (8 snapshots: the
// first tick's state is the one restored). Neither takes a checksum: raw
// cp has none.
//
// It reports balls, raw-balls and ratio (balls over raw-balls),
// raw-kept-balls and kept-ratio (balls over raw-kept-balls), sparse-balls
// and sparse-ratio (sparse-balls over raw-balls), the median rollback
// frame at each answer (rollback-ms, raw-rollback-ms,
// raw-kept-rollback-ms, sparse-rollback-ms) and each search's probes.
func BenchmarkRollbackBodymark(b *testing.B) {
	budget, count := *rollbackBudget, rollbackFrames()
	ms := func(d time.Duration) float64 { return float64(d) / float64(time.Millisecond) }
	sides := []struct {
		name  string
		probe func(n int, tn turn) ([]time.Duration, time.Duration, error)
	}{
		{"", func(n int, tn turn) ([]time.Duration, time.Duration, error) {
			f, sum, _, err := stressRollbacks(n, count, false, tn)
			return f, sum, err
		}},
		{"raw-", func(n int, tn turn) ([]time.Duration, time.Duration, error) {
			f, err := rawRollbacks(n, count, false, tn)
			return f, 0, err
		}},
		{"raw-kept-", func(n int, tn turn) ([]time.Duration, time.Duration, error) {
			f, err := rawRollbacks(n, count, true, tn)
			return f, 0, err
		}},
		{"sparse-", func(n int, tn turn) ([]time.Duration, time.Duration, error) {
			f, sum, _, err := stressRollbacks(n, count, true, tn)
			return f, sum, err
		}},
	}
	type answer struct {
		balls, probes int
		median, sum   time.Duration
	}
	answers := make([]answer, len(sides))
	names := make([]string, len(sides))
	runs := make([]func(tn turn) error, len(sides))
	for i, side := range sides {
		names[i] = side.name
		guess := rollbackGuess[side.name]
		if guess == 0 {
			guess = 800
		}
		runs[i] = func(tn turn) error {
			var failed error
			medians, sums := map[int]time.Duration{}, map[int]time.Duration{}
			n, probes := bodymarkSearch(guess, 50, 100_000, 1.25, *bodymarkTol, func(n int) bool {
				frames, sum, err := side.probe(n, tn)
				if err != nil {
					failed = err
					return false
				}
				m := median(frames)
				medians[n], sums[n] = m, sum
				if sum > 0 {
					b.Logf("%sballs %d: median rollback %v (max %v), a checksum %v", side.name, n, m, maxDuration(frames), sum)
				} else {
					b.Logf("%sballs %d: median rollback %v (max %v)", side.name, n, m, maxDuration(frames))
				}
				return m <= budget
			})
			answers[i] = answer{balls: n, probes: probes, median: medians[n], sum: sums[n]}
			return failed
		}
	}
	for i, err := range inTurns(names, runs) {
		if err != nil {
			b.Fatalf("%sballs: %v", names[i], err)
		}
	}
	for i, a := range answers {
		rollbackGuess[names[i]] = a.balls
		b.ReportMetric(float64(a.balls), names[i]+"balls")
		b.ReportMetric(ms(a.median), names[i]+"rollback-ms")
		b.ReportMetric(float64(a.probes), names[i]+"probes")
	}
	b.ReportMetric(ms(answers[0].sum), "checksum-ms")
	if raw := answers[1].balls; raw > 0 {
		b.ReportMetric(float64(answers[0].balls)/float64(raw), "ratio")
		b.ReportMetric(float64(answers[3].balls)/float64(raw), "sparse-ratio")
	}
	if kept := answers[2].balls; kept > 0 {
		b.ReportMetric(float64(answers[0].balls)/float64(kept), "kept-ratio")
	}
	b.ReportMetric(ms(budget), "budget-ms")
}

// inTurns runs each side on a goroutine of its own, locked to its thread
// (threadTime measures the thread), under the pprof label side=its name,
// their frames in turns, and returns their errors.
func inTurns(names []string, sides []func(tn turn) error) []error {
	t := newTurns(len(sides))
	errs := make([]error, len(sides))
	var wg sync.WaitGroup
	for i, side := range sides {
		wg.Go(func() {
			runtime.LockOSThread()
			defer runtime.UnlockOSThread()
			defer t.leave(i)
			pprof.Do(context.Background(), pprof.Labels("side", names[i]), func(context.Context) { errs[i] = side(turn{t, i}) })
		})
	}
	wg.Wait()
	return errs
}

func maxDuration(ds []time.Duration) time.Duration {
	var m time.Duration
	for _, d := range ds {
		m = max(m, d)
	}
	return m
}

var rollbackBalls = flag.Int("rollback.balls", 800, "BenchmarkRollbackAt: the awake balls of the Stress scene")

// BenchmarkRollbackAt times the rollback frames of BenchmarkRollbackBodymark
// at one count of balls (-rollback.balls, 800), with no search: the
// engine's (stressRollbacks), the engine's with sparse saving, and raw
// cp's restore and steps (rawRollbacks, without keeping), their frames in
// turns, and reports the median of each (rollback-ms, sparse-rollback-ms,
// raw-rollback-ms) over rollbackFrames frames. The search's answer moves
// by a fifth between runs; a time at a fixed count compares two builds
// run in turns more closely. Each side runs under the pprof label side
// (every, sparse, raw): a CPU profile of it (-cpuprofile) splits by side
// with pprof's -tagfocus.
func BenchmarkRollbackAt(b *testing.B) {
	if testing.Short() {
		b.Skip("for two builds run in turns, figures in BENCHMARKS.md's section: not under -short (make bench-full runs it)")
	}
	n, count := *rollbackBalls, rollbackFrames()
	var frames, sparse, raw []time.Duration
	errs := inTurns([]string{"every", "sparse", "raw"}, []func(tn turn) error{
		func(tn turn) (err error) { frames, _, _, err = stressRollbacks(n, count, false, tn); return err },
		func(tn turn) (err error) { sparse, _, _, err = stressRollbacks(n, count, true, tn); return err },
		func(tn turn) (err error) { raw, err = rawRollbacks(n, count, false, tn); return err },
	})
	for _, err := range errs {
		if err != nil {
			b.Fatal(err)
		}
	}
	ms := func(d time.Duration) float64 { return float64(d) / float64(time.Millisecond) }
	b.ReportMetric(float64(n), "balls")
	b.ReportMetric(ms(median(frames)), "rollback-ms")
	b.ReportMetric(ms(median(sparse)), "sparse-rollback-ms")
	b.ReportMetric(ms(median(raw)), "raw-rollback-ms")
}
