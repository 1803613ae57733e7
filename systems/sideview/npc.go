package sideview

import (
	"math"

	"github.com/fixedstep/fixedstep/components"
	"github.com/fixedstep/fixedstep/components/gfx"
	"github.com/fixedstep/fixedstep/engine"
	"github.com/fixedstep/fixedstep/systems/anim"
	"github.com/fixedstep/fixedstep/systems/physics"
	"github.com/fixedstep/fixedstep/third_party/cp"
	"github.com/fixedstep/fixedstep/third_party/donburi"
	"github.com/fixedstep/fixedstep/third_party/donburi/filter"
)

// Patrol makes a character walk by itself, the platform games' enemy: it
// walks Dir (-1 left, 1 right) and turns at a wall, and, with Ledges, at a
// ledge (no ground a step ahead). The Controller drives an entity with a
// Patrol from it rather than from the input; Dir is its state.
type Patrol struct {
	Dir    float64
	Ledges bool
}

// PatrolC is the component of a patrolling character.
var PatrolC = donburi.NewComponentType[Patrol]()

// patrol returns the commands of a patrolling character, turning it at a
// wall or a ledge.
func (ctl *Controller) patrol(e *donburi.Entry, c *Character) Controls {
	pt := PatrolC.Get(e)
	if pt.Dir == 0 {
		pt.Dir = 1
	}
	switch {
	case float64(c.WallNormal.X*pt.Dir) < 0: // a wall ahead: its normal points back
		pt.Dir = -pt.Dir
	case pt.Ledges && c.OnGround && ctl.Physics != nil && Ahead(ctl.Physics, e.World, e.Entity(), pt.Dir, 0).Gap:
		pt.Dir = -pt.Dir
	}
	return Controls{Move: pt.Dir}
}

// Looks are a character's clips: what it shows standing, running and in
// the air (Jump; Fall when falling, if set), turned the way it runs
// (its Sprite's ScaleX, when Flip).
type Looks struct {
	Idle, Run, Jump, Fall *anim.Clip
	Flip                  bool
}

// LooksC is the component of a character's clips.
var LooksC = donburi.NewComponentType[Looks]()

// LooksSystem plays each character's clip from what it does, once a tick:
// schedule it after the physics, before anim.System.
type LooksSystem struct {
	chars *donburi.Query
}

// NewLooksSystem returns the looks system.
func NewLooksSystem() *LooksSystem {
	return &LooksSystem{chars: donburi.NewQuery(filter.Contains(CharacterC, LooksC, anim.AnimationC, gfx.SpriteC, components.BodyC))}
}

// Update picks every character's clip: in the air Jump (Fall when falling
// and set), running Run, else Idle; a clip not set is left as it is. It
// allocates nothing.
func (s *LooksSystem) Update(w donburi.World, _ engine.Event) {
	for e := range s.chars.Iter(w) {
		c, l := CharacterC.Get(e), LooksC.Get(e)
		v := components.BodyC.Get(e).Body.Velocity().Sub(c.GroundVel)
		clip := l.Idle
		switch {
		case !c.OnGround && v.Y > 0 && l.Fall != nil:
			clip = l.Fall
		case !c.OnGround:
			clip = l.Jump
		case math.Abs(v.X) > 20:
			clip = l.Run
		}
		if clip != nil {
			anim.Play(e, clip)
		}
		if l.Flip && math.Abs(v.X) > 20 {
			sp := gfx.SpriteC.Get(e)
			sp.ScaleX = math.Copysign(math.Abs(sp.ScaleX), v.X)
			if sp.ScaleX == 0 {
				sp.ScaleX = math.Copysign(1, v.X)
			}
		}
	}
}

// Sight is what a character sees ahead of it (see Ahead).
type Sight struct {
	Gap  bool        // no ground a step ahead of its feet
	Wall bool        // a shape across its way within reach: Hit says which
	Hit  physics.Hit // the shape across its way, with Wall
}

// Ahead looks ahead of character e (a Shape's entity) in direction dir
// (-1 left, 1 right): for ground under the step ahead of its feet, and for
// a shape across its way within reach units of its side, at the height of
// its middle (a wall, a crate, another character; not a sensor). Patrols
// and autopilots decide with it. It allocates nothing.
func Ahead(phys *physics.Physics, w donburi.World, e donburi.Entity, dir, reach float64) Sight {
	var s Sight
	if !w.Valid(e) || !w.Entry(e).HasComponent(components.ShapeC) {
		return s
	}
	bb := components.ShapeC.Get(w.Entry(e)).Shapes[0].BB()
	mid := cp.Vector{X: (bb.L + bb.R) / 2, Y: (bb.T + bb.B) / 2}
	half, feet := (bb.R-bb.L)/2, math.Max(bb.T, bb.B)
	skip := &physics.QueryFilter{Skip: e}
	_, ground := phys.QueryNearest(cp.Vector{X: mid.X + float64(dir*(half+2)), Y: feet + 2}, 1, skip)
	s.Gap = !ground
	s.Hit, s.Wall = phys.QuerySegmentFirst(cp.Vector{X: mid.X + float64(dir*half), Y: mid.Y}, cp.Vector{X: mid.X + float64(dir*(half+reach)), Y: mid.Y}, 0, skip)
	return s
}
