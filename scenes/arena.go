package scenes

import (
	"fmt"
	"image/color"
	"math"
	"math/rand/v2"
	"slices"
	"time"

	"github.com/hajimehoshi/ebiten/v2"
	"github.com/hajimehoshi/ebiten/v2/text/v2"
	"github.com/jakecoffman/cp/v2"
	"github.com/yohamta/donburi"
	"github.com/yohamta/donburi/filter"

	"github.com/fixedstep/fixedstep/assets"
	"github.com/fixedstep/fixedstep/components"
	"github.com/fixedstep/fixedstep/engine"
	"github.com/fixedstep/fixedstep/systems"
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

// Arena is the game: the player pushes a body around a walled arena,
// collecting stars while AI agents (at 10 Hz) chase it; touching an agent
// hurts the player and sends the agent fleeing. It ends when time runs out or
// the player's health does, and hands on to Results.
type Arena struct {
	opts   *Options
	st     *systems.Stage
	world  donburi.World
	rng    *rand.Rand
	ai     *systems.AI
	render *systems.Render
	player donburi.Entity
	quit   bool // Esc: back to the Title
	agents *donburi.Query
	stars  *donburi.Query
	pilot  pilot
	props  []donburi.Entity // oldest first (Options.Churn replaces from the front)
	spawns int              // props spawned: even ones are boxes, odd ones balls

	score   int
	health  float64
	limit   time.Duration
	played  time.Duration
	hud     string
	hudKey  [3]int
	hudFace *text.GoTextFace
	hudOp   text.DrawOptions
}

// Name names the scene.
func (a *Arena) Name() string { return "Arena" }

// Run loads the arena, plays it, releases it and returns Results (or nil when
// Options.Seconds bounds the run, or the Title on Esc).
func (a *Arena) Run(loop *engine.Loop) (engine.Scene, error) {
	st, err := newStage(loop, a.Name(), a.opts, systems.StageOptions{
		Groups:   []engine.Group{{Name: "physics", Hz: 60}, {Name: "ai", Hz: systems.AIHz}},
		Physics:  &systems.PhysicsConfig{},
		Checksum: a.checksum,
	})
	if err != nil {
		return nil, err
	}
	defer st.Release()
	a.st, a.world = st, st.World
	a.build(loop)
	next, err := st.Run()
	if err != nil || a.quit {
		return next, err
	}
	report(a.opts.Out, a.Name(), st, fmt.Sprintf("score %d, health %.0f", a.score, a.health))
	return next, nil
}

func (a *Arena) build(loop *engine.Loop) {
	a.rng = rand.New(rand.NewPCG(a.opts.Seed, 2))
	a.health = 100
	a.limit = arenaLimit
	if a.opts.Seconds > 0 {
		a.limit = time.Duration(a.opts.Seconds * float64(time.Second))
	}
	w := a.world
	space := a.st.Physics.Space()
	space.SetDamping(0.6) // a top-down arena: things slow down on the floor

	// walls
	walls := cp.NewStaticBody()
	corners := []cp.Vector{{X: 0, Y: 0}, {X: ArenaWidth, Y: 0}, {X: ArenaWidth, Y: ArenaHeight}, {X: 0, Y: ArenaHeight}}
	var wallShapes []*cp.Shape
	for i, c := range corners {
		s := cp.NewSegment(walls, c, corners[(i+1)%4], 8)
		s.SetElasticity(0.8)
		s.SetFriction(0.5)
		wallShapes = append(wallShapes, s)
	}
	a.st.Physics.Spawn(walls, wallShapes)
	wallImg := a.st.Bundle.MustSprite(assets.SpriteWall)
	for x := 16.0; x < ArenaWidth; x += 32 {
		a.decor(wallImg, x, 0)
		a.decor(wallImg, x, ArenaHeight)
	}
	for y := 32.0; y < ArenaHeight-16; y += 32 {
		a.decor(wallImg, 0, y)
		a.decor(wallImg, ArenaWidth, y)
	}

	// the player
	body := cp.NewBody(1, cp.MomentForCircle(1, 0, playerRadius, cp.Vector{}))
	body.SetPosition(cp.Vector{X: ArenaWidth / 2, Y: ArenaHeight / 2})
	shape := cp.NewCircle(body, playerRadius, cp.Vector{})
	shape.SetElasticity(0.5)
	a.player = a.st.Physics.Spawn(body, []*cp.Shape{shape}, components.PlayerC, components.SpriteC)
	pe := w.Entry(a.player)
	components.PlayerC.SetValue(pe, components.Player{Force: 1500, Speed: 260})
	a.sprite(pe, assets.SpritePlayer, 2)

	// agents, props, stars
	for range arenaAgents {
		b := cp.NewBody(1, cp.MomentForCircle(1, 0, 12, cp.Vector{}))
		b.SetPosition(a.freeSpot(120))
		s := cp.NewCircle(b, 12, cp.Vector{})
		s.SetElasticity(0.6)
		e := w.Entry(a.st.Physics.Spawn(b, []*cp.Shape{s}, components.AgentC, components.SpriteC))
		agent := components.NewAgent(110, 700)
		agent.SightRange = 200
		agent.SafeRange = 320
		components.AgentC.SetValue(e, agent)
		a.sprite(e, assets.SpriteAgent, 1)
	}
	a.props = a.props[:0]
	for range arenaProps {
		a.spawnProp(a.freeSpot(80))
	}
	for range arenaStars {
		b := cp.NewStaticBody()
		b.SetPosition(a.freeSpot(80))
		s := cp.NewCircle(b, 14, cp.Vector{})
		s.SetSensor(true)
		a.sprite(w.Entry(a.st.Physics.Spawn(b, []*cp.Shape{s}, goalC, components.SpriteC)), assets.SpriteGoal, 0)
	}
	cam := w.Entry(w.Create(components.TransformC, components.CameraC))
	components.TransformC.SetValue(cam, components.NewTransform(components.Pose{X: ArenaWidth / 2, Y: ArenaHeight / 2}))

	a.agents = donburi.NewQuery(filter.Contains(components.AgentC, components.SpriteC))
	a.stars = donburi.NewQuery(filter.Contains(goalC))
	a.ai = systems.NewAI(w, space, a.opts.Seed)
	a.render = systems.NewRender(w)
	a.hudFace = a.st.Bundle.Face(18)
	systems.CollisionBegin.Subscribe(w, a.onCollision)

	physics, ai := a.st.Sched.Group("physics"), a.st.Sched.Group("ai")
	if a.opts.Autopilot {
		a.pilot = pilot{rng: rand.New(rand.NewPCG(a.opts.Seed, 3)), arena: a}
		loop.SetTickInput(physics, &a.pilot)
	}
	a.st.Sched.AddUpdate(physics, "control", a.control).
		AddUpdate(physics, "physics", a.st.Physics.Update).
		AddUpdate(physics, "rules", a.rules).
		AddUpdate(ai, "ai", a.ai.Update).
		AddUpdate(ai, "looks", a.looks).
		AddRender(0, "floor", func(_ donburi.World, ev engine.Event) {
			if ev.Screen != nil {
				ev.Screen.Fill(color.RGBA{34, 40, 52, 255})
			}
		}).
		AddRender(1, "sprites", a.render.Draw).
		AddRender(2, "hud", a.drawHUD)
}

// spawnProp adds a box or a ball (alternately) at p, at a random angle.
func (a *Arena) spawnProp(p cp.Vector) {
	var b *cp.Body
	var s *cp.Shape
	name := assets.SpriteBox
	if a.spawns%2 == 0 {
		b = cp.NewBody(2, cp.MomentForBox(2, 24, 24))
		s = cp.NewBox(b, 24, 24, 1)
	} else {
		b = cp.NewBody(1.5, cp.MomentForCircle(1.5, 0, 12, cp.Vector{}))
		s = cp.NewCircle(b, 12, cp.Vector{})
		name = assets.SpriteBall
	}
	a.spawns++
	b.SetPosition(p)
	b.SetAngle(a.rng.Float64() * 2 * math.Pi)
	s.SetFriction(0.6)
	s.SetElasticity(0.4)
	e := a.st.Physics.Spawn(b, []*cp.Shape{s}, components.SpriteC)
	a.sprite(a.world.Entry(e), name, 1)
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
	playerPos := components.BodyC.Get(w.Entry(a.player)).Body.Position()
	for range n {
		a.spawnProp(a.freeSpotFrom(playerPos, 80))
	}
}

// decor adds a drawn-only entity (no body).
func (a *Arena) decor(img *ebiten.Image, x, y float64) {
	e := a.world.Entry(a.world.Create(components.TransformC, components.SpriteC))
	components.TransformC.SetValue(e, components.NewTransform(components.Pose{X: x, Y: y}))
	components.SpriteC.SetValue(e, components.Sprite{Image: img, Atlas: a.st.Bundle.Atlas(), OriginX: 16, OriginY: 16})
}

func (a *Arena) sprite(e *donburi.Entry, name string, layer int) {
	img := a.st.Bundle.MustSprite(name)
	b := img.Bounds()
	components.SpriteC.SetValue(e, components.Sprite{Image: img, Atlas: a.st.Bundle.Atlas(), Layer: layer,
		OriginX: float64(b.Dx()) / 2, OriginY: float64(b.Dy()) / 2})
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

// control pushes the player's body towards the velocity the tick's input
// (a player's, or the autopilot's stick) asks for, within the player's force.
func (a *Arena) control(w donburi.World, ev engine.Event) {
	e := w.Entry(a.player)
	p := components.PlayerC.Get(e)
	body := components.BodyC.Get(e).Body
	dir := inputDirection(ev.Input, p.Pad)
	want := dir.Mult(p.Speed)
	f := want.Sub(body.Velocity()).Mult(body.Mass() / ev.DT).Clamp(p.Force)
	body.SetForce(f)
	if l := dir.Length(); l > 0.1 {
		body.SetAngle(math.Atan2(dir.Y, dir.X))
		body.SetAngularVelocity(0)
	}
}

// inputDirection is the direction the keys or the left stick ask for, of
// length at most 1.
func inputDirection(in *engine.InputState, pad int) cp.Vector {
	var d cp.Vector
	if in.KeyDown(ebiten.KeyArrowLeft) || in.KeyDown(ebiten.KeyA) {
		d.X--
	}
	if in.KeyDown(ebiten.KeyArrowRight) || in.KeyDown(ebiten.KeyD) {
		d.X++
	}
	if in.KeyDown(ebiten.KeyArrowUp) || in.KeyDown(ebiten.KeyW) {
		d.Y--
	}
	if in.KeyDown(ebiten.KeyArrowDown) || in.KeyDown(ebiten.KeyS) {
		d.Y++
	}
	d.X += in.GamepadAxis(pad, ebiten.StandardGamepadAxisLeftStickHorizontal)
	d.Y += in.GamepadAxis(pad, ebiten.StandardGamepadAxisLeftStickVertical)
	return d.Clamp(1)
}

// onCollision scores a star and hurts the player on touching an agent. It
// runs right after the physics step that began the contact.
func (a *Arena) onCollision(w donburi.World, c systems.Collision) {
	other, ok := c.A, c.A == a.player || c.B == a.player
	if !ok {
		return
	}
	if c.A == a.player {
		other = c.B
	}
	if !w.Valid(other) {
		return
	}
	e := w.Entry(other)
	playerPos := components.BodyC.Get(w.Entry(a.player)).Body.Position()
	switch {
	case e.HasComponent(goalC):
		a.score++
		body := components.BodyC.Get(e).Body
		body.SetPosition(a.freeSpotFrom(playerPos, 120))
		for _, sh := range components.ShapeC.Get(e).Shapes {
			a.st.Physics.Space().ReindexShape(sh)
		}
		pos := body.Position()
		components.TransformC.Get(e).Teleport(components.Pose{X: pos.X, Y: pos.Y})
	case e.HasComponent(components.AgentC):
		a.health = max(a.health-5, 0)
		components.AgentC.Get(e).Damage(0.5, playerPos)
	}
}

// rules ends the game on time, on health or on Esc (decided on a tick, so
// that a replay ends where the recording did), and turns the stars.
func (a *Arena) rules(w donburi.World, ev engine.Event) {
	a.played = ev.Time
	switch {
	case ev.Input.KeyPressed(ebiten.KeyEscape):
		a.quit = true
		a.st.End(&Title{opts: a.opts})
	case ev.Time >= a.limit || a.health <= 0 && !a.opts.Undying:
		var next engine.Scene
		if a.opts.Seconds == 0 {
			next = &Results{opts: a.opts, score: a.score, played: a.played, health: a.health}
		}
		a.st.End(next)
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
	if ev.Screen == nil {
		return
	}
	left := max(a.limit-a.played, 0)
	key := [3]int{a.score, int(a.health), int(left.Seconds())}
	if key != a.hudKey || a.hud == "" {
		a.hudKey = key
		a.hud = fmt.Sprintf("Score %d   Health %d   Time %d s", key[0], key[1], key[2])
	}
	a.hudOp = text.DrawOptions{}
	a.hudOp.GeoM.Translate(24, 20)
	a.hudOp.ColorScale.ScaleWithColor(color.White)
	text.Draw(ev.Screen, a.hud, a.hudFace, &a.hudOp)
}

func (a *Arena) checksum() uint64 {
	return checksum(a.world, float64(a.score), a.health)
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
	wobble cp.Vector
}

// SampleTick moves the stick for tick t.
func (p *pilot) SampleTick(t engine.TickInfo, in *engine.InputState) {
	a := p.arena
	pos := components.BodyC.Get(a.world.Entry(a.player)).Body.Position()
	dir := p.steer(a, pos, t.Tick)
	in.SetGamepadAxis(0, ebiten.StandardGamepadAxisLeftStickHorizontal, dir.X)
	in.SetGamepadAxis(0, ebiten.StandardGamepadAxisLeftStickVertical, dir.Y)
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
