package level

import (
	"math"

	"github.com/hajimehoshi/ebiten/v2"
	"github.com/lafriks/go-tiled"

	"github.com/fixedstep/fixedstep/components"
	"github.com/fixedstep/fixedstep/components/gfx"
	"github.com/fixedstep/fixedstep/engine"
	"github.com/fixedstep/fixedstep/engine/window"
	"github.com/fixedstep/fixedstep/third_party/donburi"
	"github.com/fixedstep/fixedstep/third_party/donburi/filter"
)

// TileLayer is the render system of one tile layer: the tiles the camera
// sees (the first entity with a components.Camera and a Transform, at the
// frame's alpha, as the sprite render system draws through it; without
// one, the map's origin at the screen's top-left), one DrawTriangles32
// call a tileset. A tile off the screen costs nothing: only the rows and
// columns in view are visited. It allocates nothing once its buffers have
// grown to a screenful.
type TileLayer struct {
	lv       *Level
	layer    *tiled.Layer
	cameras  *donburi.Query
	vertices []ebiten.Vertex
	indices  []uint32
	opts     ebiten.DrawTrianglesOptions
	drawn    int
}

// Name returns the layer's name in the map.
func (t *TileLayer) Name() string { return t.layer.Name }

// Drawn returns the number of tiles the last Draw drew.
func (t *TileLayer) Drawn() int { return t.drawn }

// Draw draws the layer on the event's screen; headless, nothing.
func (t *TileLayer) Draw(w donburi.World, ev engine.Event) {
	t.drawn = 0
	screen := window.Screen(ev)
	if screen == nil || len(t.lv.images) == 0 {
		return
	}
	if t.cameras == nil {
		t.cameras = donburi.NewQuery(filter.Contains(components.CameraC, components.TransformC))
	}
	var g ebiten.GeoM
	if e, ok := t.cameras.First(w); ok {
		g = gfx.View(components.CameraC.Get(e), components.TransformC.Get(e).At(ev.Alpha), screen.Bounds())
	}
	m := t.lv.Map
	x0, y0, x1, y1 := t.inView(g, screen)
	for _, ts := range m.Tilesets { // in the map's order, the same every frame
		img := t.lv.images[ts]
		if img == nil {
			continue
		}
		n := 0
		for ty := y0; ty < y1; ty++ {
			for tx := x0; tx < x1; tx++ {
				tile := t.layer.Tiles[ty*m.Width+tx]
				if tile == nil || tile.Nil || tile.Tileset != ts {
					continue
				}
				t.quad(n, &g, tx, ty, tile)
				n++
			}
		}
		if n > 0 {
			screen.DrawTriangles32(t.vertices[:4*n], t.indices[:6*n], img, &t.opts)
			t.drawn += n
		}
	}
}

// inView returns the range of tiles [x0, x1) x [y0, y1) under the screen
// through the view g.
func (t *TileLayer) inView(g ebiten.GeoM, screen *ebiten.Image) (x0, y0, x1, y1 int) {
	m := t.lv.Map
	inv := g
	inv.Invert()
	b := screen.Bounds()
	minX, minY, maxX, maxY := math.Inf(1), math.Inf(1), math.Inf(-1), math.Inf(-1)
	for _, c := range [4][2]int{{b.Min.X, b.Min.Y}, {b.Max.X, b.Min.Y}, {b.Min.X, b.Max.Y}, {b.Max.X, b.Max.Y}} {
		x, y := inv.Apply(float64(c[0]), float64(c[1]))
		minX, minY, maxX, maxY = min(minX, x), min(minY, y), max(maxX, x), max(maxY, y)
	}
	tw, th := float64(m.TileWidth), float64(m.TileHeight)
	clampTo := func(v float64, n int) int { return int(max(0, min(v, float64(n)))) } //detcheck:ok the tiles drawn, not game state
	x0, x1 = clampTo(math.Floor(minX/tw), m.Width), clampTo(math.Ceil(maxX/tw), m.Width)
	y0, y1 = clampTo(math.Floor(minY/th), m.Height), clampTo(math.Ceil(maxY/th), m.Height)
	need := (x1 - x0) * (y1 - y0)
	if len(t.vertices) < 4*need {
		t.vertices = make([]ebiten.Vertex, 4*need)
		t.indices = t.indices[:0]
		for q := range uint32(need) {
			t.indices = append(t.indices, 4*q, 4*q+1, 4*q+2, 4*q+1, 4*q+2, 4*q+3)
		}
	}
	return x0, y0, x1, y1
}

// quad sets the n-th quad to tile at (tx, ty) through g, flipped as the
// map says.
func (t *TileLayer) quad(n int, g *ebiten.GeoM, tx, ty int, tile *tiled.LayerTile) {
	m := t.lv.Map
	src := tile.Tileset.GetTileRect(tile.ID)
	sx0, sy0, sx1, sy1 := float32(src.Min.X), float32(src.Min.Y), float32(src.Max.X), float32(src.Max.Y)
	// the source corner at each of the quad's corners: top-left, top-right, bottom-left, bottom-right
	us := [4]float32{sx0, sx1, sx0, sx1}
	vs := [4]float32{sy0, sy0, sy1, sy1}
	if tile.DiagonalFlip {
		us[1], us[2] = us[2], us[1]
		vs[1], vs[2] = vs[2], vs[1]
	}
	if tile.HorizontalFlip {
		us[0], us[1], us[2], us[3] = us[1], us[0], us[3], us[2]
		vs[0], vs[1], vs[2], vs[3] = vs[1], vs[0], vs[3], vs[2]
	}
	if tile.VerticalFlip {
		us[0], us[1], us[2], us[3] = us[2], us[3], us[0], us[1]
		vs[0], vs[1], vs[2], vs[3] = vs[2], vs[3], vs[0], vs[1]
	}
	wx, wy := float64(tx*m.TileWidth), float64(ty*m.TileHeight)
	ww, wh := float64(m.TileWidth), float64(m.TileHeight)
	q := t.vertices[4*n : 4*n+4]
	for k, c := range [4][2]float64{{wx, wy}, {wx + ww, wy}, {wx, wy + wh}, {wx + ww, wy + wh}} {
		x, y := g.Apply(c[0], c[1])
		q[k] = ebiten.Vertex{DstX: float32(x), DstY: float32(y), SrcX: us[k], SrcY: vs[k], ColorR: 1, ColorG: 1, ColorB: 1, ColorA: 1}
	}
}
