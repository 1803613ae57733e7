package path_test

import (
	"math"
	"strings"
	"testing"
	"testing/fstest"

	"github.com/lafriks/go-tiled"

	"github.com/fixedstep/fixedstep/systems/path"
	"github.com/fixedstep/fixedstep/systems/physics"
	"github.com/fixedstep/fixedstep/third_party/cp"
	"github.com/fixedstep/fixedstep/third_party/donburi"
)

func TestCellAtAndCenter(t *testing.T) {
	g := path.NewGrid(10, 5, 16, cp.Vector{X: -80, Y: 40})
	for _, tc := range []struct {
		p    cp.Vector
		want path.Cell
	}{
		{cp.Vector{X: -80, Y: 40}, path.Cell{}},
		{cp.Vector{X: -64.0001, Y: 55.9}, path.Cell{}},
		{cp.Vector{X: -64, Y: 56}, path.Cell{X: 1, Y: 1}},
		{cp.Vector{X: -81, Y: 39}, path.Cell{X: -1, Y: -1}},
		{cp.Vector{X: 79.5, Y: 119.5}, path.Cell{X: 9, Y: 4}},
		{cp.Vector{X: 80, Y: 120}, path.Cell{X: 10, Y: 5}},
		{cp.Vector{X: math.NaN(), Y: math.Inf(1)}, path.Cell{X: -1 << 30, Y: 1 << 30}},
		{cp.Vector{X: -1e300, Y: 1e300}, path.Cell{X: -1 << 30, Y: 1 << 30}},
	} {
		if got := g.CellAt(tc.p); got != tc.want {
			t.Errorf("CellAt(%v) = %v, want %v", tc.p, got, tc.want)
		}
	}
	for y := -1; y <= 5; y++ {
		for x := -1; x <= 10; x++ {
			c := path.Cell{X: x, Y: y}
			if got := g.CellAt(g.Center(c)); got != c {
				t.Errorf("CellAt(Center(%v)) = %v", c, got)
			}
			if in := x >= 0 && y >= 0 && x < 10 && y < 5; g.In(c) != in || g.Blocked(c) == in {
				t.Errorf("cell %v: In %v, Blocked %v", c, g.In(c), g.Blocked(c))
			}
		}
	}
	if c := g.Center(path.Cell{X: 2, Y: 3}); c != (cp.Vector{X: -40, Y: 96}) {
		t.Errorf("Center(2, 3) = %v", c)
	}
	if b := g.Bounds(); b != (cp.BB{L: -80, B: 40, R: 80, T: 120}) {
		t.Errorf("Bounds = %v", b)
	}
}

func TestNewGridRefusesBadSizes(t *testing.T) {
	for _, f := range []func(){
		func() { path.NewGrid(0, 5, 1, cp.Vector{}) },
		func() { path.NewGrid(5, -1, 1, cp.Vector{}) },
		func() { path.NewGrid(1<<13, 1<<12, 1, cp.Vector{}) },
		func() { path.NewGrid(5, 5, 0, cp.Vector{}) },
		func() { path.NewGrid(5, 5, math.NaN(), cp.Vector{}) },
		func() { path.NewGrid(5, 5, math.Inf(1), cp.Vector{}) },
		func() { path.NewGrid(5, 5, 1, cp.Vector{X: math.NaN()}) },
	} {
		func() {
			defer func() {
				if r := recover(); r == nil || !strings.HasPrefix(r.(string), "path: NewGrid: ") {
					t.Errorf("panic %v", r)
				}
			}()
			f()
		}()
	}
}

func TestSetCountsVersions(t *testing.T) {
	g := path.NewGrid(3, 3, 1, cp.Vector{})
	v := g.Version()
	g.Set(path.Cell{X: 1, Y: 1}, false) // no change
	g.Set(path.Cell{X: 5, Y: 1}, true)  // outside: no change
	if g.Version() != v || g.Count() != 0 {
		t.Fatalf("version %d -> %d, count %d, with no change", v, g.Version(), g.Count())
	}
	g.Set(path.Cell{X: 1, Y: 1}, true)
	if g.Version() == v || g.Count() != 1 || !g.Blocked(path.Cell{X: 1, Y: 1}) {
		t.Fatalf("a cell blocked: version %d -> %d, count %d", v, g.Version(), g.Count())
	}
	v = g.Version()
	g.Clear()
	if g.Version() == v || g.Count() != 0 {
		t.Fatalf("cleared: version %d -> %d, count %d", v, g.Version(), g.Count())
	}
}

// A box on cell edges blocks exactly its cells; one inside cells blocks
// every cell it overlaps; one with no area or not finite, none.
func TestBlockBox(t *testing.T) {
	g := path.NewGrid(8, 6, 8, cp.Vector{})
	g.BlockBox(cp.BB{L: 8, B: 16, R: 24, T: 32})    // cells 1-2, rows 2-3
	g.BlockBox(cp.BB{L: 60, B: 47.5, R: 43, T: 41}) // either order: cells 5-7, row 5
	g.BlockBox(cp.BB{L: 40, B: 0, R: 40, T: 8})     // no area
	g.BlockBox(cp.BB{L: math.NaN(), B: 0, R: 8, T: 8})
	g.BlockBox(cp.BB{L: -100, B: -100, R: 0.5, T: 0.5}) // reaches into cell 0, 0 only
	want := "" +
		"#.......\n" +
		"........\n" +
		".##.....\n" +
		".##.....\n" +
		"........\n" +
		".....###\n"
	if got := picture(g, nil); got != want {
		t.Errorf("got\n%swant\n%s", got, want)
	}
}

// A segment blocks the cells it crosses or lies less than its radius from;
// a line along a cell edge blocks both sides; a circle its disc's cells.
func TestBlockSegmentAndCircle(t *testing.T) {
	g := path.NewGrid(10, 8, 1, cp.Vector{})
	g.BlockSegment(cp.Vector{X: 0.5, Y: 0.5}, cp.Vector{X: 3.5, Y: 3.5}, 0) // a diagonal through corners
	g.BlockSegment(cp.Vector{X: 6, Y: 0}, cp.Vector{X: 6, Y: 2}, 0)         // on the edge between columns 5 and 6
	g.BlockCircle(cp.Vector{X: 7, Y: 6}, 1)                                 // touches the 4 cells at (7, 6) and their far neighbours only at distance 1
	g.BlockSegment(cp.Vector{X: 1, Y: 6.5}, cp.Vector{X: 3, Y: 6.5}, 0.25)
	g.BlockSegment(cp.Vector{X: math.NaN()}, cp.Vector{}, 1)
	g.BlockSegment(cp.Vector{}, cp.Vector{X: 1}, -1)
	want := "" +
		"##...##...\n" +
		"###..##...\n" +
		".###.##...\n" +
		"..##......\n" +
		"..........\n" +
		"......##..\n" +
		"####..##..\n" +
		"..........\n"
	if got := picture(g, nil); got != want {
		t.Errorf("got\n%swant\n%s", got, want)
	}
}

// BlockStatic blocks the cells of the static, solid shapes of a physics
// space: walls, boxes, segments; not a sensor, not a dynamic body.
func TestBlockStaticFromPhysics(t *testing.T) {
	w := donburi.NewWorld()
	phys := physics.New(w, physics.Config{})
	// The outline of a 10 x 8 room of unit cells, on the cells' centres.
	phys.SpawnWalls([]cp.Vector{{X: 0.5, Y: 0.5}, {X: 9.5, Y: 0.5}, {X: 9.5, Y: 7.5}, {X: 0.5, Y: 7.5}, {X: 0.5, Y: 0.5}}, 0.25,
		&physics.BodyOptions{Kind: physics.Static})
	phys.SpawnBox(2, 3, &physics.BodyOptions{Kind: physics.Static, Position: cp.Vector{X: 4, Y: 3.5}})
	phys.SpawnSegment(cp.Vector{X: 6.5, Y: 1}, cp.Vector{X: 6.5, Y: 4}, 0.25, &physics.BodyOptions{Kind: physics.Static})
	phys.SpawnCircle(0.4, &physics.BodyOptions{Kind: physics.Static, Position: cp.Vector{X: 8.5, Y: 5.5}, Sensor: true})
	phys.SpawnCircle(0.4, &physics.BodyOptions{Position: cp.Vector{X: 2.5, Y: 5.5}})
	g := path.NewGrid(10, 8, 1, cp.Vector{})
	g.BlockStatic(phys.Space(), 0)
	want := "" +
		"##########\n" +
		"#.....#..#\n" +
		"#..##.#..#\n" +
		"#..##.#..#\n" +
		"#..##.#..#\n" +
		"#........#\n" +
		"#........#\n" +
		"##########\n"
	if got := picture(g, nil); got != want {
		t.Errorf("got\n%swant\n%s", got, want)
	}
	// With a margin of half a cell, the walls are two cells thick, the box
	// is a cell larger all round and the segment three cells wide.
	g = path.NewGrid(10, 8, 1, cp.Vector{})
	g.BlockStatic(phys.Space(), 0.5)
	want = "" +
		"##########\n" +
		"##########\n" +
		"##########\n" +
		"##########\n" +
		"##########\n" +
		"######..##\n" +
		"##########\n" +
		"##########\n"
	if got := picture(g, nil); got != want {
		t.Errorf("margin 0.5: got\n%swant\n%s", got, want)
	}
}

// The level of package level's tests: 10 x 6 tiles of 8 px. Row 5 is
// ground (solid), a 2x2 block of it at columns 3-4, rows 2-3; a one-way
// ledge at columns 6-8 of row 3; decoration (not solid) at column 0 of row
// 0; a solid object 16 x 8 at (64, 8).
const testTSX = `<?xml version="1.0" encoding="UTF-8"?>
<tileset version="1.10" name="tiles" tilewidth="8" tileheight="8" tilecount="4" columns="4">
 <image source="tiles.png" width="32" height="8"/>
 <tile id="0"><properties><property name="solid" type="bool" value="true"/></properties></tile>
 <tile id="2"><properties><property name="oneway" type="bool" value="true"/></properties></tile>
</tileset>`

const testTMX = `<?xml version="1.0" encoding="UTF-8"?>
<map version="1.10" orientation="orthogonal" renderorder="right-down" width="10" height="6" tilewidth="8" tileheight="8" infinite="0" nextlayerid="4" nextobjectid="3">
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
 <layer id="3" name="fence" width="10" height="6">
  <properties><property name="collision" type="bool" value="true"/></properties>
  <data encoding="csv">
0,0,0,0,0,0,0,0,0,0,
0,0,0,0,0,0,0,0,0,0,
0,0,0,0,0,0,0,0,0,0,
0,0,0,0,0,0,0,0,0,0,
0,2,0,0,0,0,0,0,0,0,
0,0,0,0,0,0,0,0,0,0
</data>
 </layer>
 <objectgroup id="2" name="things">
  <object id="1" name="start" type="player" x="12" y="30"><point/></object>
  <object id="2" name="crate" type="solid" x="64" y="8" width="16" height="8"/>
 </objectgroup>
</map>`

func TestFromTiled(t *testing.T) {
	fsys := fstest.MapFS{"levels/one.tmx": {Data: []byte(testTMX)}, "levels/tiles.tsx": {Data: []byte(testTSX)}}
	m, err := tiled.LoadFile("levels/one.tmx", tiled.WithFileSystem(fsys))
	if err != nil {
		t.Fatal(err)
	}
	g, err := path.FromTiled(m)
	if err != nil {
		t.Fatal(err)
	}
	if g.Width() != 10 || g.Height() != 6 || g.Size() != 8 || g.Origin() != (cp.Vector{}) {
		t.Fatalf("a %d x %d grid of %v at %v", g.Width(), g.Height(), g.Size(), g.Origin())
	}
	want := "" +
		"..........\n" +
		"........##\n" +
		"...##.....\n" +
		"...##.###.\n" +
		".#........\n" +
		"##########\n"
	if got := picture(g, nil); got != want {
		t.Errorf("got\n%swant\n%s", got, want)
	}
	// The level's tiles in world units: the ground's top-left corner.
	if c := g.CellAt(cp.Vector{X: 0, Y: 40}); !g.Blocked(c) || c != (path.Cell{X: 0, Y: 5}) {
		t.Errorf("the ground's corner is in %v", c)
	}
	for _, bad := range []*tiled.Map{
		nil,
		{Orientation: "isometric", Width: 2, Height: 2, TileWidth: 8, TileHeight: 8},
		{Orientation: "orthogonal", Infinite: true, Width: 2, Height: 2, TileWidth: 8, TileHeight: 8},
		{Orientation: "orthogonal", Width: 2, Height: 2, TileWidth: 8, TileHeight: 16},
		{Orientation: "orthogonal", Width: 0, Height: 2, TileWidth: 8, TileHeight: 8},
	} {
		if _, err := path.FromTiled(bad); err == nil || !strings.HasPrefix(err.Error(), "path: FromTiled: ") {
			t.Errorf("FromTiled(%+v): %v", bad, err)
		}
	}
}
