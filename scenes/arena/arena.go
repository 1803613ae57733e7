// Package arena is the demo's Arena as a simulation alone: the bodies, the
// rules, the agents' AI, the autopilot, on a core.Stage, with no graphics
// library linked. The demo's window scene (scenes.Arena) builds it on its
// stage and draws it; a game server runs the same as an authoritative
// match ([Scene]), and its clients check it tick by tick.
//
// The player pushes a body around a walled arena, collecting stars while
// AI agents (at 10 Hz) chase it; touching an agent hurts the player and
// sends the agent fleeing. It ends when time runs out or the players'
// health does. In a networked run (engine.Loop.Players) every player has a
// body of their own (a components.Seat says whose it is), with their own
// score and health; the agents chase the nearest, and the game ends when
// every player's health is gone.
package arena

import (
	"math"
	"math/rand/v2"
	"slices"
	"time"

	"github.com/fixedstep/fixedstep/components"
	"github.com/fixedstep/fixedstep/engine"
	"github.com/fixedstep/fixedstep/engine/input"
	"github.com/fixedstep/fixedstep/systems"
	"github.com/fixedstep/fixedstep/systems/physics"
	"github.com/fixedstep/fixedstep/systems/stage/core"
	"github.com/fixedstep/fixedstep/third_party/cp"
	"github.com/fixedstep/fixedstep/third_party/donburi"
	"github.com/fixedstep/fixedstep/third_party/donburi/filter"
)

// Name and Version name the game: a server refuses a client of another
// game or version. The version changes whenever a change to the game can
// change a run's states.
const (
	Name    = "arena"
	Version = "2"
)

// The Arena's size in world units (one unit is one pixel at zoom 1).
const (
	Width, Height = 960, 540
	Limit         = 60 * time.Second // a game's length, unless Options.Seconds says otherwise
	maxSeconds    = 1e6              // the longest game Options.Seconds gives: some 11 days
	Props         = 12               // boxes and balls, at the start and all along
	agents        = 10
	stars         = 3
	playerRadius  = 14
)

// goal marks a star: touching it scores, and it moves elsewhere.
type goal struct{}

var goalC = donburi.NewComponentType[goal]()

// Tally is a player's score and health, a component of the player's
// entity: game state, so the state checksum covers it.
type Tally struct {
	Score  int
	Health float64
}

// TallyC is the Tally component type.
var TallyC = donburi.NewComponentType[Tally]()

// Kind is what an entity of the Arena is, for its look.
type Kind int

const (
	Wall   Kind = iota // a tile along the walls, with no body
	Player             // a player's body
	Agent              // an AI agent
	Box                // a prop
	Ball               // a prop
	Star               // a star to collect
)

// Looks dresses the Arena's entities for drawing; a server's Arena has
// none (Options.Looks nil). Whatever component a look adds is presentation
// only: a game whose checksums must match a server's leaves it out of them
// (stage.Options.Ignore).
type Looks interface {
	// Look returns the look of a new entity of kind k (a *gfx.Sprite),
	// player being the player's number for a Player; nil: none.
	Look(k Kind, player int) physics.Look
	// Fleeing shows agent e fleeing or not, at the AI's rate.
	Fleeing(e *donburi.Entry, fleeing bool)
}

// Outcome is how a game ended: by Esc (Quit), or with the players' scores
// summed and their best health after Played of game time.
type Outcome struct {
	Quit   bool
	Score  int
	Health float64
	Played time.Duration
}

// Options configure an Arena.
type Options struct {
	Seed uint64
	// Seconds, when positive, is how long the game lasts in game seconds;
	// 0: Limit.
	Seconds float64
	// Autopilot plays player Player with a seeded pilot: a tick input
	// (engine.TickInput) that steers its stick from the game state, the
	// same at any frame rate, and recorded like a player.
	Autopilot bool
	Player    int
	// Churn, when positive, removes the Churn oldest props (boxes and
	// balls) every second of game time and spawns as many new ones, away
	// from the first player: constant spawning and despawning at a
	// constant body count, for soak tests.
	Churn int
	// Undying keeps the game going when the players' health runs out: then
	// only its time limit or Esc ends it. For soak tests.
	Undying bool
	// IgnoreEsc leaves Esc out of the rules (the first player's Esc ends the
	// game otherwise): a server's match, which a player leaves by closing
	// their window rather than by ending everyone's game.
	IgnoreEsc bool
	// Seats, when it has any, are the players' (local multiplayer: a
	// device each, core.Stage.SetSeats), one body a seat; none: one body
	// for each of the loop's players. The autopilot steers pad 0's stick:
	// the player seated at pad0.
	Seats input.Seats
	// Looks, if set, dresses the entities for drawing.
	Looks Looks
	// Next, if set, is the scene after the game, told how it ended; nil:
	// the game is the last scene.
	Next func(Outcome) engine.Scene
	// Drift, when its Tick is positive, gives the floor another damping
	// from that tick on: a desync made on purpose, on one peer, for the
	// tests that find and name desyncs.
	Drift Drift
}

// Drift is a desync made on purpose (Options.Drift).
type Drift struct {
	Tick    int64
	Damping float64
}

// Hz is the rate of the Arena's first group, "physics": a networked
// match's tick rate.
const Hz = 60

// Groups are the Arena's update groups: "physics" at Hz and "ai" at
// systems.AIHz. StageOptions gives them with its physics.
var Groups = []engine.Group{{Name: "physics", Hz: Hz}, {Name: "ai", Hz: systems.AIHz}}

// StageOptions returns the options of the core.Stage an Arena is built on
// (a window's stage.Options take the same groups and physics).
func StageOptions() core.Options {
	return core.Options{Groups: Groups, Physics: &physics.Config{Damping: 0.6}} // a top-down arena: things slow down on the floor
}

// Arena is one game of the Arena, built on a stage by Build.
type Arena struct {
	opts    Options
	st      *core.Stage
	world   donburi.World
	rng     *rand.Rand
	ai      *systems.AI
	players []donburi.Entity // by player number
	quit    bool             // Esc
	agents  *donburi.Query
	stars   *donburi.Query
	pilot   Pilot
	props   []donburi.Entity // oldest first (Options.Churn replaces from the front)
	// lookTypes are the component types of each kind's looks, as Looks
	// gave them (dress)
	lookTypes [Star + 1]donburi.IComponentType
	spawns    int // props spawned: even ones are boxes, odd ones balls

	limit  time.Duration
	played time.Duration
}

// Build spawns an Arena on st (made with StageOptions' groups and physics)
// for the loop's players and adds its update systems: "player", "steer",
// "physics" and "rules" to the "physics" group, "ai" and "looks" to the
// "ai" group. A window adds its render systems after.
func Build(st *core.Stage, opts *Options) *Arena {
	a := &Arena{opts: *opts, st: st, world: st.World}
	a.build()
	return a
}

// World returns the game's world, to read between ticks.
func (a *Arena) World() donburi.World { return a.world }

// Players returns the number of players.
func (a *Arena) Players() int { return len(a.players) }

// Tally returns player p's score and health.
func (a *Arena) Tally(p int) *Tally { return TallyC.Get(a.world.Entry(a.players[p])) }

// Tallies returns the players' scores summed and their best health.
func (a *Arena) Tallies() (score int, health float64) {
	for p := range a.players {
		t := a.Tally(p)
		score, health = score+t.Score, max(health, t.Health)
	}
	return score, health
}

// Left returns the game time left.
func (a *Arena) Left() time.Duration { return max(a.limit-a.played, 0) }

// Spawned returns the number of props spawned so far (Props at the start;
// Options.Churn adds more).
func (a *Arena) Spawned() int { return a.spawns }

// Quit reports whether the game ended by Esc.
func (a *Arena) Quit() bool { return a.quit }

func (a *Arena) build() {
	pcg := rand.NewPCG(a.opts.Seed, 2)
	a.rng = rand.New(pcg)
	a.limit = Limit
	if a.opts.Seconds > 0 {
		a.limit = time.Duration(min(a.opts.Seconds, maxSeconds) * float64(time.Second)) //detcheck:ok in (0, maxSeconds]
	}
	w, phys, loop := a.world, a.st.Physics, a.st.Loop

	// walls
	corners := []cp.Vector{{X: 0, Y: 0}, {X: Width, Y: 0}, {X: Width, Y: Height}, {X: 0, Y: Height}, {X: 0, Y: 0}}
	phys.SpawnWalls(corners, 8, &physics.BodyOptions{Elasticity: 0.8, Friction: 0.5})
	wall := a.look(Wall, 0)
	for x := 16.0; x < Width; x += 32 {
		a.spawnTile(x, 0, wall)
		a.spawnTile(x, Height, wall)
	}
	for y := 32.0; y < Height-16; y += 32 {
		a.spawnTile(0, y, wall)
		a.spawnTile(Width, y, wall)
	}

	// the players: one in the middle, or several in a row across it; with
	// seats, one a seat (local multiplayer), else one a networked player
	if a.opts.Seats.N > 0 {
		a.st.SetSeats(a.opts.Seats)
	}
	n := a.st.Players()
	a.players = a.players[:0]
	for p := range n {
		pos := cp.Vector{X: Width / 2, Y: Height / 2}
		if n > 1 {
			pos.X = Width * float64(p+1) / float64(n+1)
		}
		comps := []donburi.IComponentType{components.PlayerC, TallyC}
		if n > 1 {
			comps = append(comps, components.SeatC)
		}
		e := phys.SpawnCircle(playerRadius, &physics.BodyOptions{Position: pos, Elasticity: 0.5, Sprite: a.look(Player, p)}, comps...)
		pe := w.Entry(e)
		components.PlayerC.SetValue(pe, components.Player{Force: 1500, Speed: 260, Face: true})
		TallyC.SetValue(pe, Tally{Health: 100})
		if n > 1 {
			components.SeatC.SetValue(pe, components.Seat{Player: p})
		}
		a.players = append(a.players, e)
	}

	// agents, props, stars
	for range agents {
		e := phys.SpawnCircle(12, &physics.BodyOptions{Position: a.freeSpot(120), Elasticity: 0.6,
			Sprite: a.look(Agent, 0)}, components.AgentC)
		agent := components.NewAgent(110, 700)
		agent.SightRange = 200
		agent.SafeRange = 320
		components.AgentC.SetValue(w.Entry(e), agent)
	}
	a.props = a.props[:0]
	for range Props {
		a.spawnProp(a.freeSpot(80))
	}
	for range stars {
		phys.SpawnCircle(14, &physics.BodyOptions{Kind: physics.Static, Position: a.freeSpot(80), Sensor: true,
			Sprite: a.look(Star, 0)}, goalC)
	}
	cam := w.Entry(w.Create(components.TransformC, components.CameraC))
	components.TransformC.SetValue(cam, components.NewTransform(components.Pose{X: Width / 2, Y: Height / 2}))

	a.agents = donburi.NewQuery(filter.Contains(components.AgentC))
	a.stars = donburi.NewQuery(filter.Contains(goalC))
	a.ai = systems.NewAI(w, phys.Space(), a.opts.Seed)
	// The game's state outside the world, saved with it (keyframes, the
	// sync test, rollback): the random sources the rules and the AI draw
	// from, the props' order and count, the time played, the quit. Not the
	// autopilot's: it is the player, whose input the re-simulated ticks
	// get as they had it.
	core.Keep(a.st, pcg)
	core.Keep(a.st, a.ai.Source())
	core.KeepSlice(a.st, &a.props)
	core.Keep(a.st, &a.spawns)
	core.Keep(a.st, &a.played)
	core.Keep(a.st, &a.quit)
	if a.opts.Looks != nil {
		a.st.OnRead(a.dress) // a state of a server's Arena has no looks
	}
	phys.OnCollide(components.PlayerC, goalC, a.scored)
	phys.OnCollide(components.PlayerC, components.AgentC, a.hurt)

	fixed, ai := a.st.Sched.Group("physics"), a.st.Sched.Group("ai")
	if a.opts.Autopilot && a.opts.Player >= 0 && a.opts.Player < n {
		a.pilot = *a.NewPilot(a.opts.Player)
		loop.SetTickInput(fixed, &a.pilot)
	}
	a.st.Sched.AddUpdate(fixed, "player", systems.NewPlayerControl().Update).
		AddUpdate(fixed, "steer", phys.Steer).
		AddUpdate(fixed, "physics", phys.Update).
		AddUpdate(fixed, "rules", a.rules).
		AddUpdate(ai, "ai", a.ai.Update).
		AddUpdate(ai, "looks", a.looks)
}

// look returns the look of a new entity of kind k, or nil without Looks.
func (a *Arena) look(k Kind, player int) physics.Look {
	if a.opts.Looks == nil {
		return nil
	}
	l := a.opts.Looks.Look(k, player)
	if l != nil {
		a.lookTypes[k] = l.LookType()
	}
	return l
}

// dress gives the entities of a state just read the looks they lack, as
// Build gave them: a server's Arena has none, so that a window that
// begins from a server's state (engine.Options.FromState) draws nothing
// until it dresses them. What an entity is comes from its components, a
// prop's shape from the order the props were spawned in. The entities
// are dressed in the order queries visit them, so that a query visits
// them dressed in the order it did before (every look is a sprite, so the
// entities of an archetype go to one archetype, in their order).
func (a *Arena) dress() {
	w := a.world
	var bare []donburi.Entity
	for e := range donburi.NewQuery(filter.Contains(components.TransformC)).Iter(w) {
		bare = append(bare, e.Entity())
	}
	firstSpawn := a.spawns - len(a.props) // the spawn number of a.props[0]
	for _, id := range bare {
		e := w.Entry(id)
		k, player := Wall, 0
		switch {
		case e.HasComponent(components.CameraC):
			continue
		case e.HasComponent(components.PlayerC):
			k = Player
			if e.HasComponent(components.SeatC) {
				player = components.SeatC.Get(e).Player
			}
			if player < 0 || player >= len(a.players) {
				continue // no player of this game: no look of its seat
			}
		case e.HasComponent(components.AgentC):
			k = Agent
		case e.HasComponent(goalC):
			k = Star
		case e.HasComponent(components.BodyC):
			i := slices.Index(a.props, id)
			if i < 0 {
				continue // a wall's body: no look
			}
			k = Box
			if (firstSpawn+i)%2 == 1 {
				k = Ball
			}
		}
		if t := a.lookTypes[k]; t != nil && e.HasComponent(t) {
			continue // dressed (a state of a window's own)
		}
		l := a.look(k, player)
		if l == nil || e.HasComponent(l.LookType()) {
			continue
		}
		e.AddComponent(l.LookType())
		l.SetLook(e)
		if k == Agent {
			a.opts.Looks.Fleeing(e, components.AgentC.Get(e).State == components.AgentFlee)
		}
	}
}

// spawnTile adds a tile of the walls at x, y: an entity with a Transform
// and, when there is one, the look l.
func (a *Arena) spawnTile(x, y float64, l physics.Look) {
	types := []donburi.IComponentType{components.TransformC}
	if l != nil {
		types = append(types, l.LookType())
	}
	e := a.world.Entry(a.world.Create(types...))
	components.TransformC.SetValue(e, components.NewTransform(components.Pose{X: x, Y: y}))
	if l != nil {
		l.SetLook(e)
	}
}

// spawnProp adds a box or a ball (alternately) at p, at a random angle. The
// boxes' corners are sharp: cp v2.4.0 lets circles sink into rounded ones
// (see physics.BodyOptions.CornerRadius).
func (a *Arena) spawnProp(p cp.Vector) {
	o := &physics.BodyOptions{Position: p, Angle: float64(a.rng.Float64() * 2 * math.Pi), Friction: 0.6, Elasticity: 0.4}
	var e donburi.Entity
	if a.spawns%2 == 0 {
		o.Mass, o.Sprite = 2, a.look(Box, 0)
		e = a.st.Physics.SpawnBox(24, 24, o)
	} else {
		o.Mass, o.Sprite = 1.5, a.look(Ball, 0)
		e = a.st.Physics.SpawnCircle(12, o)
	}
	a.spawns++
	a.props = append(a.props, e)
}

// churn removes the Options.Churn oldest props and spawns as many new ones,
// away from the player.
func (a *Arena) churn(w donburi.World) {
	n := min(a.opts.Churn, len(a.props))
	for _, e := range a.props[:n] {
		if w.Valid(e) {
			w.Remove(e) // physics takes its body and shape out of the space
		}
	}
	a.props = slices.Delete(a.props, 0, n)
	playerPos := a.st.Physics.Body(a.players[0]).Position()
	for range n {
		a.spawnProp(a.freeSpotFrom(playerPos, 80))
	}
}

// freeSpot returns a random point of the arena, clear of the walls and at
// least clear units from the player's start.
func (a *Arena) freeSpot(clear float64) cp.Vector {
	return a.freeSpotFrom(cp.Vector{X: Width / 2, Y: Height / 2}, clear)
}

// freeSpotFrom returns a random point of the arena, clear of the walls and
// at least clear units from p.
func (a *Arena) freeSpotFrom(p cp.Vector, clear float64) cp.Vector {
	for {
		q := cp.Vector{X: 40 + float64(a.rng.Float64()*(Width-80)), Y: 40 + float64(a.rng.Float64()*(Height-80))}
		if q.Distance(p) >= clear {
			return q
		}
	}
}

// scored counts a star a player touched, and moves it elsewhere.
func (a *Arena) scored(w donburi.World, c physics.Contact) {
	TallyC.Get(w.Entry(c.A)).Score++
	to := a.freeSpotFrom(a.st.Physics.Body(c.A).Position(), 120)
	a.st.Physics.Teleport(c.B, components.Pose{X: to.X, Y: to.Y})
}

// hurt costs a player health when an agent touches it, and sends the
// agent fleeing.
func (a *Arena) hurt(w donburi.World, c physics.Contact) {
	t := TallyC.Get(w.Entry(c.A))
	t.Health = max(t.Health-5, 0)
	components.AgentC.Get(w.Entry(c.B)).Damage(0.5, a.st.Physics.Body(c.A).Position())
}

// rules ends the game on time, on health or on Esc (the first player's:
// decided on a tick, so that a replay ends where the recording did; not
// with Options.IgnoreEsc), and turns the stars.
func (a *Arena) rules(w donburi.World, ev engine.Event) {
	a.played = ev.Time
	score, health := a.Tallies()
	switch {
	case !a.opts.IgnoreEsc && ev.Input.KeyPressed(input.KeyEscape):
		a.quit = true
		a.st.End(a.next(Outcome{Quit: true, Score: score, Health: health, Played: a.played}))
	case ev.Time >= a.limit || health <= 0 && !a.opts.Undying:
		a.st.End(a.next(Outcome{Score: score, Health: health, Played: a.played}))
	}
	if d := a.opts.Drift; d.Tick > 0 && ev.Tick == d.Tick {
		a.st.Physics.Space().SetDamping(d.Damping)
	}
	if a.opts.Churn > 0 && ev.Tick%60 == 0 { // the physics group runs at 60 Hz: once a second
		a.churn(w)
	}
	for e := range a.stars.Iter(w) { // turned through the body: physics syncs the transform
		body := components.BodyC.Get(e).Body
		body.SetAngle(body.Angle() + ev.DT)
	}
}

func (a *Arena) next(o Outcome) engine.Scene {
	if a.opts.Next == nil {
		return nil
	}
	return a.opts.Next(o)
}

// looks heals agents (a tenth of their health a second) and shows fleeing
// ones as such (Looks.Fleeing), at the AI's rate.
func (a *Arena) looks(w donburi.World, ev engine.Event) {
	for e := range a.agents.Iter(w) {
		agent := components.AgentC.Get(e)
		agent.Health = min(agent.Health+float64(0.1*ev.DT), 1)
		if a.opts.Looks != nil {
			a.opts.Looks.Fleeing(e, agent.State == components.AgentFlee)
		}
	}
}
