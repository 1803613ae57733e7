package core

import (
	"errors"
	"fmt"

	"github.com/fixedstep/fixedstep/engine/state"
	"github.com/fixedstep/fixedstep/third_party/donburi"
)

// The stage's state as bytes: what its keyframes hold in memory (the
// world, what the scene keeps with Keep), written so that a stage of
// another process, set up by the same scene code, is put into it and runs
// on to the same checksums. The bytes are the world's (state.AppendWorld)
// then each kept value's (state.AppendValue), in the order they were kept.
//
// Not written yet, and refused by name: a stage with physics (cp's space
// is not written as bytes yet) and a stage whose scene has ended (its next
// scene is a value of the game's code, not state).

// ErrPhysicsBytes is AppendState's error for a stage with physics.
var ErrPhysicsBytes = errors.New("stage: the physics' space is not written as bytes yet")

// AppendState appends the stage's whole simulation state to b. It is
// called between events, as keyframes are taken.
func (s *Stage) AppendState(b []byte) ([]byte, error) {
	switch {
	case s.Physics != nil:
		return b, ErrPhysicsBytes
	case s.ended:
		return b, errors.New("stage: AppendState: the scene has ended (its next scene is no state to write)")
	}
	b, err := state.AppendWorld(b, s.World, nil)
	if err != nil {
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
// world and its kept values. The bytes are read whole into a world of
// their own first: bytes that are not such a state (damaged, of another
// scene, of a component type whose fields changed) are an error that says
// which, and the stage is left as it was.
func (s *Stage) ReadState(b []byte) error {
	if s.Physics != nil {
		return ErrPhysicsBytes
	}
	rest, err := state.ReadWorld(b, donburi.NewWorld(), nil)
	if err != nil {
		return fmt.Errorf("stage: ReadState: %w", err)
	}
	for _, k := range s.keepers { // read into values of their own: the scene's are kept until all is read
		if rest, err = k.checkBytes(rest); err != nil {
			return fmt.Errorf("stage: ReadState: the value %s: %w", k.name(), err)
		}
	}
	if len(rest) != 0 {
		return fmt.Errorf("stage: ReadState: %d bytes after the state", len(rest))
	}
	if err := donburi.ClearWorld(s.World); err != nil {
		return err
	}
	if rest, err = state.ReadWorld(b, s.World, nil); err != nil {
		return fmt.Errorf("stage: ReadState: %w", err) // read once already: not met
	}
	for _, k := range s.keepers {
		if rest, err = k.readBytes(rest); err != nil {
			return fmt.Errorf("stage: ReadState: the value %s: %w", k.name(), err)
		}
	}
	return nil
}
