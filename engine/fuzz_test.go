package engine_test

import (
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/fixedstep/fixedstep/engine"
	"github.com/fixedstep/fixedstep/engine/input"
)

// FuzzLoopDeltas feeds the loop random frame times (zero, backwards, huge) and
// configurations, and checks the invariants after every frame: alpha in [0,1),
// game time never goes back and moves at most MaxDelta, no frame runs more than
// MaxUpdatesPerFrame ticks of a group, every tick at its exact due time, and
// the tick count exact (Drop) or never ahead of game time (Carry).
func FuzzLoopDeltas(f *testing.F) {
	f.Add([]byte{0, 0, 0, 0, 0, 0, 0, 0}, uint8(5), false, false, uint16(60))
	f.Add([]byte{0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x7f, 1, 2, 3, 4, 5, 6, 7, 8}, uint8(1), true, false, uint16(1000))
	f.Add([]byte{0x10, 0x27, 0, 0, 0, 0, 0, 0x80, 0x40, 0x42, 0x0f, 0, 0, 0, 0, 0}, uint8(3), false, true, uint16(7))
	f.Add(binary.LittleEndian.AppendUint64(nil, uint64(16*time.Millisecond)), uint8(8), true, true, uint16(144))
	f.Fuzz(func(t *testing.T, deltas []byte, maxUpdates uint8, carry, noPacing bool, hz uint16) {
		if hz == 0 || len(deltas) > 8*4096 {
			t.Skip()
		}
		cfg := engine.Config{MaxUpdatesPerFrame: int(maxUpdates%16) + 1, NoPacing: noPacing}
		if carry {
			cfg.Overrun = engine.Carry
		}
		times := []time.Duration{0, 0}
		for i := 0; i+8 <= len(deltas); i += 8 {
			d := int64(binary.LittleEndian.Uint64(deltas[i:]))
			d %= int64(time.Hour) // backwards, zero or up to an hour
			times = append(times, times[len(times)-1]+time.Duration(d))
		}
		frameTime := func(n int64) time.Duration { return times[n] }
		h := engine.Headless{FrameTime: frameTime, Frames: int64(len(times) - 1)}
		loop, err := engine.NewHeadlessLoop(cfg, &h, nil)
		if err != nil {
			t.Fatal(err)
		}
		rates := []float64{float64(hz), float64(hz%97 + 3)}
		if err := loop.Start(engine.Group{Name: "a", Hz: rates[0]}, engine.Group{Name: "b", Hz: rates[1]}); err != nil {
			t.Fatal(err)
		}
		maxDelta := loop.Config().MaxDelta
		var last time.Duration // game time of the last render
		var inFrame [2]int
		var ticks [2]int64
		for loop.Next() {
			ev := loop.Event()
			switch ev.Kind {
			case engine.Input:
				inFrame = [2]int{}
				if ev.Time != last {
					t.Fatalf("frame %d: input at game time %v, the last frame drew %v", ev.Frame, ev.Time, last)
				}
			case engine.Update:
				ticks[ev.Group]++
				inFrame[ev.Group]++
				if inFrame[ev.Group] > cfg.MaxUpdatesPerFrame || ev.Tick != ticks[ev.Group] ||
					ev.Time != dueNs(ev.Tick, rates[ev.Group]) || !carry && ev.Time < last {
					t.Fatalf("frame %d: group %d tick %d at %v (%d this frame, game time %v)",
						ev.Frame, ev.Group, ev.Tick, ev.Time, inFrame[ev.Group], last)
				}
			case engine.Render:
				if ev.Time < last || ev.Time-last > maxDelta || math.IsNaN(ev.Alpha) || ev.Alpha < 0 || ev.Alpha >= 1 {
					t.Fatalf("frame %d: alpha %v time %v (was %v)", ev.Frame, ev.Alpha, ev.Time, last)
				}
				last = ev.Time
				for g, hz := range rates {
					due := ticksAt(ev.Time, int64(hz))
					if ticks[g] > due || !carry && ticks[g] != due {
						t.Fatalf("frame %d: group %d ran %d ticks, %d due at %v", ev.Frame, g, ticks[g], due, ev.Time)
					}
				}
			}
		}
		if err := loop.Err(); err != nil {
			t.Fatal(err)
		}
	})
}

// recordLog runs two scenes (60 and 10 Hz, then 50 Hz) of frames frames each
// under a seeded random player and returns the log's bytes: a valid replay
// file to seed the replay fuzzer with.
func recordLog(tb testing.TB, seed uint64, frames int) []byte {
	tb.Helper()
	lg := &engine.InputLog{Seed: seed}
	opts := &engine.Options{Input: &randomPlayer{rand.New(rand.NewPCG(seed, 2))}, Record: lg}
	loop, err := engine.NewHeadlessLoop(engine.Config{}, &engine.Headless{FPS: 60}, opts)
	if err != nil {
		tb.Fatal(err)
	}
	for _, groups := range [][]engine.Group{{{Name: "physics", Hz: 60}, {Name: "ai", Hz: 10}}, {{Name: "only", Hz: 50}}} {
		if err := loop.Start(groups...); err != nil {
			tb.Fatal(err)
		}
		for renders := 0; renders < frames && loop.Next(); {
			if loop.Event().Kind == engine.Render {
				renders++
			}
		}
	}
	var buf bytes.Buffer
	if _, err := lg.WriteTo(&buf); err != nil {
		tb.Fatal(err)
	}
	return buf.Bytes()
}

// streamLog records like recordLog, but to a file with InputLog.Create,
// a chunk every frame, and returns the file's bytes.
func streamLog(tb testing.TB, seed uint64, frames int) []byte {
	tb.Helper()
	defer engine.SetFlushEvery(0)()
	path := filepath.Join(tb.TempDir(), "streamed.input")
	lg := &engine.InputLog{Seed: seed, Settings: map[string]string{"level": "3"}}
	if err := lg.Create(path); err != nil {
		tb.Fatal(err)
	}
	opts := &engine.Options{Input: &randomPlayer{rand.New(rand.NewPCG(seed, 2))}, Record: lg,
		Headless: &engine.Headless{FPS: 60, Frames: int64(frames)}}
	n := 0
	scene := engine.NewScene("S", func(loop *engine.Loop) (engine.Scene, error) {
		loop.Recording().SetChecksum(func() uint64 { return uint64(n) })
		for ev := range loop.Events(engine.Group{Name: "physics", Hz: 60}, engine.Group{Name: "ai", Hz: 10}) {
			if ev.Kind == engine.Update {
				n++
			}
		}
		return nil, loop.Err()
	})
	if err := engine.Run(scene, opts); err != nil {
		tb.Fatal(err)
	}
	if err := lg.Close(); err != nil {
		tb.Fatal(err)
	}
	data, err := os.ReadFile(path)
	if err != nil {
		tb.Fatal(err)
	}
	return data
}

// FuzzParseInputLog feeds the replay reader arbitrary bytes, as they are and
// with every chunk's CRC made right (so that changes reach the records). It
// must return a log or an error wrapping ErrBadInputLog, never panic; a log
// it returns must write out and parse back to the same bytes, and replay
// (every scene with its recorded groups, a few frames each) with no error
// but a *ReplayError.
//
// The bug it found, kept in testdata/fuzz/FuzzParseInputLog/72643927d54c54be:
// a file cut short with input recorded past its last progress record parsed,
// then wrote a log that did not (such a file is now refused).
func FuzzParseInputLog(f *testing.F) {
	empty := recordLog(f, 1, 0)
	short := recordLog(f, 2, 3)
	f.Add(empty)
	f.Add(short)
	f.Add(recordLog(f, 3, 6))
	for _, n := range []int{0, 8, 10, 18, 19, len(short) / 2, len(short) - 1} {
		f.Add(short[:n])
	}
	f.Add(append(bytes.Clone(short), 0))
	// A recording written chunk by chunk as it ran, whole and cut short.
	streamed := streamLog(f, 4, 40)
	f.Add(streamed)
	f.Add(streamed[:len(streamed)*2/3])
	f.Add(sessionLog(f, 2)) // a networked run's: every player's input
	f.Add(sessionLog(f, 4))
	detailed := detailedLog(f) // the bisector's detail, settings, a scene that failed
	f.Add(detailed)
	f.Add(detailed[:len(detailed)*3/4])
	f.Fuzz(func(t *testing.T, data []byte) {
		checkParsedLog(t, data)
		// The same bytes with every chunk's CRC made right: most changes
		// fail the CRC, and these reach the records.
		checkParsedLog(t, engine.ResealChunks(data))
	})
}

// detailedLog records a run that keeps the bisector's detail (the state
// after each system of every tick, the parts of the state after each
// checked tick), with settings, over two scenes, the second of which
// fails, under input whose cursor moves by whole pixels and to fractions
// of one, and returns the recording's bytes.
func detailedLog(tb testing.TB) []byte {
	tb.Helper()
	rec := &engine.InputLog{Seed: 9, Settings: map[string]string{"level": "2", "mode": "hard"}, Detail: true}
	var x, v float64
	fails := engine.NewScene("Fails", func(loop *engine.Loop) (engine.Scene, error) {
		loop.Recording().SetChecksum(func() uint64 { return math.Float64bits(x) })
		for ev := range loop.Events(engine.Group{Name: "physics", Hz: 60}) {
			if ev.Kind == engine.Update {
				x += ev.Player(0).CursorX * 1e-3
				loop.Recording().AfterSystem(ev, "drift")
				if ev.Tick == 30 {
					return nil, errors.New("the level's exit is missing")
				}
			}
		}
		return nil, loop.Err()
	})
	spring := engine.NewScene("Spring", func(loop *engine.Loop) (engine.Scene, error) {
		x, v = 1, 0
		loop.Recording().SetChecksum(func() uint64 { return math.Float64bits(x) ^ math.Float64bits(v)<<1 })
		loop.Recording().SetStateParts(func(dst []engine.StatePart) []engine.StatePart {
			return append(dst, engine.StatePart{Name: "Position", Sum: math.Float64bits(x)},
				engine.StatePart{Name: "Velocity", Sum: math.Float64bits(v)})
		})
		for ev := range loop.Events(engine.Group{Name: "physics", Hz: 60}, engine.Group{Name: "ai", Hz: 10}) {
			if ev.Kind != engine.Update {
				continue
			}
			v -= x * ev.DT
			if ev.Player(0).KeyDown(input.KeySpace) {
				v += 0.1
			}
			loop.Recording().AfterSystem(ev, "spring")
			x += v * ev.DT
			loop.Recording().AfterSystem(ev, "move")
			if ev.Group == 0 && ev.Tick == 90 {
				return fails, nil
			}
		}
		return nil, loop.Err()
	})
	rng := rand.New(rand.NewPCG(9, 2))
	err := engine.Run(spring, &engine.Options{Record: rec, Headless: &engine.Headless{FPS: 60},
		TickInput: engine.TickInputFunc(func(t engine.TickInfo, in *input.State) {
			in.SetKey(input.KeySpace, rng.IntN(5) == 0)
			in.CursorX, in.CursorY = float64(rng.IntN(640)), float64(rng.IntN(480))
			if t.Tick%7 == 0 {
				in.CursorX += 0.5
			}
		})})
	if err == nil || !strings.Contains(err.Error(), "the level's exit is missing") {
		tb.Fatalf("the second scene's failure: %v", err)
	}
	var buf bytes.Buffer
	if _, err := rec.WriteTo(&buf); err != nil {
		tb.Fatal(err)
	}
	return buf.Bytes()
}

// checkParsedLog parses data: an error wrapping ErrBadInputLog, or a log
// that writes back to bytes that parse to the same, and replays.
func checkParsedLog(t *testing.T, data []byte) {
	lg, err := engine.ParseInputLog(data)
	if err != nil {
		if lg != nil || !errors.Is(err, engine.ErrBadInputLog) {
			t.Fatalf("got (%v, %v), want (nil, an error wrapping ErrBadInputLog)", lg, err)
		}
		return
	}
	var first, second bytes.Buffer
	if _, err := lg.WriteTo(&first); err != nil {
		t.Fatal(err)
	}
	again, err := engine.ParseInputLog(first.Bytes())
	if err != nil {
		t.Fatalf("a parsed log wrote bytes that do not parse: %v", err)
	}
	if _, err := again.WriteTo(&second); err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(first.Bytes(), second.Bytes()) || again.Seed != lg.Seed || again.Players != lg.Players ||
		again.Scenes() != lg.Scenes() || again.Entries() != lg.Entries() {
		t.Fatalf("round trip changed the log: %d then %d bytes", first.Len(), second.Len())
	}
	if lg.Scenes() > 4 {
		return // replaying many scenes finds nothing the first four do not
	}
	loop, err := engine.NewHeadlessLoop(engine.Config{}, &engine.Headless{FPS: 60}, &engine.Options{Replay: lg})
	if d := lg.Determinism(); d != 0 && d != engine.Determinism {
		// another engine's arithmetic: refused by name, never replayed
		if err == nil || !strings.Contains(err.Error(), fmt.Sprintf("determinism version %d", d)) {
			t.Fatalf("a recording of determinism %d: got %v, want a refusal naming it", d, err)
		}
		return
	}
	if err != nil {
		t.Fatal(err)
	}
	for i := range lg.Scenes() {
		groups := lg.Scene(i).Groups
		if len(groups) == 0 {
			t.Fatalf("scene %d has no groups: recording never makes one, parsing must refuse it", i+1)
		}
		if loop.Start(groups...) != nil {
			break // a ReplayError: checked below
		}
		for renders := 0; renders < 5 && loop.Next(); {
			if loop.Event().Kind == engine.Render {
				renders++
			}
		}
	}
	// Five frames of each scene are not the scenes recorded: the replay
	// may end them early or run on (a *ReplayError), nothing else.
	var re *engine.ReplayError
	if err := loop.Err(); err != nil && !errors.As(err, &re) {
		t.Fatal(err)
	}
}

// configFields are the names a *ConfigError from NewHeadlessLoop, Start or
// SetTimeScale may give; a group's rate is "Groups[i].Hz (name)".
var configFields = []string{
	"Config.MaxDelta", "Config.MaxUpdatesPerFrame", "Config.Overrun",
	"Config.PacingTolerance", "Config.TimeScale", "TimeScale",
}

// checkConfigError fails unless err is a *ConfigError naming a real field.
func checkConfigError(t *testing.T, err error, groups int) {
	t.Helper()
	var ce *engine.ConfigError
	if !errors.As(err, &ce) || ce.Reason == "" || !strings.Contains(err.Error(), ce.Field) {
		t.Fatalf("got %v (%T), want a *ConfigError naming the field", err, err)
	}
	if slices.Contains(configFields, ce.Field) {
		return
	}
	var i int
	var field string
	if _, serr := fmt.Sscanf(ce.Field, "Groups[%d].%s", &i, &field); serr != nil || i < 0 || i >= groups ||
		!strings.HasPrefix(field, "Hz") && !(field == "Name" && i > 0) { // a name is refused when an earlier group has it
		t.Fatalf("ConfigError names %q, not a field of the configuration", ce.Field)
	}
}

// FuzzConfig gives the loop arbitrary configurations, group rates and names,
// and a time scale set while it runs. Each is either refused with a
// *ConfigError naming a real field, or accepted; an accepted one then runs up
// to 300 frames of fuzzed frame times (each within a day, either way), and
// game time must stay finite and monotone: every render at a time in
// [last, last+MaxDelta], alpha in [0,1), every tick at a later time than its
// group's last one and never after the render that follows it.
//
// The bugs it found, kept in testdata/fuzz/FuzzConfig: maxdelta-overflow,
// MaxDelta near the largest time.Duration with frames of a day at the largest
// time scale overflowed game time to a negative value (MaxDelta is now at
// most MaxDeltaLimit); clamped-overflow, two frames of hours at the largest
// time scale overflowed LoopStats.Clamped (it now saturates). And one the
// oracle had wrong: duplicate-name, two groups of one name, which the loop
// rightly refuses with Groups[1].Name.
func FuzzConfig(f *testing.F) {
	frames := binary.LittleEndian.AppendUint64(nil, uint64(16*time.Millisecond))
	frames = binary.LittleEndian.AppendUint64(frames, uint64(time.Second))
	f.Add(int64(0), int64(0), uint8(0), int64(0), false, 0.0, uint8(1), 60.0, "physics", 10.0, "ai", 0.0, uint8(0), frames)
	f.Add(int64(time.Second), int64(3), uint8(1), int64(time.Millisecond), true, 2.0, uint8(2), 144.0, "a", 7.5, "", 0.5, uint8(3), frames)
	f.Add(int64(-1), int64(-1), uint8(2), int64(-1), false, -1.0, uint8(2), -1.0, "", 0.0, "b", -1.0, uint8(1), frames)
	f.Add(int64(math.MaxInt64), int64(math.MaxInt64), uint8(1), int64(math.MaxInt64), false, float64(1<<20), uint8(2), 1e9, "fast", 1e-6, "slow", 1e300, uint8(2), frames)
	f.Add(int64(1), int64(1), uint8(0), int64(1), false, math.NaN(), uint8(1), math.Inf(1), "inf", math.NaN(), "nan", math.Inf(-1), uint8(1), frames)
	f.Fuzz(func(t *testing.T, maxDelta, maxUpdates int64, overrun uint8, pacingTol int64, noPacing bool, timeScale float64,
		nGroups uint8, hz0 float64, name0 string, hz1 float64, name1 string, setScale float64, setAt uint8, deltas []byte) {
		if len(deltas) > 8*300 {
			deltas = deltas[:8*300]
		}
		cfg := engine.Config{
			MaxDelta: time.Duration(maxDelta), MaxUpdatesPerFrame: int(maxUpdates), Overrun: engine.Overrun(overrun),
			PacingTolerance: time.Duration(pacingTol), NoPacing: noPacing, TimeScale: timeScale,
		}
		groups := []engine.Group{{Name: name0, Hz: hz0}, {Name: name1, Hz: hz1}}[:nGroups%3]
		times := []time.Duration{0, 0}
		for i := 0; i+8 <= len(deltas); i += 8 {
			d := int64(binary.LittleEndian.Uint64(deltas[i:])) % int64(24*time.Hour)
			times = append(times, times[len(times)-1]+time.Duration(d))
		}
		// A hang is a crash, so that the fuzzer keeps the input.
		watchdog := time.AfterFunc(10*time.Second, func() {
			panic(fmt.Sprintf("loop hung: config %+v, groups %+v, %d frames", cfg, groups, len(times)-1))
		})
		defer watchdog.Stop()
		h := engine.Headless{FrameTime: func(n int64) time.Duration { return times[n] }, Frames: int64(len(times) - 1)}
		loop, err := engine.NewHeadlessLoop(cfg, &h, nil)
		if err != nil {
			checkConfigError(t, err, 0)
			return
		}
		if err := loop.Start(groups...); err != nil {
			checkConfigError(t, err, len(groups))
			if !errors.Is(loop.Err(), err) || loop.Next() {
				t.Fatalf("a refused Start left the loop running (Err %v)", loop.Err())
			}
			return
		}
		if len(groups) == 2 && groups[0].Name == groups[1].Name {
			t.Fatalf("two groups named %q accepted", groups[0].Name)
		}
		c := loop.Config()
		if c.MaxDelta <= 0 || c.MaxUpdatesPerFrame < 1 || c.PacingTolerance <= 0 ||
			!(c.TimeScale > 0) || math.IsInf(c.TimeScale, 0) {
			t.Fatalf("accepted config with defaults filled in is %+v", c)
		}
		nGroupsRun := max(len(groups), 1)
		var last time.Duration // game time of the last render
		lastTick := make([]time.Duration, nGroupsRun)
		inFrame := make([]int, nGroupsRun)
		events := 0
		for loop.Next() {
			if events++; events > 100_000 {
				loop.Stop() // a huge MaxUpdatesPerFrame at a fast rate: ticks enough
			}
			ev := loop.Event()
			switch ev.Kind {
			case engine.Input:
				clear(inFrame)
				if ev.Time != last {
					t.Fatalf("frame %d: input at game time %v, the last frame drew %v", ev.Frame, ev.Time, last)
				}
				if ev.Frame == int64(setAt) {
					if err := loop.SetTimeScale(setScale); err != nil {
						checkConfigError(t, err, 0)
					}
				}
			case engine.Update:
				inFrame[ev.Group]++
				if inFrame[ev.Group] > c.MaxUpdatesPerFrame || ev.Time <= lastTick[ev.Group] && ev.Tick > 1 ||
					ev.Time < 0 || !(ev.DT > 0) || math.IsInf(ev.DT, 0) {
					t.Fatalf("frame %d: group %d tick %d at %v after %v, dt %v, %d this frame",
						ev.Frame, ev.Group, ev.Tick, ev.Time, lastTick[ev.Group], ev.DT, inFrame[ev.Group])
				}
				lastTick[ev.Group] = ev.Time
			case engine.Render:
				if ev.Time < last || ev.Time-last > c.MaxDelta || !(ev.Alpha >= 0 && ev.Alpha < 1) || ev.ExtDT < 0 {
					t.Fatalf("frame %d: render at %v (was %v), alpha %v, ExtDT %v", ev.Frame, ev.Time, last, ev.Alpha, ev.ExtDT)
				}
				for g, at := range lastTick {
					if at > ev.Time {
						t.Fatalf("frame %d: group %d ticked at %v, after the render at %v", ev.Frame, g, at, ev.Time)
					}
				}
				last = ev.Time
			}
		}
		if err := loop.Err(); err != nil {
			t.Fatal(err)
		}
		if s := loop.Stats(); s.GameTime != last && events <= 100_000 || s.Dropped < 0 || s.Clamped < 0 || s.Owed < 0 {
			t.Fatalf("stats %+v, last render at %v", s, last)
		}
	})
}
