// Package path finds ways round walls on a grid: A* paths for a few
// agents, flow fields for a crowd that chases one target, and a router
// through which systems.AI's chasing agents follow either.
//
//	grid, err := path.FromTiled(lv.Map)          // a level's solid tiles, a cell a tile; or
//	grid := path.NewGrid(100, 100, 16, origin)   // cells of 16 units over a scene,
//	grid.BlockStatic(phys.Space(), 0)            // blocked where its static walls are
//
//	var s path.Search                            // A*: buffers kept, 0 allocations once warm
//	cells, status := s.Find(grid, from, to, cells[:0])
//
//	var f path.Field                             // a flow field towards one cell
//	f.Update(grid, grid.CellAt(target))          // built again only when the goal or grid changed
//	next, ok := f.Next(grid.CellAt(pos))
//
//	ai.Router = path.NewRouter(grid)             // chasing agents with a path.Follow find their way
//
// # Outline
//
//   - [Grid]: square cells over the world, free or blocked, with
//     [Grid.CellAt] and [Grid.Center] between world points and cells;
//     filled from a Tiled map ([FromTiled]), from boxes, segments, circles
//     and cp shapes ([Grid.BlockBox], [Grid.BlockSegment],
//     [Grid.BlockShape], [Grid.BlockStatic]); [Grid.Walkable] says whether
//     a body can go between two points in a straight line.
//   - [Search]: A*, 8-connected with no corner cut, integer costs
//     ([StraightCost], [DiagonalCost]), ties broken the same way on every
//     run, bounded by [Search.MaxExpanded].
//   - [Field]: a flow field (Dijkstra's integration field from the goal,
//     and a step per cell), built on demand.
//   - [Router] and [Follow]: the AI's chasers heading for the next
//     waypoint of a path or a field instead of straight at their target.
//
// # Determinism
//
// Costs are integers and the only floating-point work (cells of world
// points, straight-line checks) rounds every product before a sum, so a
// grid, a path, a field and a router's waypoints are the same bits on
// every CPU. No map is ranged over and nothing is random. A Router keeps
// no game state: what it writes goes into the agents' Follow components,
// and everything it keeps between ticks is a cache of what the grid and
// the positions determine, so rollback, replays and -synctest see the
// same waypoints. The grid itself is the scene's map, not saved with the
// world: a game that changes it during play restores it itself.
//
// # Costs
//
// Measured with go test -bench . ./systems/path on a shared 2-core AMD EPYC
// VM (medians of 5 runs, which varied by up to a third with the machine's
// load), none allocating: on a 100 x 100 grid, an A* path corner to corner
// takes about 20 µs with no walls (99 cells expanded), 70 µs through a
// maze (953 cells long, 1,476 expanded) and 0.4 ms through 30% random
// obstacles (2,282 expanded: the octile estimate is far below the cost
// there); a flow field takes 0.3 to 0.6 ms to build, whoever reads it then.
// An AI tick of 6 agents with a warm router, half by path and half by field
// (BenchmarkRouterAI), takes about 40 µs. A crowd chasing one target is
// cheaper by field; a few agents, or a large grid, by paths bounded with
// Search.MaxExpanded.
package path
