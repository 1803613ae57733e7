package scenes

import (
	"fmt"
	"image/color"
	"math/rand/v2"
	"time"

	"github.com/hajimehoshi/ebiten/v2"
	"github.com/jakecoffman/cp/v2"
	"github.com/yohamta/donburi"
	"github.com/yohamta/donburi/filter"

	"github.com/fixedstep/fixedstep/assets"
	"github.com/fixedstep/fixedstep/components"
	"github.com/fixedstep/fixedstep/engine"
	"github.com/fixedstep/fixedstep/systems"
)

// Stress is the interactive per-system benchmark: N balls poured into a bin
// (+ and - add or remove 100 live), with the overlay's per-system timings on.
type Stress struct {
	opts   *Options
	st     *systems.Stage
	rng    *rand.Rand
	render *systems.Render
	balls  *donburi.Query
	want   int
	quit   bool // Esc: back to the Title
	img    *ebiten.Image
	limit  time.Duration
}

// Name names the scene.
func (s *Stress) Name() string { return "Stress" }

// Run runs the stress test until Esc (back to the Title; read on a tick) or,
// with Options.Seconds, that much game time.
func (s *Stress) Run(loop *engine.Loop) (engine.Scene, error) {
	st, err := newStage(loop, s.Name(), s.opts, systems.StageOptions{
		Groups:  []engine.Group{{Name: "physics", Hz: 60}},
		Physics: &systems.PhysicsConfig{Gravity: cp.Vector{Y: 300}, NoCollisionEvents: true},
	})
	if err != nil {
		return nil, err
	}
	defer st.Release()
	s.st = st
	s.build()
	next, err := st.Run()
	if err != nil || s.quit || loop.Rewinding() {
		return next, err
	}
	bodies, _ := st.Physics.Bodies()
	report(s.opts.Out, s.Name(), st, fmt.Sprintf("bodies %d", bodies))
	return next, nil
}

func (s *Stress) build() {
	s.rng = rand.New(rand.NewPCG(s.opts.Seed, 4))
	s.want = s.opts.Bodies
	s.limit = time.Duration(s.opts.Seconds * float64(time.Second))
	bin := cp.NewStaticBody()
	pts := []cp.Vector{{X: 20, Y: 40}, {X: 20, Y: 520}, {X: 940, Y: 520}, {X: 940, Y: 40}}
	var walls []*cp.Shape
	for i := 0; i+1 < len(pts); i++ {
		w := cp.NewSegment(bin, pts[i], pts[i+1], 6)
		w.SetFriction(0.7)
		walls = append(walls, w)
	}
	s.st.Physics.Spawn(bin, walls)
	s.img = s.st.Bundle.MustSprite(assets.SpriteBall)
	s.balls = donburi.NewQuery(filter.Contains(components.SpriteC, components.BodyC))
	s.render = systems.NewRender(s.st.World)
	s.st.Overlay.SetVisible(true)
	s.st.Sched.AddUpdate(0, "spawn", s.spawn).
		AddUpdate(0, "physics", s.st.Physics.Update).
		AddRender(0, "clear", func(_ donburi.World, ev engine.Event) {
			if ev.Screen != nil {
				ev.Screen.Fill(color.RGBA{20, 24, 30, 255})
			}
		}).
		AddRender(1, "sprites", s.render.Draw)
}

// spawn adds or removes up to 20 balls a tick towards the wanted count, and
// takes + and - (100 more or fewer) from the tick's input.
func (s *Stress) spawn(w donburi.World, ev engine.Event) {
	if ev.Input.KeyPressed(ebiten.KeyEqual) || ev.Input.KeyPressed(ebiten.KeyNumpadAdd) {
		s.want += 100
	}
	if ev.Input.KeyPressed(ebiten.KeyMinus) || ev.Input.KeyPressed(ebiten.KeyNumpadSubtract) {
		s.want = max(s.want-100, 0)
	}
	if ev.Input.KeyPressed(ebiten.KeyEscape) {
		s.quit = true
		s.st.End(&Title{opts: s.opts})
		return
	}
	if s.limit > 0 && ev.Time >= s.limit {
		s.st.End(nil)
	}
	n := s.balls.Count(w)
	for i := 0; i < 20 && n < s.want; i, n = i+1, n+1 {
		r := 5 + s.rng.Float64()*4
		b := cp.NewBody(r*r/25, cp.MomentForCircle(r*r/25, 0, r, cp.Vector{}))
		b.SetPosition(cp.Vector{X: 60 + s.rng.Float64()*840, Y: 60 + s.rng.Float64()*100})
		sh := cp.NewCircle(b, r, cp.Vector{})
		sh.SetFriction(0.7)
		sh.SetElasticity(0.2)
		e := w.Entry(s.st.Physics.Spawn(b, []*cp.Shape{sh}, components.SpriteC))
		components.SpriteC.SetValue(e, components.Sprite{Image: s.img, OriginX: 16, OriginY: 16, ScaleX: r / 12, ScaleY: r / 12})
	}
	if n > s.want {
		var extra []donburi.Entity
		for e := range s.balls.Iter(w) {
			if len(extra) >= n-s.want || len(extra) >= 20 {
				break
			}
			extra = append(extra, e.Entity())
		}
		for _, e := range extra { // collect, then change: no structural change during a query
			w.Remove(e)
		}
	}
}
