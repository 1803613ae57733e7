package arena

import (
	"github.com/fixedstep/fixedstep/engine"
	"github.com/fixedstep/fixedstep/systems/stage/core"
)

// Scene is an Arena on its simulation alone (a core.Stage), as a scene:
// what a game server's match runs and its headless clients simulate. A
// window draws an Arena built on its own stage instead (scenes.Arena).
type Scene struct {
	Options
	// Arena is the game being played while Run runs, nil before and
	// after: a bot reads it between ticks.
	Arena *Arena
}

// Name is the scene's name: the Arena's, as a window's Arena is named, so
// that a state of one is read into the other (engine.Options.FromState).
func (s *Scene) Name() string { return "Arena" }

// Run builds the Arena on a core.Stage and plays it.
func (s *Scene) Run(loop *engine.Loop) (engine.Scene, error) {
	st := core.New(loop, StageOptions())
	defer st.Release()
	s.Arena = Build(st, &s.Options)
	defer func() { s.Arena = nil }()
	return st.Run()
}
