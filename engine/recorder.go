package engine

import (
	"errors"
	"fmt"
	"slices"

	"github.com/fixedstep/fixedstep/engine/input"
	"github.com/fixedstep/fixedstep/engine/internal/inputlog"
)

// recorder is the loop's side of recordings (rule 10): the run's own
// recording, the replay of another, the state checksums both keep, the
// desync bisector's detail (bisect.go) and rewinds (rewind.go). The loop
// calls it at a few named points:
//
//   - a timeline begins (beginTimeline) and ends (endTimeline);
//   - a frame begins (beginFrame: the file is written, a replay's end
//     moves on);
//   - a tick is about to run (mayTick: not past the recording), gets its
//     input (replayInput) and is delivered (tickDelivered: the input is
//     recorded, the checksum is due);
//   - the scene has handled the tick (tickHandled, checkState);
//   - a frame is about to render (beforeRender);
//   - the run ends (finish);
//   - a session keeps the state before a tick (mark) and rolls back to it
//     (rollBack).
//
// Everything else the loop does knows nothing of recordings.
type recorder struct {
	loop           *Loop
	again          bool // the current timeline is one its scene started again (Loop.Start twice)
	record, replay *InputLog
	checksum       func() uint64 // the scene's, see SetChecksum
	onDivergence   func(*Loop, *DivergenceError)

	// the replay of the current timeline
	replayed *inputlog.Scene   // the recording's timeline, nil when it has none
	ending   replayEnding      // how far the replay is from that timeline's end
	cursors  []inputlog.Cursor // per input stream (group and player): its place in the recorded input
	logged   []input.State     // per stream: the held state the recording predicts for the next tick
	ticks    []int64           // per group: ticks run, for the file's progress

	// state checksums (see SetChecksum)
	checkRecord bool   // the tick just delivered gets its checksum recorded
	checkReplay bool   // ... compared with the replayed log's
	checkNext   int    // the replay's cursor into this timeline's checksums
	checkSince  int64  // the last tick whose checksum matched
	sum         uint64 // the state checksum of the first group's last tick, when sumTaken
	sumTaken    bool   // a session took it already

	bisect  bisector              // the desync bisector's state (bisect.go)
	restart func() (Scene, error) // Options.Restart
	rewind  *seekTarget           // asked for by Rewind
	seek    *seekTarget           // a rewind's re-run, under way
	from    *fromState            // Options.FromState, until the first tick
	save    *saveRequest          // asked for by Loop.Save (savegame.go)
	state   SceneState            // the scene's, for keyframes (keyframe.go)
	keys    keyframes             // the timeline's keyframes
}

// replayEnding is how far a replay is from the end of the recorded
// timeline it replays.
type replayEnding uint8

const (
	// replaying: the recorded timeline has ticks left.
	replaying replayEnding = iota
	// endReached: its last tick has run in this frame; the scene must end
	// by the end of the frame (or on the next frame's Input event).
	endReached
	// endPassed: a frame began after that and the scene still runs.
	endPassed
)

// beginTimeline records the timeline Start began, and checks a replay's:
// the recording must have this scene with these groups here.
func (r *recorder) beginTimeline(groups []Group) error {
	l := r.loop
	r.replayed, r.ending = nil, replaying
	r.checkRecord, r.checkReplay, r.checkNext, r.checkSince = false, false, 0, 0
	r.keys.clear()
	n, streams := len(groups), len(groups)*l.players
	r.logged = slices.Grow(r.logged[:0], streams)[:streams]
	clear(r.logged)
	r.ticks = slices.Grow(r.ticks[:0], n)[:n]
	r.bisect.begin(n)
	if r.record != nil {
		lg := make([]inputlog.Group, n)
		for i, g := range groups {
			lg[i] = inputlog.Group(g)
		}
		r.record.log.Players = l.players
		r.record.log.BeginScene(l.sceneName, lg, int64(max(r.record.ChecksumEvery, 1)))
	}
	if r.replay == nil {
		return nil
	}
	ok, err := r.startReplay(l.scenes-1, l.sceneName, groups)
	if err != nil {
		l.fail(err)
		return err
	}
	if !ok { // the recording was cut short before this timeline: so is the replay
		r.replay.replayed.Finished = true
		l.stopped = true
	}
	return nil
}

// startReplay checks that timeline i (0-based) of the replayed log was
// recorded with this scene and these groups, and sets the groups'
// cursors. It reports false when the log holds no such timeline.
func (r *recorder) startReplay(i int, name string, groups []Group) (bool, error) {
	lg := r.replay
	if i >= len(lg.log.Scenes) {
		if !lg.log.Complete { // the recording was cut short before this timeline
			return false, nil
		}
		return false, &ReplayError{Scene: i + 1, Name: name,
			Reason: fmt.Sprintf("the recording has %d scenes and ended there; the replay went on to another: %s",
				len(lg.log.Scenes), decisionHint)}
	}
	s := &lg.log.Scenes[i]
	if name != "" && s.Name != "" && name != s.Name {
		return false, &ReplayError{Scene: i + 1, Name: name,
			Reason: fmt.Sprintf("the recording has scene %s here; %s", s.Name, decisionHint)}
	}
	same := len(groups) == len(s.Groups)
	for j := 0; same && j < len(groups); j++ {
		same = groups[j].Name == s.Groups[j].Name && groups[j].Hz == s.Groups[j].Hz
	}
	if !same {
		return false, &ReplayError{Scene: i + 1, Name: name,
			Reason: fmt.Sprintf("runs groups %s; the recording's scene ran %s", groupList(groups), groupList(groupsOf(s.Groups)))}
	}
	if s.Players() != r.loop.players {
		return false, &ReplayError{Scene: i + 1, Name: name,
			Reason: fmt.Sprintf("the recording's scene has %d players' input, the run %d", s.Players(), r.loop.players)}
	}
	r.cursors = slices.Grow(r.cursors[:0], len(s.Input))[:len(s.Input)]
	for j := range s.Input {
		r.cursors[j].Start(s.Input[j])
	}
	lg.replayed.Scenes = i + 1
	r.replayed = s
	return true, nil
}

// beginFrame writes the recording so far to its file, when it is time.
func (r *recorder) beginFrame() error {
	if r.record == nil || r.record.log.File == nil {
		return nil
	}
	return r.flush()
}

func (r *recorder) flush() error {
	if m, ok := r.loop.net.flushMark(r.loop); ok { // a session: only what no rollback can cut
		return r.record.log.FlushTo(m)
	}
	return r.record.log.Flush(r.progress())
}

// progress returns the ticks each group of the current timeline has run.
func (r *recorder) progress() []int64 {
	for i := range r.ticks {
		r.ticks[i] = r.loop.groups[i].ticks
	}
	return r.ticks
}

// frameBegun moves a replay that reached its recording's end on: a scene
// still running in the frame after it has run past it.
func (r *recorder) frameBegun() {
	if r.ending == endReached {
		r.ending = endPassed
	}
}

// mayTick reports whether the next tick of group g may run: a replay runs
// no tick past the one where its recording's timeline ended.
func (r *recorder) mayTick(g int) bool {
	return r.replayed == nil || r.loop.groups[g].ticks < r.replayed.Ticks[g] || r.atRecordingEnd(g)
}

// atRecordingEnd is called when the next tick of group g would run past
// the one where the replayed timeline ended, and reports false: there the
// replay ends as the recording did: the scene must return (EndReturned,
// EndRestarted), or the loop fails (EndFailed; EndSession, with the
// session's error as recorded) or stops (any other end).
func (r *recorder) atRecordingEnd(g int) bool {
	rs, l := r.replayed, r.loop
	if r.seek != nil && l.scenes == r.seek.scene {
		return false // a re-run's own timeline ends where the re-run goes
	}
	switch SceneEnd(rs.End) {
	case EndReturned, EndRestarted: // the scene must end now: see beforeRender
		if r.ending == replaying {
			r.ending = endReached
		}
	case EndSession:
		if l.scenes == len(r.replay.log.Scenes) {
			r.replay.replayed.Finished = true
		}
		l.fail(&SessionFailedError{Scene: l.scenes, Name: l.sceneName, Group: l.groups[0].Name, Tick: rs.Ticks[0], Err: rs.Err})
	case EndFailed:
		l.fail(&ReplayError{Scene: l.scenes, Name: l.sceneName, Group: l.groups[0].Name, Tick: l.groups[0].ticks,
			Ended: rs.Ticks[0], Reason: fmt.Sprintf("the recording failed after tick %d of group %q (%s), the replay ran on",
				rs.Ticks[0], l.groups[0].Name, rs.Err)})
	default: // the recording's loop stopped here, or the recording ends here: so does the replay
		if l.scenes == len(r.replay.log.Scenes) {
			r.replay.replayed.Finished = true
		}
		l.stopped = true
	}
	return false
}

// replayInput sets players[p] to the input tick `tick` of group g saw for
// player p when recorded, in a replay.
func (r *recorder) replayInput(g int, tick int64, players []input.State) {
	for p := range players {
		r.cursors[g*len(players)+p].Apply(tick, &players[p])
	}
}

// tickDelivered records the players' input of the tick just delivered,
// and notes whether its state checksum is to be recorded or checked.
func (r *recorder) tickDelivered(g int, tick int64, players []input.State) {
	if r.record != nil || r.checksum != nil {
		r.noteTick(g, tick, players)
	}
}

// noteTick records the tick's input, notes whether its checksum is due,
// and readies the bisector for its systems (without a checksum it has none
// to compare).
func (r *recorder) noteTick(g int, tick int64, players []input.State) {
	if r.record != nil {
		for p := range players {
			r.logInput(g*len(players)+p, tick, &players[p])
		}
	}
	if g == 0 && r.checksum != nil {
		r.dueCheck(tick)
		r.sumTaken = false
	}
	r.bisect.beginTick()
}

// logInput records the input of tick `tick` of input stream i where it is
// not the one the recording predicts.
func (r *recorder) logInput(i int, tick int64, in *input.State) {
	if !in.Same(&r.logged[i]) {
		r.record.log.AddInput(i, tick, &r.logged[i], in)
		r.logged[i] = *in
		r.logged[i].ClearEdges()
	}
}

// dueCheck notes whether the state checksum after tick `tick` of the first
// group is to be recorded or checked.
func (r *recorder) dueCheck(tick int64) {
	r.checkRecord = r.record != nil && tick%r.record.log.Scenes[len(r.record.log.Scenes)-1].Every == 0
	r.checkReplay = r.replayed != nil && tick%r.replayed.Every == 0
}

// tickHandled is called once the scene has handled an Update event: a
// recording with detail keeps the tick's system states.
func (r *recorder) tickHandled(ev *Event) {
	if len(r.bisect.sums) > 0 {
		r.keepSystems(ev)
	}
}

// keepSystems records the states after each system of ev's tick.
func (r *recorder) keepSystems(ev *Event) {
	b := &r.bisect
	r.record.log.AddSystems(ev.Group, ev.Tick, b.names, b.sums)
	b.names, b.sums = b.names[:0], b.sums[:0]
}

// checkState records or verifies the state checksum of the first group's
// last tick, if one is due.
func (r *recorder) checkState() {
	if r.checkRecord || r.checkReplay {
		r.check()
	}
}

// check records or verifies the state checksum of the first group's last
// tick.
func (r *recorder) check() {
	defer func() { r.checkRecord, r.checkReplay = false, false }()
	if r.checksum == nil { // the scene took it away after the tick
		return
	}
	l := r.loop
	g := &l.groups[0]
	sum := r.sum
	if !r.sumTaken {
		sum = r.checksum()
	}
	if r.checkRecord {
		r.record.log.AddCheck(g.ticks, sum)
		r.recordParts(g.ticks)
	}
	var de *DivergenceError
	if r.checkReplay {
		if recorded, ok := r.replayed.CheckAt(&r.checkNext, g.ticks); ok {
			if recorded != sum {
				de = &DivergenceError{Scene: l.scenes, Name: r.replayed.Name, Group: g.Name, Tick: g.ticks,
					Since: r.checkSince, Recorded: recorded, Replayed: sum}
			} else {
				r.checkSince = g.ticks
				r.replay.replayed.Checked++
			}
		}
	}
	if de == nil && r.checkReplay && r.bisect.found != nil {
		de = &DivergenceError{Scene: l.scenes, Name: l.sceneName, Group: g.Name, Tick: g.ticks, Since: r.checkSince,
			Recorded: sum, Replayed: sum}
	}
	if de != nil {
		r.explain(de, g.ticks)
		l.fail(de)
	}
}

// beforeRender is called before a frame renders: a replayed scene that
// went on a frame past its recording's end fails the loop, and a rewind's
// re-run that has reached its target stops there.
func (r *recorder) beforeRender() error {
	if r.ending != endPassed && r.seek == nil {
		return nil
	}
	return r.renderDue()
}

// renderDue is beforeRender's work, when there is some.
func (r *recorder) renderDue() error {
	if r.ending == endPassed {
		return r.ranPast()
	}
	if r.seek != nil {
		return r.seekFrameDone()
	}
	return nil
}

// ranPast is the error of a replayed scene that did not end where its
// recording's did.
func (r *recorder) ranPast() error {
	l := r.loop
	rs, g := r.replayed, &l.groups[0]
	return &ReplayError{Scene: l.scenes, Name: l.sceneName, Group: g.Name, Tick: g.ticks, Ended: rs.Ticks[0],
		Reason: fmt.Sprintf("the recording's scene %s after tick %d of group %q, the replayed scene ran on: %s",
			SceneEnd(rs.End), rs.Ticks[0], g.Name, decisionHint)}
}

// endTimeline records how the current timeline ended and, in a replay,
// checks that it did not end before its recording's.
func (r *recorder) endTimeline(end SceneEnd, cause error) error {
	l := r.loop
	r.again = end == EndRestarted
	if r.record != nil {
		r.record.log.SetTicks(r.progress())
		msg := ""
		if cause != nil {
			msg = cause.Error()
		}
		r.record.log.EndScene(inputlog.End(end), msg)
	}
	rs := r.replayed
	if rs == nil {
		return nil
	}
	r.replay.replayed.Ticks += l.groups[0].ticks
	if f := r.bisect.found; f != nil && l.err == nil { // found since the last check
		g := &l.groups[0]
		de := &DivergenceError{Scene: l.scenes, Name: l.sceneName, Group: g.Name, Tick: g.ticks, Since: r.checkSince}
		r.explain(de, -1)
		return de
	}
	same := true
	for i := range l.groups {
		g := &l.groups[i]
		if g.ticks < rs.Ticks[i] && (end == EndReturned || end == EndRestarted) {
			return &ReplayError{Scene: l.scenes, Name: l.sceneName, Group: g.Name, Tick: g.ticks, Ended: rs.Ticks[i],
				Reason: fmt.Sprintf("it %s after tick %d of group %q, but its recording ran to tick %d: %s",
					end, g.ticks, g.Name, rs.Ticks[i], decisionHint)}
		}
		same = same && g.ticks == rs.Ticks[i]
	}
	if same && l.scenes == len(r.replay.log.Scenes) {
		r.replay.replayed.Finished = true
	}
	var se *SessionFailedError
	if SceneEnd(rs.End) == EndSession && same && !errors.As(cause, &se) {
		// The scene ended on the tick where the recorded run's session
		// failed, before it could end there: so does the replay.
		return &SessionFailedError{Scene: l.scenes, Name: l.sceneName, Group: l.groups[0].Name, Tick: rs.Ticks[0], Err: rs.Err}
	}
	return nil
}

// finish ends a run: the recording is marked whole and its file written.
func (r *recorder) finish(err error) error {
	if r.record != nil {
		if ferr := r.record.log.Finish(); ferr != nil && err == nil {
			err = ferr
		}
	}
	return err
}

// mark notes where the run's recording stands, for a session's rollback to
// go back to (rollBack): the held states logged, appended to logged[:0] and
// returned, and the recording's mark.
func (r *recorder) mark(logged []input.State, m *inputlog.Mark) []input.State {
	if r.record != nil {
		r.record.log.Mark(m, r.progress())
	}
	return append(logged[:0], r.logged...)
}

// rollBack cuts the run's recording back to where mark noted it, for a
// session's rollback: what was recorded after it is simulated again.
func (r *recorder) rollBack(logged []input.State, m *inputlog.Mark) {
	copy(r.logged, logged)
	if r.record != nil {
		r.record.log.Cut(m)
	}
	r.checkRecord, r.checkReplay = false, false
}

// Recording is the loop's side of the run's recording, replay and state
// checks (rule 10; see [InputLog]): a scene gives it the hash of its state
// (SetChecksum), the state itself for keyframes and a session's rollbacks
// (SetSceneState), and the desync bisector's parts and dump, and asks it
// how the run is checked (PathNames, Detailed, Probed). Reach it with
// [Loop.Recording]:
//
//	loop.Recording().SetChecksum(func() uint64 { return hasher.Sum(world) })
//
// It is a handle on the loop, free to copy: getting it allocates nothing.
// Call its methods from the loop's goroutine.
type Recording struct{ l *Loop }

// Recording returns the loop's recording side (see [Recording]).
func (l *Loop) Recording() Recording { return Recording{l} }

// sceneStarts forgets the scene before's checksum and bisector hooks.
func (r *recorder) sceneStarts() {
	r.checksum, r.state = nil, nil
	r.bisect.parts, r.bisect.dump = nil, nil
}

// SetChecksum gives the loop a hash of the scene's game state, for record
// and replay (see [InputLog]): when recording, the loop stores sum() after
// every [InputLog.ChecksumEvery]th tick of the first group; when replaying,
// it compares sum() with the recorded value at the same ticks, and at the
// first mismatch ends the event stream with a [*DivergenceError] (in
// [Loop.Err], and returned by [Run]). sum is called on the next call to
// [Loop.Next] after the scene has handled the tick, so the state it hashes
// includes everything that tick did (a scene that ends on a tick calls
// [Recording.Checkpoint] to have that last tick checked). It must not depend on the frame rate
// (render state, real time) and, to keep replay free of allocation, should
// not allocate.
//
// [Run] clears it before each scene: a scene sets its own, before or after
// [Loop.Start]; nil turns checksums off.
func (r Recording) SetChecksum(sum func() uint64) { r.l.rec.checksum = sum }

// PathNames reports whether the run's state checksums name component types
// by their Go package paths, as recordings made before input log format 5
// did: the run replays such a recording, or goes on from a save of one
// (and is then recorded in that format). A scene that hashes its world
// with package engine/state makes its hasher with
// state.Options.PathNames set to it, so that those recordings replay to
// the checksums they hold; package systems/stage does. It is false for
// every run that is not one of those, whose checksums name types by the
// names they declare.
func (r Recording) PathNames() bool { return r.l.pathNames }

// Checkpoint follows up the tick just handled now (its state checksum, the
// bisector's detail, Options.AfterUpdate), instead of at the next call to
// Next. A scene that returns right after a tick calls it before it releases
// its world, so that its last tick is checked too (stage.Stage does).
func (r Recording) Checkpoint() { r.l.followUp() }
