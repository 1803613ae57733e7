package physics_test

import (
	"fmt"
	"hash/fnv"
	"math"
	"runtime"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/fixedstep/fixedstep/engine"
	"github.com/fixedstep/fixedstep/internal/cputime"
	"github.com/fixedstep/fixedstep/internal/ebitentest"
	"github.com/fixedstep/fixedstep/systems/physics"
	"github.com/fixedstep/fixedstep/third_party/cp"
	"github.com/fixedstep/fixedstep/third_party/donburi"
)

// touchRig is balls of tagA resting on a static floor of tagB (y down, its
// top at y 90), every handler call logged as "kind tick A-B", and the pairs
// Touching lists after each step.
type touchRig struct {
	w     donburi.World
	p     *physics.Physics
	floor donburi.Entity
	balls []donburi.Entity
	tick  int
	log   []string
	now   []physics.Contact // Touching(tagA, tagB) after the last step
}

// newTouchRig spawns n balls of radius 5, 20 apart, resting on the floor
// (spawned last, so that its id is the highest), and registers handlers
// that log.
func newTouchRig(t *testing.T, n int) *touchRig {
	w, p := newPhysics(cp.Vector{Y: 200})
	r := &touchRig{w: w, p: p}
	for i := range n {
		r.balls = append(r.balls, p.SpawnCircle(5, &physics.BodyOptions{Position: cp.Vector{X: float64(20 * i), Y: 85}}, tagA))
	}
	r.floor = p.SpawnBox(400, 20, &physics.BodyOptions{Kind: physics.Static, Position: cp.Vector{Y: 100}}, tagB)
	logger := func(kind string) physics.ContactFunc {
		return func(_ donburi.World, c physics.Contact) {
			r.log = append(r.log, fmt.Sprintf("%s %d %v-%v", kind, r.tick, c.A, c.B))
		}
	}
	p.OnCollide(tagA, tagB, logger("begin"))
	p.OnTouch(tagA, tagB, logger("touch"))
	p.OnSeparate(tagA, tagB, logger("end"))
	p.OnTouch(tagA, tagB, func(_ donburi.World, c physics.Contact) {
		if !nearly(c.Normal, cp.Vector{Y: 1}) || math.Abs(c.Point.Y-90) > 0.5 || c.ShapeA.Body() != p.Body(c.A) || c.ShapeB.Body() != p.Body(c.B) {
			t.Errorf("tick %d: %v-%v touching with normal %v, point %v (want (0, 1), y about 90), or the shapes of others",
				r.tick, c.A, c.B, c.Normal, c.Point)
		}
	})
	p.OnTouch(tagB, tagA, func(_ donburi.World, c physics.Contact) {
		if c.A != r.floor || !nearly(c.Normal, cp.Vector{Y: -1}) {
			t.Errorf("tick %d: the floor's role: A %v, normal %v", r.tick, c.A, c.Normal)
		}
	})
	return r
}

func (r *touchRig) step() {
	r.tick++
	step(r.w, r.p, 1)
	r.now = r.p.Touching(tagA, tagB, r.now[:0])
}

// launch sends ball i up, away from the floor, before the next step.
func (r *touchRig) launch(i int) { r.p.Body(r.balls[i]).SetVelocity(0, -300) }

// A pair that touches for N steps gets a begin, N touches (the first in
// the begin's step, after it) and an end in the step after the last touch;
// Touching lists it in exactly the steps it touches, with OnTouch's values.
func TestTouchBeginTouchingEnd(t *testing.T) {
	r := newTouchRig(t, 1)
	const n = 30
	for range n {
		r.step()
		if len(r.now) != 1 || r.now[0].A != r.balls[0] || r.now[0].B != r.floor || !nearly(r.now[0].Normal, cp.Vector{Y: 1}) {
			t.Fatalf("tick %d: Touching %+v, want the ball on the floor", r.tick, r.now)
		}
	}
	r.launch(0)
	r.step()
	if len(r.now) != 0 {
		t.Errorf("after the launch: Touching %+v, want none", r.now)
	}
	r.step()
	pair := fmt.Sprintf("%v-%v", r.balls[0], r.floor)
	want := []string{"begin 1 " + pair}
	for tick := 1; tick <= n; tick++ {
		want = append(want, fmt.Sprintf("touch %d %s", tick, pair))
	}
	want = append(want, fmt.Sprintf("end %d %s", n+1, pair))
	if !slices.Equal(r.log, want) {
		t.Errorf("calls:\n%s\nwant:\n%s", strings.Join(r.log, "\n"), strings.Join(want, "\n"))
	}
}

// A pair whose bodies fall asleep stays touching, with the contact cp kept:
// OnTouch every step and Touching, with the normal and point; woken and
// sent away, it ends.
func TestTouchWhileAsleep(t *testing.T) {
	w := donburi.NewWorld()
	p := physics.New(w, physics.Config{Gravity: cp.Vector{Y: 200}, SleepTimeThreshold: 0.5, IdleSpeedThreshold: 20})
	floor := p.SpawnBox(400, 20, &physics.BodyOptions{Kind: physics.Static, Position: cp.Vector{Y: 100}}, tagB)
	ball := p.SpawnCircle(5, &physics.BodyOptions{Position: cp.Vector{Y: 85}}, tagA)
	touches, ends := 0, 0
	var asleep physics.Contact
	p.OnTouch(tagA, tagB, func(_ donburi.World, c physics.Contact) {
		touches++
		if p.Body(ball).IsSleeping() {
			asleep = c
		}
	})
	p.OnSeparate(tagA, tagB, func(donburi.World, physics.Contact) { ends++ })
	step(w, p, 120)
	now := p.Touching(tagA, tagB, nil)
	if !p.Body(ball).IsSleeping() || touches != 120 || len(now) != 1 || now[0] != asleep {
		t.Fatalf("asleep %v, %d touches in 120 steps, Touching %+v, the last OnTouch asleep %+v",
			p.Body(ball).IsSleeping(), touches, now, asleep)
	}
	if asleep.A != ball || asleep.B != floor || !nearly(asleep.Normal, cp.Vector{Y: 1}) || math.Abs(asleep.Point.Y-90) > 0.5 {
		t.Errorf("asleep: %+v, want the ball on the floor, normal (0, 1), y about 90", asleep)
	}
	p.Body(ball).SetVelocity(0, -300)
	step(w, p, 1)
	if ends != 1 || len(p.Touching(tagA, tagB, nil)) != 0 {
		t.Errorf("woken and sent up: %d ends, Touching %+v", ends, p.Touching(tagA, tagB, nil))
	}
}

// Several pairs: each tick's OnTouch calls and Touching's list come in the
// order of the pairs (the lower entity first), whatever the order in which
// they began; each pair ends on its own.
func TestTouchSeveralPairs(t *testing.T) {
	r := newTouchRig(t, 4)
	// the ball spawned last lands first, the first one last
	for i, b := range r.balls {
		r.p.Body(b).SetPosition(cp.Vector{X: float64(20 * i), Y: 85 - float64(5*(3-i))})
	}
	touches := map[donburi.Entity]int{}
	r.p.OnTouch(tagA, tagB, func(_ donburi.World, c physics.Contact) { touches[c.A]++ })
	ends := map[donburi.Entity]int{}
	r.p.OnSeparate(tagA, tagB, func(_ donburi.World, c physics.Contact) { ends[c.A] = r.tick })
	for r.tick < 60 {
		if r.tick == 40 || r.tick == 50 {
			r.launch(r.tick/10 - 3) // balls 1 and 2
		}
		r.step()
		var calls []string
		for _, l := range r.log {
			if strings.HasPrefix(l, fmt.Sprintf("touch %d ", r.tick)) {
				calls = append(calls, l)
			}
		}
		var listed []string
		for _, c := range r.now {
			listed = append(listed, fmt.Sprintf("touch %d %v-%v", r.tick, c.A, c.B))
		}
		if !slices.IsSorted(calls) || !slices.Equal(calls, listed) {
			t.Fatalf("tick %d: OnTouch calls %q, Touching %q: want the same, sorted", r.tick, calls, listed)
		}
	}
	for i, b := range r.balls {
		if n := touches[b]; n < 10 || i == 1 && ends[b] != 41 || i == 2 && ends[b] != 51 || (i == 0 || i == 3) && ends[b] != 0 {
			t.Errorf("ball %d: %d touches, ended at tick %d", i, n, ends[b])
		}
	}
	if len(r.now) != 2 || r.now[0].A != r.balls[0] || r.now[1].A != r.balls[3] {
		t.Errorf("at the end Touching %+v, want balls 0 and 3", r.now)
	}
}

// A pair whose entity is removed stops touching at once: between steps,
// Touching no longer lists it; inside an OnTouch handler, no later call of
// the step names it; no OnSeparate follows either way.
func TestTouchEntityRemoved(t *testing.T) {
	t.Run("between steps", func(t *testing.T) {
		r := newTouchRig(t, 3)
		for range 5 {
			r.step()
		}
		r.w.Remove(r.balls[1])
		if now := r.p.Touching(tagA, tagB, nil); len(now) != 2 || now[0].A != r.balls[0] || now[1].A != r.balls[2] {
			t.Errorf("right after the removal: Touching %+v, want balls 0 and 2", now)
		}
		r.log = r.log[:0]
		r.step()
		for _, l := range r.log {
			if strings.Contains(l, fmt.Sprint(r.balls[1])) || strings.HasPrefix(l, "end") {
				t.Errorf("after the removal: %q", l)
			}
		}
		if len(r.log) != 2 {
			t.Errorf("after the removal: calls %q, want the two balls left touching", r.log)
		}
	})
	t.Run("by a handler", func(t *testing.T) {
		r := newTouchRig(t, 3)
		r.p.OnTouch(tagA, tagB, func(w donburi.World, c physics.Contact) {
			switch {
			case r.tick == 5 && c.A == r.balls[0]:
				w.Remove(r.balls[1]) // a later pair of this step
			case r.tick == 8 && c.A == r.balls[0]:
				w.Remove(r.floor) // every pair
			}
		})
		for range 10 {
			r.step()
		}
		var want []string
		pair := func(i int) string { return fmt.Sprintf("%v-%v", r.balls[i], r.floor) }
		for tick := 1; tick <= 8; tick++ {
			if tick == 1 {
				want = append(want, "begin 1 "+pair(0), "begin 1 "+pair(1), "begin 1 "+pair(2))
			}
			want = append(want, fmt.Sprintf("touch %d %s", tick, pair(0)))
			if tick < 5 {
				want = append(want, fmt.Sprintf("touch %d %s", tick, pair(1)))
			}
			if tick < 8 {
				want = append(want, fmt.Sprintf("touch %d %s", tick, pair(2)))
			}
		}
		if !slices.Equal(r.log, want) {
			t.Errorf("calls:\n%s\nwant:\n%s", strings.Join(r.log, "\n"), strings.Join(want, "\n"))
		}
		if len(r.now) != 0 || r.w.Valid(r.floor) {
			t.Errorf("Touching %+v after the floor's removal", r.now)
		}
	})
}

// touchLog runs the snapshot tests' bin (spawns, removals, sleeping) with
// an OnTouch handler and a Touching query every tick, and returns a hash of
// each tick's calls and list: tick, entities, normal and point bits.
type touchLog struct {
	b    *bin
	sums []uint64
	now  []physics.Contact
}

func newTouchLog() *touchLog {
	l := &touchLog{b: newBin()}
	l.b.p.OnTouch(hitsC, nil, func(_ donburi.World, c physics.Contact) {
		l.sums[len(l.sums)-1] = hashContact(l.sums[len(l.sums)-1], c)
	})
	return l
}

func (l *touchLog) tick(t int64) {
	l.sums = append(l.sums, uint64(t))
	l.b.tick(t)
	l.now = l.b.p.Touching(nil, nil, l.now[:0])
	for _, c := range l.now {
		l.sums[len(l.sums)-1] = hashContact(l.sums[len(l.sums)-1], c)
	}
}

func hashContact(sum uint64, c physics.Contact) uint64 {
	h := fnv.New64a()
	fmt.Fprintf(h, "%x %v %v %x %x %x %x", sum, c.A, c.B,
		math.Float64bits(c.Normal.X), math.Float64bits(c.Normal.Y), math.Float64bits(c.Point.X), math.Float64bits(c.Point.Y))
	return h.Sum64()
}

// Restored from a snapshot, the physics has the same pairs touching, and
// the ticks that follow make the same OnTouch calls and Touching lists as
// the ticks after the snapshot did, with the same normals and points,
// while bodies are spawned, removed, fall asleep and wake.
func TestTouchingRestoreIsExact(t *testing.T) {
	l := newTouchLog()
	for tick := int64(1); tick <= 300; tick++ {
		l.tick(tick)
	}
	var snap physics.Snapshot
	if err := l.b.p.Snapshot(&snap); err != nil {
		t.Fatal(err)
	}
	pcg := *l.b.pcg
	atSnapshot := slices.Clone(l.now)
	l.sums = l.sums[:0]
	for tick := int64(301); tick <= 540; tick++ {
		l.tick(tick)
	}
	want := slices.Clone(l.sums)
	if len(atSnapshot) < 20 {
		t.Fatalf("%d pairs touching at the snapshot: the test proves little", len(atSnapshot))
	}
	for round := range 2 {
		if err := l.b.p.Restore(&snap); err != nil {
			t.Fatal(err)
		}
		*l.b.pcg = pcg
		if now := l.b.p.Touching(nil, nil, nil); !slices.Equal(now, atSnapshot) {
			t.Fatalf("restore %d: %d pairs touching, %d at the snapshot", round+1, len(now), len(atSnapshot))
		}
		l.sums = l.sums[:0]
		for tick := int64(301); tick <= 540; tick++ {
			l.tick(tick)
			if i := len(l.sums) - 1; l.sums[i] != want[i] {
				t.Fatalf("restore %d: tick %d's touches differ from the run after the snapshot", round+1, tick)
			}
		}
	}
}

// OnTouch handlers and Touching allocate nothing: with many pairs
// touching, a step with an OnTouch handler and a Touching query allocates
// what the same scene's step without them does; so does a step in which
// 100 contacts begin or end (blinkScene).
func TestTouchingAllocatesNothing(t *testing.T) {
	ev := engine.Event{Kind: engine.Update, DT: 1.0 / 60}
	wt, pt := touchPile(300)
	wn, pn := touchPile(300)
	calls := 0
	pt.OnTouch(tagA, nil, func(donburi.World, physics.Contact) { calls++ })
	var buf []physics.Contact
	for range 10 { // grow the buffers
		pt.Update(wt, ev)
		pn.Update(wn, ev)
		buf = pt.Touching(tagA, nil, buf[:0])
	}
	if len(buf) < 300 {
		t.Fatalf("%d pairs touching in the pile: the test proves little", len(buf))
	}
	if n := testing.AllocsPerRun(50, func() { buf = pt.Touching(tagA, nil, buf[:0]) }); n != 0 {
		t.Errorf("Touching allocates %v times a call", n)
	}
	with := testing.AllocsPerRun(50, func() { pt.Update(wt, ev); buf = pt.Touching(tagA, nil, buf[:0]) })
	without := testing.AllocsPerRun(50, func() { pn.Update(wn, ev) })
	if calls == 0 || with != without {
		t.Errorf("a step of a pile with %d pairs touching: %v allocations with OnTouch and Touching, %v without (%d calls)",
			len(buf), with, without, calls)
	}

	wh, ph, blinkH, _ := blinkScene(100, true)
	wb, pb, blinkB, _ := blinkScene(100, true)
	ph.OnTouch(tagA, tagB, func(donburi.World, physics.Contact) {})
	tick := 0
	for range 10 {
		tick++
		blinkH(tick)
		blinkB(tick)
		ph.Update(wh, ev)
		pb.Update(wb, ev)
	}
	var withB, withoutB float64
	for range 20 {
		tick++
		withB += testing.AllocsPerRun(1, func() { blinkH(tick); ph.Update(wh, ev); buf = ph.Touching(tagA, nil, buf[:0]) })
		withoutB += testing.AllocsPerRun(1, func() { blinkB(tick); pb.Update(wb, ev) })
	}
	slack := 0.0
	if ebitentest.RaceEnabled() { // sync.Pool drops items at random inside donburi
		slack = 0.02 * withoutB
	}
	if math.Abs(withB-withoutB) > slack {
		t.Errorf("100 contacts begun or ended a step: %v allocations with OnTouch and Touching, %v without", withB/20, withoutB/20)
	}
}

// touchPile is n balls of tagA of radius 4 to 6 poured into a walled bin
// of tagB 20 balls wide, settled for 4 s: a pile whose balls touch each
// other and the walls, three pairs a ball or so.
func touchPile(n int) (donburi.World, *physics.Physics) {
	return touchPileCfg(n, physics.Config{Gravity: cp.Vector{Y: 300}}, false)
}

func touchPileCfg(n int, cfg physics.Config, untracked bool) (donburi.World, *physics.Physics) {
	w := donburi.NewWorld()
	p := physics.New(w, cfg)
	if untracked {
		physics.TrackNoTouches(p)
	}
	const width = 20 * 10
	p.SpawnWalls([]cp.Vector{{X: 0, Y: -2000}, {X: 0, Y: 0}, {X: width, Y: 0}, {X: width, Y: -2000}}, 2,
		&physics.BodyOptions{Friction: 0.5}, tagB)
	for i := range n {
		x := 8 + float64(i%19)*10 + float64(i/19%2)*4
		y := -8 - float64(i/19)*11
		p.SpawnCircle(4+float64(i%3), &physics.BodyOptions{Position: cp.Vector{X: x, Y: y}, Friction: 0.5}, tagA)
	}
	step(w, p, 240)
	return w, p
}

// BenchmarkTouching measures what touching contacts cost a step. Copies of
// a scene are stepped in lockstep, each first in turn, each step timed in
// this thread's CPU time (which other processes on a busy machine do not
// inflate), and it reports each copy's median step: untracked-ns, the
// physics with the tracking of touching pairs turned off (a test hook: the
// baseline, the step as it was before touching contacts), step-ns, the
// same with pairs tracked and no handler (every game's step now),
// ontouch-ns, with an OnTouch handler that takes every pair, and query-ns,
// with a Touching call after each step that lists every pair; and the
// extra cost of each over the baseline, per pair touching.
//
// pile=N is a settled pile of N balls (touchPile): many pairs touching,
// few beginning or ending. blink=N is blinkScene: N pairs begin or end
// every step, tracking's worst case.
func BenchmarkTouching(b *testing.B) {
	ev := engine.Event{Kind: engine.Update, DT: 1.0 / 60}
	type scene struct {
		w    donburi.World
		p    *physics.Physics
		tick func() // before each step
	}
	type setup struct {
		name  string
		make  func(untracked bool) scene
		pairs func(s scene) int
	}
	pile := func(n int) setup {
		return setup{fmt.Sprintf("pile=%d", n), func(untracked bool) scene {
			w, p := touchPileCfg(n, physics.Config{Gravity: cp.Vector{Y: 300}}, untracked)
			return scene{w, p, func() {}}
		}, func(s scene) int { return len(s.p.Touching(nil, nil, nil)) }}
	}
	blink := func(n int) setup {
		return setup{fmt.Sprintf("blink=%d", n), func(untracked bool) scene {
			w, p, blink, _ := blinkScene(n, false)
			if untracked {
				physics.TrackNoTouches(p)
			}
			tick := 0
			return scene{w, p, func() { tick++; blink(tick) }}
		}, func(scene) int { return n / 2 }} // touching half the steps
	}
	for _, su := range []setup{pile(100), pile(1000), blink(100)} {
		b.Run(su.name, func(b *testing.B) {
			untracked, plain, ontouch, query := su.make(true), su.make(false), su.make(false), su.make(false)
			ontouch.p.OnTouch(nil, nil, func(donburi.World, physics.Contact) {})
			var buf []physics.Contact
			all := []scene{untracked, plain, ontouch, query}
			for range 10 {
				for _, s := range all {
					s.tick()
					s.p.Update(s.w, ev)
				}
			}
			pairs := float64(su.pairs(plain))
			runtime.LockOSThread()
			defer runtime.UnlockOSThread()
			times := make([][]float64, len(all))
			i := 0
			for b.Loop() {
				for k := range all {
					j := (i + k) % len(all)
					s := all[j]
					s.tick()
					t := threadTime()
					s.p.Update(s.w, ev)
					if j == 3 {
						buf = s.p.Touching(nil, nil, buf[:0])
					}
					times[j] = append(times[j], float64(threadTime()-t))
				}
				i++
			}
			base := median(times[0])
			b.ReportMetric(pairs, "pairs")
			for j, name := range []string{"untracked", "step", "ontouch", "query"} {
				b.ReportMetric(median(times[j]), name+"-ns")
				if j > 0 {
					b.ReportMetric((median(times[j])-base)/pairs, name+"-ns/pair")
				}
			}
		})
	}
}

var threadStart = time.Now()

// threadTime is this thread's CPU time (cputime.Thread), or the monotonic
// wall clock where that cannot be read.
func threadTime() time.Duration {
	if d, ok := cputime.Thread(); ok {
		return d
	}
	return time.Since(threadStart)
}
