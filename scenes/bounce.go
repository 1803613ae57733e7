package scenes

import (
	"fmt"
	"image/color"
	"math/rand/v2"

	"github.com/hajimehoshi/ebiten/v2/ebitenutil"
	"github.com/hajimehoshi/ebiten/v2/vector"
	"github.com/jakecoffman/cp/v2"
	"github.com/yohamta/donburi"
	"github.com/yohamta/donburi/filter"

	"github.com/fixedstep/fixedstep/engine"
)

// Bounce is the first scene: balls under gravity in a box, stepped by cp at
// 60 Hz and drawn every frame between their last two physics states.
type Bounce struct {
	opts  *Options
	world donburi.World
	space *cp.Space
	sched *engine.Scheduler
	balls *donburi.Query
}

// ball is a cp body with the two physics states rendering blends.
type ball struct {
	body      *cp.Body
	prev, cur cp.Vector
	radius    float64
	color     color.RGBA
}

var ballC = donburi.NewComponentType[ball]()

const (
	boxW, boxH = 960, 540
	ballCount  = 24
)

// Name names the scene in errors and summaries.
func (s *Bounce) Name() string { return "Bounce" }

// Run loads the scene, runs it and returns the next one.
func (s *Bounce) Run(loop *engine.Loop) (engine.Scene, error) {
	s.load()
	for ev := range loop.Events(s.sched.Groups()...) {
		if sceneOver(loop, ev, s.opts) {
			break
		}
		s.sched.Handle(ev)
		if ev.Kind == engine.Render && s.opts.AfterRender != nil {
			s.opts.AfterRender(loop, ev)
		}
	}
	summary(s.opts, s.Name(), loop, s.state())
	if err := loop.Err(); err != nil || loop.Stopped() {
		return nil, err
	}
	return &Orbit{opts: s.opts}, nil
}

func (s *Bounce) load() {
	s.world = donburi.NewWorld()
	s.space = cp.NewSpace()
	s.space.SetGravity(cp.Vector{X: 0, Y: 400})
	s.space.Iterations = 10
	walls := []cp.Vector{{X: 0, Y: 0}, {X: boxW, Y: 0}, {X: boxW, Y: boxH}, {X: 0, Y: boxH}}
	for i, a := range walls {
		wall := s.space.AddShape(cp.NewSegment(s.space.StaticBody, a, walls[(i+1)%len(walls)], 4))
		wall.SetElasticity(0.95)
		wall.SetFriction(0.2)
	}
	rng := rand.New(rand.NewPCG(s.opts.Seed, 1))
	for i := range ballCount {
		r := 10 + rng.Float64()*20
		body := s.space.AddBody(cp.NewBody(r*r, cp.MomentForCircle(r*r, 0, r, cp.Vector{})))
		pos := cp.Vector{X: 60 + rng.Float64()*(boxW-120), Y: 60 + rng.Float64()*(boxH/2)}
		body.SetPosition(pos)
		body.SetVelocity(rng.Float64()*600-300, rng.Float64()*200-100)
		shape := s.space.AddShape(cp.NewCircle(body, r, cp.Vector{}))
		shape.SetElasticity(0.9)
		shape.SetFriction(0.3)
		e := s.world.Entry(s.world.Create(ballC))
		ballC.SetValue(e, ball{body: body, prev: pos, cur: pos, radius: r,
			color: color.RGBA{uint8(80 + i*7), uint8(200 - i*5), 255, 255}})
	}
	s.balls = donburi.NewQuery(filter.Contains(ballC))
	s.sched = engine.NewScheduler(s.world, engine.Group{Name: "physics", Hz: 60})
	s.sched.AddUpdate(0, "physics", s.step)
	s.sched.AddRender(0, "balls", s.draw)
	s.sched.AddRender(1, "label", s.label)
}

// step advances the space by one fixed step and keeps the last two states.
func (s *Bounce) step(w donburi.World, ev engine.Event) {
	s.space.Step(ev.DT)
	for e := range s.balls.Iter(w) {
		b := ballC.Get(e)
		b.prev, b.cur = b.cur, b.body.Position()
	}
}

// draw draws every ball between its last two physics states.
func (s *Bounce) draw(w donburi.World, ev engine.Event) {
	if ev.Screen == nil {
		return
	}
	ev.Screen.Fill(color.RGBA{16, 20, 32, 255})
	sx := float32(ev.Screen.Bounds().Dx()) / boxW
	sy := float32(ev.Screen.Bounds().Dy()) / boxH
	for e := range s.balls.Iter(w) {
		b := ballC.Get(e)
		p := b.prev.Lerp(b.cur, ev.Alpha)
		vector.FillCircle(ev.Screen, float32(p.X)*sx, float32(p.Y)*sy, float32(b.radius)*sx, b.color, true)
	}
}

func (s *Bounce) label(_ donburi.World, ev engine.Event) {
	if ev.Screen != nil {
		ebitenutil.DebugPrintAt(ev.Screen, fmt.Sprintf("Bounce: cp at 60 Hz, drawn with alpha %.2f  (Space: next, Esc: quit)", ev.Alpha), 8, 8)
	}
}

// state is the simulation state the checksum covers.
func (s *Bounce) state() []float64 {
	var out []float64
	for e := range s.balls.Iter(s.world) {
		b := ballC.Get(e)
		p, v := b.body.Position(), b.body.Velocity()
		out = append(out, p.X, p.Y, v.X, v.Y, b.body.Angle())
	}
	return out
}
