package stage

import (
	"image/color"

	"github.com/fixedstep/fixedstep/assets"
	"github.com/fixedstep/fixedstep/engine"
	"github.com/fixedstep/fixedstep/engine/window"
	"github.com/fixedstep/fixedstep/systems/devtools"
	"github.com/fixedstep/fixedstep/systems/physics"
	"github.com/fixedstep/fixedstep/systems/render"
	"github.com/fixedstep/fixedstep/systems/stage/core"
	"github.com/fixedstep/fixedstep/third_party/donburi"
)

// Stage is what a scene is built on: its simulation (a core.Stage: a
// world, a scheduler over it, the physics), the asset bundle, the overlay
// and the dev keys, made when the scene starts,
// and released when it ends, with a check of what was left. A scene's Run
// makes one, adds its entities and systems, and runs it:
//
//	func (p *Play) Run(loop *engine.Loop) (engine.Scene, error) {
//		st, err := stage.New(loop, stage.Options{
//			Groups:  []engine.Group{{Name: "physics", Hz: 60}, {Name: "ai", Hz: 10}},
//			Physics: &physics.Config{},
//		})
//		if err != nil {
//			return nil, err
//		}
//		defer st.Release()
//		// ... entities, and systems added to st.Sched; a rule ends the scene:
//		st.Sched.AddUpdate(0, "rules", func(w donburi.World, ev engine.Event) {
//			if p.lives == 0 {
//				st.End(&GameOver{}) // the next scene, after this tick
//			}
//		})
//		return st.Run()
//	}
//
// Run gives the loop the world's state checksum (by default a
// state.Hasher over every component of every entity: see
// Options.Checksum), so that recordings check the state tick by tick
// and replays say where it first differs. What a scene keeps outside the
// world (a score in a field of its struct, a menu's choice) is not in it:
// keep game state in components, so that replays check it and dumps show it,
// or give it to [Keep].
type Stage struct {
	// The simulation: Loop, World, Sched, Physics, State, End, Ended, Run.
	// A scene whose simulation is built on it runs the same without a
	// window (a server's match, a bot).
	*core.Stage

	Bundle  *assets.Bundle
	Overlay *devtools.Overlay // hidden at first; F3 shows it (see devtools.Keys)
	Keys    *devtools.Keys    // nil with Options.NoDevKeys
	// Inspector shows a picked entity's components; hidden at first, F4
	// shows it (see devtools.Keys).
	Inspector *devtools.Inspector

	opts      Options
	released  bool
	recolored recolorCache // SeatSprite's and RecolorSprite's
}

// Options configure a [Stage]. The zero value is one 60 Hz group named
// "update", the default assets, the dev keys, a hidden overlay and the
// default state checksum.
type Options struct {
	// Groups are the scene's update groups (see engine.Group).
	Groups []engine.Group

	// Assets loads the scene's bundle; nil means assets.LoadDefault (the
	// embedded atlas and font).
	Assets func() (*assets.Bundle, error)

	// Physics, if set, gives the stage a Physics system over its world
	// (Stage.Physics) with this configuration; its Loop is set to the
	// stage's loop, so that a bad body ends the run with its error. Add
	// Physics.Update to the group that steps it.
	Physics *physics.Config

	// NoDevKeys leaves out the dev keys (F3, F4, P, period, [ and ], F11, F12).
	NoDevKeys bool

	// Overlay configures the overlay; nil: the defaults, hidden at first.
	Overlay *devtools.OverlayOptions

	// Background, if set, fills the screen before anything is drawn (a
	// render system in the lowest layer, by render.Fill); nil leaves that
	// to the scene.
	Background color.Color

	// Checksum, if set, replaces the default state checksum that recordings
	// store and replays compare (see engine.Recording.SetChecksum): a
	// state.Hasher over every component of the world (Stage.State).
	Checksum func() uint64

	// Ignore leaves component types out of the default checksum: state that
	// is presentation only (an animation's frame, a particle), which may
	// differ between runs without the game differing. A window whose
	// checksums must equal those of its simulation run without graphics (a
	// server's) ignores gfx.SpriteC, and adds no entities of its own: an
	// entity counts by its id and its other components (a decoration of
	// SpawnSprite has a Transform), so the simulation spawns such entities
	// itself, with a look only when dressed (as the Arena's wall tiles).
	Ignore []donburi.IComponentType

	// OnRelease, if set, is told what Release found left.
	OnRelease func(Leftovers)
}

// FromCore returns the Options of a stage whose simulation is made with c
// (its groups, physics, checksum and ignored types), the window's other
// settings at their defaults: a game builds the same simulation on a
// core.Stage where there is no window (a server) and on a Stage in one.
func FromCore(c core.Options) Options {
	return Options{Groups: c.Groups, Physics: c.Physics, Checksum: c.Checksum, Ignore: c.Ignore}
}

// Leftovers is what a stage still held after releasing: all zero, and the
// bundle released, when it released everything.
type Leftovers struct {
	Entities, Bodies int
	BundleReleased   bool
}

// New makes a stage on loop: the simulation (core.New: the world, the
// scheduler with the groups, the physics, the state checksum), the bundle,
// the overlay (its render system in layer devtools.OverlayLayer), the
// inspector (an input system and a render system in layer InspectorLayer)
// and the dev keys (an input system). Release it when the scene ends
// (defer st.Release()).
func New(loop *engine.Loop, opts Options) (*Stage, error) {
	load := opts.Assets
	if load == nil {
		load = assets.LoadDefault
	}
	b, err := load()
	if err != nil {
		return nil, err
	}
	c := core.New(loop, core.Options{Groups: opts.Groups, Physics: opts.Physics, Checksum: opts.Checksum, Ignore: opts.Ignore})
	s := &Stage{Stage: c, Bundle: b, opts: opts}
	s.nameAssets()
	ov := opts.Overlay
	if ov == nil {
		ov = &devtools.OverlayOptions{Hidden: true}
	}
	s.Overlay = devtools.NewOverlay(loop, s.Sched, ov)
	s.Sched.AddRender(devtools.OverlayLayer, "overlay", s.Overlay.Draw)
	if bg := opts.Background; bg != nil {
		s.Sched.AddRender(devtools.BackgroundLayer, "background", func(_ donburi.World, ev engine.Event) {
			if screen := window.Screen(ev); screen != nil {
				render.Fill(screen, bg)
			}
		})
	}
	if !opts.NoDevKeys {
		s.Keys = devtools.NewKeys(loop, s.Overlay)
		s.Sched.AddInput("devkeys", s.Keys.Input)
	}
	s.Inspector = devtools.NewInspector(loop, s.Sched, s.Physics, nil)
	s.Inspector.Avoid(s.Overlay)
	s.Sched.AddInput("inspector", s.Inspector.Input).AddRender(devtools.InspectorLayer, "inspector", s.Inspector.Draw)
	if s.Keys != nil {
		s.Keys.Inspector = s.Inspector
	}
	devtools.CarryOver(loop, s.Overlay, s.Inspector) // a step back's re-run: the view as it was
	return s, nil
}

// Release removes every entity (their bodies, shapes and constraints leave
// the space) and frees the bundle's images, then checks what is left,
// reports it to Options.OnRelease, and returns it. A second call does
// nothing.
func (s *Stage) Release() Leftovers {
	if s.released {
		return s.leftovers(s.Stage.Release())
	}
	s.released = true
	c := s.Stage.Release()
	s.Bundle.Deallocate()
	s.releaseRecolored()
	left := s.leftovers(c)
	if s.opts.OnRelease != nil {
		s.opts.OnRelease(left)
	}
	return left
}

func (s *Stage) leftovers(c core.Leftovers) Leftovers {
	return Leftovers{Entities: c.Entities, Bodies: c.Bodies, BundleReleased: s.Bundle.Released()}
}

// Keep adds *p to the state the stage saves and restores with its world
// (core.Keep): the game's state, which its update systems change. Not a
// tick-input source's (an autopilot's random source): a rollback puts
// back what is kept without asking the source again, so the stage refuses
// a source that changes a kept value, naming both (see core.Keep).
func Keep[T any](s *Stage, p *T) { core.Keep(s.Stage, p) }

// KeepSlice is Keep for a slice the scene changes in place (core.KeepSlice).
func KeepSlice[E any](s *Stage, p *[]E) { core.KeepSlice(s.Stage, p) }

// Name gives an asset of the scene a name by which the state as bytes
// writes a pointer to it (core.Name): an image or a clip of the game's
// own that a component points to. The bundle's sprites are named already;
// NameSheet names a sheet's frames and clips.
func Name[T any](s *Stage, name string, v *T) { core.Name(s.Stage, name, v) }
