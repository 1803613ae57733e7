package level_test

import (
	"bytes"
	"image"
	"image/color"
	"image/png"
	"math"
	"testing"
	"testing/fstest"

	"github.com/hajimehoshi/ebiten/v2"

	"github.com/fixedstep/fixedstep/components"
	"github.com/fixedstep/fixedstep/engine"
	"github.com/fixedstep/fixedstep/internal/ebitentest"
	"github.com/fixedstep/fixedstep/systems/level"
	"github.com/fixedstep/fixedstep/systems/physics"
	"github.com/fixedstep/fixedstep/third_party/donburi"
)

func TestMain(m *testing.M) { ebitentest.Main(m) }

var (
	red   = color.RGBA{255, 0, 0, 255}
	green = color.RGBA{0, 255, 0, 255}
	blue  = color.RGBA{0, 0, 255, 255}
)

// tilesPNG is a tileset image of four 8x8 tiles: red, green, blue, white.
func tilesPNG() []byte {
	img := image.NewRGBA(image.Rect(0, 0, 32, 8))
	for i, c := range []color.RGBA{red, green, blue, {255, 255, 255, 255}} {
		for y := range 8 {
			for x := range 8 {
				img.SetRGBA(8*i+x, y, c)
			}
		}
	}
	var b bytes.Buffer
	png.Encode(&b, img)
	return b.Bytes()
}

// The level: 10 x 6 tiles of 8 px. Row 5 is ground (red, solid), a 2x2
// block of it at columns 3-4, rows 2-3; a one-way ledge (blue) at columns
// 6-8 of row 3; green decoration (not solid) at column 0 of row 0. Objects:
// the player's start, and a solid box.
const tsx = `<?xml version="1.0" encoding="UTF-8"?>
<tileset version="1.10" name="tiles" tilewidth="8" tileheight="8" tilecount="4" columns="4">
 <image source="tiles.png" width="32" height="8"/>
 <tile id="0"><properties><property name="solid" type="bool" value="true"/></properties></tile>
 <tile id="2"><properties><property name="oneway" type="bool" value="true"/></properties></tile>
</tileset>`

const tmx = `<?xml version="1.0" encoding="UTF-8"?>
<map version="1.10" orientation="orthogonal" renderorder="right-down" width="10" height="6" tilewidth="8" tileheight="8" infinite="0" nextlayerid="3" nextobjectid="3">
 <tileset firstgid="1" source="tiles.tsx"/>
 <layer id="1" name="ground" width="10" height="6">
  <data encoding="csv">
2,0,0,0,0,0,0,0,0,0,
0,0,0,0,0,0,0,0,0,0,
0,0,0,1,1,0,0,0,0,0,
0,0,0,1,1,0,3,3,3,0,
0,0,0,0,0,0,0,0,0,0,
1,1,1,1,1,1,1,1,1,1
</data>
 </layer>
 <objectgroup id="2" name="things">
  <object id="1" name="start" type="player" x="12" y="30"><properties><property name="speed" value="3"/></properties><point/></object>
  <object id="2" name="crate" type="solid" x="64" y="8" width="16" height="8"/>
 </objectgroup>
</map>`

func levelFS() fstest.MapFS {
	return fstest.MapFS{
		"levels/one.tmx":   {Data: []byte(tmx)},
		"levels/tiles.tsx": {Data: []byte(tsx)},
		"levels/tiles.png": {Data: tilesPNG()},
	}
}

// The collision tiles become few boxes: the ground row one, the 2x2 block
// one, the one-way ledge one one-way platform; the solid object a box;
// every object an entity with its class and properties.
func TestBuildShapesAndObjects(t *testing.T) {
	var lv *level.Level
	var err error
	ebitentest.OnGame(t, func() { lv, err = level.Load(levelFS(), "levels/one.tmx") })
	if err != nil {
		t.Fatal(err)
	}
	if lv.Width != 80 || lv.Height != 48 {
		t.Errorf("size %v x %v, want 80 x 48", lv.Width, lv.Height)
	}
	w := donburi.NewWorld()
	p := physics.New(w, physics.Config{})
	b := lv.Build(w, p)
	type box struct {
		x, y, w, h float64
		oneway     bool
	}
	var got []box
	for _, e := range b.Solids {
		body := p.Body(e)
		bb := components.ShapeC.Get(w.Entry(e)).Shapes[0].BB()
		got = append(got, box{body.Position().X, body.Position().Y, math.Round(bb.R - bb.L), math.Round(bb.T - bb.B), w.Entry(e).HasComponent(physics.OneWayC)})
	}
	want := []box{{32, 24, 16, 16, false}, {40, 44, 80, 8, false}, {60, 28, 24, 8, true}, {72, 12, 16, 8, false}}
	if len(got) != len(want) {
		t.Fatalf("solids %+v, want %+v", got, want)
	}
	for i := range want {
		if got[i] != want[i] {
			t.Errorf("solid %d: %+v, want %+v", i, got[i], want[i])
		}
	}
	if len(b.Objects) != 2 || len(b.Layers) != 1 || b.Layers[0].Name() != "ground" {
		t.Fatalf("%d objects, %d layers", len(b.Objects), len(b.Layers))
	}
	start := level.ObjectC.Get(w.Entry(b.Objects[0]))
	if start.Name != "start" || start.Class != "player" || start.X != 12 || start.Y != 30 || start.Props["speed"] != "3" {
		t.Errorf("the start object: %+v", start)
	}
	if players := lv.Objects("player"); len(players) != 1 || players[0].Name != "start" {
		t.Errorf("Objects(player): %+v", players)
	}
}

// A tile layer draws its tiles where the map has them, through the camera,
// and only the tiles in view.
func TestTileLayerDraws(t *testing.T) {
	var whole, near [2]int
	var at func(x, y int) color.RGBA
	ebitentest.OnGame(t, func() {
		lv, w, b := buildOne(t)
		defer lv.Release()
		dst := ebiten.NewImage(80, 48)
		b.Layers[0].Draw(w, engine.Event{Kind: engine.Render, Screen: dst})
		whole[0] = b.Layers[0].Drawn()
		f := ebitentest.ReadFrame(dst)
		at = f.At
		// A camera twice as close over the map's left half: 20 x 12 units in view.
		cam := w.Create(components.CameraC, components.TransformC)
		components.CameraC.SetValue(w.Entry(cam), components.Camera{Zoom: 4})
		components.TransformC.SetValue(w.Entry(cam), components.NewTransform(components.Pose{X: 10, Y: 42}))
		dst.Clear()
		b.Layers[0].Draw(w, engine.Event{Kind: engine.Render, Screen: dst})
		near[0] = b.Layers[0].Drawn()
		g := ebitentest.ReadFrame(dst)
		near[1] = int(g.At(4, 40).R) // the ground's red, at the bottom left
	})
	if whole[0] != 18 || at(4, 44) != red || at(4, 4) != green || at(52, 28) != blue || at(12, 20) != (color.RGBA{}) {
		t.Errorf("the whole map: %d tiles drawn, pixels %v %v %v %v", whole[0], at(4, 44), at(4, 4), at(52, 28), at(12, 20))
	}
	if near[0] > 6 || near[0] == 0 || near[1] != 255 {
		t.Errorf("through a close camera: %d tiles drawn (want the few in view), ground pixel red %d", near[0], near[1])
	}
}

// buildOne loads levels/one.tmx and builds it into a new world; it runs
// on the game goroutine, and the caller releases the level.
func buildOne(t *testing.T) (*level.Level, donburi.World, *level.Built) {
	lv, err := level.Load(levelFS(), "levels/one.tmx")
	if err != nil {
		t.Fatal(err)
	}
	w := donburi.NewWorld()
	return lv, w, lv.Build(w, physics.New(w, physics.Config{}))
}

// A map that is not there, a tileset image that is not, are errors that
// name them.
func TestLoadErrors(t *testing.T) {
	fsys := levelFS()
	delete(fsys, "levels/tiles.png")
	var err1, err2 error
	ebitentest.OnGame(t, func() {
		_, err1 = level.Load(fsys, "levels/one.tmx")
		_, err2 = level.Load(fsys, "levels/two.tmx")
	})
	if err1 == nil || !bytes.Contains([]byte(err1.Error()), []byte("tiles.png")) || err2 == nil {
		t.Errorf("a missing image: %v; a missing map: %v", err1, err2)
	}
}

// Drawing a tile layer allocates nothing once its buffers have grown (not
// checked under -race, where ebiten's own sync.Pool allocates).
func TestTileLayerAllocatesNothing(t *testing.T) {
	var allocs float64
	ebitentest.OnGame(t, func() {
		lv, w, b := buildOne(t)
		defer lv.Release()
		ev := engine.Event{Kind: engine.Render, Screen: ebiten.NewImage(80, 48)}
		b.Layers[0].Draw(w, ev)
		allocs = testing.AllocsPerRun(50, func() { b.Layers[0].Draw(w, ev) })
	})
	if ebitentest.RaceEnabled() {
		t.Logf("-race: %v allocations a frame, not checked", allocs)
	} else if allocs != 0 {
		t.Errorf("a tile layer's Draw allocates %v times a frame", allocs)
	}
}
