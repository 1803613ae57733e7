package gfx_test

import (
	"fmt"
	"image/color"

	"github.com/fixedstep/fixedstep/components"
	"github.com/fixedstep/fixedstep/components/gfx"
	"github.com/fixedstep/fixedstep/systems/physics"
	"github.com/fixedstep/fixedstep/third_party/cp"
	"github.com/fixedstep/fixedstep/third_party/donburi"
)

// Walls drawn by their own entity: the outline of a room, 8 units thick,
// filled grey under the sprites (layer -1). The render system
// (render.New(w).Draw) draws each segment as a rectangle along it, its
// corners closed; no sprite entity is added per wall. A game on
// systems/stage gives st.Fill(grey), the atlas's white pixel, so that the
// walls batch with its sprites.
func ExampleFill() {
	w := donburi.NewWorld()
	phys := physics.New(w, physics.Config{})
	look := &gfx.Fill{Layer: -1}
	look.Color.ScaleWithColor(color.RGBA{120, 120, 130, 255})
	room := []cp.Vector{{X: 0, Y: 0}, {X: 320, Y: 0}, {X: 320, Y: 240}, {X: 0, Y: 240}, {X: 0, Y: 0}}
	walls := phys.SpawnWalls(room, 4, &physics.BodyOptions{Sprite: look})

	e := w.Entry(walls)
	fmt.Println(w.Len(), "entity,", len(components.ShapeC.Get(e).Shapes), "segments, a Fill of layer", gfx.FillC.Get(e).Layer)
	// Output: 1 entity, 4 segments, a Fill of layer -1
}
