package state_test

import (
	"bytes"
	"image"
	"math/rand/v2"
	"testing"

	"github.com/hajimehoshi/ebiten/v2"

	"github.com/fixedstep/fixedstep/components"
	"github.com/fixedstep/fixedstep/components/gfx"
	"github.com/fixedstep/fixedstep/engine"
	"github.com/fixedstep/fixedstep/engine/state"
	"github.com/fixedstep/fixedstep/third_party/cp"
	"github.com/fixedstep/fixedstep/third_party/donburi"
	"github.com/fixedstep/fixedstep/third_party/donburi/features/events"
	"github.com/fixedstep/fixedstep/third_party/donburi/filter"
)

// The scene of these tests: a small world of cp bodies (balls and crates
// falling into a bin), run by the real loop and scheduler with a 60 Hz
// physics group and a 10 Hz group that steers the agents with a seeded
// random source, switches their sprites' frames and keeps a score. Its
// state after a given physics tick must not depend on the frame rate.

// Score is a component of the scene with strings, a slice and a map.
type Score struct {
	Name    string
	Points  int
	History []int
	ByKind  map[string]int
}

var ScoreC = donburi.NewComponentType[Score]()

// Pushed is published by the AI for each agent it pushes, and processed at
// the next physics tick: at the end of an AI tick, the bus holds events.
type Pushed struct {
	Agent donburi.Entity
	Speed float64
}

var PushedEvent = events.NewEventType[Pushed]()

// sceneAtlas is the scene's sprite atlas: frames are its 16x16 cells.
var sceneAtlas = ebiten.NewImage(64, 64)

func frame(i int) *ebiten.Image {
	x, y := (i%4)*16, (i/4%4)*16
	return sceneAtlas.SubImage(image.Rect(x, y, x+16, y+16)).(*ebiten.Image)
}

// testScene is the scene's world, space and systems.
type testScene struct {
	world  donburi.World
	space  *cp.Space
	sched  *engine.Scheduler
	rng    *rand.Rand
	bodies *donburi.Query
	agents *donburi.Query
	score  donburi.Entity
}

func newTestScene(seed uint64) *testScene {
	s := &testScene{
		world:  donburi.NewWorld(),
		space:  cp.NewSpace(),
		rng:    rand.New(rand.NewPCG(seed, 1)),
		bodies: donburi.NewQuery(filter.Contains(components.TransformC, components.BodyC)),
		agents: donburi.NewQuery(filter.Contains(components.AgentC, components.BodyC, gfx.SpriteC)),
	}
	s.space.SetGravity(cp.Vector{X: 0, Y: 300})
	s.space.Iterations = 10
	// The bin: three static segments.
	for _, seg := range [][4]float64{{0, 400, 400, 400}, {0, 0, 0, 400}, {400, 0, 400, 400}} {
		e := s.world.Create(components.ShapeC)
		sh := cp.NewSegment(s.space.StaticBody, cp.Vector{X: seg[0], Y: seg[1]}, cp.Vector{X: seg[2], Y: seg[3]}, 2)
		sh.SetFriction(0.8)
		sh.UserData = e
		s.space.AddShape(sh)
		components.ShapeC.Get(s.world.Entry(e)).Shapes = []*cp.Shape{sh}
	}
	for i := range 12 {
		x, y := 40+float64(i%6)*60, 40+float64(i/6)*50
		var b *cp.Body
		var sh *cp.Shape
		if i%2 == 0 {
			b = cp.NewBody(1, cp.MomentForCircle(1, 0, 12, cp.Vector{}))
			sh = cp.NewCircle(b, 12, cp.Vector{})
		} else {
			b = cp.NewBody(2, cp.MomentForBox(2, 24, 24))
			sh = cp.NewBox(b, 24, 24, 0)
		}
		b.SetPosition(cp.Vector{X: x, Y: y})
		sh.SetFriction(0.6)
		sh.SetElasticity(0.3)
		s.space.AddBody(b)
		s.space.AddShape(sh)
		cs := []donburi.IComponentType{components.TransformC, components.BodyC, components.ShapeC, gfx.SpriteC}
		if i%3 == 0 {
			cs = append(cs, components.AgentC)
		}
		e := s.world.Create(cs...)
		b.UserData, sh.UserData = e, e
		en := s.world.Entry(e)
		*components.TransformC.Get(en) = components.NewTransform(components.Pose{X: x, Y: y})
		components.BodyC.Get(en).Body = b
		components.ShapeC.Get(en).Shapes = []*cp.Shape{sh}
		*gfx.SpriteC.Get(en) = gfx.Sprite{Image: frame(i), Atlas: sceneAtlas, OriginX: 8, OriginY: 8}
		if i%3 == 0 {
			*components.AgentC.Get(en) = components.NewAgent(80, 400)
		}
	}
	s.score = s.world.Create(ScoreC)
	*ScoreC.Get(s.world.Entry(s.score)) = Score{Name: "bin", ByKind: map[string]int{}}

	PushedEvent.Subscribe(s.world, func(w donburi.World, ev Pushed) {
		ScoreC.Get(w.Entry(s.score)).ByKind["pushed"]++
	})
	s.sched = engine.NewScheduler(s.world, engine.Group{Name: "physics", Hz: 60}, engine.Group{Name: "ai", Hz: 10})
	s.sched.AddUpdate(0, "physics", s.physics)
	s.sched.AddUpdate(1, "ai", s.ai)
	return s
}

// physics steps the space and copies the bodies' poses into the transforms.
func (s *testScene) physics(w donburi.World, ev engine.Event) {
	PushedEvent.ProcessEvents(w)
	s.space.Step(ev.DT)
	s.bodies.Each(w, func(e *donburi.Entry) {
		b := components.BodyC.Get(e).Body
		p := b.Position()
		components.TransformC.Get(e).Set(components.Pose{X: p.X, Y: p.Y, Angle: b.Angle()})
	})
}

// ai pushes each agent a random way, switches its sprite's frame and counts
// it in the score.
func (s *testScene) ai(w donburi.World, ev engine.Event) {
	sc := ScoreC.Get(w.Entry(s.score))
	s.agents.Each(w, func(e *donburi.Entry) {
		a := components.AgentC.Get(e)
		a.Desired = cp.Vector{X: s.rng.Float64()*160 - 80, Y: -s.rng.Float64() * 120}
		a.State = components.AgentState(ev.Tick % 4)
		components.BodyC.Get(e).Body.SetVelocityVector(a.Desired)
		gfx.SpriteC.Get(e).Image = frame(int(ev.Tick) + int(e.Id()))
		PushedEvent.Publish(w, Pushed{Agent: e.Entity(), Speed: a.Desired.Length()})
		sc.Points++
		sc.ByKind[a.State.String()]++
	})
	sc.History = append(sc.History, sc.Points)
}

// sceneState runs the scene at fps virtual frames per second until its
// physics tick `tick`, and returns the state right after that tick: its
// sum, its per-component sums and its dump.
func sceneState(t testing.TB, fps float64, tick int64) (uint64, []state.ComponentSum, []byte) {
	t.Helper()
	s := newTestScene(7)
	loop, err := engine.NewHeadlessLoop(engine.Config{}, &engine.Headless{FPS: fps, Clock: engine.NewManualClock(0)}, nil)
	if err != nil {
		t.Fatal(err)
	}
	h := state.NewHasher(nil)
	for ev := range loop.Events(s.sched.Groups()...) {
		s.sched.Handle(ev)
		if ev.Kind == engine.Update && ev.Group == 0 && ev.Tick == tick {
			sum := h.Sum(s.world)
			sums := append([]state.ComponentSum(nil), h.ComponentSums()...)
			var dump bytes.Buffer
			if err := h.Dump(s.world, &dump); err != nil {
				t.Fatal(err)
			}
			return sum, sums, dump.Bytes()
		}
	}
	t.Fatalf("the loop ended before physics tick %d: %v", tick, loop.Err())
	return 0, nil, nil
}
