package path

import (
	"github.com/fixedstep/fixedstep/third_party/cp"
	"github.com/fixedstep/fixedstep/third_party/donburi"
)

// Follow is the component of an agent that finds its way round walls when
// it chases: with systems.AI's Router set to a [Router], a chasing agent
// with a Follow heads for the waypoint the Router gives rather than
// straight at its target. The zero value follows an A* path of its own.
type Follow struct {
	// Field makes the agent follow the flow field towards its target's
	// cell, which every agent chasing a target in that cell shares (for a
	// crowd), rather than an A* path of its own (for a few agents).
	Field bool

	// What the Router found at the agent's last AI tick as a chaser,
	// written by it (game state like the rest of the world: hashed,
	// saved, restored). Waypoint is where the agent headed; Straight
	// says it headed straight at the target (the way was walkable, or
	// there was none); Status is how the search ended (a field's:
	// Reached or Unreachable).
	Waypoint cp.Vector
	Straight bool
	Status   Status
}

// FollowC is the Follow component type.
var FollowC = donburi.NewComponentType[Follow]()

// DefaultLookahead is Router.Lookahead's value when it is left 0.
const DefaultLookahead = 8

// DefaultMaxFields is Router.MaxFields's value when it is left 0.
const DefaultMaxFields = 4

// Router steers agents round the walls of a grid: set it as systems.AI's
// Router, and give the agents that should find their way a [Follow]
// component. At each AI tick, for each chasing agent with a Follow, it
// gives the point the agent heads for ([Router.Route]):
//
//   - the target itself when the way there is walkable in a straight line
//     ([Grid.Walkable] with Radius): the agent arrives at it as it would
//     without a router;
//   - otherwise a waypoint: the centre of the farthest of the next
//     Lookahead cells of its way that is walkable in a straight line from
//     the agent (at least the next cell). The way is an A* path from the
//     agent's cell to the target's ([Search]; Search.MaxExpanded bounds
//     it), or, for an agent whose Follow.Field is set, the steps of the
//     flow field towards the target's cell ([Field]).
//
// A router keeps no game state: its flow fields (at most MaxFields, by
// target cell and [Grid.Version]) and its search's buffers are caches of
// what the grid and the positions determine, so that a world restored from
// a snapshot steers exactly as it did (TestRouterSyncTest), and two worlds
// built the same way steer the same, on every CPU. Route and Waypoint
// allocate nothing once the caches have grown (TestRouterAllocatesNothing).
// A Router is not safe for concurrent use.
type Router struct {
	// Grid is the map of walls (required).
	Grid *Grid
	// Radius is the agents' body radius, for the straight-line checks.
	Radius float64
	// Lookahead is how many cells along its way an agent may aim at
	// (DefaultLookahead when 0): more smooths its way round corners, at
	// the cost of a straight-line check a cell.
	Lookahead int
	// MaxFields is how many flow fields the router keeps
	// (DefaultMaxFields when 0): one for each cell the agents' targets
	// stand in, at a build (a Dijkstra search of the whole grid) each time
	// a target moves to a cell none is kept for.
	MaxFields int
	// Search is the A* search of agents that follow paths; set its
	// MaxExpanded to bound each agent's search.
	Search Search

	fields []*Field
	used   []uint64 // per field: the clock when it was last asked for
	clock  uint64
	path   []Cell
}

// NewRouter returns a router over grid g with the default settings.
func NewRouter(g *Grid) *Router { return &Router{Grid: g} }

// Waypoint is systems.AI's Router method: for agent e of world w at pos,
// chasing a target at target, it returns the waypoint the agent heads for
// and true, or false for the agent to arrive at the target itself (when it
// has no Follow, when the router has no grid, or when the way is walkable
// in a straight line or there is none). It writes what it found in the
// agent's Follow.
func (r *Router) Waypoint(w donburi.World, e donburi.Entity, pos, target cp.Vector) (cp.Vector, bool) {
	if r.Grid == nil || !w.Valid(e) {
		return cp.Vector{}, false
	}
	entry := w.Entry(e)
	if !entry.HasComponent(FollowC) {
		return cp.Vector{}, false
	}
	f := FollowC.Get(entry)
	f.Waypoint, f.Straight, f.Status = r.Route(pos, target, f.Field)
	return f.Waypoint, !f.Straight
}

// Route returns the point a body at pos heads for on its way to target
// (see [Router]), whether that is the target itself in a straight line,
// and how the search for the way ended: an A* path's status, or for a
// flow field (byField) Reached or Unreachable. A body outside the grid,
// or with no way to take, heads straight at the target.
func (r *Router) Route(pos, target cp.Vector, byField bool) (waypoint cp.Vector, straight bool, st Status) {
	g := r.Grid
	if g.Walkable(pos, target, r.Radius) {
		return target, true, Reached
	}
	from, to := g.CellAt(pos), g.CellAt(target)
	if !g.In(from) {
		return target, true, Outside
	}
	look := r.Lookahead
	if look <= 0 {
		look = DefaultLookahead
	}
	var way []Cell // the cells after from
	if byField {
		f := r.Field(to)
		r.path = r.path[:0]
		for c := from; len(r.path) < look; {
			n, ok := f.Next(c)
			if !ok {
				break
			}
			r.path = append(r.path, n)
			c = n
		}
		way, st = r.path, Reached
		if len(way) == 0 && from != to {
			st = Unreachable
		}
	} else {
		r.path, st = r.Search.Find(g, from, to, r.path)
		way = r.path[1:]
		way = way[:min(len(way), look)]
	}
	if len(way) == 0 {
		return target, true, st
	}
	k := len(way) - 1
	for ; k > 0; k-- {
		if g.Walkable(pos, g.Center(way[k]), r.Radius) {
			break
		}
	}
	return g.Center(way[k]), false, st
}

// Field returns the flow field of the router's grid towards cell to, kept
// from an earlier call or built now in place of the one asked for least
// recently. It stays valid until a call builds another field.
func (r *Router) Field(to Cell) *Field {
	r.clock++
	for i, f := range r.fields {
		if f.grid == r.Grid && f.version == r.Grid.version && f.goal == to {
			r.used[i] = r.clock
			return f
		}
	}
	most := r.MaxFields
	if most <= 0 {
		most = DefaultMaxFields
	}
	i := 0
	if len(r.fields) < most {
		r.fields = append(r.fields, &Field{})
		r.used = append(r.used, 0)
		i = len(r.fields) - 1
	} else {
		for j := range r.used {
			if r.used[j] < r.used[i] {
				i = j
			}
		}
	}
	r.fields[i].Build(r.Grid, to)
	r.used[i] = r.clock
	return r.fields[i]
}
