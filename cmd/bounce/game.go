package main

import (
	"math"
	"math/rand/v2"

	"github.com/fixedstep/fixedstep/engine"
	"github.com/fixedstep/fixedstep/engine/input"
	"github.com/fixedstep/fixedstep/engine/state"
	_ "github.com/fixedstep/fixedstep/systems/physics" // the state hasher's summaries of cp's bodies and shapes
	"github.com/fixedstep/fixedstep/third_party/cp"
	"github.com/fixedstep/fixedstep/third_party/donburi"
	"github.com/fixedstep/fixedstep/third_party/donburi/filter"
)

// The box, in world units (y up: cp's gravity pulls towards -y).
const (
	boxW, boxH    = 400.0, 300.0
	ballR         = 8.0
	paddleW       = 60.0
	paddleSpeed   = 320.0
	startingLives = 3
)

// Body is an entity's cp body. The state hasher summarises cp bodies (their
// pose, velocity, forces, sleep), so a checksum sees them.
type Body struct{ Body *cp.Body }

// Ball is a ball in play: Bounces counts the paddle's hits on it, Falling
// says whether it fell at the last tick.
type Ball struct {
	Bounces int
	Falling bool
}

// Paddle is the player's paddle; Score and Lives are the round's.
type Paddle struct {
	Score, Lives int
}

var (
	BodyC   = donburi.NewComponentType[Body]()
	BallC   = donburi.NewComponentType[Ball]()
	PaddleC = donburi.NewComponentType[Paddle]()
)

// Round is one round: balls drop into the box one by one, the paddle keeps
// them bouncing; when the lives are gone the next round begins.
type Round struct {
	Seed  uint64
	Count int // rounds played before this one
}

// Name names the scene.
func (r *Round) Name() string { return "Round" }

// Run plays the round on loop and returns the next one.
func (r *Round) Run(loop *engine.Loop) (engine.Scene, error) {
	w := donburi.NewWorld()
	space := cp.NewSpace()
	space.SetGravity(cp.Vector{Y: -400})
	rng := rand.New(rand.NewPCG(r.Seed, uint64(r.Count)))
	walls := []cp.Vector{{X: 0, Y: boxH}, {X: 0, Y: 0}, {X: boxW, Y: 0}, {X: boxW, Y: boxH}}
	for i := range len(walls) - 1 {
		s := space.AddShape(cp.NewSegment(space.StaticBody, walls[i], walls[i+1], 2))
		s.SetElasticity(1)
	}
	paddle := w.Entry(w.Create(BodyC, PaddleC))
	pb := space.AddBody(cp.NewKinematicBody())
	pb.SetPosition(cp.Vector{X: boxW / 2, Y: 20})
	space.AddShape(cp.NewBox(pb, paddleW, 10, 0)).SetElasticity(1)
	BodyC.SetValue(paddle, Body{pb})
	PaddleC.SetValue(paddle, Paddle{Lives: startingLives})
	balls := donburi.NewQuery(filter.Contains(BallC, BodyC))

	hasher := state.NewHasher(&state.Options{PathNames: loop.Recording().PathNames()}) // names as the recording replayed does
	loop.Recording().SetChecksum(func() uint64 { return hasher.Sum(w) })
	sched := engine.NewScheduler(w, engine.Group{Name: "physics", Hz: 60})
	var lost []donburi.Entity
	over := false
	sched.AddUpdate(0, "serve", func(w donburi.World, ev engine.Event) {
		if ev.Tick%90 != 1 || balls.Count(w) >= 3 {
			return
		}
		b := space.AddBody(cp.NewBody(1, cp.MomentForCircle(1, 0, ballR, cp.Vector{})))
		b.SetPosition(cp.Vector{X: 40 + float64(rng.Float64()*(boxW-80)), Y: boxH - 40})
		b.SetVelocity(float64(rng.Float64()*200)-100, 0)
		s := space.AddShape(cp.NewCircle(b, ballR, cp.Vector{}))
		s.SetElasticity(0.9)
		e := w.Entry(w.Create(BodyC, BallC))
		BodyC.SetValue(e, Body{b})
	}).AddUpdate(0, "paddle", func(w donburi.World, ev engine.Event) {
		vx := 0.0
		if ev.Input.KeyDown(input.KeyArrowLeft) {
			vx -= paddleSpeed
		}
		if ev.Input.KeyDown(input.KeyArrowRight) {
			vx += paddleSpeed
		}
		x := pb.Position().X
		if x+float64(vx*ev.DT) < paddleW/2 || x+float64(vx*ev.DT) > boxW-paddleW/2 {
			vx = 0 // the paddle stays in the box
		}
		pb.SetVelocity(vx, 0)
	}).AddUpdate(0, "physics", func(w donburi.World, ev engine.Event) {
		space.Step(ev.DT)
	}).AddUpdate(0, "rules", func(w donburi.World, ev engine.Event) {
		p := PaddleC.Get(paddle)
		lost = lost[:0]
		for e := range balls.Iter(w) {
			b, ball := BodyC.Get(e).Body, BallC.Get(e)
			pos, up := b.Position(), b.Velocity().Y > 0
			if pos.Y < ballR+4 { // on the floor
				lost = append(lost, e.Entity())
				continue
			}
			if up && ball.Falling && pos.Y < 45 && math.Abs(pos.X-pb.Position().X) <= paddleW/2+ballR {
				ball.Bounces++ // it turned up over the paddle: the paddle hit it
				p.Score++
			}
			ball.Falling = !up
		}
		for _, e := range lost { // collect, then change
			b := BodyC.Get(w.Entry(e)).Body
			b.EachShape(func(s *cp.Shape) { space.RemoveShape(s) })
			space.RemoveBody(b)
			w.Remove(e)
			p.Lives--
		}
		over = p.Lives <= 0
	})
	// The bot: it holds Left or Right towards the lowest ball falling, from
	// the state the tick before left (it is asked before the tick runs), so
	// it plays the same at any frame rate; it is recorded like a player.
	loop.SetTickInput(0, engine.TickInputFunc(func(_ engine.TickInfo, in *input.State) {
		*in = input.State{}
		target, best := 0.0, math.Inf(1)
		for e := range balls.Iter(w) {
			b := BodyC.Get(e).Body
			if y := b.Position().Y; b.Velocity().Y < 0 && y < best {
				target, best = b.Position().X-pb.Position().X, y
			}
		}
		in.SetKey(input.KeyArrowLeft, best < math.Inf(1) && target < -4)
		in.SetKey(input.KeyArrowRight, best < math.Inf(1) && target > 4)
	}))
	for ev := range loop.Events(sched.Groups()...) {
		sched.Handle(ev)
		if over && ev.Kind == engine.Update {
			loop.Recording().Checkpoint()
			return &Round{Seed: r.Seed, Count: r.Count + 1}, nil
		}
	}
	return nil, loop.Err()
}
