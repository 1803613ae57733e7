package scenes

import (
	"fmt"
	"image/color"
	"math"

	"github.com/hajimehoshi/ebiten/v2/ebitenutil"
	"github.com/hajimehoshi/ebiten/v2/vector"
	"github.com/yohamta/donburi"
	"github.com/yohamta/donburi/filter"

	"github.com/fixedstep/fixedstep/engine"
)

// Orbit is the second scene: squares orbiting the centre, moved by a 25 Hz
// group and recoloured by a 10 Hz group, drawn every frame between their last
// two states. At 25 Hz an uninterpolated square would visibly jump.
type Orbit struct {
	opts  *Options
	world donburi.World
	sched *engine.Scheduler
	query *donburi.Query
}

type orbiter struct {
	radius, speed float64 // px, rad/s
	prev, cur     float64 // angle at the last two ticks
	hue, prevHue  float64
	size          float32
}

var orbiterC = donburi.NewComponentType[orbiter]()

// Name names the scene in errors and summaries.
func (s *Orbit) Name() string { return "Orbit" }

// Run loads the scene, runs it and returns nil: the chain ends here.
func (s *Orbit) Run(loop *engine.Loop) (engine.Scene, error) {
	s.world = donburi.NewWorld()
	for i := range 8 {
		e := s.world.Entry(s.world.Create(orbiterC))
		orbiterC.SetValue(e, orbiter{radius: 40 + 28*float64(i), speed: 0.4 + 0.15*float64(i),
			size: float32(10 + i), hue: float64(i) / 8})
	}
	s.query = donburi.NewQuery(filter.Contains(orbiterC))
	s.sched = engine.NewScheduler(s.world, engine.Group{Name: "orbit", Hz: 25}, engine.Group{Name: "colour", Hz: 10})
	s.sched.AddUpdate(0, "orbit", s.orbit)
	s.sched.AddUpdate(1, "colour", s.colour)
	s.sched.AddRender(0, "orbiters", s.draw)
	for ev := range loop.Events(s.sched.Groups()...) {
		if sceneOver(loop, ev, s.opts) {
			break
		}
		s.sched.Handle(ev)
		if ev.Kind == engine.Render && s.opts.AfterRender != nil {
			s.opts.AfterRender(loop, ev)
		}
	}
	var state []float64
	for e := range s.query.Iter(s.world) {
		o := orbiterC.Get(e)
		state = append(state, o.cur, o.hue)
	}
	summary(s.opts, s.Name(), loop, state)
	return nil, loop.Err()
}

func (s *Orbit) orbit(w donburi.World, ev engine.Event) {
	for e := range s.query.Iter(w) {
		o := orbiterC.Get(e)
		o.prev, o.cur = o.cur, o.cur+o.speed*ev.DT
	}
}

func (s *Orbit) colour(w donburi.World, ev engine.Event) {
	for e := range s.query.Iter(w) {
		o := orbiterC.Get(e)
		o.hue = math.Mod(o.hue+0.02, 1)
	}
}

func (s *Orbit) draw(w donburi.World, ev engine.Event) {
	if ev.Screen == nil {
		return
	}
	ev.Screen.Fill(color.RGBA{24, 16, 32, 255})
	cx, cy := float64(ev.Screen.Bounds().Dx())/2, float64(ev.Screen.Bounds().Dy())/2
	for e := range s.query.Iter(w) {
		o := orbiterC.Get(e)
		a := o.prev + (o.cur-o.prev)*ev.Alpha
		x, y := cx+o.radius*math.Cos(a), cy+o.radius*math.Sin(a)
		vector.FillRect(ev.Screen, float32(x)-o.size/2, float32(y)-o.size/2, o.size, o.size, hueColor(o.hue), true)
	}
	ebitenutil.DebugPrintAt(ev.Screen, fmt.Sprintf("Orbit: 25 Hz and 10 Hz groups, alpha %.2f  (Esc: quit)", ev.Alpha), 8, 8)
}

// hueColor is a bright colour of hue h in [0, 1).
func hueColor(h float64) color.RGBA {
	c := func(off float64) uint8 { return uint8(127 + 127*math.Cos(2*math.Pi*(h+off))) }
	return color.RGBA{c(0), c(1.0 / 3), c(2.0 / 3), 255}
}
