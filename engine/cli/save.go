package cli

import (
	"fmt"
	"io"
	"runtime/debug"

	"github.com/fixedstep/fixedstep/engine"
)

// Save games from the command line: -save FILE -save-at S:T writes the
// game after tick T of scene S (engine.Loop.Save), and -load FILE goes on
// from it (engine.Options.Load) with the seed and the settings it was
// saved with, in a window or headless.

// game names the game in its saves: the App's Name and Version.
func (a *App) game() engine.GameInfo {
	v := a.Version
	if v == "" {
		v = "(devel)"
		if bi, ok := debug.ReadBuildInfo(); ok && bi.Main.Version != "" {
			v = bi.Main.Version
		}
	}
	return engine.GameInfo{Name: a.name(), Version: v}
}

func (a *App) checkSave() error {
	switch {
	case a.f.save == "":
		return nil
	case a.f.saveAt == "":
		return &FlagError{"save", a.f.save, "goes with -save-at S:T: where in the run to save"}
	}
	if err := checkWritable(a.f.save); err != nil {
		return &FlagError{"save", a.f.save, err.Error()}
	}
	return nil
}

func (a *App) checkSaveAt() error {
	if a.f.saveAt == "" {
		return nil
	}
	scene, tick, err := parseSceneTick(a.f.saveAt)
	if err != nil {
		return &FlagError{"save-at", a.f.saveAt, err.Error()}
	}
	if a.f.save == "" {
		return &FlagError{"save-at", a.f.saveAt, "goes with -save FILE: where to save"}
	}
	// A load simulates the run to its save's tick again before the game
	// goes on: nothing is saved before it.
	if l := a.run.loaded; l != nil && (scene < l.Scene || scene == l.Scene && tick < l.Tick) {
		return &FlagError{"save-at", a.f.saveAt, fmt.Sprintf(
			"is before tick %d of scene %d (%s), where the save -load %s goes on from: save at %d:%d or later",
			l.Tick, l.Scene, l.SceneName, a.f.load, l.Scene, l.Tick)}
	}
	return nil
}

// loadSave reads -load's save, checks that it is this game's, and sets
// the seed and the flags it was saved with.
func (a *App) loadSave() (*engine.Save, error) {
	save, err := engine.LoadSave(a.f.load)
	if err != nil {
		return nil, &FlagError{"load", a.f.load, err.Error()}
	}
	if err := save.CheckGame(a.game()); err != nil {
		return nil, &FlagError{"load", a.f.load, err.Error()}
	}
	if err := a.applySettings("load", a.f.load, "save", save.Settings()); err != nil {
		return nil, err
	}
	a.f.seed = save.Seed()
	return save, nil
}

// savePoint is -save and -save-at: the save is asked for after the tick,
// and written before the ticks of other groups due with it run (a load
// runs them in its first frame, as the saved run did).
type savePoint struct {
	path  string
	scene int
	tick  int64
	asked bool
	done  bool
	err   error
}

func (s *savePoint) afterUpdate(loop *engine.Loop, ev engine.Event) {
	if s.path == "" || s.asked || ev.Group != 0 || ev.Tick != s.tick {
		return
	}
	if scene, _ := loop.Scene(); scene == s.scene {
		s.asked = true
		loop.Save(s.path, func(err error) { s.done, s.err = true, err })
	}
}

// result says where the game was saved, or why it was not.
func (s *savePoint) result(out io.Writer) error {
	switch {
	case s.err != nil:
		return s.err
	case !s.asked:
		return fmt.Errorf("-save-at %d:%d: the run never reached tick %d of scene %d", s.scene, s.tick, s.tick, s.scene)
	case !s.done:
		return fmt.Errorf("-save-at %d:%d: scene %d ended on tick %d, before the game could be saved after it", s.scene, s.tick, s.scene, s.tick)
	}
	fmt.Fprintf(out, "saved the game after tick %d of scene %d to %s\n", s.tick, s.scene, s.path)
	return nil
}
