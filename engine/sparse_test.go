package engine_test

import (
	"strings"
	"testing"
	"time"

	"github.com/fixedstep/fixedstep/engine"
	"github.com/fixedstep/fixedstep/engine/input"
)

// With Options.SparseSaving, a rollback whose tick's state is not kept
// goes back to the last state kept before it: while the others' input
// holds still, predictions prove right for many ticks, the confirmed tick
// moves on with no rollback, and the states kept are those SparseInterval
// ticks apart. The run stays bit for bit the run with every input on
// time, for a Reporter too (which keeps states of confirmed ticks as
// well), and it keeps fewer states than the loop does without it.
func TestSparseSavingGoesBackFurther(t *testing.T) {
	still := func(p int, t int64) input.State { // a change every 40 ticks
		var in input.State
		in.SetKey(input.KeySpace, (t/40+int64(p))%2 == 0)
		in.SetGamepadAxis(0, input.AxisLeftStickHorizontal, float64((t/40)%5)/4-0.5)
		return in
	}
	run := func(s engine.Session, sparse bool) (*duoRig, engine.SessionStats) {
		t.Helper()
		r := &duoRig{}
		var stats engine.SessionStats
		opts := &engine.Options{Headless: &engine.Headless{FPS: 60}, Session: s, TickInput: keys, SparseSaving: sparse,
			StopAt: 8 * time.Second, OnFinish: []engine.FinishHook{func(l *engine.Loop) { stats = l.Session().Stats() }}}
		if err := engine.Run(r.first(), opts); err != nil {
			t.Fatal(err)
		}
		return r, stats
	}
	session := func(lag int64) *lagSession {
		s := newLagSession(2, 2, lag)
		s.remote = still
		s.maxPred = 12
		return s
	}
	onTime := session(0)
	want, _ := run(onTime, false)
	for _, reports := range []bool{false, true} {
		var every *duoRig
		var everyStats engine.SessionStats
		for _, sparse := range []bool{false, true} {
			late := session(10)
			var s engine.Session = late
			if reports {
				s = reporting{late}
			}
			got, stats := run(s, sparse)
			t.Logf("a Reporter %v, sparse %v: %+v; %d states kept in %d ticks", reports, sparse, stats, got.saves, got.fresh)
			if got.final != want.final || got.ended != want.ended || len(late.stale) != 0 {
				t.Fatalf("a Reporter %v, sparse %v: ended %v with %x (checksums changed once final: %v); on time %v with %x",
					reports, sparse, got.ended, got.final, late.stale, want.ended, want.final)
			}
			for tick, sum := range onTime.sums {
				if late.sums[tick] != sum {
					t.Fatalf("a Reporter %v, sparse %v: after tick %d the state is %x, on time %x", reports, sparse, tick, late.sums[tick], sum)
				}
			}
			if !sparse {
				every, everyStats = got, stats
				continue
			}
			// Back further than the tick that proved wrong, at most
			// SparseInterval-1 ticks each time.
			if stats.Rollbacks != everyStats.Rollbacks || got.resim <= every.resim ||
				got.resim > every.resim+stats.Rollbacks*(engine.SparseInterval-1) || got.saves*2 > every.saves {
				t.Fatalf("a Reporter %v, sparse: %d rollbacks simulated %d ticks again, %d states kept; keeping every state: %d, %d and %d",
					reports, stats.Rollbacks, got.resim, got.saves, everyStats.Rollbacks, every.resim, every.saves)
			}
		}
	}
}

// SparseSaving is for a session's run.
func TestSparseSavingWithoutASession(t *testing.T) {
	err := engine.Run(engine.NewScene("S", func(loop *engine.Loop) (engine.Scene, error) { return nil, nil }),
		&engine.Options{SparseSaving: true})
	if err == nil || !strings.Contains(err.Error(), "SparseSaving without Options.Session") {
		t.Fatalf("Run with SparseSaving and no Session: %v, want an error that says so", err)
	}
}
