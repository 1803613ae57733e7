package gfx_test

import (
	"fmt"
	"math"

	"github.com/hajimehoshi/ebiten/v2"

	"github.com/fixedstep/fixedstep/components/gfx"
	"github.com/fixedstep/fixedstep/systems/physics"
	"github.com/fixedstep/fixedstep/third_party/cp"
	"github.com/fixedstep/fixedstep/third_party/donburi"
)

// A character's frame, 16 x 32 pixels, fitted to its 12 x 24 collision box
// with its feet on the box's bottom: scaled by 0.75 (as tall as the box),
// centred across, its bottom row 12 units below the body's position (the
// box's bottom edge, y pointing down).
func ExampleSprite_FitBox() {
	frame := gfx.Sprite{Image: ebiten.NewImage(16, 32)}
	frame.FitBox(12, 24, gfx.Feet)
	fmt.Println("scale", frame.ScaleX, frame.ScaleY, "origin", frame.OriginX, frame.OriginY)
	fmt.Println("feet at", (32-frame.OriginY)*frame.ScaleY)

	block := gfx.Sprite{Image: ebiten.NewImage(1, 1)} // a pixel stretched over a 40 x 8 platform
	block.FitBox(40, 8, gfx.Stretch)
	fmt.Println("scale", block.ScaleX, block.ScaleY, "origin", block.OriginX, block.OriginY)
	// Output:
	// scale 0.75 0.75 origin 8 16
	// feet at 12
	// scale 40 8 origin 0.5 0.5
}

// Given to a spawn, a sprite is fitted to the body's box: the creature's
// 32 x 32 image over a 14 x 14 enemy, standing on the box's bottom. The
// sprite given is not changed; the entity gets a fitted copy.
func ExampleSprite_Fitted() {
	w := donburi.NewWorld()
	phys := physics.New(w, physics.Config{Gravity: cp.Vector{Y: 1000}})
	creature := &gfx.Sprite{Image: ebiten.NewImage(32, 32)}
	e := phys.SpawnBox(14, 14, &physics.BodyOptions{Moment: math.Inf(1), Sprite: creature.Fitted(gfx.Feet)})
	s := gfx.SpriteC.Get(w.Entry(e))
	fmt.Println("scale", s.ScaleX, "origin", s.OriginX, s.OriginY, "given", creature.ScaleX)
	// Output:
	// scale 0.4375 origin 16 16 given 0
}
