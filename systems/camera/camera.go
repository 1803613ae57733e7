// Package camera makes a camera entity and moves it after a target: a
// dead zone the target moves in freely, a look ahead along its velocity,
// smoothing, the view kept inside a level's bounds, and a shake that
// decays. The camera is an entity with a components.Camera and a
// components.Transform, as the render system and the inspector's picking
// expect (the render system interpolates it like any other), and its
// Follow component holds the rule and the state, so that a recording
// replays it and a step back restores it.
//
//	cam := camera.Spawn(st.World, components.Camera{Zoom: 2}, camera.Follow{
//		Target: player, DeadZone: cp.Vector{X: 40, Y: 30}, LookAhead: 0.25,
//		Smoothing: 8, Screen: cp.Vector{X: 640, Y: 360}, Min: cp.Vector{}, Max: levelSize,
//	})
//	st.Sched.AddUpdate(g, "camera", camera.NewSystem().Update) // after the physics
package camera

import (
	"math"

	"github.com/fixedstep/fixedstep/components"
	"github.com/fixedstep/fixedstep/engine"
	"github.com/fixedstep/fixedstep/engine/detmath"
	"github.com/fixedstep/fixedstep/third_party/cp"
	"github.com/fixedstep/fixedstep/third_party/donburi"
	"github.com/fixedstep/fixedstep/third_party/donburi/filter"
)

// Follow is how a camera follows its target, and where it is.
type Follow struct {
	Target donburi.Entity // followed while it is alive and has a Transform

	// DeadZone is the half-size of the box about the camera's centre in
	// which the target moves without the camera moving (world units).
	DeadZone cp.Vector
	// LookAhead, in seconds of the target's velocity (its Body's), moves
	// the point followed ahead of it.
	LookAhead float64
	// Smoothing is how fast the camera closes on where it should be: the
	// fraction 1-e^(-Smoothing·dt) of the way each tick. 0 goes there at once.
	Smoothing float64

	// View is the size of what the camera shows, in world units (the
	// game's screen size over the zoom). When Max is beyond Min, the view
	// stays within the box from Min to Max (a level's bounds); a level
	// smaller than the view is centred.
	View, Min, Max cp.Vector
	// Screen, with View zero, is the game's screen in pixels (its logical
	// screen, window.Options' ScreenWidth and ScreenHeight: the same in a
	// window and headless), and the view is Screen over the camera's
	// Zoom, followed as the zoom changes.
	Screen cp.Vector

	// Trauma, from 0 to 1, shakes the camera by up to MaxShake world units
	// times its square; it decays by ShakeDecay a second. Add to it (AddTrauma)
	// on a hit or an explosion.
	Trauma, MaxShake, ShakeDecay float64

	// Centre is where the camera looks before the shake (the system's
	// state).
	Centre cp.Vector
}

// FollowC is the component of a camera that follows.
var FollowC = donburi.NewComponentType[Follow]()

// AddTrauma adds t to the shake, up to 1.
func (f *Follow) AddTrauma(t float64) { f.Trauma = min(f.Trauma+t, 1) }

// Spawn creates a camera entity with cam, a Transform and f, centred on
// f's target when it has a Transform.
func Spawn(w donburi.World, cam components.Camera, f Follow) donburi.Entity {
	e := w.Create(components.CameraC, components.TransformC, FollowC)
	entry := w.Entry(e)
	if w.Valid(f.Target) && w.Entry(f.Target).HasComponent(components.TransformC) {
		p := components.TransformC.Get(w.Entry(f.Target)).Cur
		f.Centre = f.clamp(cp.Vector{X: p.X, Y: p.Y}, f.ViewAt(cam.Zoom))
	}
	components.CameraC.SetValue(entry, cam)
	components.TransformC.SetValue(entry, components.NewTransform(components.Pose{X: f.Centre.X, Y: f.Centre.Y}))
	FollowC.SetValue(entry, f)
	return e
}

// System moves every following camera, once a tick.
type System struct {
	cams *donburi.Query
}

// NewSystem returns the camera system. Schedule it after the physics, in
// the group the target moves in.
func NewSystem() *System {
	return &System{cams: donburi.NewQuery(filter.Contains(FollowC, components.TransformC))}
}

// Update moves each camera after its target for one tick. It allocates
// nothing.
func (s *System) Update(w donburi.World, ev engine.Event) {
	for e := range s.cams.Iter(w) {
		f := FollowC.Get(e)
		zoom := 1.0
		if e.HasComponent(components.CameraC) {
			zoom = components.CameraC.Get(e).Zoom
		}
		if w.Valid(f.Target) {
			if t := w.Entry(f.Target); t.HasComponent(components.TransformC) {
				f.follow(t, ev.DT, f.ViewAt(zoom))
			}
		}
		shake := f.shake(ev.Tick, ev.DT)
		components.TransformC.Get(e).Set(components.Pose{X: f.Centre.X + shake.X, Y: f.Centre.Y + shake.Y})
	}
}

// follow moves the centre: the point followed (the target, ahead along
// its velocity) kept in the dead zone, smoothed, clamped to the bounds.
func (f *Follow) follow(t *donburi.Entry, dt float64, view cp.Vector) {
	p := components.TransformC.Get(t).Cur
	aim := cp.Vector{X: p.X, Y: p.Y}
	if f.LookAhead != 0 && t.HasComponent(components.BodyC) {
		if b := components.BodyC.Get(t).Body; b != nil {
			aim = aim.Add(b.Velocity().Mult(f.LookAhead))
		}
	}
	want := f.Centre
	want.X = intoZone(want.X, aim.X, f.DeadZone.X)
	want.Y = intoZone(want.Y, aim.Y, f.DeadZone.Y)
	want = f.clamp(want, view)
	if f.Smoothing > 0 && dt > 0 {
		want = f.Centre.Lerp(want, 1-detmath.Exp(float64(-f.Smoothing*dt)))
	}
	f.Centre = f.clamp(want, view)
}

// intoZone moves centre the least that puts x within zone of it.
func intoZone(centre, x, zone float64) float64 {
	switch {
	case x > centre+zone:
		return x - zone
	case x < centre-zone:
		return x + zone
	}
	return centre
}

// ViewAt returns the size of what the camera shows at zoom, in world
// units: View when set, else Screen over the zoom's size (0 counts 1).
func (f *Follow) ViewAt(zoom float64) cp.Vector {
	if f.View != (cp.Vector{}) {
		return f.View
	}
	z := math.Abs(zoom)
	if z == 0 {
		z = 1
	}
	return cp.Vector{X: f.Screen.X / z, Y: f.Screen.Y / z}
}

// clamp keeps the view about c within the bounds.
func (f *Follow) clamp(c, view cp.Vector) cp.Vector {
	if !(f.Max.X > f.Min.X && f.Max.Y > f.Min.Y) {
		return c
	}
	return cp.Vector{X: clamp1(c.X, f.Min.X, f.Max.X, view.X/2), Y: clamp1(c.Y, f.Min.Y, f.Max.Y, view.Y/2)}
}

func clamp1(c, lo, hi, half float64) float64 {
	if hi-lo <= 2*half {
		return (lo + hi) / 2
	}
	return max(lo+half, min(c, hi-half))
}

// shake decays the trauma and returns this tick's offset: a direction and
// length from the tick alone (the same in a replay), scaled by MaxShake
// times the trauma squared.
func (f *Follow) shake(tick int64, dt float64) cp.Vector {
	if f.Trauma <= 0 || f.MaxShake == 0 {
		f.Trauma = 0
		return cp.Vector{}
	}
	amount := float64(f.MaxShake * f.Trauma * f.Trauma)
	f.Trauma = max(f.Trauma-float64(f.ShakeDecay*dt), 0)
	h := uint64(tick)*0x9e3779b97f4a7c15 ^ 0xbf58476d1ce4e5b9
	h ^= h >> 31
	x := float64(h&0xffff)/0xffff*2 - 1
	y := float64(h>>16&0xffff)/0xffff*2 - 1
	return cp.Vector{X: float64(x * amount), Y: float64(y * amount)}
}
