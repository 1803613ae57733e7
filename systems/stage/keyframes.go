package stage

import (
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
}

type stateSlot struct {
	phys  physics.Snapshot
	world donburi.Snapshot
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
	s, sl := k.s, &k.slots[slot]
	for _, kp := range s.keepers {
		kp.save(k.keeperSlot(slot))
	}
	if s.Physics != nil {
		return s.Physics.Snapshot(&sl.phys)
	}
	return donburi.SnapshotWorld(s.World, &sl.world)
}

func (k *sceneState) RestoreState(slot int) error {
	s, sl := k.s, &k.slots[slot]
	for _, kp := range s.keepers {
		kp.restore(k.keeperSlot(slot))
	}
	if s.Physics != nil {
		return s.Physics.Restore(&sl.phys)
	}
	return donburi.RestoreWorld(s.World, &sl.world)
}

// StateBytes is the memory slot holds (the world and the space; the kept
// values are a few words).
func (k *sceneState) StateBytes(slot int) int {
	if slot >= len(k.slots) {
		return 0
	}
	if k.s.Physics != nil {
		return k.slots[slot].phys.Bytes()
	}
	return k.slots[slot].world.Bytes()
}
