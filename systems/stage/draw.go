package stage

import (
	"image/color"

	"github.com/hajimehoshi/ebiten/v2"
	"github.com/hajimehoshi/ebiten/v2/text/v2"

	"github.com/fixedstep/fixedstep/assets"
	"github.com/fixedstep/fixedstep/components"
	"github.com/fixedstep/fixedstep/components/gfx"
	"github.com/fixedstep/fixedstep/third_party/donburi"
)

// Sprite returns a new sprite of the stage's bundle by name (such as
// assets.SpritePlayer): centred on its entity's position and cut from the
// bundle's atlas, so that every sprite of the stage draws in one batch. Give
// it to BodyOptions.Sprite, or set it as an entity's gfx.SpriteC
// (*st.Sprite(name)); change Layer, ScaleX, Color... as wanted. It panics on
// a name the bundle does not have.
func (s *Stage) Sprite(name string) *gfx.Sprite {
	img := s.Bundle.MustSprite(name)
	b := img.Bounds()
	return &gfx.Sprite{Image: img, Atlas: s.Bundle.Atlas(),
		OriginX: float64(b.Dx()) / 2, OriginY: float64(b.Dy()) / 2}
}

// Rect returns a new sprite drawn as a w x h rectangle of colour c (in
// world units), centred on its entity's position: the bundle's white pixel
// (assets.SpritePixel), scaled and tinted, in the same batch as the other
// sprites. A brick, a paddle, a bar of a HUD.
func (s *Stage) Rect(w, h float64, c color.Color) *gfx.Sprite {
	sp := s.Sprite(assets.SpritePixel)
	sp.ScaleX, sp.ScaleY = w, h
	sp.Color.ScaleWithColor(c)
	return sp
}

// Fill returns a new fill of colour c ([gfx.Fill]: how a body's segments
// and boxes are drawn, such as the walls of Physics.SpawnWalls, with no
// sprite entity per wall): the bundle's white pixel (assets.SpritePixel),
// tinted, in the same batch as the other sprites. Give it to
// BodyOptions.Sprite; change Layer as wanted.
func (s *Stage) Fill(c color.Color) *gfx.Fill {
	f := &gfx.Fill{Image: s.Bundle.MustSprite(assets.SpritePixel), Atlas: s.Bundle.Atlas()}
	f.Color.ScaleWithColor(c)
	return f
}

// Text draws str on dst in the bundle's font, size pixels high, in colour
// c, with its top at y and, by align, its left (text.AlignStart), centre
// (text.AlignCenter) or right (text.AlignEnd) at x; lines break at "\n".
// A nil dst, as a headless run's Render events have, draws nothing, so a
// render system can call it without checking.
//
// The pixels are text.Draw's, and so are its calls to DrawImage, one per
// glyph; but the layout is the bundle's, kept for the last 32 strings
// drawn ([assets.Bundle.Glyphs]): a string drawn at every frame is laid
// out once, not at every call as text.Draw does. A call allocates nothing
// for a string laid out before, when c is a color.Color variable (var white
// color.Color = color.RGBA{...}): a color.RGBA passed as it is gets boxed,
// an allocation at every call.
func (s *Stage) Text(dst *ebiten.Image, str string, x, y, size float64, c color.Color, align text.Align) {
	if dst == nil {
		return
	}
	glyphs := s.Bundle.Glyphs(str, size, align)
	var op, colored ebiten.DrawImageOptions
	op.ColorScale.ScaleWithColor(c)
	// A color glyph (an emoji) keeps its colours: only the alpha applies,
	// as text.Draw does.
	colored.ColorScale.ScaleAlpha(op.ColorScale.A())
	var at ebiten.GeoM
	at.Translate(x, y)
	for i := range glyphs {
		g := &glyphs[i]
		if g.Image == nil {
			continue
		}
		o := &op
		if g.Colored {
			o = &colored
		}
		o.GeoM.Reset()
		o.GeoM.Translate(g.X, g.Y)
		o.GeoM.Concat(at)
		dst.DrawImage(g.Image, o)
	}
}

// SpawnSprite creates an entity with no body, drawn as sp (a copy) at x, y:
// a decoration, a marker, anything a game moves by its Transform
// (components.Transform.Set) rather than by physics. The component types
// comps are added too, at their zero values (TransformC and SpriteC among
// them are not added twice). It returns the entity. The entity is game
// state like any other (see Options.Ignore): a simulation that must match
// one run without graphics spawns its decorations itself.
func (s *Stage) SpawnSprite(x, y float64, sp *gfx.Sprite, comps ...donburi.IComponentType) donburi.Entity {
	types := []donburi.IComponentType{components.TransformC, gfx.SpriteC}
	for _, c := range comps {
		if c.Id() != components.TransformC.Id() && c.Id() != gfx.SpriteC.Id() {
			types = append(types, c)
		}
	}
	e := s.World.Create(types...)
	entry := s.World.Entry(e)
	components.TransformC.SetValue(entry, components.NewTransform(components.Pose{X: x, Y: y}))
	gfx.SpriteC.SetValue(entry, *sp)
	return e
}
