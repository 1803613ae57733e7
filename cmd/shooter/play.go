package main

import (
	"fmt"
	"image/color"
	"math/rand/v2"

	"github.com/hajimehoshi/ebiten/v2/text/v2"

	"github.com/fixedstep/fixedstep/assets"
	"github.com/fixedstep/fixedstep/components"
	"github.com/fixedstep/fixedstep/engine"
	"github.com/fixedstep/fixedstep/engine/input"
	"github.com/fixedstep/fixedstep/engine/window"
	"github.com/fixedstep/fixedstep/systems"
	"github.com/fixedstep/fixedstep/systems/aim"
	"github.com/fixedstep/fixedstep/systems/health"
	"github.com/fixedstep/fixedstep/systems/path"
	"github.com/fixedstep/fixedstep/systems/physics"
	"github.com/fixedstep/fixedstep/systems/render"
	"github.com/fixedstep/fixedstep/systems/shoot"
	"github.com/fixedstep/fixedstep/systems/stage"
	"github.com/fixedstep/fixedstep/third_party/cp"
	"github.com/fixedstep/fixedstep/third_party/donburi"
	"github.com/fixedstep/fixedstep/third_party/donburi/filter"
)

// The arena, in pixels, pixels per second and ticks of the 60 Hz group.
const (
	top         = 30.0 // the arena's top wall; the HUD is above it
	shipR       = 14.0
	droneR      = 12.0
	cell        = 16.0 // the path grid's
	calmTicks   = 120  // between a wave's last drone and the next wave
	touchDamage = 1.0  // a tick a drone presses against a ship
	shipGrace   = 45   // ticks a hurt ship takes no more damage
)

var (
	wallColour = color.RGBA{70, 80, 110, 255}
	shotColour = color.RGBA{255, 230, 120, 255}
	// blocks are the walls inside the arena, as rectangles (x, y, w, h):
	// the drones find their way round them.
	blocks = [...][4]float64{{140, 120, 20, 120}, {480, 120, 20, 120}, {140, 330, 20, 100},
		{480, 330, 20, 100}, {260, 250, 120, 20}}
	// gates are where the drones come in, inside the arena's corners and
	// the middles of its sides.
	gates = [...]cp.Vector{{X: 40, Y: top + 30}, {X: width - 40, Y: top + 30}, {X: 40, Y: height - 30},
		{X: width - 40, Y: height - 30}, {X: width / 2, Y: top + 30}, {X: width / 2, Y: height - 30}}
)

// DroneC marks a drone; ShipC a ship, with its player.
var (
	DroneC = donburi.NewTag("Drone")
	ShipC  = donburi.NewComponentType[Ship]()
)

// Ship is a player's ship.
type Ship struct{ Player int }

// Play is one game: waves of drones until every ship is destroyed.
type Play struct {
	Settings
	Progress

	st     *stage.Stage
	rng    *rand.Rand // the game's own randomness: where drones come in
	hp     *health.System
	cmds   *engine.Commands
	ships  []donburi.Entity // by player
	scores []int            // by player
	wave   int
	calm   int // ticks before the next wave
	killed int // drones destroyed this game

	drones, shipsQ *donburi.Query
	alive          int // ships left, counted by checkShip
	checkShip      func(*donburi.Entry)
	nextWave       func(donburi.World)

	hud   [9]int // the wave and each player's health and score: what text shows
	hudOK bool
	text  string

	pilot struct { // the autopilot's own state, outside the game's
		nearest          cp.Vector
		found            bool
		from             cp.Vector
		best             float64
		findNearestDrone func(*donburi.Entry)
	}
}

// Run plays the game: the arena, ships and systems, and the autopilot when
// it plays.
func (p *Play) Run(loop *engine.Loop) (engine.Scene, error) {
	st, err := stage.New(loop, stage.Options{
		Groups:     []engine.Group{{Name: "physics", Hz: 60}, {Name: "ai", Hz: systems.AIHz}},
		Physics:    &physics.Config{Damping: 0.5}, // top-down: things slow down on the floor
		Background: background,
	})
	if err != nil {
		return nil, err
	}
	defer st.Release()
	p.st, p.hp, p.cmds = st, health.New(), st.Sched.Commands()
	w, phys := st.World, st.Physics
	pcg := rand.NewPCG(p.Seed, uint64(p.Games)) // each game of a run its own
	p.rng = rand.New(pcg)

	// The walls: the arena's outline and the blocks inside, drawn as filled.
	look := st.Fill(wallColour)
	phys.SpawnWalls([]cp.Vector{{X: 4, Y: top}, {X: width - 4, Y: top}, {X: width - 4, Y: height - 4},
		{X: 4, Y: height - 4}, {X: 4, Y: top}}, 4, &physics.BodyOptions{Sprite: look})
	for _, b := range blocks {
		x, y, bw, bh := b[0], b[1], b[2], b[3]
		phys.SpawnWalls([]cp.Vector{{X: x, Y: y}, {X: x + bw, Y: y}, {X: x + bw, Y: y + bh}, {X: x, Y: y + bh}, {X: x, Y: y}},
			2, &physics.BodyOptions{Sprite: look})
	}
	grid := path.NewGrid(width/cell, height/cell, cell, cp.Vector{})
	grid.BlockStatic(phys.Space(), droneR)

	// The ships: one a seat at this machine, or one a networked player.
	if p.Seats.N > 0 {
		st.SetSeats(p.Seats)
	}
	n := st.Players()
	p.ships, p.scores = make([]donburi.Entity, n), make([]int, n)
	for i := range n {
		pos := cp.Vector{X: width * float64(i+1) / float64(n+1), Y: 200}
		e := phys.SpawnCircle(shipR, &physics.BodyOptions{Position: pos, Moment: cp.INFINITY,
			Sprite: st.SeatSprite(assets.SpritePlayer, i)},
			components.PlayerC, components.SeatC, ShipC, aim.AimerC, shoot.GunC, health.HealthC)
		se := w.Entry(e)
		components.PlayerC.SetValue(se, components.Player{Force: 2500, Speed: 230})
		components.SeatC.SetValue(se, components.Seat{Player: i})
		ShipC.SetValue(se, Ship{Player: i})
		aim.AimerC.SetValue(se, aim.Aimer{Face: true})
		shoot.GunC.SetValue(se, shoot.Gun{Speed: 560, Cooldown: 7, Lifetime: 50, Damage: 1, Radius: 2, Muzzle: shipR + 4})
		health.HealthC.SetValue(se, health.Full(float64(p.HP), shipGrace))
		p.ships[i] = e
	}

	shots := shoot.New(phys)
	shots.Look = st.Rect(5, 5, shotColour)
	shots.Reserve(w, 16*n)
	shots.OnHit(p.shot)
	p.hp.OnDeath(p.died)
	phys.OnTouch(DroneC, ShipC, p.rammed)
	ai := systems.NewAI(w, phys.Space(), p.Seed^uint64(p.Games))
	ai.Router = path.NewRouter(grid)

	p.drones = donburi.NewQuery(filter.Contains(DroneC))
	p.shipsQ = donburi.NewQuery(filter.Contains(ShipC))
	p.checkShip = func(e *donburi.Entry) {
		if health.HealthC.Get(e).Dead {
			p.cmds.Remove(e.Entity()) // after the query: the ship is gone
			return
		}
		p.alive++
	}
	p.nextWave = p.spawnWave
	p.calm = 60

	// The game's state outside the world, saved with it (-synctest,
	// rollback). Not the autopilot's: it is the player.
	stage.Keep(st, pcg)
	stage.Keep(st, ai.Source())
	stage.KeepSlice(st, &p.scores)
	stage.Keep(st, &p.wave)
	stage.Keep(st, &p.calm)
	stage.Keep(st, &p.killed)

	g, slow := st.Sched.Group("physics"), st.Sched.Group("ai")
	st.Sched.AddUpdate(g, "player", systems.NewPlayerControl().Update).
		AddUpdate(g, "aim", aim.NewSystem(cp.Vector{X: width, Y: height}).Update).
		AddUpdate(g, "steer", phys.Steer).
		AddUpdate(g, "physics", phys.Update).
		AddUpdate(g, "shoot", shots.Update).
		AddUpdate(g, "health", p.hp.Update).
		AddUpdate(g, "rules", p.rules).
		AddUpdate(slow, "ai", ai.Update)
	st.Sched.AddRender(0, "sprites", render.New(w).Draw)
	st.Sched.AddRender(1, "hud", p.drawHUD)
	if p.Autopilot {
		p.pilot.findNearestDrone = p.findNearestDrone
		loop.SetTickInput(0, engine.TickInputFunc(p.autopilot))
	}
	next, err := st.Run()
	fmt.Printf("game %d: wave %d, %d drones destroyed, scores %v, %.1f s\n",
		p.Games, p.wave, p.killed, p.scores, float64(loop.Ticks(0))/60)
	return next, err
}

// spawnWave brings in the next wave: more drones each wave, and faster,
// through the gates.
func (p *Play) spawnWave(w donburi.World) {
	p.wave++
	count := min(3+2*p.wave, 24)
	speed := min(70+float64(8*float64(p.wave)), 150)
	for i := range count {
		at := gates[(i+p.rng.IntN(len(gates)))%len(gates)]
		at.X += float64(p.rng.IntN(21) - 10)
		at.Y += float64(p.rng.IntN(21) - 10)
		e := p.st.Physics.SpawnCircle(droneR, &physics.BodyOptions{Position: at, Elasticity: 0.3,
			Sprite: p.st.Sprite(assets.SpriteAgent)}, DroneC, components.AgentC, path.FollowC, health.HealthC)
		de := w.Entry(e)
		agent := components.NewAgent(speed, 600)
		agent.SightRange, agent.SlowRadius, agent.SeparationRadius = 2*width, 0, 2.5*droneR
		components.AgentC.SetValue(de, agent)
		path.FollowC.SetValue(de, path.Follow{Field: true})
		hp := health.Full(float64(1+p.wave/3), 0)
		hp.Knockback = 1
		health.HealthC.SetValue(de, hp)
	}
}

// shot deals a shot's damage to the drone it hit, pushing it back; shots
// that meet a wall or a ship just end.
func (p *Play) shot(w donburi.World, h shoot.Hit) {
	if h.Target == donburi.Null || !w.Valid(h.Target) || !w.Entry(h.Target).HasComponent(DroneC) {
		return
	}
	p.hp.Apply(w, h.Target, health.Damage{Amount: h.Damage, Source: h.Owner, From: h.Point,
		Impulse: h.Vel.Normalize().Mult(40)})
}

// rammed hurts a ship a drone presses against, every tick they touch (the
// ship's invulnerable ticks space the hits), and knocks it away.
func (p *Play) rammed(w donburi.World, c physics.Contact) {
	p.hp.Apply(w, c.B, health.Damage{Amount: touchDamage, Source: c.A, From: c.Point, Impulse: c.Normal.Mult(120)})
}

// died scores a destroyed drone to the player whose shot it was, and
// removes it; a ship's death is the rules' to see.
func (p *Play) died(w donburi.World, ev health.Event) {
	if !w.Entry(ev.Target).HasComponent(DroneC) {
		return
	}
	if w.Valid(ev.Source) && w.Entry(ev.Source).HasComponent(ShipC) {
		p.scores[ShipC.Get(w.Entry(ev.Source)).Player] += 10 * p.wave
	}
	p.killed++
	w.Remove(ev.Target)
}

// rules run after each tick's damage: Esc leaves, destroyed ships go (from
// inside the ships' query, through the scheduler's Commands), the game ends
// with the last ship, and the next wave comes once a wave is cleared.
func (p *Play) rules(w donburi.World, ev engine.Event) {
	if ev.Input.KeyPressed(input.KeyEscape) {
		p.st.End(&Title{Settings: p.Settings, Progress: p.Progress})
		return
	}
	p.alive = 0
	p.shipsQ.Each(w, p.checkShip)
	if p.alive == 0 {
		p.st.End(&Results{Settings: p.Settings, Progress: p.Progress, Wave: p.wave, Scores: p.scores})
		return
	}
	if p.drones.Count(w) > 0 {
		return
	}
	if p.calm--; p.calm <= 0 {
		p.calm = calmTicks
		p.cmds.Do(p.nextWave)
	}
}

// drawHUD draws the wave and every player's health and score above the
// arena. The text is rebuilt only when a figure changes.
func (p *Play) drawHUD(w donburi.World, ev engine.Event) {
	var now [9]int
	now[0] = p.wave
	for i, e := range p.ships {
		if w.Valid(e) {
			now[1+2*i] = int(health.HealthC.Get(w.Entry(e)).HP) //detcheck:ok HP is 0 to -hp (at most 99), whole: shown, not game state
		}
		now[2+2*i] = p.scores[i]
	}
	if !p.hudOK || now != p.hud {
		p.hud, p.hudOK = now, true
		p.text = fmt.Sprintf("wave %d", p.wave)
		for i := range p.ships {
			p.text += fmt.Sprintf("     P%d hp %d score %d", i+1, now[1+2*i], now[2+2*i])
		}
	}
	p.st.Text(window.Screen(ev), p.text, 10, 7, 16, white, text.AlignStart) // nil headless: draws nothing
}

// autopilot plays this machine's ship: it aims at the nearest drone (I J K
// L, eight ways), fires while there is one, and keeps away from it, or
// drifts back to the middle. It reads the state the previous tick left and
// changes only its own.
func (p *Play) autopilot(t engine.TickInfo, in *input.State) {
	for _, k := range [...]input.Key{input.KeyArrowLeft, input.KeyArrowRight, input.KeyArrowUp, input.KeyArrowDown,
		input.KeyI, input.KeyJ, input.KeyK, input.KeyL, input.KeySpace} {
		in.SetKey(k, false)
	}
	w := p.st.World
	if p.Player >= len(p.ships) || !w.Valid(p.ships[p.Player]) {
		return
	}
	me := components.TransformC.Get(w.Entry(p.ships[p.Player])).Cur
	p.pilot.from, p.pilot.found, p.pilot.best = cp.Vector{X: me.X, Y: me.Y}, false, 0
	p.drones.Each(w, p.pilot.findNearestDrone)
	if !p.pilot.found {
		steer(in, width/2-me.X, height/2-me.Y, 30, input.KeyArrowLeft, input.KeyArrowRight, input.KeyArrowUp, input.KeyArrowDown)
		return
	}
	d := p.pilot.nearest.Sub(p.pilot.from)
	steer(in, d.X, d.Y, float64(0.4*max(abs(d.X), abs(d.Y))), input.KeyJ, input.KeyL, input.KeyI, input.KeyK)
	in.SetKey(input.KeySpace, true)
	// Too close: back off, sideways now and then; but one stretch of 4 s in
	// three it stands its ground (and is caught sooner or later).
	if p.pilot.best < 160*160 && t.Tick/240%3 != 2 {
		side := float64(1 - 2*(t.Tick/90%2))
		steer(in, -d.X+float64(side*d.Y), -d.Y-float64(side*d.X), 20, input.KeyArrowLeft, input.KeyArrowRight, input.KeyArrowUp, input.KeyArrowDown)
	} else {
		steer(in, width/2-me.X, height/2-me.Y, 60, input.KeyArrowLeft, input.KeyArrowRight, input.KeyArrowUp, input.KeyArrowDown)
	}
}

// findNearestDrone keeps the autopilot's nearest drone so far.
func (p *Play) findNearestDrone(e *donburi.Entry) {
	at := components.TransformC.Get(e).Cur
	dx, dy := at.X-p.pilot.from.X, at.Y-p.pilot.from.Y
	if d := float64(dx*dx) + float64(dy*dy); !p.pilot.found || d < p.pilot.best {
		p.pilot.nearest, p.pilot.best, p.pilot.found = cp.Vector{X: at.X, Y: at.Y}, d, true
	}
}

// steer holds the keys that lean along (dx, dy), each axis beyond dead.
func steer(in *input.State, dx, dy, dead float64, left, right, up, down input.Key) {
	in.SetKey(left, dx < -dead)
	in.SetKey(right, dx > dead)
	in.SetKey(up, dy < -dead)
	in.SetKey(down, dy > dead)
}

func abs(x float64) float64 {
	if x < 0 {
		return -x
	}
	return x
}
