package core

import (
	"github.com/fixedstep/fixedstep/engine"
	"github.com/fixedstep/fixedstep/engine/state"
	"github.com/fixedstep/fixedstep/systems/physics"
	"github.com/fixedstep/fixedstep/third_party/donburi"
)

// sceneState is the stage as the loop's engine.SceneState: its keyframes
// hold the world (with the cp space, when the stage has physics) and what
// the scene keeps with Keep, so that a step back restores one and
// simulates only the ticks after it again.
type sceneState struct {
	s     *Stage
	slots []stateSlot

	sampled, after []uint64             // the kept values' sums around a tick-input source's answer (keep.go)
	world          uint64               // and, under the sync test, the world's checksum
	parts          []state.ComponentSum // and its component types'
}

// stateSlot is the stage's state in one slot, for keyframes and the sync
// test: the world (with the cp space, when the stage has physics); the
// values kept with Keep go in the keepers' own slot of the same number.
type stateSlot struct {
	phys  physics.Snapshot
	world donburi.Snapshot
	ended bool         // End was called
	next  engine.Scene // with this scene
}

// save saves the stage's state into sl, and the kept values into their
// slot keeperSlot.
func (sl *stateSlot) save(s *Stage, keeperSlot int) error {
	for _, k := range s.keepers {
		k.save(keeperSlot)
	}
	sl.ended, sl.next = s.ended, s.next
	if s.Physics != nil {
		return s.Physics.Snapshot(&sl.phys)
	}
	return donburi.SnapshotWorld(s.World, &sl.world)
}

// restore puts the stage's state back from sl, and the kept values from
// their slot keeperSlot.
func (sl *stateSlot) restore(s *Stage, keeperSlot int) error {
	for _, k := range s.keepers {
		k.restore(keeperSlot)
	}
	s.ended, s.next = sl.ended, sl.next
	if s.Physics != nil {
		return s.Physics.Restore(&sl.phys)
	}
	return donburi.RestoreWorld(s.World, &sl.world)
}

// bytes is the memory sl holds (the kept values are a few words).
func (sl *stateSlot) bytes(s *Stage) int {
	if s.Physics != nil {
		return sl.phys.Bytes()
	}
	return sl.world.Bytes()
}

// keeperSlot is where keyframe `slot` goes among the keepers' slots: after
// the sync test's.
func (k *sceneState) keeperSlot(slot int) int {
	if k.s.sync != nil {
		return len(k.s.sync.slots) + slot
	}
	return slot
}

func (k *sceneState) SaveState(slot int) error {
	for len(k.slots) <= slot {
		k.slots = append(k.slots, stateSlot{})
	}
	return k.slots[slot].save(k.s, k.keeperSlot(slot))
}

func (k *sceneState) RestoreState(slot int) error {
	return k.slots[slot].restore(k.s, k.keeperSlot(slot))
}

// StateBytes is the memory slot holds.
func (k *sceneState) StateBytes(slot int) int {
	if slot >= len(k.slots) {
		return 0
	}
	return k.slots[slot].bytes(k.s)
}

// AppendState and ReadState make the stage's engine.SceneState an
// engine.StateWriter: a save holds the stage's state as bytes, and a load
// reads it instead of simulating the scene again (bytes.go).
func (k *sceneState) AppendState(b []byte) ([]byte, error) { return k.s.AppendState(b) }
func (k *sceneState) ReadState(b []byte) error             { return k.s.ReadState(b) }
