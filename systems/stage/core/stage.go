package core

import (
	"fmt"
	"io"

	"github.com/fixedstep/fixedstep/engine"
	"github.com/fixedstep/fixedstep/engine/input"
	"github.com/fixedstep/fixedstep/engine/state"
	"github.com/fixedstep/fixedstep/systems/physics"
	"github.com/fixedstep/fixedstep/third_party/donburi"
	"github.com/fixedstep/fixedstep/third_party/donburi/filter"
)

// Stage is a scene's simulation: a world, a scheduler over it and, when
// asked, the physics, made when the scene starts and released when it
// ends. A scene's Run makes one, adds its entities and update systems, and
// runs it:
//
//	func (p *Play) Run(loop *engine.Loop) (engine.Scene, error) {
//		st := core.New(loop, core.Options{
//			Groups:  []engine.Group{{Name: "physics", Hz: 60}},
//			Physics: &physics.Config{},
//		})
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
// and replays say where it first differs, and the stage as the loop's
// engine.SceneState (keyframes, the sync test, rollback). What a scene
// keeps outside the world (a score in a field of its struct, a random
// source) is not in it: keep game state in components, or give it to
// [Keep].
//
// A window game builds on package stage, whose Stage is this one with the
// asset bundle, the overlay, the inspector and the dev keys; a server or a
// bot runs the same simulation on this one alone, which links no graphics
// library.
type Stage struct {
	Loop    *engine.Loop
	World   donburi.World
	Sched   *engine.Scheduler
	Physics *physics.Physics // nil without Options.Physics
	// State is the hasher of the default state checksum (nil with
	// Options.Checksum): its ComponentSums say which component types
	// a tick changed, its Dump writes the world as text.
	State *state.Hasher

	checksum  func() uint64
	partBase  []string         // the hasher's component names, as last seen
	partNames []string         // and as the bisector names them
	event     engine.EventKind // the kind of the event being handled
	ended     bool
	next      engine.Scene
	released  bool
	keepers   []keeper           // Keep's
	keptHash  *state.ValueHasher // their sums (keep.go)
	sync      *syncTest          // with engine.Options.SyncTest
	names     assetNames         // Name's (assets.go)
	refs      state.Refs         // the physics' and the names' (bytes.go)
	onRead    []func()           // OnRead's

	seated   bool                          // SetSeats was called: Update events are split by seats
	seats    input.Seats                   // the players' seats (kept)
	seatIn   [input.MaxPlayers]input.State // the seats' input of the Update event being handled
	machines []input.State                 // the machines' input of the Update event being handled
}

// Options configure a [Stage]. The zero value is one 60 Hz group named
// "update" and the default state checksum.
type Options struct {
	// Groups are the scene's update groups (see engine.Group).
	Groups []engine.Group

	// Physics, if set, gives the stage a Physics system over its world
	// (Stage.Physics) with this configuration; its Loop is set to the
	// stage's loop, so that a bad body ends the run with its error. Add
	// Physics.Update to the group that steps it.
	Physics *physics.Config

	// Checksum, if set, replaces the default state checksum that recordings
	// store and replays compare (see engine.Recording.SetChecksum): a
	// state.Hasher over every component of the world (Stage.State).
	Checksum func() uint64

	// Ignore leaves component types out of the default checksum: state that
	// is presentation only (an animation's frame, a particle, a sprite),
	// which may differ between runs without the game differing.
	Ignore []donburi.IComponentType
}

// Leftovers is what a stage still held after releasing: all zero when it
// released everything.
type Leftovers struct {
	Entities, Bodies int
}

// New makes a stage on loop: the world, the scheduler with the groups,
// the physics when asked, and the state checksum. Release it when the
// scene ends (defer st.Release()).
func New(loop *engine.Loop, opts Options) *Stage {
	w := donburi.NewWorld()
	s := &Stage{Loop: loop, World: w, Sched: engine.NewScheduler(w, opts.Groups...)}
	if opts.Physics != nil {
		cfg := *opts.Physics
		cfg.Loop = loop
		s.Physics = physics.New(w, cfg)
	}
	s.checksum = opts.Checksum
	rec := loop.Recording()
	if s.checksum == nil {
		s.State = state.NewHasher(&state.Options{Ignore: opts.Ignore, PathNames: rec.PathNames()})
		s.checksum = func() uint64 { return s.State.Sum(w) }
		rec.SetStateDump(func(out io.Writer) error { return s.State.Dump(w, out) })
		if rec.Probed() { // the desync bisector and report: the state after every system, per component type
			s.Sched.SetProbe(rec)
			rec.SetStateParts(s.parts)
		}
	}
	if n := loop.Session().SyncTest(); n > 0 {
		s.sync = newSyncTest(s, n, opts.Checksum == nil && rec.Detailed())
	}
	return s
}

// parts appends the component types' sums of the state last hashed, for
// the desync bisector. Two types of one name (donburi's event buses of one
// event type) are told apart by a #2, #3 in the order the hasher gives.
func (s *Stage) parts(dst []engine.StatePart) []engine.StatePart {
	sums := s.State.ComponentSums()
	same := len(sums) == len(s.partNames)
	for i := 0; same && i < len(sums); i++ {
		same = sums[i].Name == s.partBase[i]
	}
	if !same {
		s.partBase, s.partNames = s.partBase[:0], s.partNames[:0]
		seen := map[string]int{}
		for _, c := range sums {
			seen[c.Name]++
			name := c.Name
			if n := seen[c.Name]; n > 1 {
				name = fmt.Sprintf("%s#%d", c.Name, n)
			}
			s.partBase, s.partNames = append(s.partBase, c.Name), append(s.partNames, name)
		}
	}
	for i, c := range sums {
		dst = append(dst, engine.StatePart{Name: s.partNames[i], Sum: c.Sum})
	}
	return dst
}

// End ends the scene after the current tick, with next as the next scene
// (nil ends the game). Call it from an update system, on an Update event: a
// decision made there is what a replay repeats (see the engine package's
// rule for game decisions). Called on another event, it panics. The first
// call decides: a later one in the same tick (another system's) is ignored.
// In a networked run the scene ends once the tick is final (see
// engine.LoopSession.Settle): the decision is part of the state a rollback
// restores, and is made again, or not, by the ticks simulated again.
func (s *Stage) End(next engine.Scene) {
	if s.event != engine.Update {
		panic(fmt.Sprintf("systems: Stage.End on a %v event: end a scene from an update system, "+
			"so that a replay ends it on the same tick", s.event))
	}
	if !s.ended {
		s.ended, s.next = true, next
	}
}

// Ended reports whether End was called.
func (s *Stage) Ended() bool { return s.ended }

// Run plays the scene: it starts the loop's timeline with the stage's
// groups, hands every event to the scheduler (input, update and render
// systems) until a system calls End or the loop stops, and returns the next
// scene, or the loop's error. It gives the loop the state checksum first.
// When it returns, the world is as the last tick left it (a final score
// may be read, a checksum taken) until Release.
func (s *Stage) Run() (engine.Scene, error) {
	s.Loop.Recording().SetChecksum(s.checksum)
	s.Loop.Recording().SetSceneState(&sceneState{s: s})
	for ev := range s.Loop.Events(s.Sched.Groups()...) {
		if s.sync != nil && ev.Kind == engine.Update {
			if err := s.sync.update(s, ev); err != nil {
				s.Loop.Fail(err)
				continue
			}
		}
		s.event = ev.Kind
		s.Sched.Handle(s.split(ev))
		// A scene that is over ends once its last tick is final: in a
		// networked run a rollback may undo it (restoring ended) first.
		if s.ended && s.Loop.Session().Settle() {
			s.Loop.Recording().Checkpoint() // the last tick is checked before the world goes
			return s.next, nil
		}
	}
	return nil, s.Loop.Err()
}

// Release removes every entity (their bodies, shapes and constraints leave
// the space), then checks what is left and returns it. A second call
// removes nothing again.
func (s *Stage) Release() Leftovers {
	if !s.released {
		s.released = true
		var all []donburi.Entity
		donburi.NewQuery(filter.Contains()).Each(s.World, func(e *donburi.Entry) {
			all = append(all, e.Entity())
		})
		for _, e := range all { // collect, then change: no structural change during a query
			if s.World.Valid(e) {
				s.World.Remove(e)
			}
		}
	}
	left := Leftovers{Entities: s.World.Len()}
	if s.Physics != nil {
		left.Bodies, _ = s.Physics.Bodies()
	}
	return left
}
