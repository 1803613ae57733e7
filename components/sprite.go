package components

import (
	"github.com/hajimehoshi/ebiten/v2"
	"github.com/yohamta/donburi"
)

// Sprite is how an entity is drawn: an image (a sub-image of the scene's
// atlas, so that sprites batch), placed with its origin at the entity's
// interpolated Transform, rotated by its angle, scaled and tinted.
type Sprite struct {
	Image *ebiten.Image
	Layer int // lower layers draw first

	// OriginX, OriginY is the point of the image, in its pixels, placed at
	// the transform's position and rotated about.
	OriginX, OriginY float64

	// ScaleX, ScaleY scale the image; 0 means 1.
	ScaleX, ScaleY float64

	// Color multiplies the image's colours; the zero value leaves them as
	// they are. A ColorScale keeps draw calls batched (a ColorM would not).
	Color ebiten.ColorScale

	Hidden bool
}

// SpriteC is the Sprite component type.
var SpriteC = donburi.NewComponentType[Sprite]()
