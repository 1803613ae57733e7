package gfx

import (
	"errors"
	"fmt"

	"github.com/hajimehoshi/ebiten/v2"

	"github.com/fixedstep/fixedstep/third_party/donburi"
)

// Fill is how an entity's shapes are drawn, where a [Sprite] (one image at
// the body's origin) cannot draw them: each segment as the rectangle along
// it, 2r thick (nothing for a radius of 0), its ends squared off r past its
// end points (so that the segments of an outline, physics.SpawnWalls',
// meet at their corners), and each box (a polygon of four right-angled
// corners: physics.SpawnBox's) over its outline, its rounded corners
// filled. Circles and other polygons are not drawn. The render system
// (systems/render's Sprites) draws it among the sprites, at the entity's
// interpolated components.Transform, through the camera, from the shapes
// of its components.Shape (read, never changed): an entity needs a
// Transform, a Shape and a Fill, and no extra entity per wall.
//
// A part is filled with Image, stretched over it, or drawn as a nine-slice
// when Border is set; left nil, with a white pixel of the render system's
// own, so that Color alone fills it. Along a segment the image's x runs
// from a to b and its top is on the side to the left of a walker from a to
// b on a screen with y down (a box's: up, in the body's coordinates).
//
// Its fields are the drawing's only; given as physics.BodyOptions.Sprite it
// is the spawned entity's look (see [Fill.SetLook]).
type Fill struct {
	// Image covers each part; nil: a white pixel, tinted by Color. Give
	// the scene atlas's white pixel (systems/stage's Stage.Fill does) with
	// Atlas set, and fills batch with the sprites of that atlas.
	Image *ebiten.Image
	// Atlas is the image Image was cut from, as [Sprite.Atlas].
	Atlas *ebiten.Image

	// Border, when not zero, draws Image as a nine-slice: its borders, in
	// the image's pixels, are drawn one world unit a pixel (its corners
	// keep their size, its edges stretch along the part, its middle both
	// ways); borders wider than the part shrink to fit it.
	Border Insets

	// Color multiplies the colours, as [Sprite.Color]: with no Image, it is
	// the fill's colour (the zero value: white).
	Color ebiten.ColorScale

	Layer  int // among the sprites' layers: lower layers draw first
	Hidden bool
}

// Insets are a nine-slice's borders, in the image's pixels.
type Insets struct {
	Left, Top, Right, Bottom int
}

// FillC is the Fill component type.
var FillC = donburi.NewComponentType[Fill]()

// A *Fill is a physics.Look: given as physics.BodyOptions.Sprite, the
// spawned body's entity gets it (a copy) and the render system draws its
// shapes.

// LookType returns FillC.
func (f *Fill) LookType() donburi.IComponentType { return FillC }

// CheckLook reports a fill that cannot be drawn: nil, or a negative
// border, or a border without an Image, or one wider or taller than its
// Image.
func (f *Fill) CheckLook() error {
	if f == nil {
		return errors.New("Fill is nil")
	}
	b := f.Border
	if b == (Insets{}) {
		return nil
	}
	if b.Left < 0 || b.Top < 0 || b.Right < 0 || b.Bottom < 0 {
		return fmt.Errorf("Fill: a negative Border %+v", b)
	}
	if f.Image == nil {
		return fmt.Errorf("Fill: a Border %+v and no Image to slice", b)
	}
	if r := f.Image.Bounds(); b.Left+b.Right > r.Dx() || b.Top+b.Bottom > r.Dy() {
		return fmt.Errorf("Fill: the Border %+v does not fit its %d x %d Image", b, r.Dx(), r.Dy())
	}
	return nil
}

// SetLook sets a copy of f as e's Fill (e has FillC).
func (f *Fill) SetLook(e *donburi.Entry) { FillC.SetValue(e, *f) }

// SetHidden hides or shows e's Fill (e has FillC).
func (f *Fill) SetHidden(e *donburi.Entry, hidden bool) { FillC.Get(e).Hidden = hidden }
