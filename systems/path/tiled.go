package path

import (
	"fmt"

	"github.com/lafriks/go-tiled"

	"github.com/fixedstep/fixedstep/third_party/cp"
)

// FromTiled returns the grid of a Tiled map as package systems/level reads
// one (level.Level's Map): a cell a tile, at the origin, in the map's pixels
// (the world's units of a level), blocked where level.Build puts a static
// box. That is a tile whose tileset tile has the bool property "solid" or
// "oneway", any tile of a layer with the bool property "collision", and the
// rectangle of an object of class (or, before Tiled 1.9, type) "solid" or
// "oneway" (TestFromTiledMatchesLevelBuild compares the two on levels).
// One-way tiles block: a grid has no sides. Only finite
// orthogonal maps with square tiles are read; another is an error that
// says why.
func FromTiled(m *tiled.Map) (*Grid, error) {
	if m == nil {
		return nil, fmt.Errorf("path: FromTiled: no map")
	}
	if m.Orientation != "orthogonal" || m.Infinite {
		return nil, fmt.Errorf("path: FromTiled: a %s map (infinite %v): only finite orthogonal maps are read", m.Orientation, m.Infinite)
	}
	if m.TileWidth <= 0 || m.TileWidth != m.TileHeight {
		return nil, fmt.Errorf("path: FromTiled: tiles of %d x %d: a grid's cells are square", m.TileWidth, m.TileHeight)
	}
	if m.Width <= 0 || m.Height <= 0 || m.Width > MaxCells/m.Height {
		return nil, fmt.Errorf("path: FromTiled: a map of %d x %d tiles (at most %d)", m.Width, m.Height, MaxCells)
	}
	g := NewGrid(m.Width, m.Height, float64(m.TileWidth), cp.Vector{})
	for _, l := range m.Layers {
		all := l.Properties.GetBool("collision")
		for i, t := range l.Tiles {
			if t == nil || t.Nil || i >= len(g.blocked) {
				continue
			}
			solid := all
			if !solid && t.Tileset != nil {
				if tt, err := t.Tileset.GetTilesetTile(t.ID); err == nil {
					solid = tt.Properties.GetBool("solid") || tt.Properties.GetBool("oneway")
				}
			}
			if solid {
				g.set(i, true)
			}
		}
	}
	for _, og := range m.ObjectGroups {
		for _, o := range og.Objects {
			class := o.Class
			if class == "" {
				class = o.Type
			}
			if (class == "solid" || class == "oneway") && o.Width > 0 && o.Height > 0 {
				g.BlockBox(cp.BB{L: o.X, B: o.Y, R: o.X + o.Width, T: o.Y + o.Height})
			}
		}
	}
	return g, nil
}
