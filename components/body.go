package components

import (
	"github.com/fixedstep/fixedstep/third_party/cp"
	"github.com/fixedstep/fixedstep/third_party/donburi"
)

// Body is an entity's rigid body in its world's cp.Space. The physics system
// puts it in the space when the entity is spawned, copies its pose into the
// entity's Transform after every step, and takes it out (with its shapes and
// constraints) when the entity is removed. The body's UserData is the
// entity's donburi.Entity.
type Body struct {
	Body *cp.Body
}

// BodyC is the Body component type.
var BodyC = donburi.NewComponentType[Body]()

// Shape is the collision shapes attached to an entity's Body. Each shape's
// UserData is the entity's donburi.Entity, so collisions name entities.
type Shape struct {
	Shapes []*cp.Shape
}

// ShapeC is the Shape component type.
var ShapeC = donburi.NewComponentType[Shape]()
