package engine

import (
	"errors"
	"fmt"

	"github.com/fixedstep/fixedstep/engine/input"
	"github.com/fixedstep/fixedstep/engine/internal/statefile"
)

// Runs that begin from a state. Options.FromState starts a run from a
// state file (Recording.AppendState's), written by another process, on
// another CPU perhaps: the scene is made (the first scene as Run's first
// always is; a later scene by the first, a SceneMaker), and before its
// first tick the state is read into it, and the loop's counters, and a
// session's ticks, go to the state's ticks. The run then goes on from
// there as the run that wrote the state went on: a game server resumes a
// match from the state it stored, and a player who joins a match under way
// starts from the server's state rather than simulating the match so far.
//
// The state must be of the run's game (Options.Game), of this engine's
// arithmetic (Determinism), and of the first scene (its timeline 1, of the
// same name) or of a later scene the first makes afresh (SceneMaker): what
// a later scene was handed by the one before is a value of the game's
// code, not state. Its checksum is checked once read, when the scene
// gives the loop one (Recording.SetChecksum). A run from a state has
// nothing of the ticks before it to replay or record.

// fromState is a run's Options.FromState, read, until its jump is done.
type fromState struct {
	st   *savedState
	meta statefile.Meta
}

// parseFromState reads a state file for Options.FromState.
func parseFromState(data []byte, game GameInfo) (*fromState, error) {
	meta, body, err := statefile.Parse(data)
	if err != nil {
		return nil, fmt.Errorf("engine: Options.FromState: %w: %w", ErrBadSave, err)
	}
	switch {
	case meta.Game != game.Name || meta.Version != game.Version:
		return nil, fmt.Errorf("engine: Options.FromState: a state of %s version %q; the run is of %s version %q (a state is read only by the game and version that wrote it)",
			meta.Game, meta.Version, game.Name, game.Version)
	case meta.Determinism != Determinism:
		return nil, fmt.Errorf("engine: Options.FromState: a state computed with determinism version %d; this engine computes with %d",
			meta.Determinism, Determinism)
	}
	st := &savedState{}
	if err := st.read(body, -1); err != nil {
		return nil, fmt.Errorf("engine: Options.FromState: %w", err)
	}
	if len(st.ticks) == 0 || st.ticks[0] != meta.Tick {
		return nil, fmt.Errorf("engine: Options.FromState: %w: its ticks do not say its tick %d", ErrBadSave, meta.Tick)
	}
	return &fromState{st: st, meta: meta}, nil
}

// begin readies a run that goes on from a save (Options.Load) or begins
// from a state (Options.FromState).
func (r *recorder) begin(opts *Options) error {
	if opts.Load != nil {
		r.startLoad(opts.Load)
	}
	if opts.FromState == nil {
		return nil
	}
	if err := checkFromState(opts); err != nil {
		return err
	}
	f, err := parseFromState(opts.FromState, opts.Game)
	r.from = f
	return err
}

// checkFromState refuses what a run from a state cannot go with.
func checkFromState(opts *Options) error {
	switch {
	case opts.Replay != nil || opts.Load != nil:
		return errors.New("engine: Run: Options.FromState with Replay or Load: a run begins from one of them")
	case opts.Record != nil:
		return errors.New("engine: Run: Options.FromState and Options.Record: a recording holds a run from its first tick")
	case opts.SyncTest > 0 || opts.Keyframes > 0:
		return errors.New("engine: Run: Options.FromState with SyncTest or Keyframes: the ticks before the state are not there to simulate again")
	}
	return nil
}

// jump puts the scene at a state before its first tick, from
// Options.FromState or a save being loaded, and reports whether it did:
// the tick due does not run then.
func (l *Loop) jump() (bool, error) {
	if l.rec.from == nil {
		return l.rec.maybeJump()
	}
	return l.jumpFrom()
}

// jumpFrom puts the scene begun with (the first, or the one a SceneMaker
// made) at Options.FromState's state before its first tick.
func (l *Loop) jumpFrom() (bool, error) {
	f := l.rec.from
	if l.groups[0].ticks != 0 {
		return false, nil
	}
	l.rec.from = nil
	st, meta := f.st, f.meta
	sw, ok := l.rec.state.(StateWriter)
	switch {
	case l.scenes != meta.Scene || meta.SceneName != l.sceneName:
		return false, fmt.Errorf("engine: Options.FromState: a state of scene %d (%q); the run is in its scene %d (%s)",
			meta.Scene, meta.SceneName, l.scenes, l.sceneName)
	case !ok:
		return false, fmt.Errorf("engine: Options.FromState: scene %s gives the loop no state as bytes (a StateWriter)", l.sceneName)
	case len(st.ticks) != len(l.groups) || len(st.held) != len(l.groups)*l.players:
		return false, fmt.Errorf("engine: Options.FromState: a state of %d groups and %d input streams; scene %s has %d groups of %d players",
			len(st.ticks), len(st.held), l.sceneName, len(l.groups), l.players)
	}
	if err := sw.ReadState(st.scene); err != nil {
		return false, fmt.Errorf("engine: Options.FromState: reading the scene's state: %w", err)
	}
	for g := range l.groups {
		gr := &l.groups[g]
		gr.ticks, gr.ran = st.ticks[g], st.ticks[g]
		gr.lastDue, gr.nextDue = gr.rate.Due(gr.ticks), gr.rate.Due(gr.ticks+1)
		held := st.held[g*l.players : (g+1)*l.players]
		copy(gr.players[:l.players], held)
		copy(gr.netAcc[:l.players], held)
		gr.pending = held[0]
		gr.pending.ClearEdges()
		gr.srcPrev = gr.players[0]
	}
	l.tickedUntil = l.groups[0].lastDue
	l.gameTime = l.tickedUntil
	l.net.sampled = l.net.global(l.groups[0].ticks)
	if l.rec.checksum != nil {
		if sum := l.rec.checksum(); sum != meta.Sum {
			return false, fmt.Errorf("engine: Options.FromState: the state read has checksum %016x at tick %d; it was written with %016x",
				sum, meta.Tick, meta.Sum)
		}
	}
	return true, nil
}

// heldStreams returns each input stream's held state for a state file:
// what each group's next tick builds on. A run's own: what its recording
// predicts, or with none, its last tick's held input; in a session, the
// first group's input of its last tick, and the others' input of the
// first group's ticks since their last tick, edges and all.
func (l *Loop) heldStreams() []input.State {
	if l.rec.record != nil && l.net.session == nil {
		return l.rec.logged
	}
	held := make([]input.State, 0, len(l.groups)*l.players)
	for g := range l.groups {
		from := l.groups[g].players[:l.players]
		if g > 0 && l.net.session != nil {
			from = l.groups[g].netAcc[:l.players]
		}
		for _, in := range from {
			if l.net.session == nil {
				in.ClearEdges()
			}
			held = append(held, in)
		}
	}
	return held
}
