package physics

import (
	"encoding/binary"
	"errors"
	"fmt"
	"math"
	"slices"

	"github.com/fixedstep/fixedstep/components"
	"github.com/fixedstep/fixedstep/engine/state"
	"github.com/fixedstep/fixedstep/third_party/cp"
	"github.com/fixedstep/fixedstep/third_party/donburi"
)

// The physics' state as bytes: what a Snapshot holds in memory but the
// world (the stage writes the world, with the Refs these give), written so
// that a Physics of another process, set up by the same scene code, is put
// into it. The bytes are
//
//	watched:uvarint type:u32*   the collision types the physics reports contacts of
//	space                       cp.SpaceWriter's bytes; UserData as a tag (nil, an
//	                            entity, a one-way platform's pass) and an entity
//	own                         state.AppendValue of the system's own state (bytesState):
//	                            the tick, a bad body found, the pairs touching and the
//	                            contacts noted for the next step, cp's objects as references
//
// The collision types come first: the space's arbiters name their handlers
// by types, which the reading space must have. cp's bytes are cp's (see
// cp.SpaceWriter); a body, shape, constraint or arbiter a component or the
// system holds is written as its reference in them.

// ownState is what the system keeps beside the space and the world.
type ownState struct {
	Tick                            int64
	Bad                             bool
	Err                             BadBodyError
	Touching, Begun                 []touch
	TouchesEnded                    int
	Begins, Separate                []Collision
	ContactBegins, ContactSeparates []contactRecord
}

// stateBytes are a Physics' writer and reader, made by its first use.
type stateBytes struct {
	w     cp.SpaceWriter
	r     cp.SpaceReader
	wrefs state.Refs // the references of the objects the writer wrote
	rrefs state.Refs // the objects of the references the reader read
	own   ownState
}

// forget drops from o the cp objects that are no longer the space's, as
// it is written: the shapes and arbiter of a pair marked ended (a shape
// removed since the step: no call names it, the next step drops it), and
// the shapes of a contact one of whose entities is gone from w (no handler
// is called with it). A shape removed from the space while both entities
// live (cp's own RemoveShape on an entity's shape) stays, and is refused
// by the references.
func (o *ownState) forget(w donburi.World) {
	for i := range o.Touching {
		if t := &o.Touching[i]; t.ended {
			t.sa, t.sb, t.arb = nil, nil, nil
		}
	}
	for _, c := range [2][]contactRecord{o.ContactBegins, o.ContactSeparates} {
		for i := range c {
			if r := &c[i]; !alive(w, r.a) || !alive(w, r.b) {
				r.sa, r.sb = nil, nil
			}
		}
	}
}

func (p *Physics) stateBytes() *stateBytes {
	if p.bytes != nil {
		return p.bytes
	}
	s := &stateBytes{}
	s.w.UserData, s.r.UserData = appendUserData, readUserData
	state.AddRefs(&s.wrefs, func(b *cp.Body) (uint64, bool) { return ref32(s.w.BodyRef(b)) },
		func(uint64) (*cp.Body, bool) { return nil, false })
	state.AddRefs(&s.wrefs, func(x *cp.Shape) (uint64, bool) { return ref32(s.w.ShapeRef(x)) },
		func(uint64) (*cp.Shape, bool) { return nil, false })
	state.AddRefs(&s.wrefs, func(c *cp.Constraint) (uint64, bool) { return ref32(s.w.ConstraintRef(c)) },
		func(uint64) (*cp.Constraint, bool) { return nil, false })
	state.AddRefs(&s.wrefs, func(a *cp.Arbiter) (uint64, bool) { return ref32(s.w.ArbiterRef(a)) },
		func(uint64) (*cp.Arbiter, bool) { return nil, false })
	state.AddRefs(&s.rrefs, func(*cp.Body) (uint64, bool) { return 0, false }, deref32(s.r.Body))
	state.AddRefs(&s.rrefs, func(*cp.Shape) (uint64, bool) { return 0, false }, deref32(s.r.Shape))
	state.AddRefs(&s.rrefs, func(*cp.Constraint) (uint64, bool) { return 0, false }, deref32(s.r.Constraint))
	state.AddRefs(&s.rrefs, func(*cp.Arbiter) (uint64, bool) { return 0, false }, deref32(s.r.Arbiter))
	p.bytes = s
	return s
}

func ref32(r uint32, ok bool) (uint64, bool) { return uint64(r), ok }

func deref32[T any](get func(uint32) (*T, bool)) func(uint64) (*T, bool) {
	return func(n uint64) (*T, bool) {
		if n > math.MaxUint32 {
			return nil, false
		}
		return get(uint32(n))
	}
}

// AppendState appends the physics' state but the world's to b, and
// returns the references with which the world's components are written
// (state.AppendWorld): its cp bodies, shapes and constraints, as the bytes
// just written name them. Call it between ticks, then write the world.
// A UserData the physics did not set (a game's own value on a cp object)
// is an error naming the object.
func (p *Physics) AppendState(b []byte) ([]byte, *state.Refs, error) {
	s := p.stateBytes()
	b = binary.AppendUvarint(b, uint64(len(p.watched)))
	for _, t := range p.watched {
		b = binary.LittleEndian.AppendUint32(b, uint32(t))
	}
	b, err := s.w.Append(b, p.space)
	if err != nil {
		return b, nil, fmt.Errorf("physics: AppendState: %w", err)
	}
	o := &s.own
	p.saveOwn(o)
	o.forget(p.world)
	b, err = state.AppendValue(b, o, &s.wrefs)
	*o = ownState{}
	if err != nil {
		return b, nil, fmt.Errorf("physics: AppendState: %w", err)
	}
	return b, &s.wrefs, nil
}

// CheckState reads the bytes AppendState wrote as ReadState would and
// returns the bytes after them, but leaves the physics as it was: the
// references returned resolve to objects of the bytes that are no space's,
// with which the world that follows can be checked (state.ReadWorld into a
// world of its own) before anything is read. The collision types the bytes
// watch are watched from then on (a type watched and never used costs
// nothing).
func (p *Physics) CheckState(b []byte) ([]byte, *state.Refs, error) {
	s := p.stateBytes()
	b, err := p.readWatched(b)
	if err == nil {
		b, err = s.r.Check(b, p.space)
	}
	if err == nil {
		b, err = state.ReadValue(b, &s.own, &s.rrefs)
	}
	if err == nil {
		err = s.own.check()
	}
	if err != nil {
		s.own = ownState{}
		return b, nil, fmt.Errorf("physics: CheckState: %w", err)
	}
	return b, &s.rrefs, nil
}

// check refuses pairs touching and contacts noted that the physics would
// fail on: a pair not ended with no shapes or no arbiter, or an arbiter
// of other shapes; a contact with one shape.
func (o *ownState) check() error {
	for _, t := range [2][]touch{o.Touching, o.Begun} {
		for _, x := range t {
			if x.ended {
				continue
			}
			if x.sa == nil || x.sb == nil || x.arb == nil {
				return errors.New("a pair touching with no shapes or no arbiter")
			}
			if a, b := x.arb.Shapes(); !(a == x.sa && b == x.sb || a == x.sb && b == x.sa) {
				return errors.New("a pair touching whose arbiter is of other shapes")
			}
		}
	}
	for _, c := range [2][]contactRecord{o.ContactBegins, o.ContactSeparates} {
		for _, r := range c {
			if (r.sa == nil) != (r.sb == nil) {
				return errors.New("a contact noted with one shape")
			}
		}
	}
	return nil
}

// CheckWorld checks w, a world read (state.ReadWorld) with the references
// CheckState returned, against the state CheckState read: every Body
// component's body is its entity's (its UserData) or the static body,
// every shape of a Shape component is its entity's and on its body, no
// shape is two entities', and a contact noted between two entities of w
// has its shapes. Bytes that give a world that does not are refused: the
// physics would fail on it (a shape removed twice, a handler given no
// shape). Call it after CheckState, before ReadState.
func (p *Physics) CheckWorld(w donburi.World) error {
	s := p.stateBytes()
	defer func() { s.own = ownState{} }()
	static := s.r.StaticBody()
	owner := map[*cp.Shape]donburi.Entity{}
	var err error
	p.moving.Each(w, func(e *donburi.Entry) {
		if err != nil {
			return
		}
		id, body := e.Entity(), components.BodyC.Get(e).Body
		switch {
		case body == nil:
			err = fmt.Errorf("physics: entity %d has a Body component with no body", id.Id())
			return
		case body != static && body.UserData != id:
			err = fmt.Errorf("physics: entity %d's body is another's", id.Id())
			return
		}
		if !e.HasComponent(components.ShapeC) {
			return
		}
		for _, sh := range components.ShapeC.Get(e).Shapes {
			if _, twice := owner[sh]; twice || sh == nil || sh.UserData != id || sh.Body() != body {
				err = fmt.Errorf("physics: entity %d's shapes are not its own", id.Id())
				return
			}
			owner[sh] = id
		}
	})
	if err != nil {
		return err
	}
	for _, c := range [2][]contactRecord{s.own.ContactBegins, s.own.ContactSeparates} {
		for _, r := range c {
			if r.sa == nil && alive(w, r.a) && alive(w, r.b) {
				return errors.New("physics: a contact noted between two entities with no shapes")
			}
		}
	}
	return nil
}

// ReadState puts the physics, but its world, into the state b holds
// (written by AppendState of a Physics that the same scene code set up),
// and returns the bytes after it and the references with which the world
// that follows is read (state.ReadWorld). Every cp object but the space's
// static body is new: a *cp.Body or *cp.Shape a component holds is the
// world's to give again, as ReadWorld does. On an error the space may be
// left as it was or read; CheckState first, to read only what is whole.
func (p *Physics) ReadState(b []byte) ([]byte, *state.Refs, error) {
	s := p.stateBytes()
	b, err := p.readWatched(b)
	if err == nil {
		b, err = s.r.Read(b, p.space)
	}
	if err != nil {
		return b, nil, fmt.Errorf("physics: ReadState: %w", err)
	}
	o := &s.own
	if b, err = state.ReadValue(b, o, &s.rrefs); err != nil {
		return b, nil, fmt.Errorf("physics: ReadState: %w", err)
	}
	p.restoreOwn(o)
	*o = ownState{}
	p.queries = nil // its scratch held the old space's shapes
	return b, &s.rrefs, nil
}

// readWatched reads the collision types the physics reported contacts of
// and watches each.
func (p *Physics) readWatched(b []byte) ([]byte, error) {
	n, k := binary.Uvarint(b)
	if k <= 0 || n > uint64(len(b)-k)/4 {
		return b, errors.New("the collision types watched: not that many bytes")
	}
	b = b[k:]
	for range n {
		t := cp.CollisionType(binary.LittleEndian.Uint32(b))
		b = b[4:]
		if t == 0 && p.noEvents {
			return b, errors.New("the collision types watched: the bytes' physics reported collisions, this one is made with NoCollisionEvents")
		}
		p.watchType(t)
	}
	return b, nil
}

// UserData tags: what the physics puts in cp's UserData.
const (
	userNil = iota
	userEntity
	userPassed
)

func appendUserData(b []byte, v any) ([]byte, error) {
	switch v := v.(type) {
	case nil:
		return append(b, userNil), nil
	case donburi.Entity:
		return binary.LittleEndian.AppendUint64(append(b, userEntity), uint64(v)), nil
	case passedThrough:
		return append(b, userPassed), nil
	}
	return b, fmt.Errorf("a %T, which the physics' bytes do not hold (the physics keeps an entity there: set a component instead)", v)
}

func readUserData(b []byte) (any, []byte, error) {
	if len(b) == 0 {
		return nil, b, state.ErrShort
	}
	switch b[0] {
	case userNil:
		return nil, b[1:], nil
	case userEntity:
		if len(b) < 9 {
			return nil, b, state.ErrShort
		}
		return donburi.Entity(binary.LittleEndian.Uint64(b[1:])), b[9:], nil
	case userPassed:
		return passedThrough{}, b[1:], nil
	}
	return nil, b, fmt.Errorf("UserData tag %d", b[0])
}

// watchedType notes that the physics reports contacts of collision type t,
// for its bytes: the types in order, so that the same types are the same
// bytes whatever order they were first watched in.
func (p *Physics) watchedType(t cp.CollisionType) {
	if i, found := slices.BinarySearch(p.watched, t); !found {
		p.watched = slices.Insert(p.watched, i, t)
	}
}
