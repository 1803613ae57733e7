package engine_test

import (
	"errors"
	"math"
	"math/rand/v2"
	"strings"
	"testing"
	"time"

	"github.com/fixedstep/fixedstep/engine"
	"github.com/fixedstep/fixedstep/engine/input"
	"github.com/fixedstep/fixedstep/internal/racetest"
)

// Rule 1 and 2: 60 Hz for one hour of game time in frames of 1/144 s gives
// exactly 216,000 ticks, each at its exact due time, and the count never
// drifts from floor(gameTime*60) at any frame.
func TestOneHourAt60HzIn144HzFrames(t *testing.T) {
	racetest.Long(t)
	loop := newLoop(t, engine.Config{}, engine.Headless{FPS: 144}, engine.Group{Name: "physics", Hz: 60})
	const frames = 3600*144 + 1 // frame 1 is at time 0
	var ticks, renders int64
	for loop.Next() {
		ev := loop.Event()
		switch ev.Kind {
		case engine.Update:
			ticks++
			if ev.Tick != ticks || ev.Time != dueNs(ticks, 60) {
				t.Fatalf("tick %d: got Tick %d at %v, want at %v", ticks, ev.Tick, ev.Time, dueNs(ticks, 60))
			}
		case engine.Render:
			renders++
			if want := ticksAt(ev.Time, 60); ticks != want {
				t.Fatalf("frame %d: %d ticks at game time %v, want %d", ev.Frame, ticks, ev.Time, want)
			}
			if renders == frames {
				loop.Stop()
			}
		}
	}
	if ticks != 216_000 || loop.GameTime() != time.Hour {
		t.Fatalf("got %d ticks and game time %v, want 216000 and 1h", ticks, loop.GameTime())
	}
}

// Rule 2: groups at 60, 25 and 10 Hz tick in due-time order, ties in the
// order declared, with exact counts, whatever the frame rate.
func TestGroupsTickInDueTimeOrder(t *testing.T) {
	hz := []float64{60, 25, 10}
	for _, frameHz := range []float64{7, 24, 60, 144} {
		loop := newLoop(t, engine.Config{MaxUpdatesPerFrame: 100}, engine.Headless{FPS: frameHz},
			engine.Group{Name: "a", Hz: 60}, engine.Group{Name: "b", Hz: 25}, engine.Group{Name: "c", Hz: 10})
		var prev engine.Event
		counts := make([]int64, 3)
		ties := 0
		for _, f := range runFrames(t, loop, int(10*frameHz)+1) {
			for _, ev := range f.updates {
				counts[ev.Group]++
				if ev.Tick != counts[ev.Group] || ev.Time != dueNs(ev.Tick, hz[ev.Group]) {
					t.Fatalf("%v fps: group %d tick %d at %v, want tick %d at %v", frameHz, ev.Group, ev.Tick,
						ev.Time, counts[ev.Group], dueNs(counts[ev.Group], hz[ev.Group]))
				}
				if prev.Kind == engine.Update && (ev.Time < prev.Time || ev.Time == prev.Time && ev.Group <= prev.Group) {
					t.Fatalf("%v fps: group %d at %v came after group %d at %v", frameHz, ev.Group, ev.Time, prev.Group, prev.Time)
				}
				if prev.Kind == engine.Update && ev.Time == prev.Time {
					ties++
				}
				prev = ev
			}
		}
		if counts[0] != 600 || counts[1] != 250 || counts[2] != 100 {
			t.Fatalf("%v fps: counts %v, want [600 250 100]", frameHz, counts)
		}
		if ties < 100 { // every 10 Hz tick ties with a 60 Hz one, every 5th 25 Hz tick too
			t.Fatalf("%v fps: only %d ties seen", frameHz, ties)
		}
	}
}

// pendulum is a nonlinear simulation: any difference in dt, tick count or
// input between two runs shows in the low bits of its state.
type pendulum struct{ x, v float64 }

func (p *pendulum) step(dt float64, push bool) {
	a := -9.81*math.Sin(p.x) - 0.1*p.v*math.Abs(p.v)
	if push {
		a += 3
	}
	p.v += a * dt
	p.x += p.v * dt
}

// Rule 1 and 2 together: the same simulation fed at render rates 24 to 1000 Hz
// and with random frame jitter is bit-identical after 10 s of game time.
func TestSimulationIdenticalAtAnyRenderRate(t *testing.T) {
	run := func(h engine.Headless) pendulum {
		loop := newLoop(t, engine.Config{MaxUpdatesPerFrame: 1000}, h, engine.Group{Name: "physics", Hz: 60})
		p := pendulum{x: 1}
		for loop.Next() {
			if ev := loop.Event(); ev.Kind == engine.Update {
				p.step(ev.DT, ev.Tick%97 < 10)
				if ev.Tick == 600 {
					loop.Stop()
				}
			}
		}
		return p
	}
	want := run(engine.Headless{FPS: 60})
	for _, hz := range []float64{24, 30, 144, 240, 1000} {
		if got := run(engine.Headless{FPS: hz}); got != want {
			t.Errorf("%v Hz: state %+v, want %+v", hz, got, want)
		}
	}
	for seed := uint64(1); seed <= 5; seed++ {
		rng := rand.New(rand.NewPCG(seed, 0))
		times := []time.Duration{0, 0}
		jitter := func(n int64) time.Duration {
			for int64(len(times)) <= n {
				times = append(times, times[len(times)-1]+time.Duration(rng.Int64N(int64(50*time.Millisecond))))
			}
			return times[n]
		}
		if got := run(engine.Headless{FrameTime: jitter}); got != want {
			t.Errorf("jitter seed %d: state %+v, want %+v", seed, got, want)
		}
	}
	if want.x == 1 || want.v == 0 {
		t.Fatalf("the pendulum did not move: %+v", want)
	}
}

// Rule 6: Alpha is the exact fraction of the first group's step that game time
// is past its last tick, in [0,1); ExtDT is that distance; Alpha(g) does the
// same for other groups.
func TestAlphaIsTheExactFraction(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 7))
	times := []time.Duration{0, 0}
	irregular := func(n int64) time.Duration {
		for int64(len(times)) <= n {
			times = append(times, times[len(times)-1]+time.Duration(rng.Int64N(int64(40*time.Millisecond))))
		}
		return times[n]
	}
	loop := newLoop(t, engine.Config{}, engine.Headless{FrameTime: irregular},
		engine.Group{Name: "physics", Hz: 60}, engine.Group{Name: "ai", Hz: 7})
	var seen [2]bool
	for loop.Next() {
		ev := loop.Event()
		if ev.Kind != engine.Render {
			continue
		}
		for g, hz := range []float64{60, 7} {
			k := loop.Ticks(g)
			last, next := dueNs(k, hz), dueNs(k+1, hz)
			want := float64(ev.Time-last) / float64(next-last)
			got := loop.Alpha(g)
			if g == 0 && (ev.Alpha != got || ev.ExtDT != ev.Time-last) {
				t.Fatalf("frame %d: event alpha %v extDT %v, loop alpha %v, want extDT %v", ev.Frame, ev.Alpha, ev.ExtDT, got, ev.Time-last)
			}
			if got != want || got < 0 || got >= 1 {
				t.Fatalf("frame %d group %d: alpha %v, want %v in [0,1)", ev.Frame, g, got, want)
			}
			seen[g] = seen[g] || got > 0.5
		}
		if ev.Frame == 2000 {
			loop.Stop()
		}
	}
	if !seen[0] || !seen[1] {
		t.Fatalf("alpha never went past 0.5: %v", seen)
	}
}

// Rule 3 and 5: a 10 s stall adds at most MaxDelta of game time, and no frame
// runs more than MaxUpdatesPerFrame ticks. Drop forgets (and reports) the
// rest; Carry runs it in later frames.
func TestStallIsBounded(t *testing.T) {
	stall := func(n int64) time.Duration { // 60 fps, frame 62 comes 10 s late
		t := fps(60)(n)
		if n >= 62 {
			t += 10 * time.Second
		}
		return t
	}
	cfg := engine.Config{MaxUpdatesPerFrame: 5}
	const stallFrame = 62

	t.Run("drop", func(t *testing.T) {
		loop := newLoop(t, cfg, engine.Headless{FrameTime: stall}, engine.Group{Name: "physics", Hz: 60})
		frames := runFrames(t, loop, 120)
		for _, f := range frames {
			if len(f.updates) > 5 {
				t.Fatalf("frame %d ran %d ticks", f.n, len(f.updates))
			}
		}
		before, after := frames[stallFrame-2].render.Time, frames[stallFrame-1].render.Time
		if before != time.Second || after != dueNs(65, 60) {
			t.Fatalf("game time %v then %v, want 1s then the 65th tick", before, after)
		}
		st := loop.Stats()
		wantDropped := time.Second + engine.DefaultMaxDelta - dueNs(65, 60)
		wantClamped := stall(stallFrame) - stall(stallFrame-1) - engine.DefaultMaxDelta
		if st.Dropped != wantDropped || st.Clamped != wantClamped {
			t.Fatalf("dropped %v clamped %v, want %v and %v", st.Dropped, st.Clamped, wantDropped, wantClamped)
		}
	})
	t.Run("carry", func(t *testing.T) {
		c := cfg
		c.Overrun = engine.Carry
		loop := newLoop(t, c, engine.Headless{FrameTime: stall}, engine.Group{Name: "physics", Hz: 60})
		frames := runFrames(t, loop, stallFrame)
		if st := loop.Stats(); st.Owed != dueNs(75, 60)-dueNs(65, 60) || st.Dropped != 0 {
			t.Fatalf("after the stall: owed %v dropped %v", st.Owed, st.Dropped)
		}
		if last := frames[stallFrame-1]; len(last.updates) != 5 || last.render.Alpha >= 1 {
			t.Fatalf("stall frame ran %d ticks, alpha %v", len(last.updates), last.render.Alpha)
		}
		for _, f := range runFrames(t, loop, 10) {
			if len(f.updates) > 5 {
				t.Fatalf("frame %d ran %d ticks", f.n, len(f.updates))
			}
		}
		// 15 ticks were due in the stall frame; each later frame pays back 4.
		if st := loop.Stats(); st.Owed > 0 || loop.Ticks(0) != ticksAt(loop.GameTime(), 60) {
			t.Fatalf("not caught up: owed %v, %d ticks at %v", st.Owed, loop.Ticks(0), loop.GameTime())
		}
	})
}

// Rule 3: pause stops ticks but not renders, with alpha frozen; a single step
// runs exactly one tick; time scale 0.5 runs half the ticks.
func TestPauseStepAndTimeScale(t *testing.T) {
	loop := newLoop(t, engine.Config{}, engine.Headless{FPS: 144}, engine.Group{Name: "physics", Hz: 60})
	runFrames(t, loop, 100)
	loop.SetPaused(true)
	paused := runFrames(t, loop, 50)
	for _, f := range paused {
		if len(f.updates) != 0 || f.render.Alpha != paused[0].render.Alpha || f.render.Time != paused[0].render.Time {
			t.Fatalf("paused frame %d: %d ticks, alpha %v time %v (first %v %v)", f.n, len(f.updates),
				f.render.Alpha, f.render.Time, paused[0].render.Alpha, paused[0].render.Time)
		}
	}
	before := loop.Ticks(0)
	loop.Step()
	stepped := runFrames(t, loop, 10)
	if n := len(stepped[0].updates); n != 1 || loop.Ticks(0) != before+1 {
		t.Fatalf("step ran %d ticks (ticks %d -> %d)", n, before, loop.Ticks(0))
	}
	if stepped[0].render.Alpha != 0 {
		t.Fatalf("after a step alpha is %v, want 0", stepped[0].render.Alpha)
	}
	loop.SetPaused(false)
	runFrames(t, loop, 1) // the first frame after pause adds one frame of time, not the paused time
	if got := loop.Ticks(0); got > before+2 {
		t.Fatalf("unpausing caught up the paused time: %d ticks after %d", got, before+1)
	}

	half := newLoop(t, engine.Config{TimeScale: 0.5}, engine.Headless{FPS: 60}, engine.Group{Name: "physics", Hz: 60})
	runFrames(t, half, 601) // 10 s of clock time
	if got := half.Ticks(0); got != 300 {
		t.Fatalf("time scale 0.5: %d ticks in 10 s, want 300", got)
	}
	if err := half.SetTimeScale(math.NaN()); err == nil || half.TimeScale() != 0.5 {
		t.Fatalf("SetTimeScale(NaN): err %v, scale %v", err, half.TimeScale())
	}
}

// Rule 4 under a pause: a key pressed while paused (the pause's own, or
// Esc meant for a pause menu) reaches no tick, also not the first tick
// after the pause; a key held through it is still down; a press in a
// single step's frame reaches the step's tick.
func TestPressesWhilePausedReachNoTick(t *testing.T) {
	h := engine.Headless{FPS: 60}
	keys := heldFrom{presses{20: input.KeyEscape, 55: input.KeyA}, 30, input.KeyW}
	loop, err := engine.NewHeadlessLoop(engine.Config{}, &h, &engine.Options{Input: keys})
	if err != nil {
		t.Fatal(err)
	}
	if err := loop.Start(engine.Group{Name: "physics", Hz: 60}); err != nil {
		t.Fatal(err)
	}
	runFrames(t, loop, 15)
	loop.SetPaused(true)
	runFrames(t, loop, 30) // Esc is pressed and released while paused; W pressed and held on
	loop.Step()
	stepped := runFrames(t, loop, 1)
	loop.SetPaused(false)
	after := runFrames(t, loop, 20)
	for _, f := range append(stepped, after...) {
		for _, u := range f.updates {
			if u.Input.KeyPressed(input.KeyEscape) || u.Input.KeyPressed(input.KeyW) {
				t.Fatalf("frame %d's tick %d sees a press made while paused (Esc %v, W %v)", f.n, u.Tick,
					u.Input.KeyPressed(input.KeyEscape), u.Input.KeyPressed(input.KeyW))
			}
		}
	}
	if len(stepped[0].updates) != 1 || !stepped[0].updates[0].Input.KeyDown(input.KeyW) {
		t.Fatalf("the step's tick: %d ticks, W down %v (W is held)", len(stepped[0].updates),
			len(stepped[0].updates) == 1 && stepped[0].updates[0].Input.KeyDown(input.KeyW))
	}
	sawA := false
	for _, f := range after {
		for _, u := range f.updates {
			sawA = sawA || u.Input.KeyPressed(input.KeyA)
		}
	}
	if !sawA {
		t.Fatal("a press after the pause reached no tick")
	}
}

// heldFrom is presses, and one key held down from a frame on.
type heldFrom struct {
	presses
	from int64
	key  input.Key
}

func (h heldFrom) Sample(frame int64, in *input.State) {
	h.presses.Sample(frame, in)
	if frame >= h.from {
		in.SetKey(h.key, true)
	}
}

// The window driver's hold for lost focus (Window.PauseOnFocusLoss) works as a
// pause that is not the scene's: no ticks and a frozen alpha while held, no
// catch-up after it, and a scene's own pause (and a step asked for while
// held) survives the end of the hold.
func TestFocusHold(t *testing.T) {
	loop := newLoop(t, engine.Config{}, engine.Headless{FPS: 144}, engine.Group{Name: "physics", Hz: 60})
	runFrames(t, loop, 100)
	loop.SetFocusPaused(true)
	held := runFrames(t, loop, 50)
	for _, f := range held {
		if len(f.updates) != 0 || f.render.Alpha != held[0].render.Alpha || f.render.Time != held[0].render.Time {
			t.Fatalf("held frame %d: %d ticks, alpha %v time %v (first %v %v)", f.n, len(f.updates),
				f.render.Alpha, f.render.Time, held[0].render.Alpha, held[0].render.Time)
		}
	}
	if loop.Paused() || !loop.FocusPaused() {
		t.Fatalf("held: Paused %v, FocusPaused %v", loop.Paused(), loop.FocusPaused())
	}
	loop.SetFocusPaused(false)
	after := runFrames(t, loop, 1)[0]
	// One frame at 144 Hz adds 6944444 or 6944445 ns, not the 50 frames held.
	if d := after.render.Time - held[0].render.Time; d <= 0 || d > time.Second/144+1 {
		t.Fatalf("the first frame after the hold moved game time by %v, want one frame", d)
	}

	loop.SetPaused(true)
	loop.SetFocusPaused(true)
	before := loop.Ticks(0)
	loop.Step()
	for _, f := range runFrames(t, loop, 20) {
		if len(f.updates) != 0 {
			t.Fatalf("held and paused frame %d ran %d ticks", f.n, len(f.updates))
		}
	}
	loop.SetFocusPaused(false)
	stepped := runFrames(t, loop, 10)
	if !loop.Paused() || len(stepped[0].updates) != 1 || loop.Ticks(0) != before+1 {
		t.Fatalf("after the hold: Paused %v, %d ticks in the first frame, %d in all (want the step's 1)",
			loop.Paused(), len(stepped[0].updates), loop.Ticks(0)-before)
	}
}

// keyScript presses Space in the frames listed and holds nothing else.
type keyScript map[int64]bool

func (s keyScript) Sample(frame int64, in *input.State) { in.SetKey(input.KeySpace, s[frame]) }

// Rule 4: a press in a frame with no tick is seen by the next tick; a press
// in a frame with two ticks is seen once per group; input comes before updates.
func TestEveryPressReachesOneTickOfEachGroup(t *testing.T) {
	t.Run("frame without a tick", func(t *testing.T) {
		// 240 fps, 60 Hz: frames 2, 3 and 4 run no tick. Space is down in frame 2 only.
		h := engine.Headless{FPS: 240}
		loop, _ := engine.NewHeadlessLoop(engine.Config{}, &h, &engine.Options{Input: keyScript{2: true}})
		frames := runFrames(t, loop, 12)
		seen := 0
		for _, f := range frames {
			for _, ev := range f.updates {
				if ev.Input.KeyPressed(input.KeySpace) {
					seen++
					if f.n != 5 || !ev.Input.KeyReleased(input.KeySpace) || ev.Input.KeyDown(input.KeySpace) {
						t.Fatalf("press seen in frame %d: %+v", f.n, ev.Input.KeysPressed)
					}
				}
			}
			if f.n == 2 && len(f.updates) != 0 {
				t.Fatalf("frame 2 ran a tick")
			}
		}
		if seen != 1 {
			t.Fatalf("press seen by %d ticks, want 1", seen)
		}
	})
	t.Run("frame with two ticks", func(t *testing.T) {
		// 30 fps, groups at 60 and 30 Hz: each frame runs two ticks of the first.
		presses := keyScript{}
		for f := int64(3); f < 300; f += 7 {
			presses[f] = true
		}
		h := engine.Headless{FPS: 30}
		loop, _ := engine.NewHeadlessLoop(engine.Config{}, &h, &engine.Options{Input: presses})
		if err := loop.Start(engine.Group{Name: "fast", Hz: 60}, engine.Group{Name: "slow", Hz: 30}); err != nil {
			t.Fatal(err)
		}
		var seen [2]int
		twoTicks := true
		for _, f := range runFrames(t, loop, 300) {
			firstOfGroup := [2]bool{true, true}
			for _, ev := range f.updates {
				if ev.Input.KeyPressed(input.KeySpace) {
					seen[ev.Group]++
					if !firstOfGroup[ev.Group] || !presses[f.n] {
						t.Fatalf("frame %d: group %d saw a press it should not", f.n, ev.Group)
					}
				}
				firstOfGroup[ev.Group] = false
			}
			if presses[f.n] && f.n > 1 && len(f.updates) != 3 {
				twoTicks = false
			}
		}
		if seen[0] != len(presses) || seen[1] != len(presses) || !twoTicks {
			t.Fatalf("presses seen %v, want %d per group (all in frames of three ticks: %v)", seen, len(presses), twoTicks)
		}
	})
}

// Rule 7: render and tick both at 60 Hz with +/-1 ms seeded jitter over 10,000
// frames: with pacing every frame gets exactly one tick, and the long-run count
// stays exact. The plain accumulator on the same frames is logged.
func TestFramePacingUnderJitter(t *testing.T) {
	rng := rand.New(rand.NewPCG(60, 60))
	jitter := make([]time.Duration, 10_002)
	for i := range jitter {
		jitter[i] = time.Duration(rng.Int64N(int64(2*time.Millisecond))) - time.Millisecond
	}
	frameTime := func(n int64) time.Duration { return fps(60)(n) + jitter[n] }
	count := func(cfg engine.Config) (hist map[int]int, ticks int64, gameTime time.Duration) {
		loop := newLoop(t, cfg, engine.Headless{FrameTime: frameTime}, engine.Group{Name: "physics", Hz: 60})
		hist = map[int]int{}
		for _, f := range runFrames(t, loop, 10_001)[1:] {
			hist[len(f.updates)]++
		}
		return hist, loop.Ticks(0), loop.GameTime()
	}
	paced, ticks, gameTime := count(engine.Config{})
	plain, plainTicks, _ := count(engine.Config{NoPacing: true})
	t.Logf("paced: frames by tick count %v, %d ticks; plain accumulator: %v, %d ticks", paced, ticks, plain, plainTicks)
	if paced[1] != 10_000 {
		t.Fatalf("paced: frames by tick count %v, want all 10000 with one tick", paced)
	}
	real := frameTime(10_001) - frameTime(1)
	if d := gameTime - real; d < -2*time.Millisecond || d > 2*time.Millisecond {
		t.Fatalf("game time %v drifted from real time %v", gameTime, real)
	}
}

// Bad configuration is an error that names the field, never a panic or a
// silent default.
func TestBadConfigNamesTheField(t *testing.T) {
	cases := []struct {
		field  string
		cfg    engine.Config
		h      engine.Headless
		groups []engine.Group
	}{
		{"Config.MaxDelta", engine.Config{MaxDelta: -1}, engine.Headless{}, nil},
		{"Config.MaxDelta", engine.Config{MaxDelta: engine.MaxDeltaLimit + 1}, engine.Headless{}, nil},
		{"Config.MaxUpdatesPerFrame", engine.Config{MaxUpdatesPerFrame: -1}, engine.Headless{}, nil},
		{"Config.TimeScale", engine.Config{TimeScale: -0.5}, engine.Headless{}, nil},
		{"Config.TimeScale", engine.Config{TimeScale: math.NaN()}, engine.Headless{}, nil},
		{"Config.TimeScale", engine.Config{TimeScale: math.Inf(1)}, engine.Headless{}, nil},
		{"Config.PacingTolerance", engine.Config{PacingTolerance: -time.Millisecond}, engine.Headless{}, nil},
		{"Config.Overrun", engine.Config{Overrun: 7}, engine.Headless{}, nil},
		{"Headless.FPS", engine.Config{}, engine.Headless{FPS: -1}, nil},
		{"Headless.FPS", engine.Config{}, engine.Headless{FPS: math.NaN()}, nil},
		{"Groups[0].Hz", engine.Config{}, engine.Headless{}, []engine.Group{{Name: "p", Hz: 0}}},
		{"Groups[1].Hz", engine.Config{}, engine.Headless{}, []engine.Group{{Name: "p", Hz: 60}, {Name: "q", Hz: -3}}},
		{"Groups[0].Hz", engine.Config{}, engine.Headless{}, []engine.Group{{Name: "p", Hz: math.NaN()}}},
		{"Groups[0].Hz", engine.Config{}, engine.Headless{}, []engine.Group{{Name: "p", Hz: math.Inf(1)}}},
		{"Groups[0].Hz", engine.Config{}, engine.Headless{}, []engine.Group{{Name: "p", Hz: 0.9e-6}}},
		{"Groups[1].Name", engine.Config{}, engine.Headless{}, []engine.Group{{Name: "p", Hz: 60}, {Name: "p", Hz: 10}}},
	}
	for _, c := range cases {
		loop, err := engine.NewHeadlessLoop(c.cfg, &c.h, nil)
		if err == nil {
			err = loop.Start(c.groups...)
			if err != loop.Err() || loop.Next() {
				t.Errorf("%s: Start error %v not kept, or the loop ran", c.field, err)
			}
		}
		var ce *engine.ConfigError
		if !errors.As(err, &ce) || !strings.HasPrefix(ce.Field, c.field) || !strings.Contains(err.Error(), c.field) {
			t.Errorf("%s: got %v", c.field, err)
		}
	}
}

// A clock that goes backwards never moves game time back; it is counted.
func TestClockBackwards(t *testing.T) {
	times := []time.Duration{0, 0, 20e6, 40e6, 10e6, 5e6, 30e6, 50e6}
	loop := newLoop(t, engine.Config{}, engine.Headless{FrameTime: func(n int64) time.Duration { return times[n] }},
		engine.Group{Name: "p", Hz: 60})
	var last time.Duration
	for _, f := range runFrames(t, loop, len(times)-1) {
		if f.render.Time < last {
			t.Fatalf("frame %d: game time went back from %v to %v", f.n, last, f.render.Time)
		}
		last = f.render.Time
	}
	if got := loop.Stats().ClockBackwards; got != 2 {
		t.Fatalf("ClockBackwards = %d, want 2", got)
	}
}

// A single step runs one tick of the first group even when it is the slowest:
// the other groups run every tick due up to it, past MaxUpdatesPerFrame, and
// nothing is reported dropped.
func TestSingleStepOfASlowFirstGroup(t *testing.T) {
	loop := newLoop(t, engine.Config{}, engine.Headless{FPS: 60},
		engine.Group{Name: "slow", Hz: 1}, engine.Group{Name: "fast", Hz: 60})
	runFrames(t, loop, 10)
	loop.SetPaused(true)
	runFrames(t, loop, 5)
	loop.Step()
	f := runFrames(t, loop, 1)[0]
	counts := [2]int{}
	for _, ev := range f.updates {
		counts[ev.Group]++
	}
	if counts[0] != 1 || loop.Ticks(0) != 1 || loop.Ticks(1) != 60 || loop.GameTime() != time.Second {
		t.Fatalf("step: %v ticks in the frame, %d and %d in all, game time %v", counts, loop.Ticks(0), loop.Ticks(1), loop.GameTime())
	}
	if d := loop.Stats().Dropped; d != 0 {
		t.Fatalf("dropped %v", d)
	}
}

// Real time is counted once: a clock that glitches back and forward (0, 1,
// 0.5, 1.5 s) gives the frames 1.5 s in all, not 2.
func TestClockGlitchCountedOnce(t *testing.T) {
	times := []time.Duration{0, 0, time.Second, time.Second / 2, 3 * time.Second / 2}
	loop := newLoop(t, engine.Config{MaxDelta: 2 * time.Second}, engine.Headless{FrameTime: func(n int64) time.Duration { return times[n] }},
		engine.Group{Name: "p", Hz: 60})
	runFrames(t, loop, len(times)-1)
	st := loop.Stats()
	if got := st.GameTime + st.Clamped + st.Dropped; got != 1500*time.Millisecond || st.ClockBackwards != 1 {
		t.Fatalf("game time %v (clamped %v, dropped %v) for 1.5 s of real time, %d backwards", st.GameTime, st.Clamped, st.Dropped, st.ClockBackwards)
	}
}

// A game time that would pass the largest time.Duration stops the loop
// with ErrGameTimeLimit instead of wrapping around.
func TestGameTimeLimit(t *testing.T) {
	// Carry keeps game time where it is (Drop would cut it back to the ticks
	// owed): three frames from the end of time.
	loop := newLoop(t, engine.Config{Overrun: engine.Carry}, engine.Headless{}, engine.Group{Name: "p", Hz: 60})
	runFrames(t, loop, 2)
	loop.SetGameTime(math.MaxInt64 - 5*engine.DefaultMaxDelta)
	n := 0
	for loop.Next() {
		if ev := loop.Event(); ev.Time < 0 || ev.Kind == engine.Render && ev.Alpha < 0 {
			t.Fatalf("event %+v", ev)
		}
		n++
	}
	if !errors.Is(loop.Err(), engine.ErrGameTimeLimit) || n == 0 || n > 20*8*3 {
		t.Fatalf("after %d events: %v", n, loop.Err())
	}
}
