package path_test

import (
	"bytes"
	"image"
	"image/png"
	"io/fs"
	"os"
	"testing"
	"testing/fstest"

	"github.com/fixedstep/fixedstep/systems/level"
	"github.com/fixedstep/fixedstep/systems/path"
	"github.com/fixedstep/fixedstep/systems/physics"
	"github.com/fixedstep/fixedstep/third_party/cp"
	"github.com/fixedstep/fixedstep/third_party/donburi"
)

// The grid FromTiled reads of a level is the grid of the static boxes
// level.Build puts in the physics space: this package's test level (solid
// tiles and object, a one-way ledge, a collision layer) and the
// platformer's levels.
func TestFromTiledMatchesLevelBuild(t *testing.T) {
	var tiles bytes.Buffer
	if err := png.Encode(&tiles, image.NewRGBA(image.Rect(0, 0, 32, 8))); err != nil {
		t.Fatal(err)
	}
	levels := []struct {
		fsys fs.FS
		name string
	}{{fstest.MapFS{"levels/one.tmx": {Data: []byte(testTMX)}, "levels/tiles.tsx": {Data: []byte(testTSX)},
		"levels/tiles.png": {Data: tiles.Bytes()}}, "levels/one.tmx"}}
	platformer := os.DirFS("../../cmd/platformer")
	for _, name := range []string{"data/level1.tmx", "data/level2.tmx"} {
		if _, err := fs.Stat(platformer, name); err == nil {
			levels = append(levels, struct {
				fsys fs.FS
				name string
			}{platformer, name})
		}
	}
	for _, l := range levels {
		lv, err := level.Load(l.fsys, l.name)
		if err != nil {
			t.Fatal(err)
		}
		g, err := path.FromTiled(lv.Map)
		if err != nil {
			t.Fatal(err)
		}
		w := donburi.NewWorld()
		phys := physics.New(w, physics.Config{})
		lv.Build(w, phys)
		fromSpace := path.NewGrid(g.Width(), g.Height(), g.Size(), cp.Vector{})
		fromSpace.BlockStatic(phys.Space(), 0)
		if a, b := picture(g, nil), picture(fromSpace, nil); a != b || g.Count() == 0 {
			t.Errorf("%s: FromTiled\n%sthe level's boxes\n%s", l.name, a, b)
		}
		lv.Release()
	}
}
