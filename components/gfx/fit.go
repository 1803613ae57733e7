package gfx

import (
	"errors"
	"fmt"
	"math"

	"github.com/fixedstep/fixedstep/components"
	"github.com/fixedstep/fixedstep/third_party/cp"
	"github.com/fixedstep/fixedstep/third_party/donburi"
)

// Fit is how [Sprite.FitBox] fits a sprite's image to a box: the scale
// that takes the image's pixels to world units, and where the image sits
// in the box. Coordinates are the entity's, before its angle turns them,
// with y pointing down (a level's, a screen's).
type Fit uint8

const (
	// Stretch fills the box: the image's width spans the box's width and
	// its height the box's height, each axis scaled on its own. A
	// platform, a crate, a block of colour (a 1x1 pixel stretched).
	Stretch Fit = iota
	// Contain scales the image by one factor, the largest that keeps all
	// of it in the box, and centres it there. A pickup, a ball.
	Contain
	// Feet is Contain with the image's bottom edge on the box's bottom
	// edge rather than centred: a character whose feet stand on what its
	// box stands on. A frame as large as the box is drawn at scale 1.
	Feet
)

func (f Fit) String() string {
	switch f {
	case Stretch:
		return "Stretch"
	case Contain:
		return "Contain"
	case Feet:
		return "Feet"
	}
	return fmt.Sprintf("Fit(%d)", uint8(f))
}

// FitBox sets s's origin and scale so that its Image fills the box w by h
// world units centred on the entity's position, as fit says. A negative
// scale (a sprite flipped, as sideview.Looks flips one) keeps its sign: the
// image is mirrored about its origin, which stays on the box's vertical
// centre line (and, for Stretch and Contain, on its horizontal one), so a
// flipped image stays in the box. Frames of one sheet fitted once fit alike
// as long as they are the same size (as Aseprite exports them untrimmed,
// and anim.Grid cuts them). It allocates nothing.
//
// It panics when s has no Image, on a box that is not positive and finite,
// or on an unknown fit.
func (s *Sprite) FitBox(w, h float64, fit Fit) {
	s.FitRect(-w/2, -h/2, w/2, h/2, fit)
}

// FitRect is [Sprite.FitBox] for a box that need not be centred on the
// entity: from (x0, y0) to (x1, y1) in the entity's coordinates, x0 < x1
// and y0 < y1.
func (s *Sprite) FitRect(x0, y0, x1, y1 float64, fit Fit) {
	if s.Image == nil {
		panic("gfx: FitRect: the Sprite has no Image")
	}
	w, h := x1-x0, y1-y0
	if !(w > 0 && h > 0) || math.IsInf(w, 0) || math.IsInf(h, 0) {
		panic(fmt.Sprintf("gfx: FitRect: the box (%v, %v)-(%v, %v) is not positive and finite", x0, y0, x1, y1))
	}
	b := s.Image.Bounds()
	iw, ih := float64(b.Dx()), float64(b.Dy())
	var sx, sy float64
	switch fit {
	case Stretch:
		sx, sy = w/iw, h/ih
	case Contain, Feet:
		sx = min(w/iw, h/ih)
		sy = sx
	default:
		panic(fmt.Sprintf("gfx: FitRect: unknown %v", fit))
	}
	// The origin is the image's point that lands on the entity's position
	// (0, 0): the image's centre, less the box's centre in image pixels
	// (exactly the centre for a centred box).
	cx, cy := (x0+x1)/2, (y0+y1)/2
	s.OriginX = iw/2 - cx/sx
	s.OriginY = ih/2 - cy/sy
	if fit == Feet { // the image's bottom row on the box's bottom
		s.OriginY = ih - y1/sy
	}
	s.ScaleX = math.Copysign(sx, s.ScaleX)
	s.ScaleY = math.Copysign(sy, s.ScaleY)
}

// Fitted returns a look that gives a spawned body's entity a copy of s
// fitted to the body's box ([Sprite.FitBox]): given as
// physics.BodyOptions.Sprite, the body's shapes are measured when it is
// spawned and the entity's Sprite is s with its origin and scale set by
// fit. The box is SpawnBox's w by h, a circle's 2r by 2r; for other shapes,
// or several, the box around all of them in the body's coordinates, which
// need not be centred on the body ([Sprite.FitRect]). s itself is not
// changed: one sprite fits bodies of every size.
//
//	Sprite: heroFrame.Fitted(gfx.Feet) // the frame's feet on the box's bottom
func (s *Sprite) Fitted(fit Fit) *FittedSprite {
	return &FittedSprite{Sprite: s, Fit: fit}
}

// FittedSprite is a sprite to be fitted to its body's box when it is
// spawned (see [Sprite.Fitted]). It is a physics.Look whose component is
// [SpriteC].
type FittedSprite struct {
	Sprite *Sprite
	Fit    Fit
}

// LookType returns SpriteC.
func (f *FittedSprite) LookType() donburi.IComponentType { return SpriteC }

// CheckLook reports a look that cannot be drawn or fitted: no sprite, no
// Image, an unknown fit.
func (f *FittedSprite) CheckLook() error {
	if f == nil || f.Sprite == nil {
		return errors.New("FittedSprite has no Sprite")
	}
	if err := f.Sprite.CheckLook(); err != nil {
		return err
	}
	if f.Fit > Feet {
		return fmt.Errorf("FittedSprite: unknown %v", f.Fit)
	}
	return nil
}

// SetLook sets a copy of f.Sprite, fitted to the box around e's shapes, as
// e's Sprite (e has SpriteC and components.ShapeC). A body whose shapes
// have no area across (a line of radius 0 along an axis) keeps the
// sprite's centred origin and its scale.
func (f *FittedSprite) SetLook(e *donburi.Entry) {
	c := *f.Sprite
	if x0, y0, x1, y1, ok := shapesBox(e); ok && x1 > x0 && y1 > y0 {
		c.FitRect(x0, y0, x1, y1, f.Fit)
	} else if c.OriginX == 0 && c.OriginY == 0 {
		b := c.Image.Bounds()
		c.OriginX, c.OriginY = float64(b.Dx())/2, float64(b.Dy())/2
	}
	SpriteC.SetValue(e, c)
}

// SetHidden hides or shows e's Sprite, as [Sprite.SetHidden].
func (f *FittedSprite) SetHidden(e *donburi.Entry, hidden bool) { SpriteC.Get(e).Hidden = hidden }

// shapesBox returns the box around e's shapes in its body's coordinates:
// a circle's, a segment's and a polygon's outline, their radius included.
func shapesBox(e *donburi.Entry) (x0, y0, x1, y1 float64, ok bool) {
	if !e.HasComponent(components.ShapeC) {
		return 0, 0, 0, 0, false
	}
	x0, y0, x1, y1 = math.Inf(1), math.Inf(1), math.Inf(-1), math.Inf(-1)
	add := func(p cp.Vector, r float64) {
		x0, y0 = min(x0, p.X-r), min(y0, p.Y-r)
		x1, y1 = max(x1, p.X+r), max(y1, p.Y+r)
		ok = true
	}
	for _, s := range components.ShapeC.Get(e).Shapes {
		switch c := s.Class.(type) {
		case *cp.Circle:
			add(s.CenterOfGravity(), c.Radius())
		case *cp.Segment:
			add(c.A(), c.Radius())
			add(c.B(), c.Radius())
		case *cp.PolyShape:
			for i := range c.Count() {
				add(c.Vert(i), c.Radius())
			}
		}
	}
	return x0, y0, x1, y1, ok
}
