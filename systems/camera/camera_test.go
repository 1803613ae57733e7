package camera_test

import (
	"image"
	"math"
	"testing"

	"github.com/fixedstep/fixedstep/components"
	"github.com/fixedstep/fixedstep/components/gfx"
	"github.com/fixedstep/fixedstep/engine"
	"github.com/fixedstep/fixedstep/systems/camera"
	"github.com/fixedstep/fixedstep/third_party/cp"
	"github.com/fixedstep/fixedstep/third_party/donburi"
)

type rig struct {
	w           donburi.World
	sys         *camera.System
	target, cam donburi.Entity
	tick        int64
}

func newRig(f camera.Follow, at cp.Vector) *rig {
	r := &rig{w: donburi.NewWorld(), sys: camera.NewSystem()}
	r.target = r.w.Create(components.TransformC)
	components.TransformC.SetValue(r.w.Entry(r.target), components.NewTransform(components.Pose{X: at.X, Y: at.Y}))
	f.Target = r.target
	r.cam = camera.Spawn(r.w, components.Camera{Zoom: 2}, f)
	return r
}

// moveTo puts the target at p and runs a tick.
func (r *rig) moveTo(p cp.Vector) {
	components.TransformC.Get(r.w.Entry(r.target)).Set(components.Pose{X: p.X, Y: p.Y})
	r.tick++
	r.sys.Update(r.w, engine.Event{Kind: engine.Update, DT: 1.0 / 60, Tick: r.tick})
}

func (r *rig) at() cp.Vector {
	p := components.TransformC.Get(r.w.Entry(r.cam)).Cur
	return cp.Vector{X: p.X, Y: p.Y}
}

func (r *rig) follow() *camera.Follow { return camera.FollowC.Get(r.w.Entry(r.cam)) }

// The target moves within the dead zone without moving the camera; past
// it, the camera keeps it on the zone's edge.
func TestDeadZone(t *testing.T) {
	r := newRig(camera.Follow{DeadZone: cp.Vector{X: 40, Y: 30}}, cp.Vector{X: 100, Y: 100})
	if r.at() != (cp.Vector{X: 100, Y: 100}) {
		t.Fatalf("spawned at %v, want on the target", r.at())
	}
	r.moveTo(cp.Vector{X: 135, Y: 75})
	if r.at() != (cp.Vector{X: 100, Y: 100}) {
		t.Errorf("target inside the dead zone: camera moved to %v", r.at())
	}
	r.moveTo(cp.Vector{X: 200, Y: 20})
	if r.at() != (cp.Vector{X: 160, Y: 50}) {
		t.Errorf("target past the dead zone at (200, 20): camera at %v, want (160, 50)", r.at())
	}
}

// The view stays within the level's bounds; a level narrower than the view
// is centred; smoothing closes part of the way each tick.
func TestBoundsAndSmoothing(t *testing.T) {
	f := camera.Follow{View: cp.Vector{X: 320, Y: 180}, Min: cp.Vector{}, Max: cp.Vector{X: 1000, Y: 150}}
	r := newRig(f, cp.Vector{X: 20, Y: 20})
	if r.at() != (cp.Vector{X: 160, Y: 75}) {
		t.Errorf("at the level's corner: camera at %v, want (160, 75) (x clamped, y centred: the level is lower than the view)", r.at())
	}
	r.moveTo(cp.Vector{X: 990, Y: 20})
	if r.at().X != 840 {
		t.Errorf("at the level's right end: camera x %v, want 840", r.at().X)
	}
	s := newRig(camera.Follow{Smoothing: 10}, cp.Vector{})
	s.moveTo(cp.Vector{X: 100})
	if want := 100 * (1 - math.Exp(-10.0/60)); math.Abs(s.at().X-want) > 1e-9 {
		t.Errorf("smoothed: %v after a tick, want %v", s.at().X, want)
	}
}

// With Screen and no View, the view is the screen over the camera's zoom,
// followed when the zoom changes: the bounds hold it as they would a View
// set by hand.
func TestViewFromScreenAndZoom(t *testing.T) {
	f := camera.Follow{Screen: cp.Vector{X: 640, Y: 360}, Max: cp.Vector{X: 1000, Y: 150}}
	if v := f.ViewAt(2); v != (cp.Vector{X: 320, Y: 180}) {
		t.Errorf("ViewAt(2): %v, want 320 x 180", v)
	}
	r := newRig(f, cp.Vector{X: 20, Y: 20}) // zoom 2: as TestBoundsAndSmoothing's View
	if r.at() != (cp.Vector{X: 160, Y: 75}) {
		t.Errorf("at the level's corner: camera at %v, want (160, 75)", r.at())
	}
	components.CameraC.Get(r.w.Entry(r.cam)).Zoom = 4 // 160 x 90 in view
	r.moveTo(cp.Vector{X: 20, Y: 20})
	if r.at() != (cp.Vector{X: 80, Y: 45}) {
		t.Errorf("zoomed to 4: camera at %v, want (80, 45)", r.at())
	}
}

// A shake moves the camera about its centre by up to MaxShake times the
// trauma squared, decays to nothing, and is the same for the same ticks.
func TestShake(t *testing.T) {
	run := func() []cp.Vector {
		r := newRig(camera.Follow{MaxShake: 8, ShakeDecay: 2}, cp.Vector{X: 50, Y: 50})
		r.follow().AddTrauma(0.7)
		r.follow().AddTrauma(0.7)
		var offs []cp.Vector
		for range 40 {
			r.moveTo(cp.Vector{X: 50, Y: 50})
			offs = append(offs, r.at().Sub(cp.Vector{X: 50, Y: 50}))
		}
		return offs
	}
	a, b := run(), run()
	moved := 0
	for i := range a {
		if a[i] != b[i] {
			t.Fatalf("tick %d: shaken by %v, then by %v", i+1, a[i], b[i])
		}
		if a[i].Length() > 8*math.Sqrt2 {
			t.Fatalf("tick %d: shaken by %v, more than MaxShake", i+1, a[i])
		}
		if a[i] != (cp.Vector{}) {
			moved++
		}
	}
	if moved < 20 || a[len(a)-1] != (cp.Vector{}) {
		t.Errorf("shaken on %d of 40 ticks, last offset %v: want a shake of half a second (trauma 1, decay 2/s), then still", moved, a[len(a)-1])
	}
}

// The camera is one the render system and picking use: the screen's centre
// maps back to where it looks.
func TestPickingThroughIt(t *testing.T) {
	r := newRig(camera.Follow{}, cp.Vector{X: 300, Y: 40})
	e := r.w.Entry(r.cam)
	g := gfx.View(components.CameraC.Get(e), components.TransformC.Get(e).At(0.5), image.Rect(0, 0, 640, 360))
	g.Invert()
	if x, y := g.Apply(320, 180); math.Abs(x-300) > 1e-9 || math.Abs(y-40) > 1e-9 {
		t.Errorf("the screen's centre maps to (%v, %v), want (300, 40)", x, y)
	}
}

// With a look ahead the camera follows a point ahead of the target along
// its body's velocity.
func TestLookAhead(t *testing.T) {
	r := newRig(camera.Follow{LookAhead: 0.5}, cp.Vector{})
	body := cp.NewBody(1, 1)
	body.SetVelocity(100, -20)
	r.w.Entry(r.target).AddComponent(components.BodyC)
	components.BodyC.SetValue(r.w.Entry(r.target), components.Body{Body: body})
	r.moveTo(cp.Vector{X: 10})
	if r.at() != (cp.Vector{X: 60, Y: -10}) {
		t.Errorf("target at (10, 0) moving (100, -20): camera at %v, want (60, -10)", r.at())
	}
}

// A tick of the camera system allocates nothing.
func TestCameraAllocatesNothing(t *testing.T) {
	r := newRig(camera.Follow{DeadZone: cp.Vector{X: 10}, LookAhead: 0.2, Smoothing: 5, MaxShake: 3, ShakeDecay: 1,
		View: cp.Vector{X: 100, Y: 100}, Max: cp.Vector{X: 1000, Y: 1000}}, cp.Vector{X: 500, Y: 500})
	r.follow().AddTrauma(1)
	ev := engine.Event{Kind: engine.Update, DT: 1.0 / 60, Tick: 1}
	if n := testing.AllocsPerRun(100, func() { r.sys.Update(r.w, ev) }); n != 0 {
		t.Errorf("the camera system allocates %v times a tick", n)
	}
}
