package engine_test

import (
	"bytes"
	"fmt"
	"testing"
	"time"

	"github.com/fixedstep/fixedstep/engine"
	"github.com/fixedstep/fixedstep/engine/input"
)

// reparsed returns the run checksum of lg written out and read back: the
// one a file's replay and its recording compute from the checksums stored.
func reparsed(t *testing.T, lg *engine.InputLog) uint64 {
	t.Helper()
	var buf bytes.Buffer
	if _, err := lg.WriteTo(&buf); err != nil {
		t.Fatal(err)
	}
	back, err := engine.ParseInputLog(buf.Bytes())
	if err != nil {
		t.Fatal(err)
	}
	sum, _ := back.RunChecksum()
	return sum
}

// The run checksum sees every tick: two runs of a scene whose state parts
// for a few ticks and comes back (a key held on ticks 40 to 44 in one of
// them only) end in the same state, their last checksums equal, and print
// different run checksums. The same run twice prints the same one, and the
// file a run is written to gives it back.
func TestRunChecksumSeesEveryTick(t *testing.T) {
	run := func(press bool) *engine.InputLog {
		scene := engine.NewScene("Play", func(loop *engine.Loop) (engine.Scene, error) {
			var x uint64
			loop.Recording().SetChecksum(func() uint64 { return x })
			for ev := range loop.Events() {
				if ev.Kind != engine.Update {
					continue
				}
				if ev.Input.KeyDown(input.KeySpace) {
					x++
				} else {
					x = 0 // back where the other run is
				}
				if ev.Tick == 100 {
					loop.Recording().Checkpoint()
					return nil, nil
				}
			}
			return nil, loop.Err()
		})
		key := engine.TickInputFunc(func(ti engine.TickInfo, in *input.State) {
			in.SetKey(input.KeySpace, press && ti.Tick >= 40 && ti.Tick < 45)
		})
		lg := &engine.InputLog{}
		if err := engine.Run(scene, &engine.Options{Record: lg, TickInput: key}); err != nil {
			t.Fatal(err)
		}
		return lg
	}
	plain, parted := run(false), run(true)
	if a, b := plain.Scene(0), parted.Scene(0); a.Checksum != b.Checksum || a.ChecksumTick != 100 || a.Checks != 100 {
		t.Fatalf("the runs end apart (%x after tick %d, %x after %d): the test shows nothing", a.Checksum, a.ChecksumTick, b.Checksum, b.ChecksumTick)
	}
	sa, okA := plain.RunChecksum()
	sb, okB := parted.RunChecksum()
	if !okA || !okB || sa == sb {
		t.Fatalf("run checksums %016x (%v) and %016x (%v): want two, different", sa, okA, sb, okB)
	}
	if again, _ := run(false).RunChecksum(); again != sa {
		t.Fatalf("the same run twice: %016x, then %016x", sa, again)
	}
	if file := reparsed(t, parted); file != sb {
		t.Fatalf("the run's file gives %016x, the run %016x", file, sb)
	}
}

// statelessKeys is a tick input that is a function of the tick alone: a run
// that goes on from a step back gets, tick for tick, what the run that did
// not step back got.
var statelessKeys = engine.TickInputFunc(func(ti engine.TickInfo, in *input.State) {
	in.SetKey(input.KeySpace, ti.Tick%7 < 3)
	in.SetKey(input.KeyArrowRight, ti.Tick%23 == 5)
	in.SetGamepadAxis(0, input.AxisLeftStickHorizontal, float64(ti.Tick%11)/10-0.5)
})

// A rollback cuts the recording back and records the ticks after it anew;
// the run checksum goes back with it: a run that steps back (from a
// keyframe, or by re-running the run) and goes on with the input the run
// that did not would have had ends with that run's checksum, which its
// file gives back too; and so does a session's run whose predictions were
// rolled back, and the run where every input came in time.
func TestRunChecksumFollowsTheRecordingBack(t *testing.T) {
	const end = 900
	stepBack := func(keyframes int, back int64) *engine.InputLog {
		r := &keyframeRig{pauseAt: 700, back: back, end: end, first: map[int64]uint64{}}
		if back == 0 {
			r.pauseAt = -1
		}
		rec := &engine.InputLog{}
		opts := &engine.Options{Headless: &engine.Headless{FPS: 60}, Record: rec, Keyframes: keyframes, TickInput: statelessKeys,
			Restart: func() (engine.Scene, error) { return r.scene(), nil }}
		if err := engine.Run(r.scene(), opts); err != nil || r.err != nil {
			t.Fatalf("keyframes %d, back %d: %v, %v", keyframes, back, err, r.err)
		}
		if back > 0 && r.pausedAt != 700-back {
			t.Fatalf("keyframes %d: paused at %d after the step back", keyframes, r.pausedAt)
		}
		return rec
	}
	want, _ := stepBack(0, 0).RunChecksum()
	for _, c := range []struct {
		name      string
		keyframes int
	}{{"from a keyframe", 60}, {"re-running the run", 0}} {
		rec := stepBack(c.keyframes, 75)
		if got, _ := rec.RunChecksum(); got != want {
			t.Errorf("a step back %s: run checksum %016x, the run that did not step back %016x", c.name, got, want)
		}
		if file := reparsed(t, rec); file != want {
			t.Errorf("a step back %s: its file gives %016x, want %016x", c.name, file, want)
		}
	}

	session := func(lag int64) (uint64, engine.SessionStats) {
		rec := &engine.InputLog{}
		var stats engine.SessionStats
		r := &duoRig{}
		opts := &engine.Options{Headless: &engine.Headless{FPS: 60}, Session: newLagSession(2, 2, lag), TickInput: keys,
			Record: rec, StopAt: 8 * time.Second, OnFinish: []engine.FinishHook{func(l *engine.Loop) { stats = l.Session().Stats() }}}
		if err := engine.Run(r.first(), opts); err != nil {
			t.Fatal(err)
		}
		sum, _ := rec.RunChecksum()
		if file := reparsed(t, rec); file != sum {
			t.Fatalf("lag %d: the file gives %016x, the run %016x", lag, file, sum)
		}
		return sum, stats
	}
	onTime, _ := session(0)
	late, stats := session(6)
	if stats.Rollbacks == 0 || late != onTime {
		t.Fatalf("%d rollbacks: run checksum %016x, on time %016x", stats.Rollbacks, late, onTime)
	}
}

// The run checksum chains every checksum: a log with more checksums, or
// the same ones in other scenes, has another; a log with none has none.
func TestRunChecksumChainsNames(t *testing.T) {
	run := func(names ...string) uint64 {
		var scenes []engine.Scene
		for i := len(names) - 1; i >= 0; i-- {
			var next engine.Scene
			if len(scenes) > 0 {
				next = scenes[len(scenes)-1]
			}
			scenes = append(scenes, engine.NewScene(names[i], func(loop *engine.Loop) (engine.Scene, error) {
				loop.Recording().SetChecksum(func() uint64 { return 1 })
				for ev := range loop.Events() {
					if ev.Kind == engine.Update && ev.Tick == 5 {
						return next, nil
					}
				}
				return nil, loop.Err()
			}))
		}
		lg := &engine.InputLog{}
		if err := engine.Run(scenes[len(scenes)-1], &engine.Options{Record: lg}); err != nil {
			t.Fatal(err)
		}
		sum, ok := lg.RunChecksum()
		if !ok {
			t.Fatal("no run checksum")
		}
		return sum
	}
	seen := map[uint64]string{}
	for _, names := range [][]string{{"A"}, {"B"}, {"A", "B"}, {"AB"}, {"B", "A"}, {"A", "A"}} {
		sum := run(names...)
		if other, ok := seen[sum]; ok {
			t.Fatalf("scenes %v and %s: the same run checksum %016x", names, other, sum)
		}
		seen[sum] = fmt.Sprint(names)
	}
	if _, ok := (&engine.InputLog{}).RunChecksum(); ok {
		t.Fatal("a log with no scene has a run checksum")
	}
}
