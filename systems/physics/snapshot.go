package physics

import (
	"errors"
	"unsafe"

	"github.com/fixedstep/fixedstep/third_party/cp"
	"github.com/fixedstep/fixedstep/third_party/donburi"
)

// A Snapshot holds the whole state of a physics world between two ticks:
// the donburi world (every entity and component, see
// donburi.SnapshotWorld), the cp space (bodies, shapes, constraints,
// arbiters with their cached impulses, the spatial index, sleeping, see
// cp.Space.Snapshot) and the system's own (the tick, a bad body found,
// the pairs of shapes touching: see Physics.OnTouch, and the contacts
// noted for the next step's events and handlers: a shape removed between
// two steps separates at once, and is reported with the next step's).
// Restore puts it all back into the same objects: the ticks that follow
// give, bit for bit, what the ticks after the snapshot gave, and a
// *cp.Body or component pointer the game holds is the world's again.
//
// A snapshot's memory is reused by the next Snapshot into it: snapshots of
// a world of a steady size allocate nothing once warm. Cost and size:
// BenchmarkPhysicsSnapshot.
type Snapshot struct {
	world donburi.Snapshot
	space cp.Snapshot
	owner *Physics
	tick  int64
	err   *BadBodyError

	touching, begun []touch
	touchesEnded    int

	collisionBegins, collisionSeparates []Collision
	contactBegins, contactSeparates     []contactRecord
}

// Snapshot saves the world's and the space's whole state into s,
// replacing what s held. Call it between ticks.
func (p *Physics) Snapshot(s *Snapshot) error {
	if err := p.space.Snapshot(&s.space); err != nil {
		return err
	}
	if err := donburi.SnapshotWorld(p.world, &s.world); err != nil {
		return err
	}
	s.owner, s.tick, s.err = p, p.tick, p.err
	s.touching = copyInto(s.touching, p.touches.touching)
	s.begun = copyInto(s.begun, p.touches.begun)
	s.touchesEnded = p.touches.ended
	s.collisionBegins = copyInto(s.collisionBegins, p.begins)
	s.collisionSeparates = copyInto(s.collisionSeparates, p.separate)
	s.contactBegins = copyInto(s.contactBegins, p.contacts.begins)
	s.contactSeparates = copyInto(s.contactSeparates, p.contacts.separates)
	return nil
}

// Restore puts the world and the space back as they were when s was taken
// of this system. Call it between ticks.
func (p *Physics) Restore(s *Snapshot) error {
	if s.owner != p {
		return errors.New("physics: Restore: the snapshot is of another physics system (or empty)")
	}
	if err := p.space.Restore(&s.space); err != nil {
		return err
	}
	if err := donburi.RestoreWorld(p.world, &s.world); err != nil {
		return err
	}
	p.tick, p.err = s.tick, s.err
	p.touches.touching = copyInto(p.touches.touching, s.touching)
	p.touches.begun = copyInto(p.touches.begun, s.begun)
	p.touches.ended = s.touchesEnded
	p.begins = copyInto(p.begins, s.collisionBegins)
	p.separate = copyInto(p.separate, s.collisionSeparates)
	p.contacts.begins = copyInto(p.contacts.begins, s.contactBegins)
	p.contacts.separates = copyInto(p.contacts.separates, s.contactSeparates)
	return nil
}

// Bytes returns about how much memory the snapshot's saved values take.
func (s *Snapshot) Bytes() int {
	return s.world.Bytes() + s.space.Bytes() + (len(s.touching)+len(s.begun))*int(unsafe.Sizeof(touch{})) +
		(len(s.collisionBegins)+len(s.collisionSeparates))*int(unsafe.Sizeof(Collision{})) +
		(len(s.contactBegins)+len(s.contactSeparates))*int(unsafe.Sizeof(contactRecord{}))
}

// copyInto returns dst holding src's elements, in dst's memory when it is
// large enough; what dst held beyond them is zeroed (it holds no shapes).
func copyInto[T any](dst, src []T) []T {
	n := copy(dst[:cap(dst)], src)
	if n < len(src) {
		return append(dst[:n], src[n:]...)
	}
	if n < len(dst) {
		clear(dst[n:])
	}
	return dst[:n]
}
