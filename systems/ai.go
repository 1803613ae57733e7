package systems

import (
	"math"
	"math/rand/v2"

	"github.com/fixedstep/fixedstep/components"
	"github.com/fixedstep/fixedstep/engine"
	"github.com/fixedstep/fixedstep/engine/detmath"
	"github.com/fixedstep/fixedstep/third_party/cp"
	"github.com/fixedstep/fixedstep/third_party/donburi"
	"github.com/fixedstep/fixedstep/third_party/donburi/filter"
)

// AIHz is the default rate of the AI group, in ticks per second.
const AIHz = 10

// AI is the agents' system: at its own rate (a group of [AIHz] by default)
// it runs every agent's state machine and sets its Desired velocity, which
// the physics system then applies every physics tick
// ([components.Agent.SteeringForce]).
//
// Each tick it finds the players (the entities with a Player and a
// Transform), asks the cp space which agents' shapes lie near each (a
// BBQuery a player; shapes' UserData must be their donburi.Entity, as
// Physics.Spawn sets it), marks the agents within range of one
// (Agent.PlayerInRange), each seeing the nearest player in its range, then
// moves each agent through this table, where the first row that matches
// fires and at most one fires per tick:
//
//	from                 trigger                                      to
//	any                  Hurt (Agent.Flee, Agent.Damage; cleared)     Flee
//	Idle, Wander, Chase  player in range and Health < FleeHealth      Flee
//	Idle, Wander         player within SightRange                     Chase
//	Chase                player beyond LoseDistance, or gone          Wander
//	Flee                 threat beyond SafeDistance                   Wander
//	Idle                 its stay (IdleTime, at random) is over       Wander
//	Wander               its stay (WanderTime, at random) is over     Idle
//
// and steers it: Idle stands, Wander wanders ([Wander]), Chase arrives at
// the nearest player in range ([Arrive]; Target is that player) or, when
// the AI's Router gives it a waypoint on the way there, seeks the waypoint
// ([Seek]), Flee flees from Threat ([Flee]), the position of the player it
// flees from while that one is there. Every state adds [Separation] from the agents within
// SeparationRadius, and Desired is cut to MaxSpeed.
//
// The AI owns the world's random source, a PCG seeded by NewAI: two AIs with
// the same seed over worlds built the same way set bit-identical Desired
// velocities, tick after tick. Update makes no structural change to the
// world and allocates nothing once warm (TestAIAllocatesNothing; the
// project's copy of cp's Space.BBQuery allocates nothing either, where
// upstream's made three small allocations a call). BenchmarkAI and
// BenchmarkAIRaw measure the cost per agent.
type AI struct {
	// Filter selects the shapes the sight query sees: cp.SHAPE_FILTER_ALL
	// unless changed.
	Filter cp.ShapeFilter

	// Router, when set, finds the way round walls for chasing agents (see
	// [Router]); nil: they head straight at their target.
	Router Router

	space           *cp.Space
	pcg             *rand.PCG // rng's state
	rng             *rand.Rand
	agents, players *donburi.Query
	sighted         cp.SpaceBBQueryFunc // ai.markSighted, made once

	// Reused every tick.
	agentPtrs []*components.Agent
	entities  []donburi.Entity
	positions []cp.Vector
	grid      Neighbours
	near      []cp.Vector

	// The current tick's.
	world    donburi.World
	seen     []seenPlayer           // the players
	sight    []int                  // per agent: the nearest player in its range, -1 for none
	index    map[donburi.Entity]int // an agent's entity: its index
	querying int                    // the player whose sight is being queried
}

// Router finds the way round walls for chasing agents (package systems/path
// has one, over a grid). The AI calls Waypoint once per chasing agent per AI
// tick, in the world's query order, with no structural change to the world
// under way; it must make none either. A Router must give the same answer
// for the same world and positions whatever it was asked before, and keep
// what it writes in the agents' components, so that a world restored from a
// snapshot steers as it did.
type Router interface {
	// Waypoint returns the point agent e of world w, at pos, heads for on
	// its way to target, and true; or false for the agent to arrive at
	// target as it would without a router.
	Waypoint(w donburi.World, e donburi.Entity, pos, target cp.Vector) (cp.Vector, bool)
}

// seenPlayer is a player as the AI sees it in a tick.
type seenPlayer struct {
	e   donburi.Entity
	pos cp.Vector
}

// NewAI returns the AI system of world w, querying space for sight, with its
// random source seeded by seed.
func NewAI(w donburi.World, space *cp.Space, seed uint64) *AI {
	pcg := rand.NewPCG(seed, 0x9e3779b97f4a7c15)
	ai := &AI{
		Filter:  cp.SHAPE_FILTER_ALL,
		space:   space,
		pcg:     pcg,
		rng:     rand.New(pcg),
		agents:  donburi.NewQuery(filter.Contains(components.AgentC, components.TransformC)),
		players: donburi.NewQuery(filter.Contains(components.PlayerC, components.TransformC)),
		index:   map[donburi.Entity]int{},
	}
	ai.sighted = ai.markSighted
	n := ai.agents.Count(w)
	ai.agentPtrs = make([]*components.Agent, 0, n)
	ai.positions = make([]cp.Vector, 0, n)
	return ai
}

// Rand returns the world's random source. Other systems of the same world
// may draw from it; the draws stay deterministic as long as the systems run
// in a fixed order.
func (ai *AI) Rand() *rand.Rand { return ai.rng }

// Source returns the state of the random source: game state outside the
// world, for a scene to keep with its snapshots (stage.Keep).
func (ai *AI) Source() *rand.PCG { return ai.pcg }

// Update is the AI system: one AI tick of ev.DT seconds (see [AI]). Agents
// are read from their Transforms (Cur) and written in their Agent
// components, in the world's query order (read an archetype at a time,
// [donburi.Columns2]).
func (ai *AI) Update(w donburi.World, ev engine.Event) {
	ai.world = w
	ai.findPlayers(w)
	ai.agentPtrs, ai.entities, ai.positions, ai.sight = ai.agentPtrs[:0], ai.entities[:0], ai.positions[:0], ai.sight[:0]
	clear(ai.index)
	reach, sep := 0.0, 0.0
	for cols := range donburi.Columns2(ai.agents, w, components.AgentC, components.TransformC) {
		agents, trs := cols.A[:len(cols.Entities)], cols.B[:len(cols.Entities)]
		for i, e := range cols.Entities {
			if !e.IsReady() {
				continue
			}
			a, t := agents[i], trs[i]
			a.PlayerInRange = false
			ai.index[e] = len(ai.agentPtrs)
			ai.agentPtrs = append(ai.agentPtrs, a)
			ai.entities = append(ai.entities, e)
			ai.positions = append(ai.positions, cp.Vector{X: t.Cur.X, Y: t.Cur.Y})
			ai.sight = append(ai.sight, -1)
			reach = max(reach, sightOf(a))
			sep = max(sep, a.SeparationRadius)
		}
	}
	if reach > 0 {
		for p := range ai.seen {
			ai.querying = p
			ai.space.BBQuery(cp.NewBBForCircle(ai.seen[p].pos, reach), ai.Filter, ai.sighted, nil)
		}
	}
	ai.grid.Build(ai.positions, sep)
	for i, a := range ai.agentPtrs {
		ai.think(i, a, ev.DT)
	}
	clear(ai.agentPtrs) // keep no pointers into the world's storage
	ai.world = nil
}

// findPlayers finds the players and where they are, in query order.
func (ai *AI) findPlayers(w donburi.World) {
	ai.seen = ai.seen[:0]
	for e := range ai.players.Iter(w) {
		t := components.TransformC.Get(e)
		ai.seen = append(ai.seen, seenPlayer{e: e.Entity(), pos: cp.Vector{X: t.Cur.X, Y: t.Cur.Y}})
	}
}

// player returns the index of player e among those seen this tick, -1
// when it is not one (any more).
func (ai *AI) player(e donburi.Entity) int {
	for p := range ai.seen {
		if ai.seen[p].e == e {
			return p
		}
	}
	return -1
}

// sightOf returns how near the player must be for a to have it in range.
func sightOf(a *components.Agent) float64 {
	if a.State == components.AgentChase {
		return a.LoseDistance()
	}
	return a.SightRange
}

// markSighted is the sight query's callback: it marks the agent owning shape
// if the player queried is within its range, and keeps the nearest such
// player as the one it sees.
func (ai *AI) markSighted(shape *cp.Shape, _ any) {
	e, ok := shape.UserData.(donburi.Entity)
	if !ok || !ai.world.Valid(e) {
		return
	}
	i, agent := ai.index[e]
	if !agent {
		return
	}
	entry := ai.world.Entry(e)
	if !entry.HasComponent(components.AgentC) || !entry.HasComponent(components.TransformC) {
		return
	}
	a := components.AgentC.Get(entry)
	t := components.TransformC.Get(entry)
	r := sightOf(a)
	pos := cp.Vector{X: t.Cur.X, Y: t.Cur.Y}
	d := ai.seen[ai.querying].pos.DistanceSq(pos)
	if d > float64(r*r) {
		return
	}
	if s := ai.sight[i]; s < 0 || d < ai.seen[s].pos.DistanceSq(pos) {
		ai.sight[i] = ai.querying
	}
	a.PlayerInRange = true
}

// think moves agent i through the state machine and sets its Desired.
func (ai *AI) think(i int, a *components.Agent, dt float64) {
	pos := ai.positions[i]
	if a.State == components.AgentIdle || a.State == components.AgentWander {
		a.Timer -= dt
	}
	if a.State == components.AgentFlee {
		if p := ai.player(a.Target); a.Target != donburi.Null && p >= 0 {
			a.Threat = ai.seen[p].pos
		} else {
			a.Target = donburi.Null // gone: flee from where it was last
		}
	}
	from := a.State
	if to, ok := ai.transition(a, pos); ok {
		ai.enter(i, a, to)
	}

	var v cp.Vector
	switch a.State {
	case components.AgentWander:
		heading := a.Desired
		if from == components.AgentIdle {
			heading = cp.Vector{} // set off in the random direction drawn on entry
		}
		v = Wander(heading, &a.WanderAngle, float64(a.WanderTurn*dt), float64(a.WanderJitter*dt), a.MaxSpeed, ai.rng)
	case components.AgentChase: // a player is in range: else it went back to wandering
		seen := &ai.seen[ai.sight[i]]
		a.Target = seen.e
		if wp, ok := ai.waypoint(i, pos, seen.pos); ok {
			v = Seek(pos, wp, a.MaxSpeed)
		} else {
			v = Arrive(pos, seen.pos, a.MaxSpeed, a.SlowRadius)
		}
	case components.AgentFlee:
		v = Flee(pos, a.Threat, a.MaxSpeed)
	}
	if a.SeparationRadius > 0 {
		ai.near = ai.grid.Near(i, a.SeparationRadius, ai.near[:0])
		v = v.Add(Separation(pos, ai.near, a.SeparationRadius, a.MaxSpeed))
	}
	a.Desired = clampLength(v, a.MaxSpeed)
}

// waypoint asks the Router, if any, where agent i at pos heads for on its
// way to target.
func (ai *AI) waypoint(i int, pos, target cp.Vector) (cp.Vector, bool) {
	if ai.Router == nil {
		return cp.Vector{}, false
	}
	return ai.Router.Waypoint(ai.world, ai.entities[i], pos, target)
}

// transition returns the state the table in [AI] sends a to, if a row fires.
func (ai *AI) transition(a *components.Agent, pos cp.Vector) (components.AgentState, bool) {
	s := a.State
	switch {
	case a.Hurt:
		return components.AgentFlee, true
	case s != components.AgentFlee && a.PlayerInRange && a.Health < a.FleeHealth:
		return components.AgentFlee, true
	case (s == components.AgentIdle || s == components.AgentWander) && a.PlayerInRange:
		return components.AgentChase, true
	case s == components.AgentChase && !a.PlayerInRange:
		return components.AgentWander, true
	case s == components.AgentFlee && pos.DistanceSq(a.Threat) > sq(a.SafeDistance()):
		return components.AgentWander, true
	case s == components.AgentIdle && a.Timer <= 0:
		return components.AgentWander, true
	case s == components.AgentWander && a.WanderTime > 0 && a.Timer <= 0:
		return components.AgentIdle, true
	}
	return s, false
}

// enter puts agent i, a, in state to.
func (ai *AI) enter(i int, a *components.Agent, to components.AgentState) {
	from := a.State
	a.State = to
	a.Hurt = false
	a.Target = donburi.Null
	switch to {
	case components.AgentIdle:
		a.Timer = ai.stay(a.IdleTime)
	case components.AgentWander:
		a.Timer = ai.stay(a.WanderTime)
		a.WanderAngle = 0 // straight on from a chase or a flight
		if from == components.AgentIdle {
			a.WanderAngle = float64(math.Pi * (2*ai.rng.Float64() - 1))
		}
	case components.AgentChase:
		a.Target = ai.seen[ai.sight[i]].e
	case components.AgentFlee:
		if a.PlayerInRange { // otherwise flee from where Damage says
			a.Target, a.Threat = ai.seen[ai.sight[i]].e, ai.seen[ai.sight[i]].pos
		}
	}
}

// stay draws the length of a stay with the given mean: uniform in
// [mean/2, 3*mean/2), or 0 for a mean that is not positive.
func (ai *AI) stay(mean float64) float64 {
	if !(mean > 0) {
		return 0
	}
	return float64(mean * (0.5 + ai.rng.Float64()))
}

// Seek returns the velocity that heads from pos straight at target at
// maxSpeed, or zero if pos is on target.
func Seek(pos, target cp.Vector, maxSpeed float64) cp.Vector {
	return withLength(target.Sub(pos), maxSpeed)
}

// Flee returns the velocity that heads from pos straight away from threat at
// maxSpeed, or zero if pos is on threat (no direction to flee in).
func Flee(pos, threat cp.Vector, maxSpeed float64) cp.Vector {
	return withLength(pos.Sub(threat), maxSpeed)
}

// Arrive returns the velocity that heads from pos at target: at maxSpeed
// outside slowRadius, and inside it at a speed falling linearly to zero on
// target, so that an agent following it stops there. A slowRadius that is
// not positive never slows (Seek).
func Arrive(pos, target cp.Vector, maxSpeed, slowRadius float64) cp.Vector {
	d := target.Sub(pos)
	dist := d.Length()
	if !(dist > 0) {
		return cp.Vector{}
	}
	speed := maxSpeed
	if dist < slowRadius {
		speed = maxSpeed * dist / slowRadius
	}
	return d.Mult(speed / dist)
}

// Wander returns a velocity of length maxSpeed that turns at random, smoothly:
// the classic wander circle. The wander angle *angle first drifts by a
// uniform draw from rng in [-jitter, jitter] (radians, kept in [-pi, pi]);
// the result is then heading turned towards the point at that angle on a
// circle ahead of the agent, by at most maxTurn radians (maxTurn is capped at
// pi/2; not positive means straight on). A zero heading (an agent at rest)
// heads in the direction *angle itself. One draw from rng per call; no
// allocation.
func Wander(heading cp.Vector, angle *float64, maxTurn, jitter, maxSpeed float64, rng *rand.Rand) cp.Vector {
	*angle = math.Remainder(*angle+float64(jitter*(2*rng.Float64()-1)), 2*math.Pi)
	l := heading.Length()
	if !(l > 0) || math.IsInf(l, 0) {
		return cp.ForAngle(*angle).Mult(maxSpeed)
	}
	// The target is at (1, 0) + r(cos a, sin a) in the heading's frame: a
	// circle of radius r = sin(maxTurn) one unit ahead, seen from the agent
	// at angles up to asin(r) = maxTurn.
	r := detmath.Sin(min(max(maxTurn, 0), math.Pi/2))
	s, c := detmath.Sincos(*angle)
	turn := cp.Vector{X: 1 + float64(r*c), Y: float64(r * s)}
	if tl := turn.Length(); tl > 0 {
		turn = turn.Mult(1 / tl)
	} else { // r = 1 and the target is the agent itself: go straight on
		turn = cp.Vector{X: 1}
	}
	return heading.Mult(1 / l).Rotate(turn).Mult(maxSpeed)
}

// Separation returns the velocity that steers an agent at pos away from its
// neighbours: the sum, over those closer than radius, of the unit vector away
// from each, weighted by 1 - distance/radius, times maxSpeed, cut to
// maxSpeed. Neighbours at pos itself (no direction) or beyond radius count
// for nothing, so the slice may include the agent and far agents. No
// allocation.
func Separation(pos cp.Vector, neighbours []cp.Vector, radius, maxSpeed float64) cp.Vector {
	if !(radius > 0) {
		return cp.Vector{}
	}
	var sum cp.Vector
	for _, q := range neighbours {
		d := pos.Sub(q)
		dist := d.Length()
		if dist > 0 && dist < radius {
			sum = sum.Add(d.Mult((1 - dist/radius) / dist))
		}
	}
	return clampLength(sum.Mult(maxSpeed), maxSpeed)
}

// withLength returns v scaled to length l, or zero if v is zero or not finite.
func withLength(v cp.Vector, l float64) cp.Vector {
	n := v.Length()
	if !(n > 0) || math.IsInf(n, 0) {
		return cp.Vector{}
	}
	return v.Mult(l / n)
}

// clampLength returns v cut to length at most l (zero if l is not positive).
func clampLength(v cp.Vector, l float64) cp.Vector {
	if !(l > 0) {
		return cp.Vector{}
	}
	if n := v.Length(); n > l {
		return v.Mult(l / n)
	}
	return v
}

func sq(x float64) float64 { return float64(x * x) }

// Neighbours finds which of a set of points lie near one of them: a spatial
// hash over cells of a fixed size, rebuilt for each tick in slices it keeps,
// so that once they have grown Build and Near allocate nothing. Build is
// O(n); Near looks at the 3×3 cells around a point.
type Neighbours struct {
	points []cp.Vector
	cell   float64
	mask   uint64
	start  []int32 // bucket b's points are items[start[b]:start[b+1]]
	cursor []int32
	items  []int32     // point indexes, by bucket
	sorted []cp.Vector // the points, in the order of items
	bucket []uint32    // per point
}

// Build indexes points (kept, not copied: do not change them until the last
// Near) for queries of radius up to cell. A cell that is not positive
// indexes nothing, and Near then finds nothing.
func (g *Neighbours) Build(points []cp.Vector, cell float64) {
	g.points, g.cell = points, cell
	if !(cell > 0) || math.IsInf(cell, 0) || len(points) == 0 {
		g.cell = 0
		return
	}
	m := 1
	for m < 2*len(points) {
		m <<= 1
	}
	g.mask = uint64(m - 1)
	g.start = zeroed(g.start, m+1)
	g.cursor = zeroed(g.cursor, m)
	g.items = zeroed(g.items, len(points))
	if cap(g.sorted) < len(points) {
		g.sorted = make([]cp.Vector, len(points))
	}
	g.sorted = g.sorted[:len(points)]
	if cap(g.bucket) < len(points) {
		g.bucket = make([]uint32, len(points))
	}
	g.bucket = g.bucket[:len(points)]
	for i, p := range points {
		cx, cy := g.cellOf(p)
		b := g.hash(cx, cy)
		g.bucket[i] = b
		g.start[b+1]++
	}
	for b := range m {
		g.start[b+1] += g.start[b]
	}
	copy(g.cursor, g.start[:m])
	for i, b := range g.bucket {
		k := g.cursor[b]
		g.items[k], g.sorted[k] = int32(i), points[i]
		g.cursor[b]++
	}
}

// Near appends to dst the points closer than radius (at most the cell given
// to Build) to point i, other than point i itself, in index order within
// each cell, and returns dst.
func (g *Neighbours) Near(i int, radius float64, dst []cp.Vector) []cp.Vector {
	if g.cell == 0 || !(radius > 0) {
		return dst
	}
	radius = min(radius, g.cell)
	r2 := float64(radius * radius)
	p := g.points[i]
	cx, cy := g.cellOf(p)
	var seen [9]uint32
	n := 0
	for dy := int64(-1); dy <= 1; dy++ {
	cells:
		for dx := int64(-1); dx <= 1; dx++ {
			b := g.hash(cx+dx, cy+dy)
			for _, s := range seen[:n] {
				if s == b { // two cells share a bucket: look once
					continue cells
				}
			}
			seen[n] = b
			n++
			lo, hi := g.start[b], g.start[b+1]
			for k, q := range g.sorted[lo:hi] {
				if d := p.Sub(q); float64(d.X*d.X)+float64(d.Y*d.Y) < r2 && int(g.items[int(lo)+k]) != i {
					dst = append(dst, q)
				}
			}
		}
	}
	return dst
}

func (g *Neighbours) cellOf(p cp.Vector) (int64, int64) {
	return cellIndex(p.X / g.cell), cellIndex(p.Y / g.cell)
}

// cellIndex is the cell of coordinate v in cells, the same on every CPU:
// a position past 2^52 cells, or not a number (a body flung away), is in
// the outermost cell rather than converted as each CPU converts it.
func cellIndex(v float64) int64 {
	const far = 1 << 52
	switch {
	case v > far:
		return far
	case !(v > -far): // NaN too
		return -far
	}
	return int64(math.Floor(v)) //detcheck:ok within ±2^52
}

func (g *Neighbours) hash(cx, cy int64) uint32 {
	h := uint64(cx)*0x9e3779b97f4a7c15 ^ uint64(cy)*0xc2b2ae3d27d4eb4f
	h ^= h >> 29
	return uint32(h & g.mask)
}

// zeroed returns s with length n, all zero, reusing its array if it can.
func zeroed(s []int32, n int) []int32 {
	if cap(s) < n {
		return make([]int32, n)
	}
	s = s[:n]
	clear(s)
	return s
}
