package render_test

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/hajimehoshi/ebiten/v2"

	"github.com/fixedstep/fixedstep/components"
	"github.com/fixedstep/fixedstep/components/gfx"
	"github.com/fixedstep/fixedstep/internal/ebitentest"
	"github.com/fixedstep/fixedstep/systems/render"
	"github.com/fixedstep/fixedstep/third_party/donburi"
)

// Draw keeps each layer's span of vertices from one frame to the next; a
// frame where the layers changed is drawn as a Render that never drew
// before draws it, pixel for pixel: a middle layer grown (spilled and
// merged), a layer emptied and sprites hidden (gaps closed), a new lowest
// and a new highest layer, the highest grown in place, sprites removed and
// ids reused, two source images. Overlapping sprites of each layer in
// their own colour show any sprite drawn out of its order. Layers 1 apart
// (looked up in a table) and 1,000,000 apart (searched).
func TestRenderSpansFollowTheLayers(t *testing.T) {
	for _, scale := range []int{1, 1_000_000} {
		t.Run(fmt.Sprintf("layers*%d", scale), func(t *testing.T) {
			type frame struct {
				kept, fresh          ebitentest.Frame
				keptN, freshN, calls [2]int
			}
			var frames []frame
			ebitentest.OnGame(t, func() {
				atlases := []*testAtlas{newTestAtlas(), newTestAtlas()}
				w := donburi.NewWorld()
				rng := rand.New(rand.NewPCG(7, uint64(scale)))
				var ents []donburi.Entity
				add := func(layer, n int) {
					for range n {
						a := atlases[0]
						if rng.IntN(8) == 0 {
							a = atlases[1]
						}
						img := []*ebiten.Image{a.red, a.green, a.blue, a.white}[(layer%4+4)%4]
						p := components.Pose{X: 20 + rng.Float64()*160, Y: 10 + rng.Float64()*80}
						if rng.IntN(2) == 0 {
							p.Angle = rng.Float64() * 6
						}
						ents = append(ents, addSprite(w, components.NewTransform(p),
							gfx.Sprite{Image: img, Atlas: a.img, Layer: layer * scale, OriginX: 4, OriginY: 4, ScaleX: 3, ScaleY: 3}))
					}
				}
				layerOf := func(e donburi.Entity) int { return gfx.SpriteC.Get(w.Entry(e)).Layer / scale }
				for _, l := range []int{2, 0, 1, 2, 1, 0} {
					add(l, 15)
				}
				kept := render.New(w)
				dst := ebiten.NewImage(screenW, screenH)
				draw := func() {
					var f frame
					f.kept = drawFrame(kept, w, dst, 0)
					f.keptN = [2]int{kept.Drawn(), kept.Culled()}
					f.calls[0] = kept.DrawCalls()
					fresh := render.New(w)
					f.fresh = drawFrame(fresh, w, dst, 0)
					f.freshN = [2]int{fresh.Drawn(), fresh.Culled()}
					f.calls[1] = fresh.DrawCalls()
					frames = append(frames, f)
				}
				draw()
				draw()     // the same layers again: every span full
				add(1, 10) // a middle layer grows
				draw()
				for _, e := range ents { // layer 0 emptied, some of layer 2 hidden
					switch layerOf(e) {
					case 0:
						w.Remove(e)
					case 2:
						if rng.IntN(3) == 0 {
							gfx.SpriteC.Get(w.Entry(e)).Hidden = true
						}
					}
				}
				draw()
				add(-1, 5) // a new lowest layer, a new highest, the highest growing
				add(3, 5)
				draw()
				add(3, 20)
				draw()
				for i, e := range ents { // some removed, their ids reused in other layers
					if i%5 == 0 && w.Valid(e) {
						w.Remove(e)
					}
				}
				add(2, 12)
				add(0, 7)
				draw()
				draw()
			})
			for i, f := range frames {
				if f.keptN != f.freshN || f.calls[0] != f.calls[1] {
					t.Errorf("frame %d: drawn, culled %v and %d calls; a fresh Render: %v and %d", i, f.keptN, f.calls[0], f.freshN, f.calls[1])
				}
				if f.keptN[0] == 0 {
					t.Errorf("frame %d: nothing drawn", i)
				}
				if !slices.Equal(f.kept.Pix, f.fresh.Pix) {
					differ := 0
					for k := range f.kept.Pix {
						if f.kept.Pix[k] != f.fresh.Pix[k] {
							differ++
						}
					}
					t.Errorf("frame %d: %d bytes differ from a fresh Render's frame", i, differ)
				}
			}
		})
	}
}
