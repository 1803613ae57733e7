package render_test

import (
	"image"
	"image/color"
	"testing"

	"github.com/hajimehoshi/ebiten/v2"

	"github.com/fixedstep/fixedstep/components"
	"github.com/fixedstep/fixedstep/components/gfx"
	"github.com/fixedstep/fixedstep/engine"
	"github.com/fixedstep/fixedstep/internal/ebitentest"
	"github.com/fixedstep/fixedstep/systems/physics"
	"github.com/fixedstep/fixedstep/systems/render"
	"github.com/fixedstep/fixedstep/third_party/cp"
	"github.com/fixedstep/fixedstep/third_party/donburi"
)

// count returns how many pixels of f in r are c.
func count(f *ebitentest.Frame, r image.Rectangle, c color.RGBA) int {
	n := 0
	for y := r.Min.Y; y < r.Max.Y; y++ {
		for x := r.Min.X; x < r.Max.X; x++ {
			if f.At(x, y) == c {
				n++
			}
		}
	}
	return n
}

// Walls spawned with a Fill are drawn by their own entity: each segment a
// rectangle 2r thick, squared off r past its ends, so that the outline's
// corners are closed, tinted by the fill's colour; inside, nothing.
func TestFillDrawsWalls(t *testing.T) {
	var f ebitentest.Frame
	var drawn, filled int
	ebitentest.OnGame(t, func() {
		w := donburi.NewWorld()
		phys := physics.New(w, physics.Config{})
		var look gfx.Fill
		look.Color.ScaleWithColor(green)
		// A box from (20, 10) to (180, 90), walls 4 thick (radius 2).
		phys.SpawnWalls([]cp.Vector{{X: 20, Y: 10}, {X: 180, Y: 10}, {X: 180, Y: 90}, {X: 20, Y: 90}, {X: 20, Y: 10}}, 2,
			&physics.BodyOptions{Sprite: &look})
		r := render.New(w)
		dst := ebiten.NewImage(screenW, screenH)
		f = drawFrame(r, w, dst, 0)
		drawn, filled = r.Drawn(), r.Filled()
	})
	if drawn != 0 || filled != 4 {
		t.Errorf("Drawn %d, Filled %d; want 0 sprites and 4 quads", drawn, filled)
	}
	for _, c := range []struct {
		name string
		r    image.Rectangle
		want int
	}{
		{"top wall", image.Rect(18, 8, 182, 12), 164 * 4},
		{"left wall", image.Rect(18, 8, 22, 92), 84 * 4},
		{"bottom right corner", image.Rect(178, 88, 182, 92), 16},
		{"inside", image.Rect(22, 12, 178, 88), 0},
		{"outside", image.Rect(0, 0, screenW, 8), 0},
	} {
		if n := count(&f, c.r, green); n != c.want {
			t.Errorf("%s %v: %d green pixels, want %d", c.name, c.r, n, c.want)
		}
	}
}

// A box's fill covers its outline at the body's interpolated pose, turned
// with it; a fill of a lower layer is under a sprite, one of the sprite's
// layer is under it too, one of a higher layer over it.
func TestFillBoxesAndLayers(t *testing.T) {
	var frames [3]ebitentest.Frame
	ebitentest.OnGame(t, func() {
		atlas := newTestAtlas()
		for i, layer := range []int{-1, 0, 1} {
			w := donburi.NewWorld()
			phys := physics.New(w, physics.Config{})
			look := gfx.Fill{Layer: layer}
			look.Color.ScaleWithColor(blue)
			box := phys.SpawnBox(40, 20, &physics.BodyOptions{Kind: physics.Kinematic, Position: cp.Vector{X: 40, Y: 50},
				CornerRadius: 4, Sprite: &look})
			tr := components.TransformC.Get(w.Entry(box))
			tr.Set(components.Pose{X: 80, Y: 50}) // between two ticks: at x 60 for alpha 0.5
			addSprite(w, components.NewTransform(components.Pose{X: 60, Y: 50}), gfx.Sprite{Image: atlas.red, OriginX: 4, OriginY: 4})
			frames[i] = drawFrame(render.New(w), w, ebiten.NewImage(screenW, screenH), 0.5)
		}
	})
	for i, want := range []color.RGBA{red, red, blue} {
		f := &frames[i]
		if n := count(f, image.Rect(40, 40, 80, 60), blue) + count(f, image.Rect(40, 40, 80, 60), red); n != 40*20 {
			t.Errorf("layer %d: %d pixels of the box at x 40 to 80 drawn, want 800 (its rounded corners filled)", i-1, n)
		}
		if c := f.At(60, 50); c != want {
			t.Errorf("layer %d: the middle is %v, want %v", i-1, c, want)
		}
		if n := count(f, image.Rect(0, 0, screenW, 40), blue) + count(f, image.Rect(81, 0, screenW, screenH), blue); n != 0 {
			t.Errorf("layer %d: %d blue pixels outside the box", i-1, n)
		}
	}
}

// With a Border, the fill's image is a nine-slice: its corners keep their
// size, its edges stretch along, its middle both ways. A border wider than
// the part shrinks to fit it.
func TestFillNineSlice(t *testing.T) {
	var f ebitentest.Frame
	var filled int
	ebitentest.OnGame(t, func() {
		// 8x8: a red frame 2 pixels wide around a blue middle.
		src := image.NewRGBA(image.Rect(0, 0, 8, 8))
		for y := range 8 {
			for x := range 8 {
				c := red
				if x >= 2 && x < 6 && y >= 2 && y < 6 {
					c = blue
				}
				src.SetRGBA(x, y, c)
			}
		}
		img := ebiten.NewImageFromImage(src)
		w := donburi.NewWorld()
		phys := physics.New(w, physics.Config{})
		look := &gfx.Fill{Image: img, Border: gfx.Insets{Left: 2, Top: 2, Right: 2, Bottom: 2}}
		phys.SpawnBox(40, 20, &physics.BodyOptions{Kind: physics.Static, Position: cp.Vector{X: 50, Y: 50}, Sprite: look})
		phys.SpawnBox(2, 20, &physics.BodyOptions{Kind: physics.Static, Position: cp.Vector{X: 150, Y: 50}, Sprite: look})
		r := render.New(w)
		f = drawFrame(r, w, ebiten.NewImage(screenW, screenH), 0)
		filled = r.Filled()
	})
	if filled != 9+6 {
		t.Errorf("Filled %d, want 9 quads of the box and 6 of the narrow one (its middle column empty)", filled)
	}
	if n := count(&f, image.Rect(32, 42, 68, 58), blue); n != 36*16 {
		t.Errorf("the middle: %d blue pixels, want %d", n, 36*16)
	}
	if n := count(&f, image.Rect(30, 40, 70, 60), red); n != 40*20-36*16 {
		t.Errorf("the border: %d red pixels, want %d (2 wide all round)", n, 40*20-36*16)
	}
	if n := count(&f, image.Rect(149, 40, 151, 60), red); n != 2*20 {
		t.Errorf("a box 2 wide: %d red pixels, want its borders shrunk to 1 each: 40", n)
	}
}

// Drawing fills allocates nothing per frame (walls, a box, a nine-slice and
// sprites together); parts off the screen are culled. Draw is measured
// with every quad from one atlas, so one DrawTriangles32 call a frame (a
// frame of calls from several sources grows ebiten's command queue until
// the frame ends, which AllocsPerRun's frames never do); build alone, with
// the render system's own white pixel too.
func TestFillAllocatesNothing(t *testing.T) {
	var allocs, buildAllocs float64
	var filled, culled, calls int
	ebitentest.OnGame(t, func() {
		atlas := newTestAtlas()
		w := donburi.NewWorld()
		phys := physics.New(w, physics.Config{})
		walls := phys.SpawnWalls([]cp.Vector{{X: 10, Y: 10}, {X: 190, Y: 10}, {X: 190, Y: 90}, {X: 1000, Y: 90}, {X: 1000, Y: 500}}, 3,
			&physics.BodyOptions{Sprite: &gfx.Fill{Image: atlas.white, Atlas: atlas.img, Layer: 1}})
		phys.SpawnBox(30, 10, &physics.BodyOptions{Kind: physics.Kinematic, Position: cp.Vector{X: 60, Y: 40},
			AngularVelocity: 1, Sprite: &gfx.Fill{Image: atlas.white, Atlas: atlas.img, Border: gfx.Insets{Left: 2, Right: 2}}})
		for i := range 20 {
			addSprite(w, components.NewTransform(components.Pose{X: float64(10 * i), Y: 50, Angle: 0.1}),
				gfx.Sprite{Image: atlas.red, Atlas: atlas.img, Layer: i % 3})
		}
		addCamera(w, components.NewTransform(components.Pose{X: 100, Y: 50, Angle: 0.05}), components.Camera{})
		r := render.New(w)
		ev := engine.Event{Kind: engine.Render, Alpha: 0.4, Screen: ebiten.NewImage(screenW, screenH)}
		allocs = testing.AllocsPerRun(100, func() { r.Draw(w, ev) })
		filled, culled, calls = r.Filled(), r.Culled(), r.DrawCalls()

		gfx.FillC.Get(w.Entry(walls)).Image = nil // the render system's white pixel
		buildAllocs = testing.AllocsPerRun(100, func() { r.Build(w, 0.4, image.Rect(0, 0, screenW, screenH)) })
	})
	if filled != 3+3 || culled != 1 || calls != 1 {
		t.Errorf("Filled %d, Culled %d, DrawCalls %d; want 3 walls on the screen and one off it, 3 quads of the box, one call",
			filled, culled, calls)
	}
	if buildAllocs != 0 {
		t.Errorf("build with fills allocates %v times a frame", buildAllocs)
	}
	if ebitentest.RaceEnabled() {
		t.Logf("-race: %v allocations a frame not checked (ebiten's sync.Pool)", allocs)
	} else if allocs != 0 {
		t.Errorf("Draw with fills allocates %v times a frame", allocs)
	}
}
