package sideview

import (
	"fmt"
	"math"

	"github.com/fixedstep/fixedstep/components"
	"github.com/fixedstep/fixedstep/engine"
	"github.com/fixedstep/fixedstep/engine/detmath"
	"github.com/fixedstep/fixedstep/systems/level"
	"github.com/fixedstep/fixedstep/third_party/cp"
	"github.com/fixedstep/fixedstep/third_party/donburi"
	"github.com/fixedstep/fixedstep/third_party/donburi/filter"
)

// Ease is how a mover speeds up and slows down between the ends of its
// path.
type Ease uint8

const (
	Linear Ease = iota // at one speed all the way
	Smooth             // speeding up from the start and slowing down to the end (smoothstep: 3u² - 2u³)
	Sine               // the same, along half a cosine: (1 - cos πu) / 2
)

// ParseEase returns the Ease named "linear" (or ""), "smooth" or "sine".
func ParseEase(s string) (Ease, error) {
	switch s {
	case "", "linear":
		return Linear, nil
	case "smooth":
		return Smooth, nil
	case "sine":
		return Sine, nil
	}
	return Linear, fmt.Errorf("sideview: easing %q: want linear, smooth or sine", s)
}

func (e Ease) at(u float64) float64 {
	switch e {
	case Smooth:
		return float64(float64(u*u) * (3 - float64(2*u)))
	case Sine:
		return 0.5 - float64(0.5*detmath.Cos(float64(math.Pi*u)))
	}
	return u
}

// Mover moves a kinematic body along a path, a moving platform or a lift:
// the MoverSystem sets its velocity every tick so that the step ends with
// its centre exactly where the path puts it at that tick's time (a
// character the controller carries on it moves with it, exactly, at any
// frame rate). Its clock counts ticks, so that a replay, a step back, a
// rollback and a save restore it with the world.
//
// It holds still, its clock stopped, while going on would squeeze a
// dynamic body against a static one (see Character.Crushed): it never
// pushes anything through the static ground, and goes on once the body has
// left (the game, told by Character.Crushed, moves it away or not).
type Mover struct {
	// Path is the points its centre passes, in world units; at least two.
	Path []cp.Vector
	// Period is the time, in seconds, from the first point to the last
	// (with Loop, round to the first again); it must be positive.
	Period float64
	Ease   Ease
	// Loop goes on from the last point to the first and round again;
	// false goes back along the path (ping-pong).
	Loop bool
	// Wait is how long, in seconds, it stands at each end (with Loop, at
	// the first point).
	Wait float64
	// Phase is where in its cycle it starts, in seconds.
	Phase float64

	// The system's state.
	Ticks   int64     // ticks it has moved: its clock, stopped while Blocked
	Want    cp.Vector // the velocity it wants this tick
	Blocked bool      // held still this tick: going on would squeeze a body against a static one
}

// MoverC is the component of a body moved along a path.
var MoverC = donburi.NewComponentType[Mover]()

// length returns the path's length (with Loop, closed).
func (m *Mover) length() float64 {
	l := 0.0
	for i := 1; i < len(m.Path); i++ {
		l += m.Path[i].Distance(m.Path[i-1])
	}
	if m.Loop {
		l += m.Path[0].Distance(m.Path[len(m.Path)-1])
	}
	return l
}

// At returns where the mover's centre is t seconds into its motion (Phase
// added): spawn its body at At(0). A path of fewer than two points, or a
// Period that is not positive, stays at its first point (or the origin).
func (m *Mover) At(t float64) cp.Vector {
	if len(m.Path) == 0 {
		return cp.Vector{}
	}
	if len(m.Path) < 2 || !(m.Period > 0) {
		return m.Path[0]
	}
	wait := max(m.Wait, 0)
	cycle := m.Period + wait
	if !m.Loop {
		cycle = 2 * cycle
	}
	t = detmath.Mod(t+m.Phase, cycle)
	if t < 0 {
		t += cycle
	}
	var u float64 // how far along the path, 0 to 1
	switch {
	case t < wait:
		u = 0
	case t < wait+m.Period:
		u = m.Ease.at((t - wait) / m.Period)
	case m.Loop:
		u = 0
	case t < wait+m.Period+wait:
		u = 1
	default:
		u = 1 - m.Ease.at((t-wait-m.Period-wait)/m.Period)
	}
	s := float64(u * m.length())
	n := len(m.Path)
	legs := n - 1
	if m.Loop {
		legs = n
	}
	for i := range legs {
		a, b := m.Path[i], m.Path[(i+1)%n]
		d := a.Distance(b)
		if s <= d || i == legs-1 {
			if d == 0 {
				return a
			}
			f := min(s/d, 1)
			return cp.Vector{X: a.X + float64((b.X-a.X)*f), Y: a.Y + float64((b.Y-a.Y)*f)}
		}
		s -= d
	}
	return m.Path[0]
}

// MoverFrom reads a mover from a level object (a platform's rectangle, or
// any object with a place) and its properties, as Tiled writes them:
//
//   - path, an object reference to a polyline (or a polygon, which loops):
//     the route, moved so that it starts at the object's centre; or
//   - dx and dy, floats: from the object's centre to that far from it and
//     back;
//   - period, a float: seconds from one end to the other (4);
//   - easing, a string: linear (the default), smooth or sine;
//   - loop, a bool: round and round rather than back and forth (a
//     polygon's default);
//   - wait, a float: seconds at each end (0); phase, a float: seconds into
//     the cycle at the start (0).
//
// Errors name the object and the property.
func MoverFrom(lv *level.Level, o level.Object) (Mover, error) {
	centre := cp.Vector{X: o.X + o.Width/2, Y: o.Y + o.Height/2}
	m := Mover{Path: []cp.Vector{centre}}
	route, ok, err := lv.Ref(o, "path")
	if err != nil {
		return m, err
	}
	if ok {
		if len(route.Points) < 2 {
			return m, fmt.Errorf("sideview: %s: its path, %s, is not a polyline or polygon of two points or more", o.Owner, route.Owner)
		}
		m.Path = m.Path[:0]
		for _, p := range route.Points {
			m.Path = append(m.Path, centre.Add(p.Sub(route.Points[0])))
		}
		m.Loop = route.Closed
	} else {
		dx, err1 := o.Float("dx", 0)
		dy, err2 := o.Float("dy", 0)
		if err := firstErr(err1, err2); err != nil {
			return m, err
		}
		m.Path = append(m.Path, centre.Add(cp.Vector{X: dx, Y: dy}))
	}
	ease := o.String("easing", "linear")
	var err3, err4, err5, err6, err7 error
	m.Period, err3 = o.Float("period", 4)
	m.Loop, err4 = o.Bool("loop", m.Loop)
	m.Wait, err5 = o.Float("wait", 0)
	m.Phase, err6 = o.Float("phase", 0)
	m.Ease, err7 = ParseEase(ease)
	if err7 != nil {
		err7 = fmt.Errorf("%s: property \"easing\": %w", o.Owner, err7)
	}
	if err := firstErr(err3, err4, err5, err6, err7); err != nil {
		return m, err
	}
	if !(m.Period > 0) || m.Wait < 0 || math.IsInf(m.Period+m.Wait+m.Phase, 0) {
		return m, fmt.Errorf("sideview: %s: period %v, wait %v, phase %v: want a positive period and no negative wait", o.Owner,
			m.Period, m.Wait, m.Phase)
	}
	return m, nil
}

func firstErr(errs ...error) error {
	for _, err := range errs {
		if err != nil {
			return err
		}
	}
	return nil
}

// MoverSystem moves every Mover's kinematic body (see Mover) and carries
// the characters standing on it. Schedule it in the physics group after
// the controller, which reads the platforms' velocities of the last step,
// and before the physics step:
//
//	st.Sched.AddUpdate(g, "controller", ctl.Update).
//		AddUpdate(g, "movers", sideview.NewMoverSystem().Update).
//		AddUpdate(g, "physics", st.Physics.Update)
type MoverSystem struct {
	movers *donburi.Query
}

// NewMoverSystem returns the mover system.
func NewMoverSystem() *MoverSystem {
	return &MoverSystem{movers: donburi.NewQuery(filter.Contains(MoverC, components.BodyC))}
}

// Update sets every mover's velocity for the coming step: from where its
// body is to where its path puts it at the end of the step, over the
// step's time. A character standing on it (Character.Ground) takes the
// change of its velocity too, so that it is carried exactly, whatever the
// platform's turns and easing. While going on would squeeze a dynamic body
// against a static one, the mover's velocity is zero and its clock stopped,
// and a character so squeezed is told (Character.Crushed). Bodies not
// kinematic are left alone. It allocates nothing.
func (s *MoverSystem) Update(w donburi.World, ev engine.Event) {
	if !(ev.DT > 0) {
		return
	}
	for e := range s.movers.Iter(w) {
		m := MoverC.Get(e)
		body := components.BodyC.Get(e).Body
		if body == nil || body.GetType() != cp.BODY_KINEMATIC {
			continue
		}
		next := m.At(float64(float64(m.Ticks+1) * ev.DT))
		p, old := body.Position(), body.Velocity()
		m.Want = cp.Vector{X: (next.X - p.X) / ev.DT, Y: (next.Y - p.Y) / ev.DT}
		m.Blocked = squeeze(w, e.Entity(), body, m.Want)
		v := m.Want
		if m.Blocked {
			v = cp.Vector{}
		} else {
			m.Ticks++
		}
		body.SetVelocityVector(v)
		if dv := v.Sub(old); dv != (cp.Vector{}) {
			carry(w, e.Entity(), body, dv)
		}
	}
}

// squeeze reports whether kinematic body k of entity e, moving at velocity
// v, would push a dynamic body it touched in the last step against a
// static one that body touched on its other side; a character so squeezed
// is told (Character.Crushed).
func squeeze(w donburi.World, e donburi.Entity, k *cp.Body, v cp.Vector) bool {
	found := false
	k.EachArbiter(func(arb *cp.Arbiter) {
		a, b := arb.Shapes()
		if a.Sensor() || b.Sensor() || b.Body().GetType() != cp.BODY_DYNAMIC {
			return
		}
		n := arb.Normal() // from k to the other body
		if !(v.Dot(n) > pushEpsilon) || !againstStatic(b.Body(), n) {
			return
		}
		found = true
		if c := characterOf(w, b.Body()); c != nil {
			c.Crushed, c.CrushedBy = true, e
		}
	})
	return found
}

// carry adds dv, the change of kinematic body k's velocity, to the
// characters standing on it (whose Ground is e) that are not taking off.
func carry(w donburi.World, e donburi.Entity, k *cp.Body, dv cp.Vector) {
	k.EachArbiter(func(arb *cp.Arbiter) {
		_, b := arb.Shapes()
		if c := characterOf(w, b.Body()); c != nil && c.OnGround && c.Ground == e && !c.Jumped {
			b.Body().SetVelocityVector(b.Body().Velocity().Add(dv))
		}
	})
}

// characterOf returns the Character of body's entity in w, or nil.
func characterOf(w donburi.World, body *cp.Body) *Character {
	if e, ok := body.UserData.(donburi.Entity); ok && w.Valid(e) {
		if entry := w.Entry(e); entry.HasComponent(CharacterC) {
			return CharacterC.Get(entry)
		}
	}
	return nil
}

// pushEpsilon is the speed, in units a second, into a body above which a
// kinematic body pushes it.
const pushEpsilon = 1e-6

// againstStatic reports whether body touched a static body in the last step
// on the side away from a push along n (the static body's normal towards it
// against n).
func againstStatic(body *cp.Body, n cp.Vector) bool {
	found := false
	body.EachArbiter(func(arb *cp.Arbiter) {
		a, other := arb.Shapes()
		if found || a.Sensor() || other.Sensor() || other.Body().GetType() != cp.BODY_STATIC {
			return
		}
		if arb.Normal().Neg().Dot(n) < -0.5 {
			found = true
		}
	})
	return found
}

// crusher returns the kinematic body, not a Mover's (the MoverSystem
// tells of those), that squeezed body against a static one in the last
// step, and true: one touching it, moving into it, with a static body
// touching it on the other side.
func crusher(w donburi.World, body *cp.Body) (*cp.Body, bool) {
	var by *cp.Body
	body.EachArbiter(func(arb *cp.Arbiter) {
		a, other := arb.Shapes()
		k := other.Body()
		if by != nil || a.Sensor() || other.Sensor() || k.GetType() != cp.BODY_KINEMATIC {
			return
		}
		if e, ok := k.UserData.(donburi.Entity); ok && w.Valid(e) && w.Entry(e).HasComponent(MoverC) {
			return
		}
		n := arb.Normal().Neg() // from k to body
		if k.Velocity().Dot(n) > pushEpsilon && againstStatic(body, n) {
			by = k
		}
	})
	return by, by != nil
}
