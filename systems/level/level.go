// Package level makes a scene of a Tiled map (.tmx, with its .tsx tilesets
// and their images), read by github.com/lafriks/go-tiled from the game's
// assets (an fs.FS: an embed.FS, so that the level ships inside the game):
//
//   - every tile layer is a render system that draws the tiles the camera
//     sees, batched (one DrawTriangles32 call a tileset), in its own layer,
//     each tile in its cell at the map's tile size (tiles larger than the
//     grid are scaled down to it, not drawn overhanging as Tiled draws them);
//   - the collision tiles are merged into few static boxes: a tile whose
//     tileset tile has the bool property "solid", or any tile of a layer
//     with the bool property "collision", is solid; one with "oneway" is a
//     one-way platform solid from above (physics.BodyOptions.OneWay);
//   - every object of an object layer is an entity with an Object
//     component (its id, name, class, rectangle, a polyline's or polygon's
//     points and its properties); an object of class "solid" or "oneway" is
//     a static box of its rectangle too.
//
// Properties are typed as Tiled writes them (float, int, bool, color,
// object references): an Object's and a tile's (Level.TileProperties) read
// through accessors with a default that name the object and the property
// in their errors (Properties.Float, Level.Ref); Object.Props keeps every
// value as a string.
//
// The game spawns what its objects stand for (a player's start, enemies)
// from Objects. A Level is owned by the scene that built it: Release frees
// its images when the scene ends. Tiled's coordinates are the world's: y
// down, one pixel a unit.
package level

import (
	"bytes"
	"fmt"
	"image"
	_ "image/png" // tilesets' images
	"io/fs"
	"path"

	"github.com/hajimehoshi/ebiten/v2"
	"github.com/lafriks/go-tiled"

	"github.com/fixedstep/fixedstep/systems/physics"
	"github.com/fixedstep/fixedstep/third_party/cp"
	"github.com/fixedstep/fixedstep/third_party/donburi"
)

// Level is a Tiled map, loaded.
type Level struct {
	Map           *tiled.Map // as go-tiled read it
	Width, Height float64    // the map's size in world units
	images        map[*tiled.Tileset]*ebiten.Image
}

// Object is an object of the map's object layers, as an entity's component.
type Object struct {
	ID                  uint32 // unique in its map; what an object reference holds
	Layer, Name, Class  string
	X, Y, Width, Height float64 // its rectangle, X and Y its top-left corner (a point: its place)
	// Points are a polyline's or a polygon's points, in world units (the
	// object's X and Y added); nil for other objects.
	Points []cp.Vector
	Closed bool              // Points are a polygon's: the last joins the first
	Props  map[string]string // every property's value, as text

	// Properties are its properties typed (Properties.Float, Int, Bool,
	// Color, ObjectID; Level.Ref), Owner naming it.
	Properties
}

// ObjectC is the component of a map's object.
var ObjectC = donburi.NewComponentType[Object]()

// Load reads the map at name in fsys with its tilesets and their images.
// Only orthogonal maps of finite size are read; an image that is not a PNG,
// or a file that is not there, is an error that names it.
func Load(fsys fs.FS, name string) (*Level, error) {
	m, err := tiled.LoadFile(name, tiled.WithFileSystem(fsys))
	if err != nil {
		return nil, fmt.Errorf("level: %s: %w", name, err)
	}
	if m.Orientation != "orthogonal" || m.Infinite {
		return nil, fmt.Errorf("level: %s: a %s map (infinite %v): only finite orthogonal maps are read", name, m.Orientation, m.Infinite)
	}
	lv := &Level{Map: m, Width: float64(m.Width * m.TileWidth), Height: float64(m.Height * m.TileHeight),
		images: map[*tiled.Tileset]*ebiten.Image{}}
	for _, ts := range m.Tilesets {
		if ts.Image == nil {
			return nil, fmt.Errorf("level: %s: tileset %q has no image (a collection of images is not read)", name, ts.Name)
		}
		p := path.Clean(ts.GetFileFullPath(ts.Image.Source))
		data, err := fs.ReadFile(fsys, p)
		if err != nil {
			return nil, fmt.Errorf("level: %s: tileset %q: %w", name, ts.Name, err)
		}
		img, _, err := image.Decode(bytes.NewReader(data))
		if err != nil {
			return nil, fmt.Errorf("level: %s: tileset %q: %s: %w", name, ts.Name, p, err)
		}
		lv.images[ts] = ebiten.NewImageFromImage(img)
	}
	return lv, nil
}

// Release frees the tilesets' images. The level draws nothing after it.
func (lv *Level) Release() {
	for ts, img := range lv.images { //detcheck:ok every image freed: the order reaches nothing
		img.Deallocate()
		delete(lv.images, ts)
	}
}

// Objects returns the objects of the map's object layers, in the file's
// order; of one class only when class is not empty.
func (lv *Level) Objects(class string) []Object {
	var out []Object
	for _, g := range lv.Map.ObjectGroups {
		for _, o := range g.Objects {
			c := o.Class
			if c == "" {
				c = o.Type // Tiled before 1.9
			}
			if class != "" && c != class {
				continue
			}
			props := map[string]string{}
			for _, p := range o.Properties {
				props[p.Name] = p.Value
			}
			owner := fmt.Sprintf("object %d %q", o.ID, o.Name)
			if c != "" {
				owner += " (" + c + ")"
			}
			out = append(out, Object{ID: o.ID, Layer: g.Name, Name: o.Name, Class: c, X: o.X, Y: o.Y, Width: o.Width, Height: o.Height,
				Points: points(o), Closed: len(o.PolyLines) == 0 && len(o.Polygons) > 0, Props: props, Properties: properties(owner, o.Properties)})
		}
	}
	return out
}

// points returns a polyline's or polygon's points in world units.
func points(o *tiled.Object) []cp.Vector {
	var ps *tiled.Points
	switch {
	case len(o.PolyLines) > 0:
		ps = o.PolyLines[0].Points
	case len(o.Polygons) > 0:
		ps = o.Polygons[0].Points
	}
	if ps == nil {
		return nil
	}
	out := make([]cp.Vector, 0, len(*ps))
	for _, p := range *ps {
		out = append(out, cp.Vector{X: o.X + p.X, Y: o.Y + p.Y})
	}
	return out
}

// Built is what Build made.
type Built struct {
	Layers  []*TileLayer     // the tile layers' render systems, in the map's order
	Solids  []donburi.Entity // the static boxes of the collision tiles and solid objects
	Objects []donburi.Entity // the objects' entities, in the file's order
}

// Build puts the level in world w: its collision boxes and solid objects in
// phys's space, an entity for every object, and a render system for every
// visible tile layer. Add those to the scene's scheduler yourself, in the
// map's order, each in a render layer of its own: for tiles under the
// sprites of render layer 0 and up, sched.AddRender(first+i, name,
// Layers[i].Draw) with first+len(Layers) <= 0.
func (lv *Level) Build(w donburi.World, phys *physics.Physics) *Built {
	b := &Built{}
	solid := lv.collision()
	for _, r := range solid.rects(cellSolid) {
		b.Solids = append(b.Solids, lv.box(phys, r, false))
	}
	for _, r := range solid.rects(cellOneWay) {
		b.Solids = append(b.Solids, lv.box(phys, r, true))
	}
	for _, o := range lv.Objects("") {
		e := w.Create(ObjectC)
		ObjectC.SetValue(w.Entry(e), o)
		b.Objects = append(b.Objects, e)
		if (o.Class == "solid" || o.Class == "oneway") && o.Width > 0 && o.Height > 0 {
			b.Solids = append(b.Solids, phys.SpawnBox(o.Width, o.Height, &physics.BodyOptions{Kind: physics.Static,
				Position: cp.Vector{X: o.X + o.Width/2, Y: o.Y + o.Height/2}, OneWay: oneWay(o.Class == "oneway")}))
		}
	}
	for _, l := range lv.Map.Layers {
		if l.Visible {
			b.Layers = append(b.Layers, &TileLayer{lv: lv, layer: l})
		}
	}
	return b
}

func oneWay(on bool) cp.Vector {
	if on {
		return cp.Vector{Y: -1}
	}
	return cp.Vector{}
}

// box spawns a static box over a rectangle of tiles.
func (lv *Level) box(phys *physics.Physics, r image.Rectangle, oneway bool) donburi.Entity {
	tw, th := float64(lv.Map.TileWidth), float64(lv.Map.TileHeight)
	w, h := float64(float64(r.Dx())*tw), float64(float64(r.Dy())*th)
	return phys.SpawnBox(w, h, &physics.BodyOptions{Kind: physics.Static,
		Position: cp.Vector{X: float64(float64(r.Min.X)*tw) + w/2, Y: float64(float64(r.Min.Y)*th) + h/2}, OneWay: oneWay(oneway)})
}

const (
	cellEmpty uint8 = iota
	cellSolid
	cellOneWay
)

// grid is the map's cells, each empty, solid or one-way.
type grid struct {
	w, h  int
	cells []uint8
}

// collision returns the map's collision cells (see the package doc).
func (lv *Level) collision() *grid {
	m := lv.Map
	g := &grid{w: m.Width, h: m.Height, cells: make([]uint8, m.Width*m.Height)}
	for _, l := range m.Layers {
		all := l.Properties.GetBool("collision")
		for i, t := range l.Tiles {
			if t == nil || t.Nil || i >= len(g.cells) {
				continue
			}
			var props tiled.Properties
			if tt, err := t.Tileset.GetTilesetTile(t.ID); err == nil {
				props = tt.Properties
			}
			switch {
			case props.GetBool("oneway"):
				g.cells[i] = cellOneWay
			case all || props.GetBool("solid"):
				g.cells[i] = cellSolid
			}
		}
	}
	return g
}

// rects merges the cells of one kind into rectangles: runs along each row
// as wide as they go, each grown down while the rows below match it.
func (g *grid) rects(kind uint8) []image.Rectangle {
	used := make([]bool, len(g.cells))
	at := func(x, y int) bool { return g.cells[y*g.w+x] == kind && !used[y*g.w+x] }
	var out []image.Rectangle
	for y := range g.h {
		for x := 0; x < g.w; x++ {
			if !at(x, y) {
				continue
			}
			x1 := x
			for x1 < g.w && at(x1, y) {
				x1++
			}
			y1 := y + 1
			for ; y1 < g.h; y1++ {
				full := true
				for i := x; i < x1 && full; i++ {
					full = at(i, y1)
				}
				if !full {
					break
				}
			}
			for j := y; j < y1; j++ {
				for i := x; i < x1; i++ {
					used[j*g.w+i] = true
				}
			}
			out = append(out, image.Rect(x, y, x1, y1))
			x = x1 - 1
		}
	}
	return out
}
