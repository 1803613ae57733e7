package engine

import (
	"errors"
	"fmt"
	"runtime/debug"
	"strings"
)

// A Scene is a value that owns what it needs (its world, its scheduler, its
// assets) and runs on the loop it is handed, as in Piston: Run pulls events
// until the scene is over, then returns the next scene, or nil to end the game.
// Loading belongs in Run before the first event (the loop starts a fresh
// timeline when the scene asks for events, so loading time is never caught
// up) and releasing in a defer, so that it runs however the scene ends.
type Scene interface {
	Run(loop *Loop) (next Scene, err error)
}

// SceneName returns the name of s: its Name method if it has one, otherwise
// its type name ("Arena" for a *scenes.Arena).
func SceneName(s Scene) string {
	if n, ok := s.(interface{ Name() string }); ok {
		return n.Name()
	}
	name := fmt.Sprintf("%T", s)
	name = strings.TrimLeft(name, "*")
	if i := strings.LastIndexByte(name, '.'); i >= 0 {
		name = name[i+1:]
	}
	return name
}

// NewScene makes a Scene of a function, named name.
func NewScene(name string, run func(loop *Loop) (Scene, error)) Scene {
	return &funcScene{name: name, run: run}
}

type funcScene struct {
	name string
	run  func(*Loop) (Scene, error)
}

func (s *funcScene) Name() string                  { return s.name }
func (s *funcScene) Run(loop *Loop) (Scene, error) { return s.run(loop) }

// A SceneError is an error returned, or a panic raised, by a scene's Run.
type SceneError struct {
	Scene string // the scene's name (see SceneName)
	Err   error  // what it returned; for a panic, an error describing the panic value
	Panic any    // the panic value, nil if the scene returned an error
	Stack []byte // the stack where it panicked
}

func (e *SceneError) Error() string {
	if e.Panic != nil {
		return fmt.Sprintf("scene %s: panic: %v", e.Scene, e.Panic)
	}
	return fmt.Sprintf("scene %s: %v", e.Scene, e.Err)
}

func (e *SceneError) Unwrap() error { return e.Err }

// runChain runs scenes on loop until the chain ends.
func runChain(loop *Loop, scene Scene) error {
	for scene != nil {
		if loop.Stopped() {
			if loop.cancelled.Load() {
				return &SceneError{Scene: SceneName(scene), Err: loop.ctx.Err()}
			}
			break
		}
		loop.begun = false
		loop.rec.sceneStarts()
		loop.tickSrc = loop.tickSrc[:0]
		name := SceneName(scene)
		loop.sceneName = name
		next, err := runScene(loop, scene)
		if r := loop.rec.rewind; r != nil {
			if !r.keyframe && err == nil && loop.err == nil && !loop.stopWanted.Load() && !loop.contextDone() {
				return errRewind // the chain is to run again, to an earlier tick
			}
			// The scene ended (a Stop, a failure, a closed window, or
			// its own return) before the step back was taken: the run
			// goes on, or ends, as it stood.
			loop.rec.rewind = nil
		}
		if err == nil && loop.err != nil {
			err = loop.err
		}
		end := EndReturned
		switch {
		case err != nil && !(loop.cancelled.Load() && errors.Is(err, loop.ctx.Err())):
			end = EndFailed
			if loop.net.failed {
				end = EndSession
			}
		case loop.Stopped(): // the window closed, Stop, a cancelled context
			end = EndStopped
		}
		if rerr := loop.endTimeline(end, err); rerr != nil && err == nil {
			err = rerr
		}
		if err != nil {
			var se *SceneError
			if errors.As(err, &se) && se.Scene == name {
				return err
			}
			return &SceneError{Scene: name, Err: err}
		}
		scene = next
	}
	return nil
}

func runScene(loop *Loop, scene Scene) (next Scene, err error) {
	defer func() {
		if v := recover(); v != nil {
			next = nil
			err = &SceneError{Scene: SceneName(scene), Err: fmt.Errorf("panic: %v", v), Panic: v, Stack: debug.Stack()}
		}
	}()
	return scene.Run(loop)
}
