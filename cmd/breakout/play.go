package main

import (
	"fmt"
	"image/color"
	"math"
	"math/rand/v2"

	"github.com/hajimehoshi/ebiten/v2/text/v2"

	"github.com/fixedstep/fixedstep/assets"
	"github.com/fixedstep/fixedstep/components"
	"github.com/fixedstep/fixedstep/components/gfx"
	"github.com/fixedstep/fixedstep/engine"
	"github.com/fixedstep/fixedstep/engine/detmath"
	"github.com/fixedstep/fixedstep/engine/input"
	"github.com/fixedstep/fixedstep/engine/window"
	"github.com/fixedstep/fixedstep/systems"
	"github.com/fixedstep/fixedstep/systems/physics"
	"github.com/fixedstep/fixedstep/systems/render"
	"github.com/fixedstep/fixedstep/systems/stage"
	"github.com/fixedstep/fixedstep/third_party/cp"
	"github.com/fixedstep/fixedstep/third_party/donburi"
	"github.com/fixedstep/fixedstep/third_party/donburi/filter"
)

// The playfield, in pixels and pixels per second.
const (
	top              = 36.0 // the top wall's inner edge; the HUD is above it
	paddleW, paddleH = 80.0, 12.0
	paddleY          = 448.0 // the paddle's centre
	paddleSpeed      = 480.0
	ballR            = 8.0
	// serveY is the ball's centre while it waits on the paddle, 4 px above
	// it (at 2 px, cp tested the pair every step; recordings keep 4 px).
	serveY         = paddleY - paddleH/2 - ballR - 4
	cols, rows     = 10, 6
	brickW, brickH = 56.0, 18.0
	cellW, cellH   = 60.0, 22.0 // a brick and the gap to the next
	firstRow       = top + 44   // the wall's top edge, at the start of a level
	dangerY        = paddleY - 50
	baseSpeed      = 280.0 // the ball's speed at the start of level 1
	speedPerBrick  = 2.0   // added for every brick broken in the level
	speedPerLevel  = 30.0
	// maxSpeed is 7.5 px a tick at 60 Hz, less than the ball's radius: cp
	// finds a contact only once shapes overlap, so the ball sinks at most a
	// tick's travel into what it hits, and its centre never crosses a
	// surface (which would push it out the wrong side, or through).
	maxSpeed          = 450.0
	slowFactor        = 0.7 // the ball's speed under the slow power-up
	slowTicks         = 600 // ticks of the physics group (10 s) the slow power-up lasts
	descendEvery      = 150 // ticks of the wall group (15 s) between the wall's steps down
	powerChance       = 60  // one chance in this, each wall tick, that a power-up drops
	powerR, powerFall = 9.0, 100.0
)

var (
	rowColours = [rows]color.RGBA{{230, 70, 70, 255}, {240, 140, 50, 255}, {235, 210, 60, 255},
		{90, 200, 90, 255}, {70, 170, 230, 255}, {150, 110, 230, 255}}
	cyan = color.RGBA{80, 220, 240, 255}
	blue = color.RGBA{90, 140, 255, 255}
)

// Components of the game's own entities; the paddle is the components.Player.
var (
	BallC  = donburi.NewTag("Ball")
	BrickC = donburi.NewComponentType[Brick]()
	PowerC = donburi.NewComponentType[Power]()
)

// Brick is a brick: the hits it still takes, and what breaking it scores.
type Brick struct{ Hits, Points int }

// Power is a falling power-up, caught with the paddle.
type Power struct{ Kind PowerKind }

// PowerKind is what a power-up does.
type PowerKind uint8

const (
	ExtraBall PowerKind = iota // one more life
	SlowBall                   // the ball at slowFactor of its speed for slowTicks
)

// Play is one game: from the first serve until the last ball is lost or the
// wall reaches the paddle.
type Play struct {
	Settings
	Progress

	st                  *stage.Stage
	rng                 *rand.Rand // the game's own randomness: serves and power-ups
	paddle, ball        donburi.Entity
	score, lives, level int
	broken              int // bricks broken this level
	serving             bool
	slow                int // physics ticks of SlowBall left

	bricks, powers *donburi.Query
	found          []donburi.Entity // reused by the systems
	hits           []physics.Hit
	findFallen     func(*donburi.Entry)
	findBrick      func(*donburi.Entry)

	hud   [4]int // score, lives, level, slow: what text shows
	hudOK bool
	text  string

	pilot struct { // the autopilot's own state, outside the game's
		rng *rand.Rand
		aim float64 // where on the paddle it means to take the ball
	}
}

// Run plays the game: the walls, paddle, ball and bricks, the systems of
// its two groups, the contact handlers, and the autopilot when it plays.
func (p *Play) Run(loop *engine.Loop) (engine.Scene, error) {
	st, err := stage.New(loop, stage.Options{
		Groups:     []engine.Group{{Name: "physics", Hz: 60}, {Name: "wall", Hz: 10}},
		Physics:    &physics.Config{},
		Background: background,
	})
	if err != nil {
		return nil, err
	}
	defer st.Release()
	p.st, p.lives, p.level = st, p.Lives, 1
	pcg := rand.NewPCG(p.Seed, uint64(p.Games)) // each game of a run its own
	p.rng = rand.New(pcg)
	// The game's state outside the world, saved with it (-synctest). Not the
	// autopilot's: it is the player.
	stage.Keep(st, pcg)
	stage.Keep(st, &p.score)
	stage.Keep(st, &p.lives)
	stage.Keep(st, &p.level)
	stage.Keep(st, &p.broken)
	stage.Keep(st, &p.serving)
	stage.Keep(st, &p.slow)
	p.bricks = donburi.NewQuery(filter.Contains(BrickC))
	p.powers = donburi.NewQuery(filter.Contains(PowerC))
	p.found, p.hits = make([]donburi.Entity, 0, rows*cols), make([]physics.Hit, 0, 8)
	p.findBrick = func(e *donburi.Entry) { p.found = append(p.found, e.Entity()) }
	p.findFallen = func(e *donburi.Entry) {
		if components.TransformC.Get(e).Cur.Y > height+2*powerR {
			p.found = append(p.found, e.Entity())
		}
	}

	phys := st.Physics
	// Walls outside the screen, 8 px thick, open at the bottom.
	outline := []cp.Vector{{X: -8, Y: height + 100}, {X: -8, Y: top - 8}, {X: width + 8, Y: top - 8}, {X: width + 8, Y: height + 100}}
	phys.SpawnWalls(outline, 8, &physics.BodyOptions{Elasticity: 1})
	st.SpawnSprite(width/2, top-2, st.Rect(width, 4, grey))
	paddle := st.Rect(paddleW, paddleH, cyan)
	paddle.Layer = 1
	p.paddle = phys.SpawnBox(paddleW, paddleH, &physics.BodyOptions{Kind: physics.Kinematic,
		Position: cp.Vector{X: width / 2, Y: paddleY}, Elasticity: 1, Sprite: paddle}, components.PlayerC)
	components.PlayerC.SetValue(st.World.Entry(p.paddle), components.Player{Speed: paddleSpeed, Axis: components.AxisX,
		Min: cp.Vector{X: paddleW / 2}, Max: cp.Vector{X: width - paddleW/2}})
	ball := st.Sprite(assets.SpriteBall)
	ball.ScaleX, ball.ScaleY, ball.Layer = 0.62, 0.62, 2
	p.ball = phys.SpawnCircle(ballR, &physics.BodyOptions{Elasticity: 1, Moment: math.Inf(1), Sprite: ball}, BallC)
	p.spawnBricks()
	p.serve()

	wall := st.Sched.Group("wall")
	st.Sched.AddUpdate(0, "player", systems.NewPlayerControl().Update).
		AddUpdate(0, "controls", p.controls).
		AddUpdate(0, "physics", phys.Update).
		AddUpdate(0, "rules", p.rules).
		AddUpdate(wall, "descend", p.descend).
		AddUpdate(wall, "power-ups", p.dropPowerUp)
	phys.OnCollide(BallC, BrickC, p.hitBrick)
	phys.OnCollide(BallC, components.PlayerC, p.hitPaddle)
	phys.OnCollide(components.PlayerC, PowerC, p.catch)
	st.Sched.AddRender(0, "sprites", render.New(st.World).Draw)
	st.Sched.AddRender(1, "hud", p.drawHUD)
	if p.Autopilot {
		p.pilot.rng = rand.New(rand.NewPCG(^p.Seed, uint64(p.Games)))
		loop.SetTickInput(0, engine.TickInputFunc(p.autopilot))
	}
	next, err := st.Run()
	fmt.Printf("game: score %d, level %d, lives %d, %d bricks left, %.1f s\n",
		p.score, p.level, p.lives, p.bricks.Count(st.World), float64(loop.Ticks(0))/60)
	return next, err
}

// spawnBricks builds a new wall at the top: the top row takes two hits,
// and higher rows score more.
func (p *Play) spawnBricks() {
	for r := range rows {
		for c := range cols {
			s := p.st.Rect(brickW, brickH, rowColours[r])
			pos := cp.Vector{X: (width-cols*cellW+cellW)/2 + float64(float64(c)*cellW), Y: firstRow + cellH/2 + float64(float64(r)*cellH)}
			e := p.st.Physics.SpawnBox(brickW, brickH, &physics.BodyOptions{Kind: physics.Static, Position: pos,
				Elasticity: 1, Sprite: s}, BrickC)
			BrickC.SetValue(p.st.World.Entry(e), Brick{Hits: 1 + btoi(r == 0), Points: 10 * (rows - r)})
		}
	}
}

// serve puts the ball on the paddle, to be launched with Space.
func (p *Play) serve() {
	p.serving = true
	at := p.st.Physics.Body(p.paddle).Position()
	p.st.Physics.Teleport(p.ball, components.Pose{X: at.X, Y: serveY})
}

// speed is the ball's speed now.
func (p *Play) speed() float64 {
	s := min(baseSpeed+float64(speedPerLevel*float64(p.level-1))+speedPerBrick*float64(p.broken), maxSpeed)
	if p.slow > 0 {
		s = float64(s * slowFactor)
	}
	return s
}

// controls acts on the tick's input after PlayerControl has set the
// paddle's velocity (inside the walls: Player.Min and Max): Esc leaves the
// game; the ball rides on the paddle until Space (or Enter, or the pad's A)
// serves it.
func (p *Play) controls(_ donburi.World, ev engine.Event) {
	if ev.Input.KeyPressed(input.KeyEscape) {
		p.st.End(&Title{Settings: p.Settings, Progress: Progress{Best: max(p.Best, p.score), Games: p.Games}})
		return
	}
	if !p.serving {
		return
	}
	paddle, ball := p.st.Physics.Body(p.paddle), p.st.Physics.Body(p.ball)
	ball.SetPosition(cp.Vector{X: paddle.Position().X, Y: serveY})
	ball.SetVelocity(paddle.Velocity().X, 0) // the paddle's, kept in bounds by PlayerControl
	if started(ev.Input) {
		p.serving = false
		a := float64((p.rng.Float64() - 0.5) * 0.8) // up, within 23 degrees of vertical
		ball.SetVelocity(float64(p.speed()*detmath.Sin(a)), float64(-p.speed()*detmath.Cos(a)))
	}
}

// rules run after each physics step: the ball's speed, a lost ball,
// power-ups that fell, a cleared wall.
func (p *Play) rules(w donburi.World, ev engine.Event) {
	if p.slow > 0 {
		p.slow--
	}
	if !p.serving {
		ball := p.st.Physics.Body(p.ball)
		// cp's bounces do not keep the ball's speed (a moving paddle adds
		// its own; the solver pushes overlapping shapes apart): set it back
		// every tick, and never let the ball go flat.
		s := p.speed()
		v := ball.Velocity().Normalize().Mult(s)
		if math.Abs(v.Y) < float64(0.3*s) {
			v.Y = math.Copysign(float64(0.3*s), v.Y)
			v.X = math.Copysign(math.Sqrt(float64(s*s)-float64(v.Y*v.Y)), v.X)
		}
		ball.SetVelocity(v.X, v.Y)
		if ball.Position().Y > height+2*ballR {
			if p.lives--; p.lives == 0 {
				p.gameOver("out of balls")
				return
			}
			p.serve()
		}
	}
	p.found = p.found[:0]
	p.powers.Each(w, p.findFallen)
	for _, e := range p.found {
		w.Remove(e)
	}
	if p.bricks.Count(w) == 0 {
		p.level, p.broken = p.level+1, 0
		p.spawnBricks()
		p.serve()
	}
}

// hitBrick breaks a brick the ball hit, or marks it cracked.
func (p *Play) hitBrick(w donburi.World, c physics.Contact) {
	brick := w.Entry(c.B)
	b := BrickC.Get(brick)
	if b.Hits--; b.Hits > 0 {
		gfx.SpriteC.Get(brick).Color.Scale(0.6, 0.6, 0.6, 1)
		return
	}
	p.score += b.Points
	p.broken++
	w.Remove(c.B)
}

// hitPaddle sends the ball up at an angle set by where it met the paddle's
// top: straight up at the centre, up to 60 degrees at the ends. A ball
// already below the top, which the paddle's end knocks, bounces as cp says.
func (p *Play) hitPaddle(_ donburi.World, c physics.Contact) {
	ball := p.st.Physics.Body(c.A)
	if p.serving || ball.Position().Y > paddleY-paddleH/2 {
		return
	}
	off := (ball.Position().X - p.st.Physics.Body(c.B).Position().X) / (paddleW/2 + ballR)
	a := max(-1, min(off, 1)) * math.Pi / 3
	ball.SetVelocity(float64(p.speed()*detmath.Sin(a)), float64(-p.speed()*detmath.Cos(a)))
}

// catch applies a power-up the paddle caught.
func (p *Play) catch(w donburi.World, c physics.Contact) {
	switch PowerC.Get(w.Entry(c.B)).Kind {
	case ExtraBall:
		p.lives = min(p.lives+1, 9)
	case SlowBall:
		p.slow = slowTicks
	}
	p.score += 25
	w.Remove(c.B)
}

// descend moves the wall a row down every descendEvery ticks of the wall
// group; the game is over when it reaches the paddle's zone.
func (p *Play) descend(w donburi.World, ev engine.Event) {
	if ev.Tick%descendEvery != 0 {
		return
	}
	p.found = p.found[:0]
	p.bricks.Each(w, p.findBrick)
	for _, e := range p.found {
		pose := components.TransformC.Get(w.Entry(e)).Cur
		pose.Y += cellH
		p.st.Physics.Teleport(e, pose)
		if pose.Y+brickH/2 > dangerY {
			p.gameOver("the wall reached the paddle")
		}
	}
	// A brick that comes down on the ball breaks (and scores, but does not
	// speed the ball up: only the ball's own hits do).
	p.hits = p.st.Physics.QueryPoint(p.st.Physics.Body(p.ball).Position(), ballR, nil, p.hits[:0])
	for _, h := range p.hits {
		if w.Entry(h.Entity).HasComponent(BrickC) {
			p.score += BrickC.Get(w.Entry(h.Entity)).Points
			w.Remove(h.Entity)
		}
	}
}

// dropPowerUp now and then lets a power-up fall from a random brick.
func (p *Play) dropPowerUp(w donburi.World, _ engine.Event) {
	if p.serving || p.powers.Count(w) > 0 || p.rng.IntN(powerChance) != 0 {
		return
	}
	p.found = p.found[:0]
	p.bricks.Each(w, p.findBrick)
	if len(p.found) == 0 {
		return
	}
	from := components.TransformC.Get(w.Entry(p.found[p.rng.IntN(len(p.found))])).Cur
	kind := PowerKind(btoi(p.rng.IntN(3) != 0)) // SlowBall twice as often as ExtraBall
	s := p.st.Sprite(assets.SpriteGoal)
	if kind == SlowBall {
		s = p.st.Sprite(assets.SpriteBall)
		s.Color.ScaleWithColor(blue)
	}
	s.ScaleX, s.ScaleY, s.Layer = 0.6, 0.6, 2
	// Kinematic and a sensor: it falls at a steady speed through bricks and
	// the ball, and the paddle (kinematic too) still reports touching it.
	e := p.st.Physics.SpawnCircle(powerR, &physics.BodyOptions{Kind: physics.Kinematic, Sensor: true,
		Position: cp.Vector{X: from.X, Y: from.Y}, Velocity: cp.Vector{Y: powerFall}, Sprite: s}, PowerC)
	PowerC.SetValue(w.Entry(e), Power{Kind: kind})
}

// gameOver ends the game, saying why (the first reason of a tick stands).
func (p *Play) gameOver(why string) {
	p.st.End(&Over{Settings: p.Settings, Progress: p.Progress, Score: p.score, Level: p.level, Why: why})
}

// drawHUD draws the score, lives and level above the wall, and what to do
// while serving. The text is rebuilt only when a figure changes.
func (p *Play) drawHUD(_ donburi.World, ev engine.Event) {
	if now := [4]int{p.score, p.lives, p.level, btoi(p.slow > 0)}; !p.hudOK || now != p.hud {
		p.hud, p.hudOK = now, true
		p.text = fmt.Sprintf("score %d     lives %d     level %d", p.score, p.lives, p.level)
		if p.slow > 0 {
			p.text += "     slow ball"
		}
	}
	screen := window.Screen(ev) // nil headless: Text draws nothing
	p.st.Text(screen, p.text, 12, 9, 16, white, text.AlignStart)
	if p.serving {
		p.st.Text(screen, "Space to serve", width/2, 330, 16, grey, text.AlignCenter)
	}
}

// autopilot plays: it serves after a moment, and moves the paddle under the
// ball as it comes down, to take it at a spot on the paddle (picked while
// the ball rises) so that the ball goes off at varied angles; picked near
// the ends, it sometimes misses. It reads the state the previous tick left
// and changes only its own.
func (p *Play) autopilot(t engine.TickInfo, in *input.State) {
	in.SetKey(input.KeyArrowLeft, false)
	in.SetKey(input.KeyArrowRight, false)
	if p.serving {
		in.SetKey(input.KeySpace, t.Tick/30%2 == 1) // pressed every second
		return
	}
	in.SetKey(input.KeySpace, false)
	ball, paddle := p.st.Physics.Body(p.ball), p.st.Physics.Body(p.paddle)
	if ball.Velocity().Y < 0 {
		p.pilot.aim = float64((p.pilot.rng.Float64()*2 - 1) * paddleW * 0.6)
		return
	}
	dx := ball.Position().X - p.pilot.aim - paddle.Position().X
	in.SetKey(input.KeyArrowLeft, dx < -6)
	in.SetKey(input.KeyArrowRight, dx > 6)
}

func btoi(b bool) int {
	if b {
		return 1
	}
	return 0
}
