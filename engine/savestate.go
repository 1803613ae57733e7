package engine

import (
	"encoding/binary"
	"fmt"
	"math"

	"github.com/fixedstep/fixedstep/engine/input"
	"github.com/fixedstep/fixedstep/engine/internal/inputlog"
	"github.com/fixedstep/fixedstep/engine/internal/statefile"
)

// Saves that load at once. A scene whose SceneState is also a
// StateWriter (stage.Stage's is) has its state written into every save
// (a state file: package engine/internal/statefile), and a load puts it
// in before the save's scene runs its first tick, instead of simulating
// that scene's ticks again: the loop's counters, the replayed recording's
// cursors and the run's own recording go to the save's tick as they would
// have by simulating (its input and checksums copied from the save's
// recording), and the state checksum is checked against the save's. The
// scenes before it in the run (a title screen, a menu) are still
// simulated again: what they hand to the next scene is a value of the
// game's code, not state. The load simulates instead, as a save without a
// state loads, where the state cannot stand for the ticks: a scene whose
// tick-input source (an autopilot) must be asked for every tick to be
// where it was, a recording with the desync bisector's detail, a session.

// A StateWriter is a SceneState that writes its whole simulation state as
// portable bytes and reads them back: into a scene set up by the same
// code, in another process, on another CPU, the ticks after ReadState give
// what the ticks after AppendState gave. Both are called between events;
// ReadState leaves the scene as it was on an error. stage.Stage's
// SceneState is one.
type StateWriter interface {
	AppendState(b []byte) ([]byte, error)
	ReadState(b []byte) error
}

// saveState returns the state file of the current scene for a save, nil
// when the scene gives no state to write.
func (r *recorder) saveState(counts []int64, sum uint64) ([]byte, error) {
	l := r.loop
	sw, ok := r.state.(StateWriter)
	if !ok {
		return nil, nil
	}
	body := binary.AppendUvarint(nil, uint64(len(counts)))
	for _, c := range counts {
		body = binary.AppendUvarint(body, uint64(c))
	}
	held := l.heldStreams()
	body = binary.AppendUvarint(body, uint64(len(held)))
	var zero input.State
	for i := range held {
		body = inputlog.AppendEntry(body, 0, &zero, &held[i])
	}
	body, err := sw.AppendState(body)
	if err != nil {
		return nil, err
	}
	return statefile.Append(nil, statefile.Meta{Game: l.game.Name, Version: l.game.Version, Determinism: Determinism,
		Scene: l.scenes, SceneName: l.sceneName, Before: l.net.base, TimeBefore: int64(l.ranBefore), Tick: counts[0],
		Sum: sum}, body)
}

// savedState is a save's state, read by ParseSave: each group's ticks,
// each input stream's held state (what its recorded entries leave held),
// and the scene's bytes.
type savedState struct {
	ticks []int64
	held  []input.State
	scene []byte
	info  StateInfo
}

// parseSavedState reads the state file of a save and checks it says what
// the save says.
func parseSavedState(data []byte, s *Save) (*savedState, error) {
	meta, body, err := statefile.Parse(data)
	if err != nil {
		return nil, fmt.Errorf("%w: its state: %w", ErrBadSave, err)
	}
	switch {
	case meta.Game != s.Game.Name || meta.Version != s.Game.Version:
		return nil, fmt.Errorf("%w: its state is of %s version %q, the save of %s version %q", ErrBadSave,
			meta.Game, meta.Version, s.Game.Name, s.Game.Version)
	case meta.Scene != s.Scene || meta.SceneName != s.SceneName || meta.Tick != s.Tick || meta.Sum != s.Checksum:
		return nil, fmt.Errorf("%w: its state is of scene %d (%s) at tick %d, checksum %016x; the save stops in scene %d (%s) "+
			"at tick %d, checksum %016x", ErrBadSave, meta.Scene, meta.SceneName, meta.Tick, meta.Sum, s.Scene, s.SceneName,
			s.Tick, s.Checksum)
	case meta.Determinism != Determinism:
		return nil, nil // another arithmetic: loaded by simulating, which checkDeterminism judges
	}
	rec := s.log.log.Scenes[s.Scene-1].Ticks
	st := &savedState{info: StateInfo{Game: s.Game, Determinism: meta.Determinism, Scene: meta.Scene,
		SceneName: meta.SceneName, Before: meta.Before, Tick: meta.Tick, Checksum: meta.Sum, Bytes: len(body),
		FileBytes: len(data), Hash: meta.Hash}}
	if err := st.read(body, len(rec)*max(s.log.log.Players, 1)); err != nil {
		return nil, err
	}
	if len(st.ticks) != len(rec) {
		return nil, fmt.Errorf("%w: its state has ticks for %d groups, the save's scene %d", ErrBadSave, len(st.ticks), len(rec))
	}
	for g, t := range st.ticks {
		if t != rec[g] {
			return nil, fmt.Errorf("%w: its state is not at the ticks the save's recording stops at", ErrBadSave)
		}
	}
	return st, nil
}

// maxStateGroups bounds the groups a state file may say its scene has
// (a scene has a few), so that damaged counts allocate nothing large.
const maxStateGroups = 256

// read reads a state's body: each group's ticks, each input stream's held
// state (streams of them, or any number when streams is negative), and
// the scene's bytes.
func (st *savedState) read(body []byte, streams int) error {
	n, k := binary.Uvarint(body)
	if k <= 0 || n > maxStateGroups {
		return fmt.Errorf("%w: its state has no ticks", ErrBadSave)
	}
	st.ticks = make([]int64, n)
	body = body[k:]
	for g := range st.ticks {
		t, k := binary.Uvarint(body)
		if k <= 0 || t > math.MaxInt64/2 {
			return fmt.Errorf("%w: its state's ticks are damaged", ErrBadSave)
		}
		st.ticks[g], body = int64(t), body[k:]
	}
	n, k = binary.Uvarint(body)
	if k <= 0 || streams >= 0 && n != uint64(streams) || n > maxStateGroups*input.MaxPlayers {
		return fmt.Errorf("%w: its state has input for %d streams, not the save's %d", ErrBadSave, n, streams)
	}
	off := k
	var zero input.State
	st.held = make([]input.State, n)
	for i := range st.held {
		step, k := binary.Uvarint(body[off:])
		if k <= 0 || step != 0 {
			return fmt.Errorf("%w: its state's input is damaged", ErrBadSave)
		}
		var err error
		if off, err = inputlog.ReadEntry(body, off+k, &zero, &st.held[i]); err != nil {
			return fmt.Errorf("%w: its state's input: %w", ErrBadSave, err)
		}
	}
	st.scene = body[off:]
	return nil
}

// maybeJump puts the scene and the loop at the save's tick from the save's
// state, before the first tick of the save's scene in a load's re-run. It
// reports whether it did: the tick due does not run then (the re-run's
// timeline is done), and the load ends as a simulated one does, checking
// the state's checksum against the save's.
func (r *recorder) maybeJump() (bool, error) {
	l, t := r.loop, r.seek
	if t == nil || t.state == nil || l.scenes != t.scene || l.groups[0].ticks != 0 || !r.mayJump(t.state) {
		return false, nil
	}
	st := t.state
	t.state = nil
	if err := r.state.(StateWriter).ReadState(st.scene); err != nil {
		return false, fmt.Errorf("engine: load: reading the scene's state: %w", err)
	}
	t.load.read = true
	if err := r.jumpInput(st); err != nil {
		return false, err
	}
	for g := range l.groups {
		gr := &l.groups[g]
		gr.ticks, gr.ran = st.ticks[g], max(gr.ran, st.ticks[g])
		gr.lastDue, gr.nextDue = gr.rate.Due(gr.ticks), gr.rate.Due(gr.ticks+1)
		gr.pending.ClearEdges()
		gr.srcPrev = gr.players[0]
	}
	l.tickedUntil = l.groups[0].lastDue
	rs := r.replayed
	r.checkNext = 0
	for r.checkNext < len(rs.Checks) && rs.Checks[r.checkNext].Tick <= st.ticks[0] {
		r.checkNext++
	}
	r.checkSince = st.ticks[0]
	return true, nil
}

// mayJump reports whether st can stand for the ticks of the save's scene:
// no tick-input source to ask for each of them, no session, no detail to
// record or compare, no stop (Options.StopAt) within them, and checksums
// to record (when recording) that the save's recording holds.
func (r *recorder) mayJump(st *savedState) bool {
	l := r.loop
	if _, ok := r.state.(StateWriter); !ok || r.replayed == nil || l.net.session != nil || r.detailed() ||
		l.reachesStop(l.groups[0].rate.Due(st.ticks[0])) {
		return false
	}
	for g := range l.groups {
		if l.tickSource(g) != nil {
			return false
		}
	}
	if r.record != nil {
		every := r.record.log.Scenes[len(r.record.log.Scenes)-1].Every
		if r.replayed.Every == 0 || every%r.replayed.Every != 0 {
			return false
		}
	}
	return true
}

// jumpInput puts the replay's cursors at the end of the save's scene
// (whose last tick is the save's), each group's players and the
// recorder's prediction at the input each stream holds there, and gives
// the run's own recording (when it records) the input and checksums of
// the scene so far, copied from the save's recording (inputlog's
// CopyTimeline).
func (r *recorder) jumpInput(st *savedState) error {
	l, rs := r.loop, r.replayed
	if len(st.held) != len(r.cursors) || len(rs.Input) != len(r.cursors) {
		return fmt.Errorf("engine: load: the save's state has %d input streams, its scene %d", len(st.held), len(r.cursors))
	}
	for i := range r.cursors {
		r.cursors[i].End(rs.Input[i], st.held[i])
		l.groups[i/l.players].players[i%l.players] = st.held[i]
		if i < len(r.logged) {
			r.logged[i] = st.held[i]
		}
	}
	if r.record == nil {
		return nil
	}
	return r.record.log.CopyTimeline(rs)
}

// AppendState appends the current scene's state to b as a state file: the
// file a save holds (see StateWriter), with the game, the scene, the tick
// of its first group and the state checksum there; for a game's own store
// of states (a server's, a spectator's), and for Options.FromState. It
// writes the state as it is when called, which is whole between ticks:
// call it from an Options.AfterUpdate hook, or from the last update system
// of the first group's tick (called from a system with others after it,
// it writes a state those have not changed yet, which no tick ended on).
// A scene that gives the loop no
// StateWriter is an error, and so is a session's run with a tick not final
// (one a rollback may yet simulate again).
func (r Recording) AppendState(b []byte) ([]byte, error) {
	l := r.l
	if _, ok := l.rec.state.(StateWriter); !ok {
		return b, fmt.Errorf("engine: AppendState: scene %s gives the loop no state as bytes (a StateWriter)", l.sceneName)
	}
	if l.net.session != nil && !l.net.final(l) {
		return b, fmt.Errorf("engine: AppendState: tick %d of the session is not final", l.net.global(l.groups[0].ticks))
	}
	return l.appendState(b)
}

// appendState appends the current scene's state to b as a state file.
func (l *Loop) appendState(b []byte) ([]byte, error) {
	counts := make([]int64, len(l.groups))
	for i := range l.groups {
		counts[i] = l.groups[i].ticks
	}
	var sum uint64
	if l.rec.checksum != nil {
		sum = l.rec.checksum()
	}
	f, err := l.rec.saveState(counts, sum)
	if err != nil {
		return b, fmt.Errorf("engine: AppendState: %w", err)
	}
	return append(b, f...), nil
}

// A StateInfo says what a state file holds (Recording.AppendState).
type StateInfo struct {
	Game        GameInfo
	Determinism int
	Scene       int    // the scene timeline, from 1
	SceneName   string // its name
	// Before is the ticks of the first groups of the run's timelines
	// before the scene's, summed: the state is after the run's tick
	// Before+Tick (a session's tick). 0 in a state file of an engine
	// that did not write it (of the first scene, it is 0).
	Before    int64
	Tick      int64  // the ticks of its first group run
	Checksum  uint64 // the state checksum there
	Bytes     int    // the state's bytes, uncompressed
	FileBytes int    // the file's (compressed)
	// Hash is the xxhash64 of the state's bytes, which are the same on
	// every CPU (the file's compression may not be).
	Hash uint64
}

// ParseStateInfo reads and checks a state file and says what it holds. A
// file that is not one, damaged or cut short is an error wrapping
// ErrBadSave.
func ParseStateInfo(data []byte) (StateInfo, error) {
	meta, body, err := statefile.Parse(data)
	if err != nil {
		return StateInfo{}, fmt.Errorf("%w: %w", ErrBadSave, err)
	}
	return StateInfo{Game: GameInfo{meta.Game, meta.Version}, Determinism: meta.Determinism, Scene: meta.Scene,
		SceneName: meta.SceneName, Before: meta.Before, Tick: meta.Tick, Checksum: meta.Sum, Bytes: len(body), FileBytes: len(data), Hash: meta.Hash}, nil
}
