package path_test

import (
	"fmt"
	"math"
	"strings"
	"testing/fstest"

	"github.com/lafriks/go-tiled"

	"github.com/fixedstep/fixedstep/components"
	"github.com/fixedstep/fixedstep/engine"
	"github.com/fixedstep/fixedstep/systems"
	"github.com/fixedstep/fixedstep/systems/path"
	"github.com/fixedstep/fixedstep/systems/physics"
	"github.com/fixedstep/fixedstep/systems/stage/core"
	"github.com/fixedstep/fixedstep/third_party/cp"
	"github.com/fixedstep/fixedstep/third_party/donburi"
)

// A path round a wall: a grid of cells of 10 units with a wall made of a
// box, the search from one world point's cell to another's, the path
// drawn over the grid.
func Example() {
	g := path.NewGrid(12, 6, 10, cp.Vector{})
	g.BlockBox(cp.BB{L: 50, B: 0, R: 70, T: 50}) // a wall 2 cells wide, open at the bottom row

	var s path.Search // keep it: its buffers are reused by the next search
	cells, status := s.Find(g, g.CellAt(cp.Vector{X: 15, Y: 15}), g.CellAt(cp.Vector{X: 105, Y: 15}), nil)
	fmt.Println(status, len(cells), "cells; the first waypoint:", g.Center(cells[1]))

	on := map[path.Cell]bool{}
	for _, c := range cells {
		on[c] = true
	}
	for y := range g.Height() {
		var row strings.Builder
		for x := range g.Width() {
			switch c := (path.Cell{X: x, Y: y}); {
			case on[c]:
				row.WriteByte('*')
			case g.Blocked(c):
				row.WriteByte('#')
			default:
				row.WriteByte('.')
			}
		}
		fmt.Println(row.String())
	}
	// Output:
	// Reached 12 cells; the first waypoint: 25.000000,25.000000
	// .....##.....
	// .*...##...*.
	// ..*..##...*.
	// ...*.##..*..
	// ....*##.*...
	// ....****....
}

// A flow field towards one cell: the step from every cell, the way every
// agent chasing a target in that cell goes.
func ExampleField() {
	g := path.NewGrid(7, 4, 1, cp.Vector{})
	for y := range 3 {
		g.Set(path.Cell{X: 3, Y: y}, true) // a wall, open at the bottom
	}
	var f path.Field
	f.Update(g, path.Cell{X: 5, Y: 1}) // builds; again with the same goal and grid, does nothing
	arrows := map[[2]int]string{{1, 0}: "→", {-1, 0}: "←", {0, 1}: "↓", {0, -1}: "↑",
		{1, 1}: "↘", {-1, 1}: "↙", {1, -1}: "↗", {-1, -1}: "↖"}
	for y := range g.Height() {
		var row strings.Builder
		for x := range g.Width() {
			c := path.Cell{X: x, Y: y}
			next, ok := f.Next(c)
			switch {
			case g.Blocked(c):
				row.WriteString("#")
			case !ok:
				row.WriteString("o") // the goal
			default:
				row.WriteString(arrows[[2]int{next.X - x, next.Y - y}])
			}
		}
		fmt.Printf("%s  cost from the left: %d\n", row.String(), f.Dist(path.Cell{X: 0, Y: y}))
	}
	// Output:
	// ↘↘↓#↘↓↙  cost from the left: 82
	// ↘↘↓#→o←  cost from the left: 72
	// ↘↘↓#↗↑↖  cost from the left: 68
	// →→→→↗↑↖  cost from the left: 64
}

// A Tiled level's grid: a cell a tile, blocked where the level's solid
// tiles are (here the tiles of a layer with the property "collision").
func ExampleFromTiled() {
	const tmx = `<?xml version="1.0" encoding="UTF-8"?>
<map version="1.10" orientation="orthogonal" width="6" height="4" tilewidth="16" tileheight="16" infinite="0">
 <tileset firstgid="1" name="tiles" tilewidth="16" tileheight="16" tilecount="1" columns="1">
  <image source="tiles.png" width="16" height="16"/>
 </tileset>
 <layer id="1" name="walls" width="6" height="4">
  <properties><property name="collision" type="bool" value="true"/></properties>
  <data encoding="csv">
1,1,1,1,1,1,
1,0,0,1,0,1,
1,0,0,0,0,1,
1,1,1,1,1,1
</data>
 </layer>
</map>`
	m, err := tiled.LoadFile("level.tmx", tiled.WithFileSystem(fstest.MapFS{"level.tmx": {Data: []byte(tmx)}}))
	if err != nil {
		fmt.Println(err)
		return
	}
	g, err := path.FromTiled(m) // with package level: path.FromTiled(lv.Map)
	if err != nil {
		fmt.Println(err)
		return
	}
	var s path.Search
	cells, status := s.Find(g, g.CellAt(cp.Vector{X: 20, Y: 20}), g.CellAt(cp.Vector{X: 70, Y: 20}), nil)
	fmt.Println(g.Width(), "x", g.Height(), "cells of", g.Size(), "units;", status, cells)
	// Output: 6 x 4 cells of 16 units; Reached [{1 1} {2 2} {3 2} {4 2} {4 1}]
}

// Agents that chase round walls: a scene on core.Stage whose AI has a
// Router over a grid of its static walls. The agent with a path.Follow
// finds its way round the wall between it and the player; the other runs
// straight at the player, into the wall.
func ExampleRouter() {
	var follower, straight, player donburi.Entity
	scene := engine.NewScene("Chase", func(loop *engine.Loop) (engine.Scene, error) {
		st := core.New(loop, core.Options{
			Groups:  []engine.Group{{Name: "physics", Hz: 60}, {Name: "ai", Hz: systems.AIHz}},
			Physics: &physics.Config{},
		})
		defer st.Release()
		phys := st.Physics

		// A 320 x 240 room, a wall across it with a way round at the bottom.
		walls := &physics.BodyOptions{Kind: physics.Static}
		phys.SpawnWalls([]cp.Vector{{}, {X: 320}, {X: 320, Y: 240}, {Y: 240}, {}}, 4, walls)
		phys.SpawnBox(16, 192, &physics.BodyOptions{Kind: physics.Static, Position: cp.Vector{X: 160, Y: 96}})

		player = phys.SpawnCircle(8, &physics.BodyOptions{Kind: physics.Kinematic, Position: cp.Vector{X: 260, Y: 80}}, components.PlayerC)
		agent := func(y float64, comps ...donburi.IComponentType) donburi.Entity {
			e := phys.SpawnCircle(6, &physics.BodyOptions{Position: cp.Vector{X: 60, Y: y}}, append(comps, components.AgentC)...)
			a := components.NewAgent(100, 600)
			a.SightRange = 400
			components.AgentC.SetValue(st.World.Entry(e), a)
			return e
		}
		follower = agent(80, path.FollowC) // path.Follow{Field: true} for a crowd's shared flow field
		straight = agent(100)

		// The grid: cells of 16 units over the room, blocked where its
		// static walls are; the router steers the AI's chasers with a Follow.
		grid := path.NewGrid(20, 15, 16, cp.Vector{})
		grid.BlockStatic(phys.Space(), 0)
		router := path.NewRouter(grid)
		router.Radius = 6 // the agents' radius
		ai := systems.NewAI(st.World, phys.Space(), 1)
		ai.Router = router
		core.Keep(st, ai.Source())

		st.Sched.AddUpdate(0, "steer", phys.Steer).
			AddUpdate(0, "physics", phys.Update).
			AddUpdate(0, "report", func(w donburi.World, ev engine.Event) {
				if ev.Tick%120 != 0 {
					return
				}
				p := components.TransformC.Get(w.Entry(player)).Cur
				dist := func(e donburi.Entity) float64 {
					a := components.TransformC.Get(w.Entry(e)).Cur
					return math.Round(math.Hypot(a.X-p.X, a.Y-p.Y))
				}
				fmt.Printf("%v: follower %v from the player, straight %v\n", ev.Time, dist(follower), dist(straight))
				if ev.Tick == 480 {
					st.End(nil)
				}
			}).
			AddUpdate(1, "ai", ai.Update)
		return st.Run()
	})
	if err := engine.Run(scene, &engine.Options{Headless: &engine.Headless{}}); err != nil {
		fmt.Println(err)
	}
	// Output:
	// 2s: follower 152 from the player, straight 114
	// 4s: follower 22 from the player, straight 114
	// 6s: follower 14 from the player, straight 114
	// 8s: follower 14 from the player, straight 114
}
