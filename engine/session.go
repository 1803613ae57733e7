package engine

import (
	"bytes"
	"errors"
	"fmt"

	"github.com/fixedstep/fixedstep/engine/input"
	"github.com/fixedstep/fixedstep/engine/internal/inputlog"
)

// Networked play: the loop's side of a rollback session. A Session
// (package engine/netplay's, over UDP) gives every tick of the first group
// each player's input: the local player's as sampled on this machine, a
// remote player's as it arrived, or, until it arrives, predicted. The loop
// keeps the scene's state before each of the last RollbackSlots ticks of
// the first group (the SceneState's slots KeyframeSlots and up) that ran
// with a prediction (every tick, for a session that makes desync reports:
// a Reporter), and when the session finds that a tick ran with a
// predicted input that proved wrong, it rolls back: it restores the state
// before that tick, cuts the recording back there, and delivers the ticks
// from there to the last one run again, in the same frame, with the inputs
// now known, as Update events for which LoopSession.Resimulating reports true. A
// rolled-back run is bit for bit the run that had every input from the
// start, and its recording holds only that run. With Options.SparseSaving
// the loop keeps fewer states (the one before the first tick not
// confirmed, and one every SparseInterval ticks), and a rollback goes back
// to the last one kept at or before the tick that proved wrong.
//
// Ticks of the other groups see the players' input of the first group's
// ticks: the held state of the last one delivered, with every press and
// release since the group's own previous tick. A tick is final once every
// player's input up to it is confirmed and none it ran with proved wrong:
// a scene ends only on a final tick (LoopSession.Settle), and the run stops
// (Options.StopAt) only once final, so that every player's run ends on the
// same state. A session cannot pause, step or rewind.

// RollbackSlots is how many ticks of the first group a session can roll
// back: the loop keeps the scene's state before each of the last
// RollbackSlots, about a second at 60 Hz. A session predicts at most fewer
// ticks ahead than that (netplay.MaxPrediction).
const RollbackSlots = 64

// SparseInterval is the most ticks apart the states a run with
// Options.SparseSaving keeps are, while a tick runs with a prediction: a
// rollback goes back at most SparseInterval-1 ticks before the tick that
// proved wrong.
const SparseInterval = 8

// A Session is a networked run's source of every player's input (package
// engine/netplay's rollback sessions; Options.Session). Its ticks are the
// first group's, counted from the run's start across its scenes: the
// scene's tick t of a scene whose scenes before ran b ticks of their first
// groups is the session's tick b+t. The loop calls its methods on its own
// goroutine, and none of them should block or, for frames and ticks to stay
// allocation-free, allocate.
type Session interface {
	// Players is how many players play, 1 to input.MaxPlayers: every
	// Update event holds each one's input (Event.Players).
	Players() int

	// Poll is called as every frame begins, before its ticks: the session
	// takes in what arrived. An error ends the run with it (a player left,
	// a desync was found).
	Poll() error

	// Hold reports whether game time should stand still this frame: the
	// local run is ahead of the others' (time synchronisation). Frames
	// still render.
	Hold() bool

	// Ready reports whether tick t may run for the first time now: false
	// while running it would predict further ahead than the session
	// allows. The loop asks again next frame.
	Ready(t int64) bool

	// Local gives the session the local player's input as sampled for tick
	// t (the devices' presses since the tick before, or the TickInput's):
	// the session plays it at tick t plus its input delay, and sends it.
	Local(t int64, in *input.State)

	// Inputs sets players[p] to player p's input for tick t, confirmed or
	// predicted, each time the loop simulates tick t; the session keeps
	// what it predicted, to find out later whether it was right.
	Inputs(t int64, players []input.State)

	// Rollback reports the earliest tick last simulated with a predicted
	// input that has proved wrong, if there is one. Simulating it again
	// (Inputs) settles it.
	Rollback() (t int64, ok bool)

	// Confirmed is the last tick up to which every player's input is
	// confirmed.
	Confirmed() int64

	// Checksum gives the session the state checksum after tick t, each time
	// it is simulated: the one of its last simulation counts, once final.
	Checksum(t int64, sum uint64)

	// EndFrame is called once a frame's ticks have run, before it renders:
	// the session sends what it has to send. An error ends the run.
	EndFrame() error

	// Discard tells the session that the ticks after t, simulated before,
	// were not: a scene ended on tick t as a rollback simulated it again
	// (LoopSession.Settle), so the ticks after it are the next scene's, to be
	// simulated anew. What they ran with and their checksums no longer
	// count; the local player's input given for them (Local) stands.
	Discard(t int64)
}

// ErrSessionOver, in a session's error (errors.Is), ends the run as a stop
// does rather than as a failure, once every tick run is final: the
// session's match is over (its server ended it after its last tick). The
// run returns no error, and its recording ends stopped there, so that its
// replay stops there too, as the run did.
var ErrSessionOver = errors.New("engine: the session is over")

// netplay is the loop's side of a session.
type netplay struct {
	session       Session
	maker         SceneMaker   // the run's first scene, if it makes later scenes afresh: a state of any scene is given
	base          int64        // first-group ticks of the timelines before this one
	hold          bool         // this frame's game time stands still (Session.Hold)
	behind        int64        // this frame's ticks to catch up with (Follower.Behind)
	settle        bool         // the scene asked to end (LoopSession.Settle): no new tick until every tick is final
	stopWhenFinal bool         // Options.StopAt was reached: stop once every tick is final
	resim         bool         // the Update being delivered simulates a tick again
	sampled       int64        // the last session tick whose local input was given (Session.Local)
	failed        bool         // the loop failed with the session's error
	waiting       bool         // this frame's next tick waits for the session (Ready)
	report        *desyncProbe // a desync report being made, or made
	ring          []rollbackSlot
	sparse        bool  // Options.SparseSaving
	kept          int64 // the last tick whose state before it the timeline keeps (0: none yet)
	restored      int64 // the tick whose state before it restore put back, until that tick is delivered
	local         input.State
	stats         SessionStats
}

// rollbackSlot is the loop's side of the state before one tick of the
// first group; the scene's is in its SceneState's slot KeyframeSlots plus
// the slot's index.
type rollbackSlot struct {
	tick   int64 // the session's tick whose state before it the slot is of; 0: none
	state  bool  // the scene's state is kept (always, without Options.SparseSaving)
	groups []group
	logged []input.State
	mark   inputlog.Mark // where the run's recording stood, when it records
}

// SessionStats counts a session's rollbacks, for an overlay or a summary.
type SessionStats struct {
	Rollbacks   int64 // rollbacks: each restored the state before a tick and simulated again
	Resimulated int64 // ticks of the first group simulated again by them
	Held        int64 // frames whose game time stood still: the run was ahead of the others'
	Waited      int64 // frames that ran no tick because the next would predict too far ahead
	CaughtUp    int64 // frames whose game time moved on to the session's ticks (Follower)
}

// A Follower is a Session whose ticks are run by another clock: a game
// server's match, whose ticks arrive as the server runs them. When the
// loop has fallen behind them (a player who joined a match under way and
// was sent the ticks so far, a machine that stalled), Behind reports by
// how many ticks of the first group; each frame the loop then moves game
// time on to run that many more, at most Config.MaxUpdatesPerFrame fresh
// ticks in the frame, until it has caught up. A session whose players
// wait for each other (netplay's) holds the one ahead instead (Hold).
type Follower interface {
	Session
	Behind() int64
}

// LoopSession is the loop's side of simulating ticks again: a networked
// session's rollbacks ([Options.Session]), and the sync test that checks
// that a scene survives them ([Options.SyncTest]). Reach it with
// [Loop.Session]:
//
//	if over && loop.Session().Settle() { return next, nil }
//
// Outside a session Settle reports true at once, Waiting false and Stats
// zeros. It is a handle on the loop, free to copy: getting it allocates
// nothing. Call its methods from the loop's goroutine.
type LoopSession struct{ l *Loop }

// Session returns the loop's session side (see [LoopSession]).
func (l *Loop) Session() LoopSession { return LoopSession{l} }

// Waiting reports whether the frame's next tick waits for a
// session's players' input (Session.Ready): a driver that sleeps between
// frames wakes soon to try again.
func (s LoopSession) Waiting() bool { return s.l.net.waiting }

// Stats returns the session's counters; all zero outside a session.
func (s LoopSession) Stats() SessionStats { return s.l.net.stats }

// Players returns how many players' input every Update event holds
// (Event.Players): 1, but in a session or a replay of one.
func (l *Loop) Players() int { return l.players }

// Resimulating reports whether the Update event being handled simulates
// again a tick that ran before: a session's rollback, which delivers the
// ticks after the tick it goes back to again with the inputs now known, or
// the sync test's second pass ([Options.SyncTest], which a scene runs in
// [LoopSession.SimulateAgain]). What a player perceives once per tick (a sound, a
// particle burst) is not played for such a tick. (A rewind's re-run:
// Rewinder.Active.)
func (s LoopSession) Resimulating() bool { return s.l.net.resim || s.l.again }

// SyncTest returns Options.SyncTest: how many ticks the scene should roll
// back and simulate again before each tick of its first group, checking
// that it is deterministic (0: not at all). stage.Stage does it.
func (s LoopSession) SyncTest() int { return s.l.syncTest }

// SimulateAgain calls again, during which Resimulating reports true: a
// scene that simulates a past tick again on its own, as stage.Stage's sync
// test does, handles its Update events inside it (one call a tick, which
// LoopStats.SimulatedAgain counts).
func (s LoopSession) SimulateAgain(again func()) {
	l := s.l
	was := l.again
	l.again = true
	again()
	l.again = was
	l.stats.SimulatedAgain++
}

// Settle asks the loop to deliver no new tick, and reports whether every
// tick delivered so far is final: no rollback can undo it, and, in a
// session that compares the players' states (a Reporter), every player's
// state checksum up to it has been compared and found the same. A scene that is
// over (decided on its last tick) calls it before it returns, and returns
// once it reports true, handling the events in between, so that in a
// session it ends on a tick every player's run ends on: until then the
// session may roll back to an earlier tick and simulate again, and the
// scene, its state restored, may decide otherwise. Outside a session it
// reports true at once. stage.Stage calls it.
//
// Settled on a tick that a rollback is simulating again, the scene ends
// there: the ticks after it, of every group, that ran before the rollback
// are not delivered again (the session is told: Session.Discard), and
// their session ticks become the next scene's first ticks.
func (s LoopSession) Settle() bool {
	l := s.l
	if l.net.session == nil {
		return true
	}
	n := &l.net
	if !n.settle {
		n.settle = true
		n.cut(l)
	}
	return n.final(l)
}

// checkSession checks a session's options.
func checkSession(opts *Options) error {
	s := opts.Session
	switch {
	case s == nil && opts.SparseSaving:
		return errors.New("engine: Run: Options.SparseSaving without Options.Session: only a session's run keeps states to roll back to")
	case s == nil:
		return nil
	case s.Players() < 1 || s.Players() > input.MaxPlayers:
		return &ConfigError{"Options.Session", s.Players(), fmt.Sprintf("has %d players: a run has 1 to %d", s.Players(), input.MaxPlayers)}
	case opts.Replay != nil:
		return errors.New("engine: Run: Options.Session and Options.Replay: a replay's inputs are recorded, a session's come from the players")
	case opts.Load != nil:
		return errors.New("engine: Run: Options.Session and Options.Load: a session starts every player's run from its first scene")
	case opts.SyncTest > 0:
		return errors.New("engine: Run: Options.Session and Options.SyncTest: a session rolls back on its own")
	}
	return nil
}

// global returns the session's number of the current timeline's tick t of
// the first group.
func (n *netplay) global(t int64) int64 { return n.base + t }

// beginTimeline readies the session's side of a new timeline: no state
// kept yet (a session never rolls back into the scene before: it ended
// on a final tick).
func (n *netplay) beginTimeline() {
	if n.session == nil {
		return
	}
	for i := range n.ring {
		n.ring[i].tick = 0
	}
	n.kept = 0
	n.settle, n.resim = false, false
}

// beginFrame lets the session take in what arrived, and holds game time
// when it says so; it stops the loop once Options.StopAt was reached and
// every tick is final. It reports false when the loop is to end.
func (n *netplay) beginFrame(l *Loop) bool {
	if err := n.session.Poll(); err != nil {
		n.end(l, err)
		return false
	}
	if rep, ok := n.session.(Reporter); ok && n.report == nil {
		if t, found := rep.Desync(); found {
			n.startReport(l, t)
		}
	}
	if n.stopWhenFinal && n.final(l) {
		l.Stop()
		return false
	}
	if !n.giveState(l) {
		return false
	}
	n.waiting = false
	n.hold = n.session.Hold()
	if n.hold {
		n.stats.Held++
	}
	n.behind = 0
	if f, ok := n.session.(Follower); ok && !n.hold {
		n.behind = f.Behind()
	}
	return true
}

// endFrame lets the session send; it reports false when the loop failed.
func (n *netplay) endFrame(l *Loop) bool {
	if err := n.session.EndFrame(); err != nil {
		n.end(l, err)
		return false
	}
	return true
}

// end ends the loop with the session's error: a stop when the session is
// over (ErrSessionOver) and every tick is final, else a failure.
func (n *netplay) end(l *Loop, err error) {
	if errors.Is(err, ErrSessionOver) && n.final(l) {
		l.Stop()
		return
	}
	n.fail(l, err)
}

// fail ends the loop with the session's error.
func (n *netplay) fail(l *Loop, err error) {
	if l.err == nil {
		n.failed = true
	}
	l.fail(err)
}

// final reports whether every tick delivered is final and, for a session
// that compares the players' states (a Reporter), found the same on every
// player's run.
func (n *netplay) final(l *Loop) bool {
	now := n.global(l.groups[0].ticks)
	t, wrong := n.session.Rollback()
	if wrong && t <= now || n.session.Confirmed() < now {
		return false
	}
	rep, ok := n.session.(Reporter)
	return !ok || rep.Compared() >= now
}

// cut ends the timeline's ticks where they stand, when the scene settles
// on a tick that a rollback simulates again: the ticks that ran after it
// are not delivered again, and the session forgets them.
func (n *netplay) cut(l *Loop) {
	discard := false
	for i := range l.groups {
		g := &l.groups[i]
		if g.ran > g.ticks {
			g.ran, discard = g.ticks, true
		}
	}
	if discard {
		n.session.Discard(n.global(l.groups[0].ticks))
	}
	n.stopWhenFinal = l.reachesStop(l.groups[0].lastDue)
}

// rollback rolls the timeline back when the session found a tick that
// ran with a wrong prediction: it restores the state before it (or, with
// Options.SparseSaving, the last state kept before it), and the ticks
// after that are delivered again. It reports false when the loop failed.
func (n *netplay) rollback(l *Loop) bool {
	t, ok := n.session.Rollback()
	if !ok || t > n.global(l.groups[0].ticks) {
		return true
	}
	if t <= n.base {
		l.fail(fmt.Errorf("engine: session: tick %d ran with a wrong prediction, but it belongs to the scene before "+
			"(a scene ended on a tick that was not final: end scenes after LoopSession.Settle reports true; stage.Stage does)", t))
		return false
	}
	from, ok := n.keptFrom(t)
	if !ok {
		l.fail(fmt.Errorf("engine: session: tick %d ran with a wrong prediction, more than %d ticks back (RollbackSlots): "+
			"the session predicted too far ahead", t, RollbackSlots))
		return false
	}
	if !n.restore(l, from) {
		return false
	}
	n.stats.Rollbacks++
	n.stats.Resimulated += l.groups[0].ran - (from - n.base) + 1
	return true
}

// keptFrom returns the last tick of this timeline at or before t whose
// state before it is kept: t itself, but with Options.SparseSaving.
func (n *netplay) keptFrom(t int64) (int64, bool) {
	for u := t; u > t-RollbackSlots && u > n.base; u-- {
		if n.keeps(u) {
			return u, true
		}
		if !n.sparse {
			break
		}
	}
	return 0, false
}

// keeps reports whether the state before this timeline's tick t is kept.
func (n *netplay) keeps(t int64) bool {
	if n.ring == nil || t <= n.base {
		return false
	}
	sl := &n.ring[t%RollbackSlots]
	return sl.tick == t && sl.state
}

// restore puts back the state before the session's tick t, kept in the
// ring, for its ticks to be delivered again. It reports false when the
// loop failed.
func (n *netplay) restore(l *Loop, t int64) bool {
	i := int(t % RollbackSlots)
	sl := &n.ring[i]
	r := &l.rec
	if err := r.state.RestoreState(KeyframeSlots + i); err != nil {
		l.fail(fmt.Errorf("engine: session: going back to tick %d: %w", t, err))
		return false
	}
	for j := range l.groups {
		g, was := &l.groups[j], &sl.groups[j]
		g.ticks, g.lastDue, g.nextDue, g.netAcc, g.players = was.ticks, was.lastDue, was.nextDue, was.netAcc, was.players
	}
	r.rollBack(sl.logged, &sl.mark)
	r.keys.dropAfter(t - n.base - 1)
	n.restored, n.kept = t, t
	n.settle = false
	n.stopWhenFinal = l.reachesStop(l.groups[0].lastDue) // the ticks again say when
	return true
}

// beforeTick is called before the first group's next tick is delivered,
// fresh (never run before) or not: a fresh one waits while the session
// is not ready for it. The state before it is kept, for a rollback to it,
// unless the tick runs with every input confirmed, or, with
// Options.SparseSaving, unless it is neither the first tick whose input is
// not all confirmed nor SparseInterval ticks after the last state kept. It
// reports whether the tick is delivered.
func (n *netplay) beforeTick(l *Loop, fresh bool) bool {
	local := l.groups[0].ticks + 1
	t := n.global(local)
	restored := n.restored == t && !fresh
	n.restored = 0
	if fresh && !n.session.Ready(t) {
		// Waiting owes no time: game time stops just short of the tick, so
		// that it runs as soon as it may, and no burst of ticks follows.
		n.stats.Waited++
		n.waiting = true
		l.gameTime = min(l.gameTime, l.groups[0].nextDue-1)
		return false
	}
	if l.rec.state == nil {
		l.fail(errors.New("engine: session: the scene gives the loop no state to roll back (Recording.SetSceneState; stage.Stage does)"))
		return false
	}
	confirmed := n.session.Confirmed()
	if _, reports := n.session.(Reporter); t <= confirmed && !reports {
		// Every input of the tick is confirmed as it runs: no rollback goes
		// back to it, and the state before it is not kept. (A Reporter's
		// desync report may go back to any tick: its states are kept.)
		return true
	}
	if n.ring == nil {
		n.ring = make([]rollbackSlot, RollbackSlots)
	}
	sl := &n.ring[t%RollbackSlots]
	// After a rollback to t, the slot holds the scene's state before t
	// still: it was just put back from there.
	if !restored || sl.tick != t {
		sl.state = !n.sparse || t == confirmed+1 || n.kept <= n.base || t-n.kept >= SparseInterval
		if sl.state {
			if err := l.rec.state.SaveState(KeyframeSlots + int(t%RollbackSlots)); err != nil {
				l.fail(fmt.Errorf("engine: session: keeping the state before tick %d: %w", t, err))
				return false
			}
			n.kept = t
		}
	}
	sl.tick = t
	sl.groups = append(sl.groups[:0], l.groups...)
	sl.logged = l.rec.mark(sl.logged, &sl.mark)
	return true
}

// tickInput gives tick g.ticks of group i the players' input: for the
// first group, the session's (the local player's input sampled first, on
// a fresh tick); for the others, what the first group's ticks since the
// group's last tick saw.
func (n *netplay) tickInput(l *Loop, i int, g *group) {
	players := g.players[:l.players]
	if i > 0 {
		copy(players, g.netAcc[:l.players])
		for p := range players {
			g.netAcc[p].ClearEdges()
		}
		g.pending.ClearEdges()
		return
	}
	t := n.global(g.ticks)
	if t > n.sampled { // once a tick: the presses since the last one stay for the next
		n.sampled = t
		l.liveInput(0, g, &n.local)
		n.session.Local(t, &n.local)
	}
	n.session.Inputs(t, players)
	for j := 1; j < len(l.groups); j++ {
		acc := l.groups[j].netAcc[:l.players]
		for p := range acc {
			acc[p].Accumulate(&players[p])
		}
	}
}

// ticked gives the session the state checksum after the first group's
// tick just handled.
func (n *netplay) ticked(l *Loop) {
	r := &l.rec
	if r.checksum == nil {
		return
	}
	sum := r.checksum()
	r.sum, r.sumTaken = sum, true
	t := n.global(l.groups[0].ticks)
	n.session.Checksum(t, sum)
	if n.report != nil {
		n.reportTicked(l, t, sum)
	}
}

// flushMark returns the mark up to which the run's recording may be
// written to its file: the records of final ticks only, so that a
// rollback cuts the rest in memory. ok is false when every tick run is
// final.
func (n *netplay) flushMark(l *Loop) (m *inputlog.Mark, ok bool) {
	if n.session == nil || n.ring == nil {
		return nil, false
	}
	final := n.session.Confirmed()
	if t, wrong := n.session.Rollback(); wrong {
		final = min(final, t-1)
	}
	next := max(final+1, n.base+1)
	if next > n.global(l.groups[0].ticks) {
		return nil, false
	}
	sl := &n.ring[next%RollbackSlots]
	if sl.tick != next {
		return nil, false // before this timeline's first kept tick: its records were written with the timeline's start
	}
	return &sl.mark, true
}

// The desync report. When a session finds that the players' runs went
// different ways (their final state checksums after a tick differ), each
// run goes back to the state before the tick before it, as a rollback does,
// and simulates the two ticks again with the scene's scheduler probed: the
// state checksum after every update system from the previous tick's
// checksum to the desynced tick's (Recording.AfterSystem; stage.Stage probes its
// scheduler in a networked run), then after the tick the checksum of each
// component type and the world as text. The session sends it to the
// other player, and ends the run with both (netplay.DesyncError names the
// first system whose state differs, the component types that do, and
// where the two dumps were written).

// A DesyncReport is what one run knows of its state at the tick where the
// players' runs first differ.
type DesyncReport struct {
	Tick      int64  // the session's tick (first-group ticks since the run began)
	Scene     int    // the scene's timeline in the run, from 1
	SceneName string // and its name
	SceneTick int64  // the tick in that scene's first group

	// Simulated says the tick was simulated again for the report: false
	// when the state before it was no longer kept (more than RollbackSlots
	// ticks back), and the report holds nothing more.
	Simulated bool
	// Start is the state checksum Systems start from: after the tick
	// before, whose checksums matched, or, for a scene's first tick, the
	// scene's state as it set it up. Players' Starts that differ say the
	// state differed before the tick's first system ran.
	Start uint64
	// Systems is the state checksum (its low 32 bits) after every update
	// system run from the checksum after the tick before to the one after
	// Tick, in the order they ran; none when the scene's scheduler is not
	// probed (see Recording.Probed).
	Systems []SystemSum
	// Parts is the checksum of each component type after the tick.
	Parts []StatePart
	// Dump is the world after the tick, as text (Recording.DumpState).
	Dump []byte
}

// SystemSum is the state checksum after an update system, in a desync
// report.
type SystemSum struct {
	Group  string // the system's group
	Tick   int64  // the group's tick, in the scene
	System string
	Sum    uint32
}

// A Reporter is a Session that finds desyncs and wants a report of them.
// netplay's sessions are.
type Reporter interface {
	// Desync reports the first tick whose final state checksum differs
	// from another player's, once found.
	Desync() (t int64, ok bool)
	// Report gives the session this run's report of that tick.
	Report(r *DesyncReport)
	// Compared is the last tick up to which this run's final state
	// checksums were compared with the other players' and found the same.
	// A scene ends, and the run stops, only once it reaches their last
	// tick, so that a desync in a scene is found while the scene, and the
	// state a report needs, are still there.
	Compared() int64
}

// desyncProbe is a desync report being made.
type desyncProbe struct {
	tick int64 // the desynced tick
	open bool  // between the checksums after tick-1 and tick: systems are probed
	r    DesyncReport
}

// Probed reports whether a scene should give the loop its scheduler's
// probe (Scheduler.SetProbe) and its state parts (SetStateParts): for the
// desync bisector (Recording.Detailed) or a networked run's desync report.
// stage.Stage does both.
func (r Recording) Probed() bool { return r.l.rec.detailed() || r.l.net.session != nil }

// startReport goes back to the state before tick t-1 (with
// Options.SparseSaving, the last state kept at or before it) to make the
// report of the desync at t, or to the state before t when t is the
// scene's first tick; without that state it reports what it knows.
func (n *netplay) startReport(l *Loop, t int64) {
	n.report = &desyncProbe{tick: t}
	p := &n.report.r
	p.Tick = t
	from, kept := n.keptFrom(t - 1)
	switch {
	case kept:
		if p.Simulated = n.restore(l, from); p.Simulated {
			return // ticks up to t-1 and t are simulated again: see probe and reportTicked
		}
	case t-1 == n.base && n.keeps(t):
		if p.Simulated = n.restore(l, t); p.Simulated {
			// The scene's first tick, simulated again from its setup.
			n.report.open = true
			if sum := l.rec.checksum; sum != nil {
				p.Start = sum()
			}
			return
		}
	}
	if !l.Stopped() {
		n.finishReport(l)
	}
}

// probe is told of every update system run (Recording.AfterSystem): while the
// report's window is open it keeps the state checksum after it.
func (n *netplay) probe(l *Loop, ev Event, name string) {
	p := n.report
	if p == nil || !p.open || l.rec.checksum == nil {
		return
	}
	p.r.Systems = append(p.r.Systems, SystemSum{Group: l.groups[ev.Group].Name, Tick: ev.Tick, System: name,
		Sum: uint32(l.rec.checksum())})
}

// reportTicked is told of the first group's tick t just handled, simulated
// again for the report, and the state checksum after it: it opens the
// window after tick t-1 and closes it after the desynced tick, whose state
// it keeps.
func (n *netplay) reportTicked(l *Loop, t int64, sum uint64) {
	p := n.report
	switch {
	case p == nil || p.r.Scene != 0:
	case t == p.tick-1:
		p.open = true
		p.r.Start = sum
	case t == p.tick:
		p.open = false
		n.finishReport(l)
	}
}

// finishReport fills in the report of the state now (after the desynced
// tick) and gives it to the session.
func (n *netplay) finishReport(l *Loop) {
	p := n.report
	// The tick's scene: the one running (a desync is found before its
	// scene ends: see Reporter.Compared); after the tick when simulated
	// again, else this scene's tick of the session's tick (0 or less: a
	// scene before).
	p.r.Scene, p.r.SceneName, p.r.SceneTick = l.scenes, l.sceneName, p.r.Tick-n.base
	if parts := l.rec.bisect.parts; parts != nil && p.r.Simulated {
		p.r.Parts = parts(nil)
	}
	if p.r.Simulated {
		var b bytes.Buffer
		if l.rec.dumpState(&b) == nil {
			p.r.Dump = b.Bytes()
		}
	}
	if rep, ok := n.session.(Reporter); ok {
		rep.Report(&p.r)
	}
}
