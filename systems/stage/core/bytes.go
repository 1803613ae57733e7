package core

import (
	"errors"
	"fmt"

	"github.com/fixedstep/fixedstep/engine/state"
	"github.com/fixedstep/fixedstep/third_party/donburi"
	"github.com/fixedstep/fixedstep/third_party/donburi/features/events"
)

// The stage's state as bytes: what its keyframes hold in memory (the
// physics' space and own state, the world, what the scene keeps with
// Keep), written so that a stage of another process, set up by the same
// scene code, is put into it and runs on to the same checksums. The bytes
// are the physics' (physics.Physics.AppendState, with a stage that has
// physics), the world's (state.AppendWorld, the cp objects its components
// hold written as references into the physics' bytes, the scene's assets
// by the names they were given: see Name), then each kept
// value's (state.AppendValue), in the order they were kept.
//
// A stage whose scene has ended is refused (its next scene is a value of
// the game's code, not state).

// AppendState appends the stage's whole simulation state to b. It is
// called between events, as keyframes are taken.
func (s *Stage) AppendState(b []byte) ([]byte, error) {
	if s.ended {
		return b, errors.New("stage: AppendState: the scene has ended (its next scene is no state to write)")
	}
	var refs *state.Refs
	var err error
	if s.Physics != nil {
		if b, refs, err = s.Physics.AppendState(b); err != nil {
			return b, fmt.Errorf("stage: AppendState: %w", err)
		}
	}
	if b, err = state.AppendWorld(b, s.World, s.refsWith(refs)); err != nil {
		if errors.Is(err, state.ErrPointer) {
			return b, fmt.Errorf("stage: AppendState: %w; a pointer to an asset of the scene (an image, a clip) is "+
				"written by its name: give it one with core.Name", err)
		}
		return b, fmt.Errorf("stage: AppendState: %w", err)
	}
	for _, k := range s.keepers {
		if b, err = k.appendBytes(b); err != nil {
			return b, fmt.Errorf("stage: AppendState: the value %s: %w", k.name(), err)
		}
	}
	return b, nil
}

// ReadState puts the stage into the state b holds (written by
// AppendState of a stage that the same scene code set up), replacing its
// physics, its world and its kept values. The bytes are read whole into a
// world and values of their own first: bytes that are not such a state
// (damaged, of another scene, of a component type whose fields changed)
// are an error that says which, and the stage is left as it was. The
// world's event buses keep their subscribers (events.SubscribersOf).
func (s *Stage) ReadState(b []byte) error {
	if err := s.checkState(b); err != nil {
		return fmt.Errorf("stage: ReadState: %w", err)
	}
	subs := events.SubscribersOf(s.World)
	rest, refs := b, (*state.Refs)(nil)
	var err error
	if s.Physics != nil {
		if rest, refs, err = s.Physics.ReadState(rest); err != nil {
			return fmt.Errorf("stage: ReadState: %w", err) // checked already: not met
		}
	}
	if err := donburi.ClearWorld(s.World); err != nil {
		return err
	}
	if rest, err = state.ReadWorld(rest, s.World, s.refsWith(refs)); err != nil {
		return fmt.Errorf("stage: ReadState: %w", err)
	}
	if err := subs.Give(s.World); err != nil {
		return fmt.Errorf("stage: ReadState: %w", err)
	}
	for _, k := range s.keepers {
		if rest, err = k.readBytes(rest); err != nil {
			return fmt.Errorf("stage: ReadState: the value %s: %w", k.name(), err)
		}
	}
	for _, f := range s.onRead {
		f()
	}
	return nil
}

// OnRead has f called at the end of every ReadState, once the physics,
// the world and the kept values are the state read: for what the scene
// derives from its state but does not write into it. A window's scene
// that plays a game server's match dresses the entities of the server's
// state (which has no sprites) with their looks; its own states, rewinds
// and saves hold the looks already, so f must leave an entity that has
// one as it is. f must leave what the state checksum covers as it was
// read: the loop checks the checksum after a read against the one the
// state was written with.
func (s *Stage) OnRead(f func()) { s.onRead = append(s.onRead, f) }

// checkState reads b as ReadState does, into a world and values of its
// own.
func (s *Stage) checkState(b []byte) error {
	rest, refs := b, (*state.Refs)(nil)
	var err error
	if s.Physics != nil {
		if rest, refs, err = s.Physics.CheckState(rest); err != nil {
			return err
		}
	}
	scratch := donburi.NewWorld()
	if rest, err = state.ReadWorld(rest, scratch, s.refsWith(refs)); err != nil {
		return err
	}
	if s.Physics != nil {
		if err := s.Physics.CheckWorld(scratch); err != nil {
			return err
		}
	}
	if err := events.SubscribersOf(s.World).Give(scratch); err != nil {
		return err
	}
	for _, k := range s.keepers {
		if rest, err = k.checkBytes(rest); err != nil {
			return fmt.Errorf("the value %s: %w", k.name(), err)
		}
	}
	if len(rest) != 0 {
		return fmt.Errorf("%d bytes after the state", len(rest))
	}
	return nil
}

// refsWith returns the references the world's components are written and
// read with: the physics' (phys, nil without physics) and the names of
// the scene's assets (Name).
func (s *Stage) refsWith(phys *state.Refs) *state.Refs {
	s.refs.Merge(phys)
	s.refs.Merge(&s.names.refs)
	return &s.refs
}
