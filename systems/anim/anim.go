// Package anim plays sprite animations on ticks: a Clip is a run of frames
// (sub-images of an atlas or a sheet) with their durations; an entity's
// Animation component says which clip it plays and where in it it is, and
// the System, once a tick, moves it on and sets the entity's Sprite image.
// The state is the component's, so that a recording replays it and a step
// back restores it; the render system draws the frame at the sprite's
// interpolated pose, as any other.
//
//	run := anim.NewClip(0.08, true, frames...)    // 80 ms a frame, looping
//	st.Sched.AddUpdate(g, "anim", anim.NewSystem().Update)
//	anim.Play(entry, run)                          // from a system: what the character does now
//
// Frames come from the engine's atlas (Bundle.Sprite), from a grid of equal
// frames in a sheet (Grid), or from an Aseprite sheet and its JSON, one
// clip per tag (LoadAseprite).
package anim

import (
	"fmt"

	"github.com/hajimehoshi/ebiten/v2"

	"github.com/fixedstep/fixedstep/components/gfx"
	"github.com/fixedstep/fixedstep/engine"
	"github.com/fixedstep/fixedstep/third_party/donburi"
	"github.com/fixedstep/fixedstep/third_party/donburi/filter"
)

// Clip is an animation: its frames and how long each shows, in seconds.
// A clip is shared by the entities that play it and never changed.
type Clip struct {
	Name      string
	Frames    []*ebiten.Image
	Durations []float64 // one a frame
	Loop      bool      // start over after the last frame; else stay on it
}

// NewClip returns a clip of frames that each show for frameTime seconds.
// It panics on no frame or a frame time that is not positive.
func NewClip(frameTime float64, loop bool, frames ...*ebiten.Image) *Clip {
	if len(frames) == 0 || !(frameTime > 0) {
		panic(fmt.Sprintf("anim: NewClip: %d frames of %v s: want frames, and a positive time", len(frames), frameTime))
	}
	d := make([]float64, len(frames))
	for i := range d {
		d[i] = frameTime
	}
	return &Clip{Frames: frames, Durations: d, Loop: loop}
}

// Animation is what an entity plays and where in it it is.
type Animation struct {
	Clip    *Clip
	Frame   int     // the frame showing
	Elapsed float64 // seconds it has shown
	Done    bool    // a clip that does not loop has shown its last frame for its time
	Speed   float64 // how fast it plays; 0 means 1
}

// AnimationC is the component of an animated entity (with a
// gfx.Sprite whose image it sets).
var AnimationC = donburi.NewComponentType[Animation]()

// Play makes entity e (with an Animation and a Sprite) play clip from its
// first frame, unless it plays it already; it shows the frame at once.
func Play(e *donburi.Entry, clip *Clip) {
	a := AnimationC.Get(e)
	if a.Clip == clip {
		return
	}
	a.Clip, a.Frame, a.Elapsed, a.Done = clip, 0, 0, false
	show(e, a)
}

func show(e *donburi.Entry, a *Animation) {
	if a.Clip != nil && len(a.Clip.Frames) > 0 && e.HasComponent(gfx.SpriteC) {
		gfx.SpriteC.Get(e).Image = a.Clip.Frames[a.Frame]
	}
}

// System moves every animation on, once a tick.
type System struct {
	anims *donburi.Query
}

// NewSystem returns the animation system: schedule it in an update group
// (after the systems that choose the clips), not in the render phase, so
// that the frame shown depends on ticks only.
func NewSystem() *System {
	return &System{anims: donburi.NewQuery(filter.Contains(AnimationC, gfx.SpriteC))}
}

// Update moves each animation on by the tick's DT. It allocates nothing.
func (s *System) Update(w donburi.World, ev engine.Event) {
	for cols := range donburi.Columns2(s.anims, w, AnimationC, gfx.SpriteC) {
		anims, sprites := cols.A[:len(cols.Entities)], cols.B[:len(cols.Entities)]
		for i, e := range cols.Entities {
			if e.IsReady() {
				step(anims[i], sprites[i], ev.DT)
			}
		}
	}
}

// step moves animation a on by dt seconds and shows its frame in sprite.
func step(a *Animation, sprite *gfx.Sprite, dt float64) {
	if a.Clip == nil || len(a.Clip.Frames) == 0 || a.Done {
		return
	}
	speed := a.Speed
	if speed == 0 {
		speed = 1
	}
	a.Elapsed += float64(dt * speed)
	// Every frame shows for a positive time (NewClip, LoadAseprite):
	// a tick passes a frame or a few, and a long tick at most the clip.
	for steps := 0; a.Elapsed >= a.Clip.Durations[a.Frame] && !a.Done && steps <= len(a.Clip.Frames); steps++ {
		a.Elapsed -= a.Clip.Durations[a.Frame]
		switch {
		case a.Frame+1 < len(a.Clip.Frames):
			a.Frame++
		case a.Clip.Loop:
			a.Frame = 0
		default:
			a.Done = true
		}
	}
	sprite.Image = a.Clip.Frames[a.Frame]
}
