package scenes

import (
	"fmt"
	"image/color"
	"math"
	"math/rand/v2"
	"time"

	"github.com/hajimehoshi/ebiten/v2"

	"github.com/fixedstep/fixedstep/assets"
	"github.com/fixedstep/fixedstep/components"
	"github.com/fixedstep/fixedstep/components/gfx"
	"github.com/fixedstep/fixedstep/engine"
	"github.com/fixedstep/fixedstep/engine/input"
	"github.com/fixedstep/fixedstep/systems/physics"
	"github.com/fixedstep/fixedstep/systems/render"
	"github.com/fixedstep/fixedstep/systems/stage"
	"github.com/fixedstep/fixedstep/third_party/cp"
	"github.com/fixedstep/fixedstep/third_party/donburi"
	"github.com/fixedstep/fixedstep/third_party/donburi/filter"
)

// Stress is the interactive per-system benchmark: N balls poured into a bin
// (+ and - add or remove 100 live), with the overlay's per-system timings on
// and the space's settings shown under them. Up to 1,600 balls have radii
// of 5 to 9 px; for more, the balls are smaller, so that the pile still
// fits in the bin below the pour (see stressBallScale).
//
// Its space uses cp's spatial hash, with cells of about a ball's diameter,
// and puts the pile to sleep once it has rested for half a second (see
// StressPhysics, and BENCHMARKS.md for what each buys); Options.Physics
// replaces those settings.
type Stress struct {
	opts   *Options
	st     *stage.Stage
	rng    *rand.Rand
	render *render.Sprites
	balls  *donburi.Query
	want   int
	quit   bool // Esc: back to the Title
	img    *ebiten.Image
	limit  time.Duration
	config physics.Config // the space's settings, for the overlay
}

// Name names the scene.
func (s *Stress) Name() string { return "Stress" }

// Run runs the stress test until Esc (back to the Title; read on a tick) or,
// with Options.Seconds, that much game time.
func (s *Stress) Run(loop *engine.Loop) (engine.Scene, error) {
	s.config = StressPhysics(s.opts.Bodies)
	if s.opts.Physics != nil {
		s.config = *s.opts.Physics
	}
	st, err := newStage(loop, s.Name(), s.opts, stage.Options{
		Groups:     []engine.Group{{Name: "physics", Hz: 60}},
		Physics:    &s.config,
		Background: color.RGBA{20, 24, 30, 255},
	})
	if err != nil {
		return nil, err
	}
	defer st.Release()
	s.st = st
	s.build()
	next, err := st.Run()
	if err != nil || s.quit || loop.Rewinder().Active() {
		return next, err
	}
	bodies, _ := st.Physics.Bodies()
	report(s.opts.Out, s.Name(), st, fmt.Sprintf("bodies %d", bodies))
	return next, nil
}

func (s *Stress) build() {
	pcg := rand.NewPCG(s.opts.Seed, 4)
	s.rng = rand.New(pcg)
	s.want = s.opts.Bodies
	// The scene's state outside the world, saved with it (-synctest).
	stage.Keep(s.st, pcg)
	stage.Keep(s.st, &s.want)
	stage.Keep(s.st, &s.quit)
	s.limit = time.Duration(s.opts.Seconds * float64(time.Second)) //detcheck:ok in [0, MaxSeconds]: Options.Validate
	s.st.Physics.Spawn(stressBin())
	s.img = s.st.Bundle.MustSprite(assets.SpriteBall)
	s.balls = donburi.NewQuery(filter.Contains(gfx.SpriteC, components.BodyC))
	s.render = render.New(s.st.World)
	s.st.Overlay.SetVisible(true)
	s.st.Overlay.AddLines(s.overlayLines)
	s.st.Sched.AddUpdate(0, "spawn", s.spawn).
		AddUpdate(0, "physics", s.st.Physics.Update).
		AddRender(1, "sprites", s.render.Draw)
}

// spawn adds or removes up to 20 balls a tick towards the wanted count, and
// takes + and - (100 more or fewer) from the tick's input.
func (s *Stress) spawn(w donburi.World, ev engine.Event) {
	if ev.Input.KeyPressed(input.KeyEqual) || ev.Input.KeyPressed(input.KeyNumpadAdd) {
		s.want += 100
	}
	if ev.Input.KeyPressed(input.KeyMinus) || ev.Input.KeyPressed(input.KeyNumpadSubtract) {
		s.want = max(s.want-100, 0)
	}
	if ev.Input.KeyPressed(input.KeyEscape) {
		s.quit = true
		s.st.End(&Title{opts: s.opts})
		return
	}
	if s.limit > 0 && ev.Time >= s.limit {
		s.st.End(nil)
	}
	n := s.balls.Count(w)
	for i := 0; i < stressPour && n < s.want; i, n = i+1, n+1 {
		b, sh, r := stressBall(s.rng, s.want)
		e := w.Entry(s.st.Physics.Spawn(b, []*cp.Shape{sh}, gfx.SpriteC))
		gfx.SpriteC.SetValue(e, gfx.Sprite{Image: s.img, OriginX: 16, OriginY: 16, ScaleX: r / 12, ScaleY: r / 12})
	}
	if n > s.want {
		var extra []donburi.Entity
		for e := range s.balls.Iter(w) {
			if len(extra) >= n-s.want || len(extra) >= stressPour {
				break
			}
			extra = append(extra, e.Entity())
		}
		for _, e := range extra { // collect, then change: no structural change during a query
			w.Remove(e)
		}
	}
}

// stressPour is how many balls the Stress scene adds (or removes) per tick
// until it has the count it wants.
const stressPour = 20

// stressBin is the Stress scene's bin: a static body with three walls (left,
// floor, right), open at the top, 920 x 480 px inside.
func stressBin() (*cp.Body, []*cp.Shape) {
	bin := cp.NewStaticBody()
	pts := []cp.Vector{{X: 20, Y: 40}, {X: 20, Y: 520}, {X: 940, Y: 520}, {X: 940, Y: 40}}
	var walls []*cp.Shape
	for i := 0; i+1 < len(pts); i++ {
		w := cp.NewSegment(bin, pts[i], pts[i+1], 6)
		w.SetFriction(0.7)
		walls = append(walls, w)
	}
	return bin, walls
}

// stressBallScale is the radius factor of the balls when the scene wants
// want of them: 1 up to 1,600 balls (a pile about 60% of the bin high, its
// top well below the pour), then sqrt(1600/want), so that the pile stays
// that high.
func stressBallScale(want int) float64 {
	if want <= 1600 {
		return 1
	}
	return math.Sqrt(1600 / float64(want))
}

// stressBall makes the next ball, not yet in a space, drawing from rng its
// radius (5 to 9 px, times stressBallScale(want)), then its position in the
// pour zone above the bin; mass grows with the area.
func stressBall(rng *rand.Rand, want int) (body *cp.Body, shape *cp.Shape, radius float64) {
	r := float64((5 + rng.Float64()*4) * stressBallScale(want))
	m := r * r / 25
	b := cp.NewBody(m, cp.MomentForCircle(m, 0, r, cp.Vector{}))
	b.SetPosition(cp.Vector{X: 60 + float64(rng.Float64()*840), Y: 60 + float64(rng.Float64()*100)})
	sh := cp.NewCircle(b, r, cp.Vector{})
	sh.SetFriction(0.7)
	sh.SetElasticity(0.2)
	return b, sh, r
}

// StressPhysics returns the Stress scene's space settings for want balls
// (what it uses unless Options.Physics says otherwise): gravity 300 px/s²
// down, no collision events (nothing in the scene reads them), cp's spatial
// hash with cells of the largest ball's diameter (20 px, times
// stressBallScale) and 10 cells per ball (cp's advice), and sleeping: a pile
// whose balls all move slower than 20 px/s for half a second sleeps. The
// default idle speed (gravity's step, 5 px/s here) is below the jitter of a
// resting pile, which then never sleeps. Iterations and the collision slop
// stay at cp's defaults. BenchmarkBodymark measures what each buys.
func StressPhysics(want int) physics.Config {
	return physics.Config{
		Gravity:            cp.Vector{Y: 300},
		NoCollisionEvents:  true,
		SpatialHashCell:    float64(20 * stressBallScale(want)),
		SpatialHashCells:   10 * max(want, 1000),
		SleepTimeThreshold: 0.5,
		IdleSpeedThreshold: 20,
	}
}

// overlayLines shows the space's settings and how many balls sleep.
func (s *Stress) overlayLines(b []byte) []byte {
	c := s.config
	b = append(b, "space: "...)
	if c.SpatialHashCell > 0 {
		b = fmt.Appendf(b, "hash %.1f px x %d", c.SpatialHashCell, c.SpatialHashCells)
	} else {
		b = append(b, "bb-tree"...)
	}
	iters := c.Iterations
	if iters == 0 {
		iters = 10
	}
	b = fmt.Appendf(b, "  iterations %d", iters)
	if c.CollisionSlop > 0 {
		b = fmt.Appendf(b, "  slop %g", c.CollisionSlop)
	}
	if c.SleepTimeThreshold > 0 {
		b = fmt.Appendf(b, "  sleep after %g s", c.SleepTimeThreshold)
		if c.IdleSpeedThreshold > 0 {
			b = fmt.Appendf(b, " under %g px/s", c.IdleSpeedThreshold)
		}
		b = fmt.Appendf(b, "\nasleep %d", s.st.Physics.Sleeping())
	} else {
		b = append(b, "  sleeping off"...)
	}
	return append(b, '\n')
}
