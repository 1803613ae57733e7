package engine

import (
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"time"

	"github.com/fixedstep/fixedstep/engine/internal/atomicfile"
	"github.com/fixedstep/fixedstep/engine/internal/inputlog"
)

// Save games. A save holds the run up to a tick as the run's own recording
// does: every scene's timeline and the input of every tick, with the state
// checksum at the tick it stops after; and, when the scene gives the loop
// its state as bytes (a StateWriter: stage.Stage's SceneState is one), that
// state. Loading one (Options.Load) simulates the run's scenes before the
// save's again at full speed, then puts the save's state into the save's
// scene before its first tick (see StateWriter for when it simulates that
// scene too), checks the save's checksum, and the game goes on live from
// there. The game is deterministic, so this is the state the save was made
// in, exactly: the world, the physics (cp's hidden state included: its
// contact impulses, its spatial index, its sleeping bodies), the random
// sources, and whatever the scenes keep in their values, carried from scene
// to scene as the run carried it. Nothing needs declaring for a save but
// the names of a scene's own assets (core.Name). BenchmarkLoad (package
// scenes) measures a load both ways.

// GameInfo names a game and its version in the saves it writes: a save
// from another game, or from another version of this one, is refused.
type GameInfo struct {
	Name, Version string
}

// A Save is a save file read by [LoadSave]: a run up to a tick, to go on
// from with Options.Load.
type Save struct {
	Game      GameInfo
	Scene     int    // the scene timeline it stops in, from 1
	SceneName string // that scene's name
	Tick      int64  // the ticks of that timeline's first group it ran
	Checksum  uint64 // the state checksum there (0: the scene had none)

	log     *InputLog
	state   *savedState // the scene's state there, nil when the save holds none (savestate.go)
	read    bool        // the last run loaded from it read its state
	reached bool        // the last run loaded from it reached its tick, with its checksum
}

// HoldsState reports whether the save holds its scene's state, which a
// load puts in at once instead of simulating that scene's ticks again
// (see StateWriter).
func (s *Save) HoldsState() bool { return s.state != nil }

// StateRead reports whether the last run that went on from the save read
// its state, rather than simulating the save's scene again (see
// StateWriter for when a load simulates).
func (s *Save) StateRead() bool { return s.read }

// Loaded reports whether the last run that went on from the save reached
// the save's tick with the save's state checksum: false when it failed on
// the way (a state refused, a divergence).
func (s *Save) Loaded() bool { return s.reached }

// State says what the save's state holds (its sizes among it), false when
// the save holds none.
func (s *Save) State() (StateInfo, bool) {
	if s.state == nil {
		return StateInfo{}, false
	}
	return s.state.info, true
}

// Seed returns the seed the saved run's recording holds (InputLog.Seed).
func (s *Save) Seed() uint64 { return s.log.Seed }

// Settings returns the settings the saved run's recording holds
// (InputLog.Settings): a game's flags, which a load must run with.
func (s *Save) Settings() map[string]string { return s.log.Settings }

// ErrBadSave is wrapped by every error about a malformed save file.
var ErrBadSave = inputlog.ErrBadSave

// ParseSave decodes a save file's bytes. A file that is not a save, of
// another format version, cut short or damaged (a changed byte) is an
// error wrapping ErrBadSave that says which.
func ParseSave(data []byte) (*Save, error) {
	meta, run, l, err := inputlog.ParseSave(data)
	if err != nil {
		return nil, err
	}
	lg := &InputLog{Seed: run.Seed, Settings: run.Settings, Players: run.Players, determinism: run.Determinism,
		version: run.Version, log: *l}
	s := &Save{Game: GameInfo{meta.Game, meta.Version}, Scene: meta.Scene, SceneName: l.Scenes[meta.Scene-1].Name,
		Tick: meta.Tick, Checksum: meta.Sum, log: lg}
	if len(meta.State) > 0 {
		if s.state, err = parseSavedState(meta.State, s); err != nil {
			return nil, err
		}
	}
	return s, nil
}

// LoadSave reads and checks a save file (see ParseSave).
func LoadSave(path string) (*Save, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, fmt.Errorf("engine: load save: %w", err)
	}
	defer f.Close()
	if fi, err := f.Stat(); err == nil && !fi.Mode().IsRegular() {
		return nil, fmt.Errorf("engine: load save %s: not a regular file", path)
	}
	data, err := io.ReadAll(io.LimitReader(f, inputlog.MaxSize+1))
	if err != nil {
		return nil, fmt.Errorf("engine: load save %s: %w", path, err)
	}
	s, err := ParseSave(data)
	if err != nil {
		return nil, fmt.Errorf("engine: load save %s: %w", path, err)
	}
	return s, nil
}

// CheckGame refuses a save made by another game, or another version of
// it, than game (Options.Load is refused the same way).
func (s *Save) CheckGame(game GameInfo) error {
	switch {
	case s.Game.Name != game.Name:
		return fmt.Errorf("engine: load: a save of game %q; this game is %q", s.Game.Name, game.Name)
	case s.Game.Version != game.Version:
		return fmt.Errorf("engine: load: a save of %s version %q; this is version %q", game.Name, s.Game.Version, game.Version)
	}
	return nil
}

// saveRequest is a save asked for by Loop.Save, written once the run is
// at a tick boundary of the first group.
type saveRequest struct {
	path string
	done func(error)
}

// Save asks for the game to be saved to path as it is once the scene has
// handled the current event (from an update system: after its tick), and
// tells done (which may be nil) how it went, at the next call to Next: a
// scene that ends on the tick is not saved after it (done is not told). The run must be recorded
// ([Options.Record]: cli.App records every run). The file is written whole
// or not at all (a file beside it, renamed over it), and only a save file
// is replaced: a recording or any other file at path is an error and stays.
// A later call before the save is written replaces the earlier one, whose
// done hears of it. Call it from the loop's goroutine.
func (l *Loop) Save(path string, done func(error)) {
	if old := l.rec.save; old != nil && old.done != nil {
		old.done(errors.New("engine: save: replaced by a later save"))
	}
	l.rec.save = &saveRequest{path, done}
}

// maybeSave writes the save asked for, once the scene has handled the
// event it was asked in: the state is whole between two events.
func (r *recorder) maybeSave() {
	l := r.loop
	if r.save == nil || !l.begun || r.seek != nil || r.rewind != nil {
		return
	}
	req := r.save
	r.save = nil
	err := r.writeSave(req.path)
	if req.done != nil {
		req.done(err)
	}
}

// writeSave writes the run so far to path as a save.
func (r *recorder) writeSave(path string) error {
	l := r.loop
	if r.record == nil {
		return errors.New("engine: save: the run is not recorded (Options.Record)")
	}
	counts := make([]int64, len(l.groups))
	for i := range l.groups {
		counts[i] = l.groups[i].ticks
	}
	r.record.log.SetTicks(counts)
	var sum uint64
	if r.checksum != nil {
		sum = r.checksum()
	}
	var state []byte
	var err error
	if l.net.session == nil { // a session's save loads by simulating: its ticks may not be final
		state, err = r.saveState(counts, sum)
	}
	if err != nil {
		return fmt.Errorf("engine: save %s: the scene's state: %w", path, err)
	}
	meta := inputlog.SaveMeta{Game: l.game.Name, Version: l.game.Version, Scene: l.scenes, Tick: counts[0], Sum: sum, State: state}
	p := r.record.prefix(l.scenes, counts)
	data, err := inputlog.EncodeSave(meta, p.run(), &p.log)
	if err != nil {
		return fmt.Errorf("engine: save %s: %w", path, err)
	}
	return writeSaveFile(path, data)
}

// writeSaveFile writes data to path by rename, replacing only a save.
func writeSaveFile(path string, data []byte) error {
	target, err := atomicfile.Target(path)
	if err != nil {
		return fmt.Errorf("engine: save to %s: %w", path, err)
	}
	if old, err := os.Open(target); err == nil {
		head := make([]byte, len(inputlog.SaveMagic))
		n, _ := io.ReadFull(old, head)
		old.Close()
		if !inputlog.IsSave(head[:n]) {
			return fmt.Errorf("engine: save to %s: a file that is not a save is there (a recording?): save elsewhere, or move it", path)
		}
	}
	tmp, err := os.CreateTemp(filepath.Dir(target), filepath.Base(target)+".*.tmp")
	if err != nil {
		return fmt.Errorf("engine: save: %w", err)
	}
	_, err = tmp.Write(data)
	if err == nil {
		err = tmp.Sync()
	}
	if cerr := tmp.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = os.Chmod(tmp.Name(), 0o644)
	}
	if err == nil {
		err = os.Rename(tmp.Name(), target)
	}
	if err != nil {
		os.Remove(tmp.Name())
		return fmt.Errorf("engine: save to %s: %w", path, err)
	}
	atomicfile.SyncDir(filepath.Dir(target))
	return nil
}

// startLoad readies the loop to go on from a save: the run is simulated
// again from its first scene to the save's tick, replaying the save's
// recording (recorded anew, when the run records), then goes on live.
func (r *recorder) startLoad(s *Save) {
	s.read, s.reached = false, false
	r.replay = s.log
	r.seek = &seekTarget{scene: s.Scene, tick: s.Tick, live: true, load: s, state: s.state}
}

// loadDone checks the state the load reached against the save's checksum.
func (r *recorder) loadDone(s *Save) error {
	if r.checksum == nil || s.Checksum == 0 {
		s.reached = true
		return nil
	}
	l := r.loop
	if sum := r.checksum(); sum != s.Checksum {
		return &DivergenceError{Scene: l.scenes, Name: l.sceneName, Group: l.groups[0].Name, Tick: l.groups[0].ticks,
			Since: r.checkSince, Recorded: s.Checksum, Replayed: sum, Unversioned: s.log.determinism == 0}
	}
	s.reached = true
	return nil
}

// loadTime is the game time a load's re-run goes to in the save's scene:
// the due time of the last tick any group had run, so that each runs the
// ticks it had (the recording's end stops a group there); ticks due with
// them that the save came before run in the next frame, as they ran after
// it in the run that saved.
func (l *Loop) loadTime(ticks []int64) time.Duration {
	var t time.Duration
	for i := range l.groups {
		t = max(t, l.groups[i].rate.Due(ticks[i]))
	}
	return t
}
