package gfx

import (
	"errors"

	"github.com/hajimehoshi/ebiten/v2"

	"github.com/fixedstep/fixedstep/third_party/donburi"
)

// Sprite is how an entity is drawn: an image (a sub-image of the scene's
// atlas, so that sprites batch), placed with its origin at the entity's
// interpolated components.Transform, rotated by its angle, scaled and
// tinted. The render system (systems/render) draws every entity that has
// one and a Transform.
type Sprite struct {
	Image *ebiten.Image
	Layer int // lower layers draw first

	// Atlas, if set, is the image that Image was cut from with SubImage
	// (or any other sub-image of that same image, or Image itself). It lets
	// the render system draw sprites of different images in one batch: it
	// draws each run of consecutive sprites (in drawing order) that share a
	// source image with one DrawTriangles32 call, and the source is Atlas
	// when set, Image when not. ebiten gives no way to find a sub-image's
	// parent, hence this field: with it nil, sprites still draw correctly,
	// but only runs of the same Image share a call. An Atlas that Image is
	// not cut from draws the wrong pixels.
	Atlas *ebiten.Image

	// OriginX, OriginY is the point of the image, in its pixels, placed at
	// the transform's position and rotated about.
	OriginX, OriginY float64

	// ScaleX, ScaleY scale the image; 0 means 1.
	ScaleX, ScaleY float64

	// Color multiplies the image's colours; the zero value leaves them as
	// they are. The render system puts it in the quad's vertex colours, so
	// sprites of different colours share a batch.
	Color ebiten.ColorScale

	Hidden bool
}

// SpriteC is the Sprite component type.
var SpriteC = donburi.NewComponentType[Sprite]()

// A *Sprite is a physics.Look: given as physics.BodyOptions.Sprite, the
// spawned body's entity gets it (a copy), with its origin at the centre of
// its Image when OriginX and OriginY are both zero. Physics adds it
// through these methods, so that a simulation without graphics (a
// server's) links no graphics library.

// Scale returns the sprite's scale, ScaleX and ScaleY, each 1 where it
// is 0.
func (s *Sprite) Scale() (x, y float64) {
	x, y = s.ScaleX, s.ScaleY
	if x == 0 {
		x = 1
	}
	if y == 0 {
		y = 1
	}
	return x, y
}

// LookType returns SpriteC.
func (s *Sprite) LookType() donburi.IComponentType { return SpriteC }

// CheckLook reports a sprite that cannot be drawn: nil, or without Image.
func (s *Sprite) CheckLook() error {
	if s == nil || s.Image == nil {
		return errors.New("Sprite has no Image")
	}
	return nil
}

// SetHidden hides or shows e's Sprite (e has SpriteC): a look that a
// pool shows and hides (package systems/shoot's shots).
func (s *Sprite) SetHidden(e *donburi.Entry, hidden bool) { SpriteC.Get(e).Hidden = hidden }

// SetLook sets a copy of s as e's Sprite (e has SpriteC), centred when its
// origin is zero.
func (s *Sprite) SetLook(e *donburi.Entry) {
	c := *s
	if c.OriginX == 0 && c.OriginY == 0 {
		b := c.Image.Bounds()
		c.OriginX, c.OriginY = float64(b.Dx())/2, float64(b.Dy())/2
	}
	SpriteC.SetValue(e, c)
}
