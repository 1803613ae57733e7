// cp's debug build (-tags debug) allocates in its own checks every step.
//go:build !debug

package scenes

import (
	"math"
	"runtime"
	"testing"

	"github.com/fixedstep/fixedstep/engine"
	"github.com/fixedstep/fixedstep/engine/input"
)

// lateSession is a session of two players on one machine that allocates
// nothing: the local player is player 0; player 1's input, a function of
// the tick, arrives lag frames late, predicted until then (held), so
// that about every tick where it changes is rolled back.
type lateSession struct {
	lag, frame, local int64
	mine              [1024]input.State
	used              [1024][2]input.State
	usedAt            [1024]int64
	predicted         [1024]bool
}

func (s *lateSession) remote(t int64) input.State {
	var in input.State
	in.SetGamepadAxis(0, input.AxisLeftStickHorizontal, float64((t/9)%5)/4-0.5)
	in.SetKey(input.KeySpace, (t/23)%2 == 0)
	if t > 1 {
		prev := s.remote(t - 1)
		prev.ClearEdges()
		in.DeriveEdges(&prev)
	}
	return in
}

func (s *lateSession) known(t int64) bool             { return t <= s.frame-s.lag }
func (s *lateSession) Players() int                   { return 2 }
func (s *lateSession) Poll() error                    { s.frame++; return nil }
func (s *lateSession) Hold() bool                     { return false }
func (s *lateSession) Ready(t int64) bool             { return t <= s.Confirmed()+8 }
func (s *lateSession) Local(t int64, in *input.State) { s.mine[(t+2)%1024], s.local = *in, t }
func (s *lateSession) Confirmed() int64               { return min(s.local+2, s.frame-s.lag) }
func (s *lateSession) Checksum(int64, uint64)         {}
func (s *lateSession) EndFrame() error                { return nil }

// lateSession is an engine.Reporter, as netplay's sessions are, though it
// finds no desync: the loop keeps the state before every tick, as it does
// for theirs.
func (s *lateSession) Desync() (int64, bool)       { return 0, false }
func (s *lateSession) Report(*engine.DesyncReport) {}
func (s *lateSession) Compared() int64             { return math.MaxInt64 }

func (s *lateSession) Inputs(t int64, players []input.State) {
	i := t % 1024
	players[0] = s.mine[i]
	if t <= 2 {
		players[0] = input.State{}
	}
	s.predicted[i] = !s.known(t)
	if s.predicted[i] {
		players[1] = s.remote(max(s.frame-s.lag, 1))
		players[1].ClearEdges()
	} else {
		players[1] = s.remote(t)
	}
	s.used[i][0], s.used[i][1], s.usedAt[i] = players[0], players[1], t
}

func (s *lateSession) Discard(t int64) {
	for u := t + 1; u <= t+64; u++ {
		if i := u % 1024; s.usedAt[i] == u {
			s.usedAt[i] = 0
		}
	}
}

func (s *lateSession) Rollback() (int64, bool) {
	for t := max(s.frame-s.lag-64, 1); t <= s.frame-s.lag; t++ {
		if i := t % 1024; s.usedAt[i] == t && s.predicted[i] {
			if want := s.remote(t); !s.used[i][1].Same(&want) {
				return t, true
			}
		}
	}
	return 0, false
}

// A session's ticks allocate nothing: the two players' Arena, recorded,
// with player 1's input 6 frames late (rolled back over and over, some
// 30 times here), allocates on fewer than RollbackSlots ticks from tick 200
// to 500 more than the same run with every input in time: only where the
// state reaches a size no slot of the ring has held yet. (No other
// goroutine runs: the session is on this machine alone.)
func TestSessionAllocatesNothingPerTick(t *testing.T) {
	base, late := sessionTickAllocs(t, 0), sessionTickAllocs(t, 6)
	excess := map[int64][2]uint64{}
	for tick, n := range late {
		if n > base[tick] {
			excess[tick] = [2]uint64{n, base[tick]}
		}
	}
	if len(excess) >= engine.RollbackSlots {
		t.Errorf("%d of 300 ticks allocated more when rolled back (tick: [late, on time]): %v", len(excess), excess)
	}
	t.Logf("ticks that allocated more when rolled back (a slot growing): %v", excess)
}

// sessionTickAllocs plays 500 ticks of the two players' Arena with
// player 1's input lag frames late, recorded, and returns the allocations
// made around each tick from 200 on (every ring slot has been used by
// then).
func sessionTickAllocs(t *testing.T, lag int64) map[int64]uint64 {
	opts := &Options{Seed: 5, Autopilot: true, Undying: true, Seconds: 60}
	var ms runtime.MemStats
	var last uint64
	allocs := map[int64]uint64{}
	var stats engine.SessionStats
	hook := func(loop *engine.Loop, ev engine.Event) {
		if ev.Kind != engine.Update || ev.Group != 0 || loop.Session().Resimulating() {
			return
		}
		runtime.ReadMemStats(&ms)
		if n := ms.Mallocs - last; ev.Tick > 200 && n > 0 {
			allocs[ev.Tick] = n
		}
		last = ms.Mallocs
		if ev.Tick == 500 {
			loop.Stop()
		}
	}
	err := engine.Run(&Arena{opts: opts}, &engine.Options{Headless: &engine.Headless{}, OnEvent: []engine.EventHook{hook},
		Record: &engine.InputLog{}, Session: &lateSession{lag: lag},
		OnFinish: []engine.FinishHook{func(l *engine.Loop) { stats = l.Session().Stats() }}})
	if err != nil {
		t.Fatal(err)
	}
	if (stats.Rollbacks > 0) != (lag > 0) {
		t.Fatalf("lag %d: %+v", lag, stats)
	}
	return allocs
}
