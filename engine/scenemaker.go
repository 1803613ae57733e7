package engine

import (
	"errors"
	"fmt"
	"time"
)

// Runs that begin from a state of a scene after the first. A state file
// (Recording.AppendState's) says its scene's name and where its timeline
// begins in the run: the scenes before it, their first groups' ticks and
// their game time. What the scene was handed by the scenes before it is a
// value of the game's code, not state: a run can begin from such a state
// (Options.FromState; a netplay joiner whose host is past its title screen)
// only when its first scene says how to make the later scene afresh, to
// read the state into: a SceneMaker.

// A SceneMaker is a run's first scene that makes the run's later scenes
// afresh, by name, as the scenes before would have handed them on. A run
// from the state of a later scene named X (Options.FromState) runs
// SceneFor(X) in place of the first scene: the loop's counters (the scene's
// number in the run, the ticks and game time of the scenes before, a
// session's ticks) go to where the state's run had them, the state is
// read into the scene before its first tick, and the run goes on as the
// run that wrote the state went on. The first scene itself is not run.
//
// SceneFor makes the scene with what the first scene was made with (the
// game's options, a networked player's number), as its own Run would hand
// it on; the state's checksum, checked once read, refuses a scene made
// otherwise. It is called before the scene runs, on the loop's goroutine,
// with a name read from a file or a packet: a name it does not make is an
// error, which ends the run before any tick (the error names the scene),
// and so is a scene of another name. A scene whose Run starts more than
// one timeline (Loop.Start again) can be begun from a state of its first
// timeline only.
//
// Without a SceneMaker, a run begins from a state of its first scene only,
// and a netplay host whose run is past its first scene gives a joiner
// under way no state (StateAsker): the joiner simulates the session from
// its first tick instead.
type SceneMaker interface {
	Scene
	SceneFor(name string) (Scene, error)
}

// firstScene returns the scene a run begins with: first, or, for a run
// from a state of a later scene, the scene first makes for it, with the
// loop's counters where the state's run had them before that scene.
func (l *Loop) firstScene(first Scene) (Scene, error) {
	l.net.maker, _ = first.(SceneMaker)
	f := l.rec.from
	if f == nil || f.meta.Scene == 1 {
		return first, nil
	}
	meta := f.meta
	switch {
	case l.net.maker == nil:
		return nil, fmt.Errorf("engine: Options.FromState: a state of scene %d (%q): the run's first scene, %s, makes no later "+
			"scene afresh (an engine.SceneMaker), so a run begins from a state of its first scene only", meta.Scene, meta.SceneName,
			SceneName(first))
	case meta.Format < 2:
		return nil, fmt.Errorf("engine: Options.FromState: a state of scene %d (%q) in state file format %d, which does not "+
			"say the ticks of the scenes before it", meta.Scene, meta.SceneName, meta.Format)
	}
	s, err := l.net.maker.SceneFor(meta.SceneName)
	switch {
	case err != nil:
		return nil, fmt.Errorf("engine: Options.FromState: a state of scene %d (%q): %s makes no such scene: %w",
			meta.Scene, meta.SceneName, SceneName(first), err)
	case s == nil:
		return nil, errors.New("engine: Options.FromState: SceneMaker.SceneFor gave no scene and no error")
	case SceneName(s) != meta.SceneName:
		return nil, fmt.Errorf("engine: Options.FromState: a state of scene %q; %s made scene %s for it", meta.SceneName,
			SceneName(first), SceneName(s))
	}
	l.scenes, l.ranBefore, l.net.base = meta.Scene-1, time.Duration(meta.TimeBefore), meta.Before
	return s, nil
}
