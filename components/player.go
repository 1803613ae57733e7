package components

import "github.com/yohamta/donburi"

// Player marks the entity the player drives, and how: the arrow keys or WASD,
// or the left stick of gamepad slot Pad, push its body with up to Force
// (newtons in world units) towards a top speed of Speed (units per second).
type Player struct {
	Force, Speed float64
	Pad          int
}

// PlayerC is the Player component type.
var PlayerC = donburi.NewComponentType[Player]()
