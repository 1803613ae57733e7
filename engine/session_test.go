package engine_test

import (
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
	"math"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/fixedstep/fixedstep/engine"
	"github.com/fixedstep/fixedstep/engine/input"
)

// lagSession is a session of two or more players where the local player
// is player 0 and the others' input, a function of the tick, arrives lag
// frames late: until then the session predicts it (the last input known,
// held). It finds wrong predictions as engine/netplay's sessions do, from
// what each tick last ran with.
type lagSession struct {
	players        int
	delay, lag     int64   // the local input's delay, in ticks; the others', in frames
	later          int64   // frames more of lag for players 3 and 4
	stale          []int64 // ticks whose final checksum the loop gave again, changed
	wasFinal       int64   // the tick of the last Inputs, if it was final before it
	maxPred        int64
	remote         func(p int, t int64) input.State // held state of player p at tick t
	frame          int64
	lastLocal      int64
	local          map[int64]input.State
	used           map[int64][input.MaxPlayers]input.State
	predicted      map[int64][input.MaxPlayers]bool
	sums           map[int64]uint64
	holdEvery      int64 // every holdEvery-th frame holds game time (0: none)
	localEdgesSeen int
}

func newLagSession(players int, delay, lag int64) *lagSession {
	return &lagSession{players: players, delay: delay, lag: lag, maxPred: 8,
		remote: func(p int, t int64) input.State {
			var in input.State
			in.SetKey(input.KeySpace, (t/int64(7+p))%3 == 0)
			in.SetKey(input.KeyArrowRight, (t+int64(p))%11 < 2)
			in.SetGamepadAxis(0, input.AxisLeftStickHorizontal, float64((t*int64(p+3))%17)/16-0.5)
			return in
		},
		local: map[int64]input.State{}, used: map[int64][input.MaxPlayers]input.State{},
		predicted: map[int64][input.MaxPlayers]bool{}, sums: map[int64]uint64{}}
}

// actual is player p's input at tick t, its edges from tick t-1's.
func (s *lagSession) actual(p int, t int64) input.State {
	in, prev := s.remote(p, t), s.remote(p, t-1)
	if t <= 1 {
		prev = input.State{}
	}
	in.DeriveEdges(&prev)
	return in
}

// lagOf is player p's lag, in frames.
func (s *lagSession) lagOf(p int) int64 {
	if p >= 2 {
		return s.lag + s.later
	}
	return s.lag
}

func (s *lagSession) known(p int, t int64) bool { return t <= s.frame-s.lagOf(p) }

func (s *lagSession) Players() int { return s.players }
func (s *lagSession) Poll() error  { s.frame++; return nil }
func (s *lagSession) Hold() bool   { return s.holdEvery > 0 && s.frame%s.holdEvery == 0 }
func (s *lagSession) Ready(t int64) bool {
	return t <= s.Confirmed()+s.maxPred
}

func (s *lagSession) Local(t int64, in *input.State) {
	s.local[t+s.delay] = *in
	s.lastLocal = t
	if in.KeyPressed(input.KeySpace) {
		s.localEdgesSeen++
	}
}

func (s *lagSession) Inputs(t int64, players []input.State) {
	s.wasFinal = 0
	if _, ran := s.used[t]; ran && s.final(t) {
		s.wasFinal = t
	}
	var used [input.MaxPlayers]input.State
	var pred [input.MaxPlayers]bool
	for p := range players {
		switch {
		case p == 0:
			players[p] = s.local[t] // nothing before the delay's first ticks
		case s.known(p, t):
			players[p] = s.actual(p, t)
		default:
			last := min(t-1, s.frame-s.lagOf(p))
			players[p] = input.State{}
			if last >= 1 {
				players[p] = s.actual(p, last)
				players[p].ClearEdges()
			}
			pred[p] = true
		}
		used[p] = players[p]
	}
	s.used[t], s.predicted[t] = used, pred
}

func (s *lagSession) Rollback() (int64, bool) {
	first := int64(-1)
	for t, pred := range s.predicted {
		if first >= 0 && t >= first {
			continue
		}
		used := s.used[t]
		for p := 1; p < s.players; p++ {
			if want := s.actual(p, t); pred[p] && s.known(p, t) && !used[p].Same(&want) {
				first = t
				break
			}
		}
	}
	return first, first >= 0
}

func (s *lagSession) Confirmed() int64 {
	return min(s.lastLocal+s.delay, s.frame-s.lag-max(s.later, 0)*min(int64(s.players-2), 1))
}

// Checksum keeps the checksum after tick t, and notes a checksum that
// changes once final: the session may have sent it to the others.
func (s *lagSession) Checksum(t int64, sum uint64) {
	if was, ok := s.sums[t]; ok && was != sum && s.wasFinal == t {
		s.stale = append(s.stale, t)
	}
	s.sums[t] = sum
}

// final reports whether tick t is final: every input up to it confirmed,
// and none it ran with wrong.
func (s *lagSession) final(t int64) bool {
	wrong, ok := s.Rollback()
	return t <= s.Confirmed() && (!ok || wrong > t)
}

// Discard forgets what the ticks after t ran with, and their checksums.
func (s *lagSession) Discard(t int64) {
	for u := range s.used {
		if u > t {
			delete(s.used, u)
			delete(s.predicted, u)
			delete(s.sums, u)
		}
	}
}
func (s *lagSession) EndFrame() error { return nil }

// duo is a simulation of one steer per player, each driven by its
// player's input, and counts of the presses the second group's ticks saw.
type duo struct {
	s          [input.MaxPlayers]steer
	slowPushes int
	ended      bool
}

func (d *duo) update(ev engine.Event) {
	for p := range ev.Players {
		e := ev
		e.Input = ev.Player(p)
		d.s[p].update(e)
		if ev.Group == 1 && ev.Player(p).KeyPressed(input.KeySpace) {
			d.slowPushes += p + 1
		}
	}
}

func (d *duo) checksum() uint64 {
	h := uint64(d.slowPushes)
	for i := range d.s {
		h = h*1099511628211 ^ d.s[i].checksum()
	}
	if d.ended {
		h++
	}
	return h
}

// duoState is a duo as a SceneState.
type duoState struct {
	d        *duo
	slots    map[int]duo
	saves    *int // the saves in a session's slots (past KeyframeSlots)
	resaves  *int // saves into the slot last restored, with no save between
	restored int  // the slot last restored, until the next save; -1: none
}

func (k *duoState) SaveState(slot int) error {
	k.slots[slot] = *k.d
	if slot >= engine.KeyframeSlots {
		*k.saves++
	}
	if slot == k.restored {
		*k.resaves++
	}
	k.restored = -1
	return nil
}

func (k *duoState) RestoreState(slot int) error {
	*k.d, k.restored = k.slots[slot], slot
	return nil
}

// duoRig runs two scenes of a duo (60 and 10 Hz, then 50 Hz): the first
// ends after tick 300 of its first group, once that tick is final.
type duoRig struct {
	resim, fresh int64 // first-group ticks delivered again, and the first time
	final        [2]uint64
	ended        [2]int64 // the tick each scene ended on
	saves        int      // states kept for a rollback
	resaves      int      // states kept again right after they were put back
}

func (r *duoRig) scene(i int, groups []engine.Group, next engine.Scene) engine.Scene {
	return engine.NewScene(fmt.Sprintf("S%d", i+1), func(loop *engine.Loop) (engine.Scene, error) {
		d := &duo{}
		loop.Recording().SetChecksum(d.checksum)
		loop.Recording().SetSceneState(&duoState{d: d, slots: map[int]duo{}, saves: &r.saves, resaves: &r.resaves, restored: -1})
		for ev := range loop.Events(groups...) {
			if ev.Kind == engine.Update {
				d.update(ev)
				if ev.Group == 0 && loop.Session().Resimulating() {
					r.resim++
				} else if ev.Group == 0 {
					r.fresh++
				}
				if i == 0 && ev.Group == 0 && ev.Tick == 300 {
					d.ended = true
				}
			}
			r.final[i] = d.checksum()
			if d.ended && loop.Session().Settle() {
				r.ended[i] = loop.Ticks(0)
				loop.Recording().Checkpoint()
				return next, nil
			}
		}
		return nil, loop.Err()
	})
}

func (r *duoRig) first() engine.Scene {
	return r.scene(0, []engine.Group{{Name: "physics", Hz: 60}, {Name: "slow", Hz: 10}},
		r.scene(1, []engine.Group{{Name: "physics", Hz: 50}}, nil))
}

// keys is the local player: keys and a stick by tick.
var keys = engine.TickInputFunc(func(t engine.TickInfo, in *input.State) {
	in.SetKey(input.KeySpace, t.Tick%13 < 4)
	in.SetKey(input.KeyArrowLeft, t.Tick%29 == 3)
	in.SetGamepadAxis(0, input.AxisLeftStickHorizontal, float64(t.Tick%9)/8-0.5)
})

// A session's rollbacks leave the run bit for bit the run where every
// player's input was there in time: the same state checksum after every
// tick (the last simulation's), the same end, and a recording that
// replays alone, at another frame rate, to the same checksums, every
// player's input in it. The scene ends on the tick it decided on, once
// that tick is final, and the run stops at StopAt once final too.
//
// With Options.SparseSaving too, keeping fewer states and simulating more
// ticks again.
func TestSessionRollbackIsExact(t *testing.T) {
	run := func(s *lagSession, sparse bool, rec *engine.InputLog) (*duoRig, engine.SessionStats) {
		t.Helper()
		r := &duoRig{}
		var stats engine.SessionStats
		opts := &engine.Options{Headless: &engine.Headless{FPS: 60}, Session: s, TickInput: keys, Record: rec, SparseSaving: sparse,
			StopAt: 8 * time.Second, OnFinish: []engine.FinishHook{func(l *engine.Loop) { stats = l.Session().Stats() }}}
		if err := engine.Run(r.first(), opts); err != nil {
			var se *engine.SceneError
			if errors.As(err, &se) && se.Panic != nil {
				t.Fatalf("%v\n%s", err, se.Stack)
			}
			t.Fatal(err)
		}
		return r, stats
	}
	for _, players := range []int{2, 4} {
		onTime := newLagSession(players, 2, 0)
		want, wantStats := run(onTime, false, &engine.InputLog{})
		if wantStats.Rollbacks != 0 || want.resim != 0 {
			t.Fatalf("%d players, nothing late: %+v, %d ticks simulated again", players, wantStats, want.resim)
		}
		var every *duoRig // the run that keeps every state
		for _, c := range []struct {
			lag    int64
			sparse bool
		}{{3, false}, {3, true}, {6, false}, {6, true}, {12, false}, {12, true}} { // 12: further than it predicts, so it waits
			lag := c.lag
			late := newLagSession(players, 2, lag)
			late.holdEvery = 37
			rec := &engine.InputLog{}
			path := filepath.Join(t.TempDir(), "run.input")
			if lag == 6 { // written to a file as it runs: only final ticks reach it
				rec.Players = players
				if err := rec.Create(path); err != nil {
					t.Fatal(err)
				}
			}
			got, stats := run(late, c.sparse, rec)
			t.Logf("%d players, lag %d, sparse %v: %+v; %d states kept in %d ticks; ended %v", players, lag, c.sparse, stats, got.saves, got.fresh, got.ended)
			if !c.sparse {
				every = got
			} else if got.saves >= every.saves || got.resim < every.resim || got.resaves != 0 || len(late.stale) != 0 {
				t.Fatalf("%d players, lag %d, sparse: %d states kept (%d again as put back), %d ticks simulated again (checksums changed once final: %v); "+
					"keeping every state: %d and %d", players, lag, got.saves, got.resaves, got.resim, late.stale, every.saves, every.resim)
			}
			if lag == 6 {
				if err := rec.Close(); err != nil {
					t.Fatal(err)
				}
				var err error
				if rec, err = engine.LoadInputLog(path); err != nil {
					t.Fatal(err)
				}
			}
			if stats.Rollbacks == 0 || got.resim != stats.Resimulated || got.resim == 0 || stats.Held == 0 || (stats.Waited > 0) != (lag > late.maxPred) {
				t.Fatalf("%d players, lag %d: %+v, %d ticks simulated again", players, lag, stats, got.resim)
			}
			if got.final != want.final || got.ended != want.ended || got.ended[0] != 300 {
				t.Fatalf("%d players, lag %d: ended %v with %x; on time: %v with %x", players, lag, got.ended, got.final, want.ended, want.final)
			}
			for tick, sum := range onTime.sums {
				if late.sums[tick] != sum {
					t.Fatalf("%d players, lag %d: after tick %d the state is %x, on time %x", players, lag, tick, late.sums[tick], sum)
				}
			}
			if len(late.sums) != len(onTime.sums) {
				t.Fatalf("%d players, lag %d: %d ticks, on time %d", players, lag, len(late.sums), len(onTime.sums))
			}
			if rec.Players != players {
				t.Fatalf("the recording holds %d players, want %d", rec.Players, players)
			}
			again := &duoRig{}
			if err := engine.Run(again.first(), &engine.Options{Headless: &engine.Headless{FPS: 37}, Replay: rec}); err != nil {
				t.Fatalf("%d players, lag %d: replaying the run: %v", players, lag, err)
			}
			if again.final != want.final || !rec.Replayed().Finished {
				t.Fatalf("%d players, lag %d: the replay ended with %x, the run with %x; %+v", players, lag, again.final, want.final, rec.Replayed())
			}
		}
	}
}

// reporting is a lagSession that makes desync reports (an engine.Reporter)
// and finds no desync.
type reporting struct{ *lagSession }

func (reporting) Desync() (int64, bool)       { return 0, false }
func (reporting) Report(*engine.DesyncReport) {}
func (reporting) Compared() int64             { return math.MaxInt64 }

// A tick whose every input is confirmed as it runs is never rolled back
// to: the loop keeps no state before it. With the others' input late it
// keeps the state before each tick run with a prediction; for a Reporter
// (whose desync report may go back to any tick), before every tick but
// the one a rollback just put the state back before.
func TestConfirmedTicksKeepNoState(t *testing.T) {
	run := func(s engine.Session) (*duoRig, engine.SessionStats) {
		t.Helper()
		r := &duoRig{}
		var stats engine.SessionStats
		opts := &engine.Options{Headless: &engine.Headless{FPS: 60}, Session: s, TickInput: keys,
			StopAt: 3 * time.Second, OnFinish: []engine.FinishHook{func(l *engine.Loop) { stats = l.Session().Stats() }}}
		if err := engine.Run(r.first(), opts); err != nil {
			t.Fatal(err)
		}
		return r, stats
	}
	onTime, _ := run(newLagSession(2, 2, 0))
	late, stats := run(newLagSession(2, 2, 6))
	reported, _ := run(reporting{newLagSession(2, 2, 0)})
	reportedLate, reportedStats := run(reporting{newLagSession(2, 2, 6)})
	t.Logf("states kept: %d on time, %d with the others 6 frames late (%+v), %d for a Reporter, %d for a Reporter late (%+v); %d ticks",
		onTime.saves, late.saves, stats, reported.saves, reportedLate.saves, reportedStats, onTime.fresh)
	if onTime.saves != 0 || onTime.fresh < 170 {
		t.Errorf("every input on time: %d states kept in %d ticks, want none", onTime.saves, onTime.fresh)
	}
	if late.saves < int(late.fresh) || stats.Rollbacks == 0 || late.final != onTime.final {
		t.Errorf("the others late: %d states kept in %d ticks and %d simulated again; ended with %x, on time %x",
			late.saves, late.fresh, late.resim, late.final, onTime.final)
	}
	if reported.saves != int(reported.fresh) {
		t.Errorf("a Reporter: %d states kept in %d ticks, want one a tick", reported.saves, reported.fresh)
	}
	// A rollback to a tick finds the state before it in its slot: it is
	// not kept again as the tick is simulated again.
	if want := reportedLate.fresh + reportedLate.resim - reportedStats.Rollbacks; reportedStats.Rollbacks == 0 ||
		reportedLate.resaves != 0 || int64(reportedLate.saves) != want || reportedLate.final != onTime.final {
		t.Errorf("a Reporter, the others late: %d states kept (%d again as they were put back) in %d ticks, %d simulated again by %d rollbacks; want %d; ended with %x, on time %x",
			reportedLate.saves, reportedLate.resaves, reportedLate.fresh, reportedLate.resim, reportedStats.Rollbacks, want, reportedLate.final, onTime.final)
	}
}

// feed is a session of one player whose every input is a server's: its
// ticks arrive ahead of the loop (received of them at the start, one more
// each frame), as a client of a game server joining a match under way is
// sent the ticks so far.
type feed struct {
	received, simulated int64
}

func (s *feed) Players() int                          { return 1 }
func (s *feed) Poll() error                           { s.received++; return nil }
func (s *feed) Hold() bool                            { return false }
func (s *feed) Ready(t int64) bool                    { return t <= s.received }
func (s *feed) Local(int64, *input.State)             {}
func (s *feed) Inputs(t int64, players []input.State) { s.simulated = max(s.simulated, t) }
func (s *feed) Rollback() (int64, bool)               { return 0, false }
func (s *feed) Discard(int64)                         {}
func (s *feed) Confirmed() int64                      { return s.received }
func (s *feed) Checksum(int64, uint64)                {}
func (s *feed) EndFrame() error                       { return nil }

// follower is a feed that has the loop catch up (engine.Follower) when
// more than 6 ticks wait, to 2 waiting.
type follower struct{ *feed }

func (s follower) Behind() int64 {
	if n := s.received - s.simulated; n > 6 {
		return n - 2
	}
	return 0
}

// A Follower's loop catches up with the ticks waiting for it, running up
// to MaxUpdatesPerFrame a frame until 2 wait; a session that is not one
// runs them at the pace of real time, as far behind as it began.
func TestFollowerCatchesUp(t *testing.T) {
	run := func(s engine.Session) (ticks int64, stats engine.SessionStats) {
		t.Helper()
		frames := 0
		opts := &engine.Options{Headless: &engine.Headless{FPS: 60}, Session: s,
			OnEvent: []engine.EventHook{func(l *engine.Loop, ev engine.Event) {
				if ev.Kind == engine.Render {
					if frames++; frames == 150 {
						ticks, stats = l.Ticks(0), l.Session().Stats()
						l.Stop()
					}
				}
			}}}
		if err := engine.Run((&duoRig{}).scene(1, []engine.Group{{Name: "physics", Hz: 60}}, nil), opts); err != nil { // a scene that does not end
			t.Fatal(err)
		}
		return ticks, stats
	}
	behind := &feed{received: 600}
	ticks, _ := run(behind)
	if n := behind.received - ticks; n < 590 {
		t.Errorf("a session that is not a Follower: %d ticks run of %d sent, want some 600 behind", ticks, behind.received)
	}
	f := follower{&feed{received: 600}}
	ticks, stats := run(f)
	t.Logf("a Follower: %d ticks run of %d sent after 150 frames, %+v", ticks, f.received, stats)
	if n := f.received - ticks; n > 6 || n < 2 || stats.CaughtUp < 600/8 {
		t.Errorf("a Follower: %d ticks run of %d sent after 150 frames (%+v); want 2 to 6 behind", ticks, f.received, stats)
	}
}

// sessionLog records a short run of a session of n players, whole.
func sessionLog(tb testing.TB, n int) []byte {
	tb.Helper()
	rec := &engine.InputLog{Seed: 7}
	s := newLagSession(n, 2, 4)
	opts := &engine.Options{Headless: &engine.Headless{FPS: 60}, Session: s, TickInput: keys, Record: rec,
		StopAt: 2 * time.Second}
	r := &duoRig{}
	if err := engine.Run(r.scene(1, []engine.Group{{Name: "physics", Hz: 60}, {Name: "slow", Hz: 10}}, nil), opts); err != nil {
		tb.Fatal(err)
	}
	var buf bytes.Buffer
	if _, err := rec.WriteTo(&buf); err != nil {
		tb.Fatal(err)
	}
	return buf.Bytes()
}

// A recording of several players names them in one record after the run
// record; a count of players outside 2 to input.MaxPlayers, or a second
// such record, is refused by name.
func TestRecordingOfPlayers(t *testing.T) {
	data := sessionLog(t, 3)
	lg, err := engine.ParseInputLog(data)
	if err != nil || lg.Players != 3 {
		t.Fatalf("%v, %d players", err, lg.Players)
	}
	at := bytes.Index(data, []byte{'N', 3})
	if at < 0 {
		t.Fatal("no players record")
	}
	for _, bad := range [][]byte{{'N', 1}, {'N', 5}, {'N', 3, 'N', 3}, {'N', 0}} {
		b := append(append(bytes.Clone(data[:at]), bad...), data[at+2:]...)
		b = engine.ResealChunks(fixChunkLength(b, len(bad)-2))
		if _, err := engine.ParseInputLog(b); !errors.Is(err, engine.ErrBadInputLog) || !strings.Contains(err.Error(), "players") {
			t.Errorf("%q: got %v, want the players refused", bad, err)
		}
	}
}

// fixChunkLength adds d to the length of an input log's first chunk (a
// one-byte uvarint after the header), for a test that grew its payload.
func fixChunkLength(b []byte, d int) []byte {
	n, k := binary.Uvarint(b[10:])
	out := binary.AppendUvarint(bytes.Clone(b[:10]), uint64(int(n)+d))
	return append(out, b[10+k:]...)
}

// menuRig runs a Menu of two groups (60 and 10 Hz) that ends on the first
// tick of its first group where player 2 presses Space, then a Play scene
// that runs until the run stops. It notes what each scene saw.
type menuRig struct {
	ended    int64 // the Menu's tick it ended on
	seen     int64 // the Menu's latest first-group tick delivered, run again or not
	endResim bool  // the Menu decided to end on a tick simulated again
	final    [2]uint64
	played   int64 // Play's first-group ticks
}

func (r *menuRig) first() engine.Scene {
	play := engine.NewScene("Play", func(loop *engine.Loop) (engine.Scene, error) {
		d := &duo{}
		loop.Recording().SetChecksum(d.checksum)
		loop.Recording().SetSceneState(&duoState{d: d, slots: map[int]duo{}, saves: new(int)})
		for ev := range loop.Events(engine.Group{Name: "physics", Hz: 60}) {
			if ev.Kind == engine.Update {
				d.update(ev)
			}
			r.final[1], r.played = d.checksum(), loop.Ticks(0)
		}
		return nil, loop.Err()
	})
	return engine.NewScene("Menu", func(loop *engine.Loop) (engine.Scene, error) {
		d := &duo{}
		loop.Recording().SetChecksum(d.checksum)
		loop.Recording().SetSceneState(&duoState{d: d, slots: map[int]duo{}, saves: new(int)})
		for ev := range loop.Events(engine.Group{Name: "physics", Hz: 60}, engine.Group{Name: "slow", Hz: 10}) {
			if ev.Kind == engine.Update {
				if d.ended {
					return nil, fmt.Errorf("tick %d of group %d delivered after the scene ended", ev.Tick, ev.Group)
				}
				d.update(ev)
				if ev.Group == 0 {
					r.seen = max(r.seen, ev.Tick)
					if ev.Player(1).KeyPressed(input.KeySpace) {
						d.ended = true
						r.endResim = loop.Session().Resimulating()
					}
				}
			}
			r.final[0] = d.checksum()
			if d.ended && loop.Session().Settle() {
				r.ended = loop.Ticks(0)
				loop.Recording().Checkpoint()
				return play, nil
			}
		}
		return nil, loop.Err()
	})
}

// A scene that ends on a remote player's press that arrives after the
// local run predicted past it ends where the corrected tick says: the
// rollback goes back before the end, the scene decides again on the tick
// simulated again, and no tick after it, of any group (the 10 Hz group's
// tick due with the last one's included), reaches the scene; the next
// scene starts on the tick after, as in the run where every input was on
// time. The ticks the local run had simulated past the end are simulated
// again as the next scene's, and the session is told (Session.Discard),
// so that no checksum of theirs that became final changes. Players 3 and
// 4 are later still, so that the end is not final when it is decided again.
func TestSceneEndsWhereTheRollbackSays(t *testing.T) {
	press := func(p int, t int64) input.State {
		var in input.State
		in.SetKey(input.KeySpace, p == 1 && t >= 102 && t < 106)
		in.SetKey(input.KeyArrowRight, (t+int64(p))%11 < 2)
		return in
	}
	run := func(s *lagSession, rec *engine.InputLog) *menuRig {
		t.Helper()
		s.remote = press
		r := &menuRig{}
		// The local player's input for a tick is sampled once, in the scene
		// that first ran it: a tick the Menu ran before the rollback keeps
		// the input it was given there, in Play. So that the run compares
		// with the one on time, the local player plays in the Menu only,
		// before its end.
		menuKeys := engine.TickInputFunc(func(t engine.TickInfo, in *input.State) {
			if t.Scene == "Menu" && t.Tick <= 102 {
				keys.SampleTick(t, in)
			}
		})
		opts := &engine.Options{Headless: &engine.Headless{FPS: 60}, Session: s, TickInput: menuKeys, Record: rec,
			StopAt: 4 * time.Second}
		if err := engine.Run(r.first(), opts); err != nil {
			t.Fatal(err)
		}
		return r
	}
	for _, players := range []int{2, 3, 4} {
		onTime := newLagSession(players, 2, 0)
		want := run(onTime, &engine.InputLog{})
		if want.ended != 102 || want.seen != 102 || want.played == 0 {
			t.Fatalf("%d players on time: ended on %d, saw %d, played %d", players, want.ended, want.seen, want.played)
		}
		for _, lag := range []int64{2, 5, 8, 12} {
			late := newLagSession(players, 2, lag)
			late.later = 3
			rec := &engine.InputLog{}
			got := run(late, rec)
			t.Logf("%d players, lag %d: ended on %d, had run to %d; decided when simulated again: %v", players, lag, got.ended, got.seen, got.endResim)
			if lag > 2 && (got.seen <= got.ended || !got.endResim) {
				t.Fatalf("%d players, lag %d: the run never predicted past the end (saw %d, ended %d)", players, lag, got.seen, got.ended)
			}
			if len(late.stale) > 0 {
				t.Fatalf("%d players, lag %d: the checksums after ticks %v changed once final", players, lag, late.stale)
			}
			if got.ended != want.ended || got.final != want.final || got.played != want.played {
				t.Fatalf("%d players, lag %d: ended on %d with %x, played %d; on time %d with %x, %d",
					players, lag, got.ended, got.final, got.played, want.ended, want.final, want.played)
			}
			for tick, sum := range onTime.sums {
				if late.sums[tick] != sum {
					t.Fatalf("%d players, lag %d: after tick %d the state is %x, on time %x", players, lag, tick, late.sums[tick], sum)
				}
			}
			again := &menuRig{}
			if err := engine.Run(again.first(), &engine.Options{Headless: &engine.Headless{FPS: 37}, Replay: rec}); err != nil {
				t.Fatalf("%d players, lag %d: replaying the run: %v", players, lag, err)
			}
			if again.final != want.final || again.ended != want.ended {
				t.Fatalf("%d players, lag %d: the replay ended the menu on %d with %x, the run on %d with %x",
					players, lag, again.ended, again.final, want.ended, want.final)
			}
		}
	}
}

// overSession is a lagSession whose match is over (engine.ErrSessionOver)
// from frame at on.
type overSession struct {
	*lagSession
	at int64
}

func (s *overSession) Poll() error {
	s.lagSession.Poll()
	if s.frame >= s.at {
		return fmt.Errorf("the match is over: %w", engine.ErrSessionOver)
	}
	return nil
}

// A session that is over (ErrSessionOver) once every tick is final stops
// the run as a stop does: no error, and a recording that replays to the
// same tick and stops there, no error either. Over with ticks not final
// (a prediction outstanding), it fails the run with its error.
func TestSessionOverStops(t *testing.T) {
	rec := &engine.InputLog{}
	r := &duoRig{}
	s := &overSession{lagSession: newLagSession(2, 2, 0), at: 200}
	if err := engine.Run(r.first(), &engine.Options{Headless: &engine.Headless{FPS: 60}, Session: s, TickInput: keys, Record: rec}); err != nil {
		t.Fatalf("a session over: %v", err)
	}
	if got := rec.Scene(0); got.End != engine.EndStopped || got.Ticks[0] < 190 {
		t.Fatalf("the recording: %+v; want it stopped near tick 199", got)
	}
	again := &duoRig{}
	if err := engine.Run(again.first(), &engine.Options{Headless: &engine.Headless{FPS: 50}, Replay: rec}); err != nil || again.final != r.final || !rec.Replayed().Finished {
		t.Fatalf("its replay: %v, ended with %x; the run with %x; %+v", err, again.final, r.final, rec.Replayed())
	}

	late := &overSession{lagSession: newLagSession(2, 2, 6), at: 200}
	err := engine.Run((&duoRig{}).first(), &engine.Options{Headless: &engine.Headless{FPS: 60}, Session: late, TickInput: keys})
	if !errors.Is(err, engine.ErrSessionOver) {
		t.Fatalf("a session over with ticks predicted: %v; want its error", err)
	}
}
