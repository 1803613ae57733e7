package stage_test

import (
	"fmt"
	"image/color"
	"slices"
	"testing"

	"github.com/hajimehoshi/ebiten/v2"
	"github.com/hajimehoshi/ebiten/v2/text/v2"

	"github.com/fixedstep/fixedstep/engine"
	"github.com/fixedstep/fixedstep/internal/ebitentest"
	"github.com/fixedstep/fixedstep/systems/physics"
	"github.com/fixedstep/fixedstep/systems/render"
	"github.com/fixedstep/fixedstep/systems/stage"
	"github.com/fixedstep/fixedstep/third_party/cp"
)

// Text draws the pixels text.Draw draws, for strings laid out anew, kept
// (drawn again) and laid out again after 40 others pushed them out: each
// alignment, two lines, two sizes and colours, at a fractional position.
// Drawing a kept string allocates nothing.
func TestTextDrawsAsTextDraw(t *testing.T) {
	type pair struct {
		name       string
		got, want  ebitentest.Frame
		drewPixels bool
	}
	var pairs []pair
	var allocs float64
	scene := engine.NewScene("Text", func(loop *engine.Loop) (engine.Scene, error) {
		st, err := stage.New(loop, stage.Options{})
		if err != nil {
			return nil, err
		}
		defer st.Release()
		ebitentest.OnGame(t, func() {
			var colour color.Color = color.RGBA{40, 220, 90, 255}
			cases := []struct {
				str      string
				x, y, sz float64
				align    text.Align
				c        color.Color
			}{
				{"Score 12   Health 100   Time 57 s", 3.3, 10, 18, text.AlignStart, colour},
				{"centred\nand a second line", 100, 20.6, 16, text.AlignCenter, color.White},
				{"Tj AV 1/4 ½ é", 197.75, 40, 24, text.AlignEnd, colour},
			}
			draw := func(round string) {
				for _, c := range cases {
					got := ebiten.NewImage(screenW, screenH)
					st.Text(got, c.str, c.x, c.y, c.sz, c.c, c.align)
					want := ebiten.NewImage(screenW, screenH)
					var op text.DrawOptions
					op.GeoM.Translate(c.x, c.y)
					op.ColorScale.ScaleWithColor(c.c)
					op.PrimaryAlign = c.align
					m := st.Bundle.Face(c.sz).Metrics()
					op.LineSpacing = m.HAscent + m.HDescent + m.HLineGap
					text.Draw(want, c.str, st.Bundle.Face(c.sz), &op)
					p := pair{name: fmt.Sprintf("%s %q", round, c.str), got: ebitentest.ReadFrame(got), want: ebitentest.ReadFrame(want)}
					for k := 3; k < len(p.want.Pix); k += 4 {
						p.drewPixels = p.drewPixels || p.want.Pix[k] != 0
					}
					pairs = append(pairs, p)
				}
			}
			draw("new")
			draw("kept")
			for i := range 40 {
				st.Text(ebiten.NewImage(8, 8), fmt.Sprint(i), 0, 0, 18, colour, text.AlignStart)
			}
			draw("again")
			img := ebiten.NewImage(screenW, screenH)
			allocs = testing.AllocsPerRun(100, func() { st.Text(img, cases[0].str, 3.3, 10, 18, colour, text.AlignStart) })
		})
		return nil, nil
	})
	if err := engine.Run(scene, &engine.Options{Headless: &engine.Headless{}}); err != nil {
		t.Fatal(err)
	}
	if len(pairs) != 9 {
		t.Fatalf("%d frames compared, want 9", len(pairs))
	}
	for _, p := range pairs {
		if !p.drewPixels {
			t.Errorf("%s: text.Draw drew nothing", p.name)
		}
		if !slices.Equal(p.got.Pix, p.want.Pix) {
			t.Errorf("%s: Text's pixels differ from text.Draw's", p.name)
		}
	}
	if ebitentest.RaceEnabled() {
		t.Logf("-race: %v allocations a call not checked", allocs)
	} else if allocs != 0 {
		t.Errorf("Text of a kept string allocates %v times a call", allocs)
	}
}

// A Stage's Fill draws a body's walls in its colour, from the atlas's
// white pixel: in the same batch as the stage's sprites (one call).
func TestStageFillDrawsWalls(t *testing.T) {
	var f ebitentest.Frame
	var calls int
	scene := engine.NewScene("Fill", func(loop *engine.Loop) (engine.Scene, error) {
		st, err := stage.New(loop, stage.Options{Physics: &physics.Config{}})
		if err != nil {
			return nil, err
		}
		defer st.Release()
		ebitentest.OnGame(t, func() {
			red := color.RGBA{255, 0, 0, 255}
			st.Physics.SpawnWalls([]cp.Vector{{X: 10, Y: 10}, {X: 50, Y: 10}, {X: 50, Y: 40}}, 2, &physics.BodyOptions{Sprite: st.Fill(red)})
			st.SpawnSprite(30, 25, st.Rect(4, 4, color.RGBA{0, 0, 255, 255}))
			dst := ebiten.NewImage(64, 64)
			r := render.New(st.World)
			r.Draw(st.World, engine.Event{Kind: engine.Render, Screen: dst})
			f, calls = ebitentest.ReadFrame(dst), r.DrawCalls()
		})
		return nil, nil
	})
	if err := engine.Run(scene, &engine.Options{Headless: &engine.Headless{}}); err != nil {
		t.Fatal(err)
	}
	red := color.RGBA{255, 0, 0, 255}
	if f.At(30, 9) != red || f.At(51, 30) != red || f.At(51, 9) != red || f.At(30, 12) == red || f.At(47, 30) == red {
		t.Errorf("the walls from (10, 10) to (50, 10) to (50, 40), 4 thick: %v %v %v at (30, 9), (51, 30), (51, 9); %v %v beside them",
			f.At(30, 9), f.At(51, 30), f.At(51, 9), f.At(30, 12), f.At(47, 30))
	}
	if calls != 1 {
		t.Errorf("%d draw calls, want the walls and the sprite in one", calls)
	}
}
