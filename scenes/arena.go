package scenes

import (
	"fmt"
	"image/color"
	"math"
	"math/rand/v2"
	"slices"
	"time"

	"github.com/hajimehoshi/ebiten/v2/text/v2"

	"github.com/fixedstep/fixedstep/assets"
	"github.com/fixedstep/fixedstep/components"
	"github.com/fixedstep/fixedstep/engine"
	"github.com/fixedstep/fixedstep/engine/input"
	"github.com/fixedstep/fixedstep/engine/window"
	"github.com/fixedstep/fixedstep/systems"
	"github.com/fixedstep/fixedstep/systems/physics"
	"github.com/fixedstep/fixedstep/systems/stage"
	"github.com/fixedstep/fixedstep/third_party/cp"
	"github.com/fixedstep/fixedstep/third_party/donburi"
	"github.com/fixedstep/fixedstep/third_party/donburi/filter"
)

// The Arena's size in world units (one unit is one pixel at zoom 1).
const (
	ArenaWidth, ArenaHeight = 960, 540
	arenaLimit              = 60 * time.Second
	arenaAgents             = 10
	arenaStars              = 3
	arenaProps              = 12
	playerRadius            = 14
)

// goal marks a star: touching it scores, and it moves elsewhere.
type goal struct{}

var goalC = donburi.NewComponentType[goal]()

// Tally is the player's score and health, a component of the player's
// entity: game state, so the state checksum covers it.
type Tally struct {
	Score  int
	Health float64
}

// TallyC is the Tally component type.
var TallyC = donburi.NewComponentType[Tally]()

// Arena is the game: the player pushes a body around a walled arena,
// collecting stars while AI agents (at 10 Hz) chase it; touching an agent
// hurts the player and sends the agent fleeing. It ends when time runs out or
// the player's health does, and hands on to Results. In a networked run
// (engine.Loop.Players) every player has a body of their own, tinted, with
// their own score and health (a components.Seat says whose it is); the
// agents chase the nearest, and the game ends when every player's health
// is gone.
type Arena struct {
	opts    *Options
	st      *stage.Stage
	world   donburi.World
	rng     *rand.Rand
	ai      *systems.AI
	render  *systems.Render
	players []donburi.Entity // by player number
	quit    bool             // Esc: back to the Title
	agents  *donburi.Query
	stars   *donburi.Query
	pilot   pilot
	props   []donburi.Entity // oldest first (Options.Churn replaces from the front)
	spawns  int              // props spawned: even ones are boxes, odd ones balls

	limit  time.Duration
	played time.Duration
	hud    string
	hudKey [2*input.MaxPlayers + 1]int
}

// Name names the scene.
func (a *Arena) Name() string { return "Arena" }

// tally returns player p's score and health.
func (a *Arena) tally(p int) *Tally { return TallyC.Get(a.world.Entry(a.players[p])) }

// tallies returns the players' scores summed and their best health.
func (a *Arena) tallies() (score int, health float64) {
	for p := range a.players {
		t := a.tally(p)
		score, health = score+t.Score, max(health, t.Health)
	}
	return score, health
}

// playerTints tell the players' bodies apart in a networked run: the
// sprite is cyan, so they scale its green and blue (blue, green, dim).
var playerTints = [...][3]float32{{1, 1, 1}, {1, 0.4, 1}, {1, 1, 0.2}, {1, 0.55, 0.55}}

// Run loads the arena, plays it, releases it and returns Results (or nil when
// Options.Seconds bounds the run, or the Title on Esc).
func (a *Arena) Run(loop *engine.Loop) (engine.Scene, error) {
	st, err := newStage(loop, a.Name(), a.opts, stage.Options{
		Groups:  []engine.Group{{Name: "physics", Hz: 60}, {Name: "ai", Hz: systems.AIHz}},
		Physics: &physics.Config{},
	})
	if err != nil {
		return nil, err
	}
	defer st.Release()
	a.st, a.world = st, st.World
	a.build(loop)
	next, err := st.Run()
	if err != nil || a.quit || loop.Rewinding() {
		return next, err
	}
	lines := make([]string, len(a.players))
	for p := range a.players {
		t := a.tally(p)
		lines[p] = fmt.Sprintf("score %d, health %.0f", t.Score, t.Health)
		if len(a.players) > 1 {
			lines[p] = fmt.Sprintf("player %d: %s", p+1, lines[p])
		}
	}
	report(a.opts.Out, a.Name(), st, lines...)
	return next, nil
}

func (a *Arena) build(loop *engine.Loop) {
	pcg := rand.NewPCG(a.opts.Seed, 2)
	a.rng = rand.New(pcg)
	a.limit = arenaLimit
	if a.opts.Seconds > 0 {
		a.limit = time.Duration(a.opts.Seconds * float64(time.Second))
	}
	w, phys := a.world, a.st.Physics
	phys.Space().SetDamping(0.6) // a top-down arena: things slow down on the floor

	// walls
	corners := []cp.Vector{{X: 0, Y: 0}, {X: ArenaWidth, Y: 0}, {X: ArenaWidth, Y: ArenaHeight}, {X: 0, Y: ArenaHeight}, {X: 0, Y: 0}}
	phys.SpawnWalls(corners, 8, &physics.BodyOptions{Elasticity: 0.8, Friction: 0.5})
	wall := a.st.Sprite(assets.SpriteWall)
	for x := 16.0; x < ArenaWidth; x += 32 {
		a.st.SpawnSprite(x, 0, wall)
		a.st.SpawnSprite(x, ArenaHeight, wall)
	}
	for y := 32.0; y < ArenaHeight-16; y += 32 {
		a.st.SpawnSprite(0, y, wall)
		a.st.SpawnSprite(ArenaWidth, y, wall)
	}

	// the players: one in the middle, or several in a row across it
	n := loop.Players()
	a.players = a.players[:0]
	for p := range n {
		pos := cp.Vector{X: ArenaWidth / 2, Y: ArenaHeight / 2}
		if n > 1 {
			pos.X = ArenaWidth * float64(p+1) / float64(n+1)
		}
		sprite := a.sprite(assets.SpritePlayer, 2)
		comps := []donburi.IComponentType{components.PlayerC, TallyC}
		if n > 1 {
			tint := playerTints[p]
			sprite.Color.Scale(tint[0], tint[1], tint[2], 1)
			comps = append(comps, components.SeatC)
		}
		e := phys.SpawnCircle(playerRadius, &physics.BodyOptions{Position: pos, Elasticity: 0.5, Sprite: sprite}, comps...)
		pe := w.Entry(e)
		components.PlayerC.SetValue(pe, components.Player{Force: 1500, Speed: 260, Face: true})
		TallyC.SetValue(pe, Tally{Health: 100})
		if n > 1 {
			components.SeatC.SetValue(pe, components.Seat{Player: p})
		}
		a.players = append(a.players, e)
	}

	// agents, props, stars
	for range arenaAgents {
		e := phys.SpawnCircle(12, &physics.BodyOptions{Position: a.freeSpot(120), Elasticity: 0.6,
			Sprite: a.sprite(assets.SpriteAgent, 1)}, components.AgentC)
		agent := components.NewAgent(110, 700)
		agent.SightRange = 200
		agent.SafeRange = 320
		components.AgentC.SetValue(w.Entry(e), agent)
	}
	a.props = a.props[:0]
	for range arenaProps {
		a.spawnProp(a.freeSpot(80))
	}
	for range arenaStars {
		phys.SpawnCircle(14, &physics.BodyOptions{Kind: physics.Static, Position: a.freeSpot(80), Sensor: true,
			Sprite: a.sprite(assets.SpriteGoal, 0)}, goalC)
	}
	cam := w.Entry(w.Create(components.TransformC, components.CameraC))
	components.TransformC.SetValue(cam, components.NewTransform(components.Pose{X: ArenaWidth / 2, Y: ArenaHeight / 2}))

	a.agents = donburi.NewQuery(filter.Contains(components.AgentC, components.SpriteC))
	a.stars = donburi.NewQuery(filter.Contains(goalC))
	a.ai = systems.NewAI(w, phys.Space(), a.opts.Seed)
	// The scene's state outside the world, saved with it (-synctest): the
	// random sources the rules and the AI draw from, the props' order and
	// count, the time played, the quit. Not the autopilot's: it is the
	// player, whose input the re-simulated ticks get as they had it.
	stage.Keep(a.st, pcg)
	stage.Keep(a.st, a.ai.Source())
	stage.KeepSlice(a.st, &a.props)
	stage.Keep(a.st, &a.spawns)
	stage.Keep(a.st, &a.played)
	stage.Keep(a.st, &a.quit)
	a.render = systems.NewRender(w)
	phys.OnCollide(components.PlayerC, goalC, a.scored)
	phys.OnCollide(components.PlayerC, components.AgentC, a.hurt)

	fixed, ai := a.st.Sched.Group("physics"), a.st.Sched.Group("ai")
	if a.opts.Autopilot && a.opts.Player >= 0 && a.opts.Player < n {
		a.pilot = pilot{rng: rand.New(rand.NewPCG(a.opts.Seed, 3+uint64(a.opts.Player)*0x100)), arena: a, player: a.opts.Player}
		loop.SetTickInput(fixed, &a.pilot)
	}
	a.st.Sched.AddUpdate(fixed, "player", systems.NewPlayerControl().Update).
		AddUpdate(fixed, "steer", phys.Steer).
		AddUpdate(fixed, "physics", phys.Update).
		AddUpdate(fixed, "rules", a.rules).
		AddUpdate(ai, "ai", a.ai.Update).
		AddUpdate(ai, "looks", a.looks).
		AddRender(0, "floor", func(_ donburi.World, ev engine.Event) {
			if screen := window.Screen(ev); screen != nil {
				screen.Fill(color.RGBA{34, 40, 52, 255})
			}
		}).
		AddRender(1, "sprites", a.render.Draw).
		AddRender(2, "hud", a.drawHUD)
}

// spawnProp adds a box or a ball (alternately) at p, at a random angle. The
// boxes' corners are sharp: cp v2.4.0 lets circles sink into rounded ones
// (see physics.BodyOptions.CornerRadius).
func (a *Arena) spawnProp(p cp.Vector) {
	o := &physics.BodyOptions{Position: p, Angle: a.rng.Float64() * 2 * math.Pi, Friction: 0.6, Elasticity: 0.4}
	var e donburi.Entity
	if a.spawns%2 == 0 {
		o.Mass, o.Sprite = 2, a.sprite(assets.SpriteBox, 1)
		e = a.st.Physics.SpawnBox(24, 24, o)
	} else {
		o.Mass, o.Sprite = 1.5, a.sprite(assets.SpriteBall, 1)
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

// sprite returns the sprite of the atlas image name in layer, centred.
func (a *Arena) sprite(name string, layer int) *components.Sprite {
	s := a.st.Sprite(name)
	s.Layer = layer
	return s
}

// freeSpot returns a random point of the arena, clear of the walls and at
// least clear units from the player's start.
func (a *Arena) freeSpot(clear float64) cp.Vector {
	return a.freeSpotFrom(cp.Vector{X: ArenaWidth / 2, Y: ArenaHeight / 2}, clear)
}

// freeSpotFrom returns a random point of the arena, clear of the walls and
// at least clear units from p.
func (a *Arena) freeSpotFrom(p cp.Vector, clear float64) cp.Vector {
	for {
		q := cp.Vector{X: 40 + a.rng.Float64()*(ArenaWidth-80), Y: 40 + a.rng.Float64()*(ArenaHeight-80)}
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
// decided on a tick, so that a replay ends where the recording did), and
// turns the stars.
func (a *Arena) rules(w donburi.World, ev engine.Event) {
	a.played = ev.Time
	score, health := a.tallies()
	switch {
	case ev.Input.KeyPressed(input.KeyEscape):
		a.quit = true
		a.st.End(&Title{opts: a.opts})
	case ev.Time >= a.limit || health <= 0 && !a.opts.Undying:
		var next engine.Scene
		if a.opts.Seconds == 0 {
			next = &Results{opts: a.opts, score: score, played: a.played, health: health}
		}
		a.st.End(next)
	}
	if d := a.opts.drift; d.tick > 0 && ev.Tick == d.tick {
		a.st.Physics.Space().SetDamping(d.damping)
	}
	if a.opts.Churn > 0 && ev.Tick%60 == 0 { // the physics group runs at 60 Hz: once a second
		a.churn(w)
	}
	for e := range a.stars.Iter(w) { // turned through the body: physics syncs the transform
		body := components.BodyC.Get(e).Body
		body.SetAngle(body.Angle() + ev.DT)
	}
}

// looks heals agents (a tenth of their health a second) and shows fleeing
// ones pale, at the AI's rate.
func (a *Arena) looks(w donburi.World, ev engine.Event) {
	normal, hurt := a.st.Bundle.MustSprite(assets.SpriteAgent), a.st.Bundle.MustSprite(assets.SpriteAgentHurt)
	for e := range a.agents.Iter(w) {
		agent := components.AgentC.Get(e)
		agent.Health = min(agent.Health+0.1*ev.DT, 1)
		img := normal
		if agent.State == components.AgentFlee {
			img = hurt
		}
		components.SpriteC.Get(e).Image = img
	}
}

func (a *Arena) drawHUD(w donburi.World, ev engine.Event) {
	screen := window.Screen(ev)
	if screen == nil {
		return
	}
	left := max(a.limit-a.played, 0)
	var key [2*input.MaxPlayers + 1]int
	key[0] = int(left.Seconds())
	for p := range a.players {
		t := a.tally(p)
		key[1+2*p], key[2+2*p] = t.Score, int(t.Health)
	}
	if key != a.hudKey || a.hud == "" {
		a.hudKey = key
		if len(a.players) == 1 {
			a.hud = fmt.Sprintf("Score %d   Health %d   Time %d s", key[1], key[2], key[0])
		} else {
			a.hud = ""
			for p := range a.players {
				a.hud += fmt.Sprintf("P%d %d (%d)   ", p+1, key[1+2*p], key[2+2*p])
			}
			a.hud += fmt.Sprintf("Time %d s", key[0])
		}
	}
	a.st.Text(screen, a.hud, 24, 20, 18, color.White, text.AlignStart)
}

// pilot plays the Arena (Options.Autopilot): it heads for the nearest star,
// shies away from agents close by, and wanders a little, all from the game
// state and a seeded source, and moves the left stick of gamepad 0 that
// way. It is the physics group's tick input (engine.TickInput), so a run
// depends only on the seed, at any frame rate, and its recording replays
// without it.
type pilot struct {
	rng    *rand.Rand
	arena  *Arena
	player int // whose body it steers
	wobble cp.Vector
}

// SampleTick moves the stick for tick t.
func (p *pilot) SampleTick(t engine.TickInfo, in *input.State) {
	a := p.arena
	pos := components.BodyC.Get(a.world.Entry(a.players[p.player])).Body.Position()
	dir := p.steer(a, pos, t.Tick)
	in.SetGamepadAxis(0, input.AxisLeftStickHorizontal, dir.X)
	in.SetGamepadAxis(0, input.AxisLeftStickVertical, dir.Y)
}

func (p *pilot) steer(a *Arena, pos cp.Vector, tick int64) cp.Vector {
	if tick%30 == 1 {
		p.wobble = cp.Vector{X: p.rng.Float64()*2 - 1, Y: p.rng.Float64()*2 - 1}.Mult(0.4)
	}
	var target cp.Vector
	best := math.Inf(1)
	for e := range a.stars.Iter(a.world) {
		sp := components.BodyC.Get(e).Body.Position()
		if d := sp.DistanceSq(pos); d < best {
			best, target = d, sp
		}
	}
	dir := target.Sub(pos).Normalize()
	for e := range a.agents.Iter(a.world) {
		ap := components.BodyC.Get(e).Body.Position()
		if d := ap.Distance(pos); d < 70 && d > 0 {
			dir = dir.Add(pos.Sub(ap).Mult(1.5 / d))
		}
	}
	return dir.Add(p.wobble).Clamp(1)
}
