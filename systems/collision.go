package systems

import "github.com/fixedstep/fixedstep/third_party/donburi"

// Collision names the two entities whose shapes began or stopped touching,
// A < B: the event package physics publishes (physics.CollisionBegin and
// physics.CollisionSeparate), where it is physics.Collision.
//
// It is declared here rather than in package physics because the type of
// an event is the type of a component of the world (donburi's events keep
// each event type's bus as an entity), and the state checksum names a
// component type by its Go package path (engine/state): every recording of
// a world with physics holds this path, and keeps replaying as long as the
// type stays where it is.
type Collision struct {
	A, B donburi.Entity
}
