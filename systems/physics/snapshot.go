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
	own   ownState // the system's own (bytes.go writes the same as bytes)
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
	s.owner = p
	p.saveOwn(&s.own)
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
	p.restoreOwn(&s.own)
	return nil
}

// Bytes returns about how much memory the snapshot's saved values take.
func (s *Snapshot) Bytes() int {
	o := &s.own
	return s.world.Bytes() + s.space.Bytes() + (len(o.Touching)+len(o.Begun))*int(unsafe.Sizeof(touch{})) +
		(len(o.Begins)+len(o.Separate))*int(unsafe.Sizeof(Collision{})) +
		(len(o.ContactBegins)+len(o.ContactSeparates))*int(unsafe.Sizeof(contactRecord{}))
}

// saveOwn copies the system's own state into o, in o's memory.
func (p *Physics) saveOwn(o *ownState) {
	o.Tick, o.Bad = p.tick, p.err != nil
	if o.Err = (BadBodyError{}); p.err != nil {
		o.Err = *p.err
	}
	o.Touching = copyInto(o.Touching, p.touches.touching)
	o.Begun = copyInto(o.Begun, p.touches.begun)
	o.TouchesEnded = p.touches.ended
	o.Begins = copyInto(o.Begins, p.begins)
	o.Separate = copyInto(o.Separate, p.separate)
	o.ContactBegins = copyInto(o.ContactBegins, p.contacts.begins)
	o.ContactSeparates = copyInto(o.ContactSeparates, p.contacts.separates)
}

// restoreOwn puts the system's own state back from o, in p's memory.
func (p *Physics) restoreOwn(o *ownState) {
	p.tick = o.Tick
	switch {
	case !o.Bad:
		p.err = nil
	case p.err == nil || *p.err != o.Err: // the error it holds, when the same: no allocation
		bad := o.Err
		p.err = &bad
	}
	p.touches.touching = copyInto(p.touches.touching, o.Touching)
	p.touches.begun = copyInto(p.touches.begun, o.Begun)
	p.touches.ended = o.TouchesEnded
	p.begins = copyInto(p.begins, o.Begins)
	p.separate = copyInto(p.separate, o.Separate)
	p.contacts.begins = copyInto(p.contacts.begins, o.ContactBegins)
	p.contacts.separates = copyInto(p.contacts.separates, o.ContactSeparates)
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
